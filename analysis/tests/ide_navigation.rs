//! Go to definition, references, highlight and rename (`ide::navigation`) on small fixtures
//! with a `$0` cursor, in CIRCT's and Dynamatic's spellings, the pipeline dialect, LOOM's
//! `dataflow.*` ops, control-flow blocks, `// -----` cases, several files, and a corpus file.
//! Each case renders every answer at the cursor; snapshots: `UPDATE_EXPECT=1 cargo test`.

#[path = "../../test-support/shared.rs"]
mod shared;

use expect_test::{expect, Expect};
use hsir_analysis::db::FileId;
use hsir_analysis::ide::navigation::{definition, highlight, prepare_rename, references, rename};
use hsir_analysis::ide::{FilePosition, Fixture};
use hsir_analysis::{TextRange, TextSize};

/// `name:line:col `text``, lines and columns from 1.
fn show(
    names: &[(String, FileId)],
    texts: &[(FileId, String)],
    file: FileId,
    range: TextRange,
) -> String {
    let text = texts.iter().find(|(f, _)| *f == file).map_or("", |(_, t)| t.as_str());
    let start = usize::from(range.start());
    let line = text[..start].matches('\n').count() + 1;
    let col = start - text[..start].rfind('\n').map_or(0, |i| i + 1) + 1;
    let name = names.iter().find(|(_, f)| *f == file).map_or("?", |(n, _)| n.as_str());
    let slice = &text[range];
    let first_line = slice.lines().next().unwrap_or("");
    let more = if slice.contains('\n') { " ..." } else { "" };
    format!("{name}:{line}:{col} `{first_line}`{more}")
}

/// `text` with the cursor put where `marked` (a piece of it with `$0` inside) says; the
/// piece must occur exactly once.
fn at(text: &str, marked: &str) -> String {
    let plain = marked.replace("$0", "");
    assert_eq!(text.matches(&plain).count(), 1, "`{plain}` must occur once");
    text.replacen(&plain, marked, 1)
}

/// Every answer at the fixture's cursor.
fn render(fixture_text: &str) -> String {
    let mut fixture = Fixture::parse(fixture_text);
    let cursor = fixture.cursor.expect("the fixture has one `$0`");
    let names = fixture.files.clone();
    let analysis = fixture.db.analysis();
    let texts: Vec<(FileId, String)> = analysis
        .files()
        .into_iter()
        .map(|f| (f, analysis.text(f).unwrap_or("").to_string()))
        .collect();
    let show = |file: FileId, range: TextRange| show(&names, &texts, file, range);
    let mut out = String::new();
    for target in definition(&analysis, cursor) {
        out.push_str(&format!(
            "definition: {}\n  in {}\n",
            show(target.file, target.focus_range),
            show(target.file, target.full_range)
        ));
    }
    let refs = references(&analysis, cursor, false);
    let with_decl = references(&analysis, cursor, true);
    out.push_str(&format!(
        "references ({}; {} with the definition):\n",
        refs.len(),
        with_decl.len()
    ));
    for r in &refs {
        out.push_str(&format!("  {}\n", show(r.file, r.range)));
    }
    let highlights: Vec<String> = highlight(&analysis, cursor)
        .iter()
        .map(|h| format!("{}{}", show(cursor.file, h.range), if h.write { " (write)" } else { "" }))
        .collect();
    out.push_str(&format!("highlight: {}\n", highlights.join(", ")));
    match prepare_rename(&analysis, cursor) {
        Ok(range) => out.push_str(&format!("rename: {}\n", show(cursor.file, range))),
        Err(why) => out.push_str(&format!("rename: error: {why}\n")),
    }
    out
}

fn check(fixture: &str, expect: Expect) {
    expect.assert_eq(&render(fixture));
}

/// The texts of the changed files after renaming at the cursor, or the error.
fn check_rename(fixture_text: &str, new_name: &str, expect: Expect) {
    let mut fixture = Fixture::parse(fixture_text);
    let cursor = fixture.cursor.expect("the fixture has one `$0`");
    let names = fixture.files.clone();
    let analysis = fixture.db.analysis();
    let rendered = match rename(&analysis, cursor, new_name) {
        Err(why) => format!("error: {why}\n"),
        Ok(edits) if edits.is_empty() => "no edits\n".to_string(),
        Ok(edits) => {
            let mut out = String::new();
            for (name, file) in &names {
                let mut text = analysis.text(*file).unwrap_or("").to_string();
                let mut mine: Vec<_> = edits.iter().filter(|(f, _)| f == file).collect();
                if mine.is_empty() {
                    continue;
                }
                mine.sort_by_key(|(_, e)| std::cmp::Reverse(e.range.start()));
                for (_, edit) in mine {
                    text.replace_range(std::ops::Range::<usize>::from(edit.range), &edit.new_text);
                }
                out.push_str(&format!("//- {name}\n{text}"));
            }
            out
        }
    };
    expect.assert_eq(&rendered);
}

#[test]
fn circt_values_and_groups() {
    let fixture = r#"
handshake.func @f(%x: i32, %ctrl: none) -> (i32, none) {
  %0:2 = fork [2] %x : i32
  %1 = arith.addi %0#0, %0#1 : i32
  return %1, %ctrl : i32, none
}
"#;
    // On a use of the group's second result: the group is the target.
    check(
        &at(fixture, "%0#$01 :"),
        expect![[r#"
        definition: main.mlir:3:3 `%0`
          in main.mlir:3:3 `%0:2 = fork [2] %x : i32`
        references (2; 3 with the definition):
          main.mlir:4:19 `%0#0`
          main.mlir:4:25 `%0#1`
        highlight: main.mlir:3:3 `%0` (write), main.mlir:4:19 `%0#0`, main.mlir:4:25 `%0#1`
        rename: main.mlir:4:26 `0`
    "#]],
    );
    // On the definition, just after the name.
    check(
        &at(fixture, "%0$0:2"),
        expect![[r#"
        definition: main.mlir:3:3 `%0`
          in main.mlir:3:3 `%0:2 = fork [2] %x : i32`
        references (2; 3 with the definition):
          main.mlir:4:19 `%0#0`
          main.mlir:4:25 `%0#1`
        highlight: main.mlir:3:3 `%0` (write), main.mlir:4:19 `%0#0`, main.mlir:4:25 `%0#1`
        rename: main.mlir:3:4 `0`
    "#]],
    );
    // A function argument: defined by the function.
    check(
        &at(fixture, "%c$0trl :"),
        expect![[r#"
        definition: main.mlir:2:28 `%ctrl`
          in main.mlir:2:1 `handshake.func @f(%x: i32, %ctrl: none) -> (i32, none) {` ...
        references (1; 2 with the definition):
          main.mlir:5:14 `%ctrl`
        highlight: main.mlir:2:28 `%ctrl` (write), main.mlir:5:14 `%ctrl`
        rename: main.mlir:5:15 `ctrl`
    "#]],
    );
    // Not a name.
    check(
        &at(fixture, "fo$0rk [2]"),
        expect![[r#"
        references (0; 0 with the definition):
        highlight: 
        rename: error: not a value, block label or symbol
    "#]],
    );
}

#[test]
fn dynamatic_values() {
    let fixture = r#"
handshake.func @g(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "end"]} {
  %0:2 = fork [2] %a {handshake.name = "fork0"} : <i32>
  %1 = buffer %0#0, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 {handshake.name = "buffer0"} : <i32>
  %2 = addi %1, %0#1 {handshake.name = "addi0"} : <i32>
  %3 = buffer %start {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <>
  end %2, %3 : <i32>, <>
}
"#;
    check(
        &at(fixture, "addi %$01,"),
        expect![[r#"
        definition: main.mlir:4:3 `%1`
          in main.mlir:4:3 `%1 = buffer %0#0, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 {handshake.name = "buffer0"} : <i32>`
        references (1; 2 with the definition):
          main.mlir:5:13 `%1`
        highlight: main.mlir:4:3 `%1` (write), main.mlir:5:13 `%1`
        rename: main.mlir:5:14 `1`
    "#]],
    );
    check(
        &at(fixture, "buffer %start$0"),
        expect![[r#"
        definition: main.mlir:2:48 `%start`
          in main.mlir:2:1 `handshake.func @g(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "end"]} {` ...
        references (1; 2 with the definition):
          main.mlir:6:15 `%start`
        highlight: main.mlir:2:48 `%start` (write), main.mlir:6:15 `%start`
        rename: main.mlir:6:16 `start`
    "#]],
    );
    check_rename(
        &at(fixture, "%$00:2"),
        "%forked",
        expect![[r#"
        //- main.mlir

        handshake.func @g(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "end"]} {
          %forked:2 = fork [2] %a {handshake.name = "fork0"} : <i32>
          %1 = buffer %forked#0, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 {handshake.name = "buffer0"} : <i32>
          %2 = addi %1, %forked#1 {handshake.name = "addi0"} : <i32>
          %3 = buffer %start {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <>
          end %2, %3 : <i32>, <>
        }
    "#]],
    );
}

#[test]
fn rename_values() {
    let fixture = r#"
handshake.func @f(%x: i32, %ctrl: none) -> (i32, none) {
  %0:2 = fork [2] %x : i32
  %sum = arith.addi %0#0, %0#1 : i32
  return %sum, %ctrl : i32, none
}
"#;
    let at_sum = at(fixture, "return %s$0um");
    // Words back to numbers, with or without the sigil.
    check_rename(
        &at_sum,
        "7",
        expect![[r#"
        //- main.mlir

        handshake.func @f(%x: i32, %ctrl: none) -> (i32, none) {
          %0:2 = fork [2] %x : i32
          %7 = arith.addi %0#0, %0#1 : i32
          return %7, %ctrl : i32, none
        }
    "#]],
    );
    check_rename(
        &at_sum,
        "%total.v2",
        expect![[r#"
        //- main.mlir

        handshake.func @f(%x: i32, %ctrl: none) -> (i32, none) {
          %0:2 = fork [2] %x : i32
          %total.v2 = arith.addi %0#0, %0#1 : i32
          return %total.v2, %ctrl : i32, none
        }
    "#]],
    );
    check_rename(
        &at_sum,
        "sum",
        expect![[r#"
        no edits
    "#]],
    );
    // Taken, invalid, or two sigils.
    check_rename(
        &at_sum,
        "%0",
        expect![[r#"
        error: `%0` is already used in `@f`
    "#]],
    );
    check_rename(
        &at_sum,
        "ctrl",
        expect![[r#"
        error: `%ctrl` is already used in `@f`
    "#]],
    );
    check_rename(
        &at_sum,
        "a b",
        expect![[r#"
        error: `a b` is not a valid value name
    "#]],
    );
    check_rename(
        &at_sum,
        "%%s",
        expect![[r#"
        error: `%%s` is not a valid value name
    "#]],
    );
    check_rename(
        &at_sum,
        "1a",
        expect![[r#"
        error: `1a` is not a valid value name
    "#]],
    );
    check_rename(
        &at_sum,
        "%",
        expect![[r#"
        error: the new value name is empty
    "#]],
    );
    // A name some use refers to without a definition would capture that use.
    check_rename(
        &at(&fixture.replace("%ctrl : i32", "%typo : i32"), "return %$0sum"),
        "typo",
        expect![[r#"
        error: `%typo` is already used in `@f`
    "#]],
    );
    // An undefined use cannot be renamed.
    check(
        &fixture.replace("%ctrl : i32", "%ty$0po : i32"),
        expect![[r#"
        references (0; 0 with the definition):
        highlight: 
        rename: error: `%typo` is not defined here
    "#]],
    );
    // A function argument.
    check_rename(
        &at(fixture, "fork [2] %x$0"),
        "in",
        expect![[r#"
        //- main.mlir

        handshake.func @f(%in: i32, %ctrl: none) -> (i32, none) {
          %0:2 = fork [2] %in : i32
          %sum = arith.addi %0#0, %0#1 : i32
          return %sum, %ctrl : i32, none
        }
    "#]],
    );
}

#[test]
fn pipeline_values_and_stages() {
    let fixture = r#"
hw.module @simple(in %arg0 : i32, in %arg1 : i32, in %go : i1, in %clock : !seq.clock, in %reset : i1, out out: i32, out done : i1) {
  %out, %done = pipeline.scheduled(%a0 : i32 = %arg0, %a1 : i32 = %arg1) clock(%clock) reset(%reset) go(%go) entryEn(%s0_enable) -> (out: i32) {
      %add0 = comb.add %a0, %a1 : i32
      pipeline.stage ^bb1

    ^bb1(%s1_enable : i1):
      %add0_bb1 = pipeline.src %add0 : i32
      %add1 = comb.add %add0_bb1, %a0 : i32
      pipeline.stage ^bb2

    ^bb2(%s2_enable : i1):
      %add0_bb2 = pipeline.src %add0 : i32
      pipeline.return %add1 : i32
  }
  hw.output %out, %done : i32, i1
}
"#;
    // A value of stage 0 used in later stages.
    check(
        &at(fixture, "%ad$0d0 = comb"),
        expect![[r#"
        definition: main.mlir:4:7 `%add0`
          in main.mlir:4:7 `%add0 = comb.add %a0, %a1 : i32`
        references (2; 3 with the definition):
          main.mlir:8:32 `%add0`
          main.mlir:13:32 `%add0`
        highlight: main.mlir:4:7 `%add0` (write), main.mlir:8:32 `%add0`, main.mlir:13:32 `%add0`
        rename: main.mlir:4:8 `add0`
    "#]],
    );
    // A pipeline input: the inner name is defined by the pipeline, the outer one is a use.
    check(
        &at(fixture, "comb.add %add0_bb1, %a0$0"),
        expect![[r#"
        definition: main.mlir:3:36 `%a0`
          in main.mlir:3:3 `%out, %done = pipeline.scheduled(%a0 : i32 = %arg0, %a1 : i32 = %arg1) clock(%clock) reset(%reset) go(%go) entryEn(%s0_enable) -> (out: i32) {` ...
        references (2; 3 with the definition):
          main.mlir:4:24 `%a0`
          main.mlir:9:35 `%a0`
        highlight: main.mlir:3:36 `%a0` (write), main.mlir:4:24 `%a0`, main.mlir:9:35 `%a0`
        rename: main.mlir:9:36 `a0`
    "#]],
    );
    check(
        &at(fixture, "= %ar$0g0"),
        expect![[r#"
        definition: main.mlir:2:22 `%arg0`
          in main.mlir:2:1 `hw.module @simple(in %arg0 : i32, in %arg1 : i32, in %go : i1, in %clock : !seq.clock, in %reset : i1, out out: i32, out done : i1) {` ...
        references (1; 2 with the definition):
          main.mlir:3:48 `%arg0`
        highlight: main.mlir:2:22 `%arg0` (write), main.mlir:3:48 `%arg0`
        rename: main.mlir:3:49 `arg0`
    "#]],
    );
    // A stage label: defined by its block, used by `pipeline.stage`.
    check(
        &at(fixture, "pipeline.stage ^b$0b2"),
        expect![[r#"
        definition: main.mlir:12:5 `^bb2`
          in main.mlir:12:5 `^bb2(%s2_enable : i1):` ...
        references (1; 2 with the definition):
          main.mlir:10:22 `^bb2`
        highlight: main.mlir:10:22 `^bb2`, main.mlir:12:5 `^bb2` (write)
        rename: main.mlir:10:23 `bb2`
    "#]],
    );
    // A block argument: defined by its block.
    check(
        &at(fixture, "^bb1(%s1_enable$0"),
        expect![[r#"
        definition: main.mlir:7:10 `%s1_enable`
          in main.mlir:7:5 `^bb1(%s1_enable : i1):` ...
        references (0; 1 with the definition):
        highlight: main.mlir:7:10 `%s1_enable` (write)
        rename: main.mlir:7:11 `s1_enable`
    "#]],
    );
    check_rename(
        &at(fixture, "pipeline.stage ^bb1$0"),
        "^compute",
        expect![[r#"
        //- main.mlir

        hw.module @simple(in %arg0 : i32, in %arg1 : i32, in %go : i1, in %clock : !seq.clock, in %reset : i1, out out: i32, out done : i1) {
          %out, %done = pipeline.scheduled(%a0 : i32 = %arg0, %a1 : i32 = %arg1) clock(%clock) reset(%reset) go(%go) entryEn(%s0_enable) -> (out: i32) {
              %add0 = comb.add %a0, %a1 : i32
              pipeline.stage ^compute

            ^compute(%s1_enable : i1):
              %add0_bb1 = pipeline.src %add0 : i32
              %add1 = comb.add %add0_bb1, %a0 : i32
              pipeline.stage ^bb2

            ^bb2(%s2_enable : i1):
              %add0_bb2 = pipeline.src %add0 : i32
              pipeline.return %add1 : i32
          }
          hw.output %out, %done : i32, i1
        }
    "#]],
    );
    check_rename(
        &at(fixture, "pipeline.stage ^bb1$0"),
        "bb2",
        expect![[r#"
        error: a block of this region is already labelled `^bb2`
    "#]],
    );
}

#[test]
fn control_flow_blocks() {
    let fixture = r#"
func.func @f(%a: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1(%x: i32):
  cf.br ^bb2
^bb2:
  %r = scf.execute_region -> i32 {
    cf.br ^bb2
  ^bb2:
    scf.yield %a : i32
  }
  return %r : i32
}
"#;
    // The outer `^bb2`: two branches in the function's region, not the one in the nested
    // region, which names that region's own `^bb2`.
    check(
        &at(fixture, "\n^b$0b2:"),
        expect![[r#"
        definition: main.mlir:6:1 `^bb2`
          in main.mlir:6:1 `^bb2:` ...
        references (2; 3 with the definition):
          main.mlir:3:34 `^bb2`
          main.mlir:5:9 `^bb2`
        highlight: main.mlir:3:34 `^bb2`, main.mlir:5:9 `^bb2`, main.mlir:6:1 `^bb2` (write)
        rename: main.mlir:6:2 `bb2`
    "#]],
    );
    check(
        &at(fixture, "    cf.br ^bb2$0"),
        expect![[r#"
        definition: main.mlir:9:3 `^bb2`
          in main.mlir:9:3 `^bb2:` ...
        references (1; 2 with the definition):
          main.mlir:8:11 `^bb2`
        highlight: main.mlir:8:11 `^bb2`, main.mlir:9:3 `^bb2` (write)
        rename: main.mlir:8:12 `bb2`
    "#]],
    );
    check_rename(
        &at(fixture, "cf.br ^$0bb2\n^bb2"),
        "exit",
        expect![[r#"
        //- main.mlir

        func.func @f(%a: i32, %c: i1) -> i32 {
          cf.cond_br %c, ^bb1(%a : i32), ^exit
        ^bb1(%x: i32):
          cf.br ^exit
        ^exit:
          %r = scf.execute_region -> i32 {
            cf.br ^bb2
          ^bb2:
            scf.yield %a : i32
          }
          return %r : i32
        }
    "#]],
    );
    check_rename(
        &at(fixture, "cf.br ^$0bb2\n^bb2"),
        "^bb1",
        expect![[r#"
        error: a block of this region is already labelled `^bb1`
    "#]],
    );
    check_rename(
        &at(fixture, "cf.br ^$0bb2\n^bb2"),
        "^bb#1",
        expect![[r#"
        error: `^bb#1` is not a valid block label name
    "#]],
    );
    // A branch to a label no block of the region has.
    check(
        &fixture.replace("^bb1(%a : i32)", "^bb9$0(%a : i32)"),
        expect![[r#"
        references (0; 0 with the definition):
        highlight: 
        rename: error: no block labelled `^bb9` in this region
    "#]],
    );
}

#[test]
fn loom_dataflow_values() {
    let fixture = r#"
handshake.func @loop(%n: index, %mem: memref<16xi32>, %start: none) -> none {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %idx, %raw = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %v, %after = dataflow.gate %idx, %raw : index, i1 -> index, i1
  %ctrl = dataflow.carry %after, %start, %done : i1, none, none -> none
  %data, %addr = load [%v] %ld, %ctrl : index, i32
  %ld, %done = extmemory[ld = 1, st = 0] (%mem : memref<16xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  %t, %f = cond_br %raw, %ctrl : none
  sink %data : i32
  return %f : none
}
"#;
    // `%done` is used before it is defined: a graph region allows it.
    check(
        &at(fixture, "%start, %do$0ne"),
        expect![[r#"
        definition: main.mlir:9:8 `%done`
          in main.mlir:9:3 `%ld, %done = extmemory[ld = 1, st = 0] (%mem : memref<16xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)`
        references (1; 2 with the definition):
          main.mlir:7:42 `%done`
        highlight: main.mlir:7:42 `%done`, main.mlir:9:8 `%done` (write)
        rename: main.mlir:7:43 `done`
    "#]],
    );
    check(
        &at(fixture, "%raw$0 = dataflow"),
        expect![[r#"
        definition: main.mlir:5:9 `%raw`
          in main.mlir:5:3 `%idx, %raw = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)`
        references (2; 3 with the definition):
          main.mlir:6:36 `%raw`
          main.mlir:10:20 `%raw`
        highlight: main.mlir:5:9 `%raw` (write), main.mlir:6:36 `%raw`, main.mlir:10:20 `%raw`
        rename: main.mlir:5:10 `raw`
    "#]],
    );
    check_rename(
        &at(fixture, "%raw$0 = dataflow"),
        "will_continue",
        expect![[r#"
        //- main.mlir

        handshake.func @loop(%n: index, %mem: memref<16xi32>, %start: none) -> none {
          %c0 = arith.constant 0 : index
          %c1 = arith.constant 1 : index
          %idx, %will_continue = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
          %v, %after = dataflow.gate %idx, %will_continue : index, i1 -> index, i1
          %ctrl = dataflow.carry %after, %start, %done : i1, none, none -> none
          %data, %addr = load [%v] %ld, %ctrl : index, i32
          %ld, %done = extmemory[ld = 1, st = 0] (%mem : memref<16xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
          %t, %f = cond_br %will_continue, %ctrl : none
          sink %data : i32
          return %f : none
        }
    "#]],
    );
}

#[test]
fn structured_control_flow_values() {
    let fixture = r#"
func.func @sum(%lb: index, %ub: index, %step: index, %z: f32) -> f32 {
  %r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %z) -> (f32) {
    %x = arith.index_cast %iv : index to i32
    %f = arith.sitofp %x : i32 to f32
    %s = arith.addf %acc, %f : f32
    scf.yield %s : f32
  }
  scf.for %iv = %lb to %ub step %step {
  }
  return %r : f32
}
"#;
    // The induction variable is defined by the loop, in its body: the sibling loop's `%iv` is
    // another value.
    check(
        &at(fixture, "index_cast %i$0v"),
        expect![[r#"
        definition: main.mlir:3:16 `%iv`
          in main.mlir:3:3 `%r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %z) -> (f32) {` ...
        references (1; 2 with the definition):
          main.mlir:4:27 `%iv`
        highlight: main.mlir:3:16 `%iv` (write), main.mlir:4:27 `%iv`
        rename: main.mlir:4:28 `iv`
    "#]],
    );
    check(
        &at(fixture, "iter_args(%a$0cc"),
        expect![[r#"
        definition: main.mlir:3:54 `%acc`
          in main.mlir:3:3 `%r = scf.for %iv = %lb to %ub step %step iter_args(%acc = %z) -> (f32) {` ...
        references (1; 2 with the definition):
          main.mlir:6:21 `%acc`
        highlight: main.mlir:3:54 `%acc` (write), main.mlir:6:21 `%acc`
        rename: main.mlir:3:55 `acc`
    "#]],
    );
    // The initial value after `=` is a use in the function's region.
    check(
        &at(fixture, "%acc = %$0z"),
        expect![[r#"
        definition: main.mlir:2:54 `%z`
          in main.mlir:2:1 `func.func @sum(%lb: index, %ub: index, %step: index, %z: f32) -> f32 {` ...
        references (1; 2 with the definition):
          main.mlir:3:61 `%z`
        highlight: main.mlir:2:54 `%z` (write), main.mlir:3:61 `%z`
        rename: main.mlir:3:62 `z`
    "#]],
    );
    check_rename(
        &at(fixture, "iter_args(%a$0cc"),
        "total",
        expect![[r#"
        //- main.mlir

        func.func @sum(%lb: index, %ub: index, %step: index, %z: f32) -> f32 {
          %r = scf.for %iv = %lb to %ub step %step iter_args(%total = %z) -> (f32) {
            %x = arith.index_cast %iv : index to i32
            %f = arith.sitofp %x : i32 to f32
            %s = arith.addf %total, %f : f32
            scf.yield %s : f32
          }
          scf.for %iv = %lb to %ub step %step {
          }
          return %r : f32
        }
    "#]],
    );
}

const FILES: &str = r#"
//- callee.mlir
handshake.func @add(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {
  %s = arith.addi %a, %b : i32
  return %s, %ctrl : i32, none
}
handshake.func @other(%a: i32, %ctrl: none) -> (i32, none) {
  return %a, %ctrl : i32, none
}
//- caller.mlir
handshake.func @top(%x: i32, %y: i32, %ctrl: none) -> (i32, none) {
  %r:2 = instance @add(%x, %y, %ctrl) : (i32, i32, none) -> (i32, none)
  return %r#0, %r#1 : i32, none
}
func.func @sw(%x: index) -> index {
  %0 = func.call @"add"(%x) : (index) -> index
  return %0 : index
}
"#;

#[test]
fn symbols_across_files() {
    check(
        &at(FILES, "instance @a$0dd"),
        expect![[r#"
        definition: callee.mlir:1:16 `@add`
          in callee.mlir:1:1 `handshake.func @add(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {` ...
        references (2; 3 with the definition):
          caller.mlir:2:19 `@add`
          caller.mlir:6:18 `@"add"`
        highlight: caller.mlir:2:19 `@add`, caller.mlir:6:18 `@"add"`
        rename: caller.mlir:2:20 `add`
    "#]],
    );
    check(
        &at(FILES, "func @add$0"),
        expect![[r#"
        definition: callee.mlir:1:16 `@add`
          in callee.mlir:1:1 `handshake.func @add(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {` ...
        references (2; 3 with the definition):
          caller.mlir:2:19 `@add`
          caller.mlir:6:18 `@"add"`
        highlight: callee.mlir:1:16 `@add` (write)
        rename: callee.mlir:1:17 `add`
    "#]],
    );
    check_rename(
        &at(FILES, "instance @a$0dd"),
        "@adder",
        expect![[r#"
        //- callee.mlir
        handshake.func @adder(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {
          %s = arith.addi %a, %b : i32
          return %s, %ctrl : i32, none
        }
        handshake.func @other(%a: i32, %ctrl: none) -> (i32, none) {
          return %a, %ctrl : i32, none
        }
        //- caller.mlir
        handshake.func @top(%x: i32, %y: i32, %ctrl: none) -> (i32, none) {
          %r:2 = instance @adder(%x, %y, %ctrl) : (i32, i32, none) -> (i32, none)
          return %r#0, %r#1 : i32, none
        }
        func.func @sw(%x: index) -> index {
          %0 = func.call @"adder"(%x) : (index) -> index
          return %0 : index
        }
    "#]],
    );
    check_rename(
        &at(FILES, "instance @a$0dd"),
        "other",
        expect![[r#"
        error: a function named `@other` already exists (`@other`)
    "#]],
    );
    check_rename(
        &at(FILES, "instance @a$0dd"),
        "top",
        expect![[r#"
        error: a function named `@top` already exists (`@top`)
    "#]],
    );
    check_rename(
        &at(FILES, "instance @a$0dd"),
        "9lives",
        expect![[r#"
        error: `9lives` is not a valid symbol name
    "#]],
    );
    // A callee no file defines.
    check(
        &FILES.replace("instance @add", "instance @mi$0ssing"),
        expect![[r#"
        references (0; 0 with the definition):
        highlight: 
        rename: error: `@missing` is not a function of the workspace
    "#]],
    );
}

#[test]
fn split_cases_do_not_see_each_other() {
    let fixture = r#"
func.func @f(%x: i32) -> i32 {
  return %x : i32
}
func.func @use1(%x: i32) -> i32 {
  %0 = func.call @f(%x) : (i32) -> i32
  return %0 : i32
}

// -----

func.func @f(%x: i32) -> i32 {
  return %x : i32
}
func.func @use2(%x: i32) -> i32 {
  %0 = func.call @f(%x) : (i32) -> i32
  return %0 : i32
}
"#;
    let second = fixture.rfind("call @f").expect("second call") + "call @".len();
    let mut at_second = fixture.to_string();
    at_second.insert_str(second, "$0");
    check(
        &at_second,
        expect![[r#"
        definition: main.mlir:12:11 `@f`
          in main.mlir:12:1 `func.func @f(%x: i32) -> i32 {` ...
        references (1; 2 with the definition):
          main.mlir:16:18 `@f`
        highlight: main.mlir:12:11 `@f` (write), main.mlir:16:18 `@f`
        rename: main.mlir:16:19 `f`
    "#]],
    );
    check_rename(
        &at_second,
        "g",
        expect![[r#"
        //- main.mlir

        func.func @f(%x: i32) -> i32 {
          return %x : i32
        }
        func.func @use1(%x: i32) -> i32 {
          %0 = func.call @f(%x) : (i32) -> i32
          return %0 : i32
        }

        // -----

        func.func @g(%x: i32) -> i32 {
          return %x : i32
        }
        func.func @use2(%x: i32) -> i32 {
          %0 = func.call @g(%x) : (i32) -> i32
          return %0 : i32
        }
    "#]],
    );
    // `@use1` lives in the other case: no clash.
    check_rename(
        &at_second,
        "use1",
        expect![[r#"
        //- main.mlir

        func.func @f(%x: i32) -> i32 {
          return %x : i32
        }
        func.func @use1(%x: i32) -> i32 {
          %0 = func.call @f(%x) : (i32) -> i32
          return %0 : i32
        }

        // -----

        func.func @use1(%x: i32) -> i32 {
          return %x : i32
        }
        func.func @use2(%x: i32) -> i32 {
          %0 = func.call @use1(%x) : (i32) -> i32
          return %0 : i32
        }
    "#]],
    );
    check_rename(
        &at_second,
        "use2",
        expect![[r#"
        error: a function named `@use2` already exists (`@use2`)
    "#]],
    );
}

#[test]
fn broken_text_and_edges_do_not_panic() {
    let cases = [
        "$0",
        "$0\n",
        "handshake.func @f(%x: i32) -> i32 {\n  %0 = fork [2] %$0",
        "handshake.func @f(%x: i32) -> i32 {\n  return %x : i32\n}\n$0",
        "handshake.func @f(%x: i32) -> i32 {\n  %0:2 = fork [2] %x : i32\n  return %0#$07 : i32\n}",
        "func.func @g() {\n  cf.br ^$0\n}",
        "// -----\n// -----\nfunc.func @$0",
        "hw.module @m() {\n  %0 = pipeline.scheduled(%a : i32 = %$0) -> (o: i32) {\n",
        "$0}}} ^bb1: %x = @y",
    ];
    let mut out = String::new();
    for case in cases {
        let rendered = render(case);
        let mut fixture = Fixture::parse(case);
        let cursor = fixture.cursor.expect("one cursor");
        let analysis = fixture.db.analysis();
        let renamed = rename(&analysis, cursor, "n").map(|e| e.len());
        // Past the end of the file too.
        let past = FilePosition { file: cursor.file, offset: cursor.offset + TextSize::from(100) };
        assert!(definition(&analysis, past).is_empty());
        assert!(prepare_rename(&analysis, past).is_err());
        out.push_str(&format!("{case:?}\n{rendered}rename to n: {renamed:?}\n\n"));
    }
    expect![[r#"
        "$0"
        references (0; 0 with the definition):
        highlight: 
        rename: error: not a value, block label or symbol
        rename to n: Err("not a value, block label or symbol")

        "$0\n"
        references (0; 0 with the definition):
        highlight: 
        rename: error: not a value, block label or symbol
        rename to n: Err("not a value, block label or symbol")

        "handshake.func @f(%x: i32) -> i32 {\n  %0 = fork [2] %$0"
        references (0; 0 with the definition):
        highlight: 
        rename: error: not a value, block label or symbol
        rename to n: Err("not a value, block label or symbol")

        "handshake.func @f(%x: i32) -> i32 {\n  return %x : i32\n}\n$0"
        references (0; 0 with the definition):
        highlight: 
        rename: error: not a value, block label or symbol
        rename to n: Err("not a value, block label or symbol")

        "handshake.func @f(%x: i32) -> i32 {\n  %0:2 = fork [2] %x : i32\n  return %0#$07 : i32\n}"
        references (0; 0 with the definition):
        highlight: 
        rename: error: `%0#7` is not defined here
        rename to n: Err("`%0#7` is not defined here")

        "func.func @g() {\n  cf.br ^$0\n}"
        references (0; 0 with the definition):
        highlight: 
        rename: error: not a value, block label or symbol
        rename to n: Err("not a value, block label or symbol")

        "// -----\n// -----\nfunc.func @$0"
        references (0; 0 with the definition):
        highlight: 
        rename: error: not a value, block label or symbol
        rename to n: Err("not a value, block label or symbol")

        "hw.module @m() {\n  %0 = pipeline.scheduled(%a : i32 = %$0) -> (o: i32) {\n"
        references (0; 0 with the definition):
        highlight: 
        rename: error: not a value, block label or symbol
        rename to n: Err("not a value, block label or symbol")

        "$0}}} ^bb1: %x = @y"
        references (0; 0 with the definition):
        highlight: 
        rename: error: not a value, block label or symbol
        rename to n: Err("not a value, block label or symbol")

    "#]]
    .assert_eq(&out);
}

#[test]
fn corpus_file() {
    let Some(path) = shared::path("corpus/dynamatic/gaussian-4-2__handshake_buffered.mlir") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    // `%16:2 = fork [2] %index`: each result used once, by two muxes.
    let at = text.find("%16:2 = fork").expect("the fork is in the file");
    let mut with_cursor = text.clone();
    with_cursor.insert_str(at + 1, "$0");
    let rendered = render(&with_cursor);
    expect![[r#"
        definition: main.mlir:21:5 `%16`
          in main.mlir:21:5 `%16:2 = fork [2] %index {handshake.bb = 1 : ui32, handshake.name = "fork2"} : <i1>`
        references (2; 3 with the definition):
          main.mlir:13:14 `%16#0`
          main.mlir:18:15 `%16#1`
        highlight: main.mlir:13:14 `%16#0`, main.mlir:18:15 `%16#1`, main.mlir:21:5 `%16` (write)
        rename: main.mlir:21:6 `16`
    "#]]
    .assert_eq(&rendered);
    let mut fixture = Fixture::parse(&with_cursor);
    let cursor = fixture.cursor.expect("one cursor");
    let analysis = fixture.db.analysis();
    let edits = rename(&analysis, cursor, "index_fork").expect("renames");
    let texts: Vec<&str> =
        edits.iter().map(|(_, e)| &text[std::ops::Range::<usize>::from(e.range)]).collect();
    assert!(edits.len() == 3 && texts.iter().all(|t| *t == "16"), "{texts:?}");
}

#[test]
fn after_an_edit_inside_an_item() {
    // An edit inside the second function reparses it alone: its syntax then lives in a parse
    // of its own text, and every range must still come back in file offsets.
    let text = "handshake.func @a(%x: i32) -> i32 {\n  return %x : i32\n}\nhandshake.func @b(%y: i32) -> i32 {\n  %0 = instance @a(%y) : (i32) -> i32\n  return %0 : i32\n}\n";
    let mut db = hsir_analysis::Database::new();
    let file = FileId(0);
    db.set_text(file, text.to_string());
    db.analysis();
    let at = text.find("return %0").expect("present") + "return ".len();
    db.edit(file, TextRange::new(TextSize::from(at as u32), TextSize::from(at as u32 + 2)), "%0");
    assert!(db.counters().item_parses == 1, "the edit was spliced: {:?}", db.counters());
    let analysis = db.analysis();
    let cursor = FilePosition { file, offset: TextSize::from(at as u32 + 1) };
    let defs = definition(&analysis, cursor);
    let current = analysis.text(file).expect("the file");
    let shown: Vec<&str> = defs.iter().map(|d| &current[d.focus_range]).collect();
    assert_eq!(shown, ["%0"]);
    let at_callee = current.find("@a(%y)").expect("present") + 1;
    let cursor = FilePosition { file, offset: TextSize::from(at_callee as u32) };
    let defs = definition(&analysis, cursor);
    assert_eq!(defs.len(), 1);
    assert_eq!(&current[defs[0].focus_range], "@a");
    assert_eq!(defs[0].focus_range.start(), TextSize::from(15));
    let refs = references(&analysis, FilePosition { file, offset: TextSize::from(16) }, false);
    let shown: Vec<usize> = refs.iter().map(|r| usize::from(r.range.start())).collect();
    assert_eq!(shown, [at_callee - 1]);
}
