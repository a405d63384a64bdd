//! Document symbols, workspace symbols, folding ranges and selection ranges
//! (`ide::symbols`) on fixtures in CIRCT's and Dynamatic's spellings, the pipeline dialect,
//! LOOM's `dataflow.*` ops, control-flow functions, `// -----` cases and a corpus file, rendered
//! to readable snapshots: `UPDATE_EXPECT=1 cargo test`.

#[path = "../../test-support/shared.rs"]
mod shared;

use expect_test::{expect, Expect};
use hsir_analysis::db::FileId;
use hsir_analysis::ide::symbols::{
    document_symbols, folding_ranges, selection_ranges, workspace_symbols, DocumentSymbol,
};
use hsir_analysis::ide::Fixture;
use hsir_analysis::{TextRange, TextSize};

/// `line:col` of an offset, both from 1.
fn line_col(text: &str, offset: TextSize) -> String {
    let at = usize::from(offset);
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("{line}:{col}")
}

/// A range as `line:col-line:col` and the start of its text.
fn show(text: &str, range: TextRange) -> String {
    let slice = &text[range];
    let first: String = slice.lines().next().unwrap_or("").chars().take(48).collect();
    let more = if slice.len() > first.len() { "..." } else { "" };
    format!("{}-{} `{first}`{more}", line_col(text, range.start()), line_col(text, range.end()))
}

/// Workspace symbols for `query`, one line each: kind, name, file:line:col, the text of the
/// symbol's range when `with_text` (else that text must be the name), and its container.
fn search_shown(
    analysis: &hsir_analysis::db::Analysis<'_>,
    names: &[(String, FileId)],
    query: &str,
    with_text: bool,
) -> String {
    let mut out = format!("{query:?}:\n");
    for symbol in workspace_symbols(analysis, query) {
        let file = names.iter().find(|(_, f)| *f == symbol.file).map_or("?", |(n, _)| n);
        let text = analysis.text(symbol.file).expect("the file");
        let shown = if with_text {
            format!(" `{}`", &text[symbol.range])
        } else {
            assert_eq!(&text[symbol.range], symbol.name);
            String::new()
        };
        out.push_str(&format!(
            "  {:?} {} {file}:{}{shown}{}\n",
            symbol.kind,
            symbol.name,
            line_col(text, symbol.range.start()),
            symbol.container.map_or(String::new(), |c| format!(" ({c})")),
        ));
    }
    out
}

fn render_symbols(text: &str, symbols: &[DocumentSymbol], depth: usize, out: &mut String) {
    for symbol in symbols {
        assert!(symbol.full_range.contains_range(symbol.focus_range), "{symbol:?}");
        for child in &symbol.children {
            assert!(symbol.full_range.contains_range(child.full_range), "{child:?} in {symbol:?}");
        }
        let detail = symbol.detail.as_deref().map_or(String::new(), |d| format!(" : {d}"));
        out.push_str(&format!(
            "{}{:?} {}{detail}\n{}  at {} focus {}\n",
            "  ".repeat(depth),
            symbol.kind,
            symbol.name,
            "  ".repeat(depth),
            line_col(text, symbol.full_range.start()),
            show(text, symbol.focus_range),
        ));
        render_symbols(text, &symbol.children, depth + 1, out);
    }
}

fn check_outline(fixture: &str, expect: Expect) {
    let mut fixture = Fixture::parse(fixture);
    let file = fixture.files[0].1;
    let analysis = fixture.db.analysis();
    let text = analysis.text(file).expect("the file");
    let mut out = String::new();
    render_symbols(text, &document_symbols(&analysis, file), 0, &mut out);
    expect.assert_eq(&out);
}

fn check_folds(fixture: &str, expect: Expect) {
    let mut fixture = Fixture::parse(fixture);
    let file = fixture.files[0].1;
    let analysis = fixture.db.analysis();
    let text = analysis.text(file).expect("the file");
    let out: String = folding_ranges(&analysis, file)
        .iter()
        .map(|f| format!("{:?} {}\n", f.kind, show(text, f.range)))
        .collect();
    expect.assert_eq(&out);
}

/// The selection chain at the fixture's cursor.
fn check_selection(fixture: &str, expect: Expect) {
    let mut fixture = Fixture::parse(fixture);
    let cursor = fixture.cursor.expect("one `$0`");
    let analysis = fixture.db.analysis();
    let text = analysis.text(cursor.file).expect("the file");
    let chains = selection_ranges(&analysis, cursor.file, &[cursor.offset]);
    let mut out = String::new();
    for window in chains[0].windows(2) {
        assert!(window[1].contains_range(window[0]) && window[1] != window[0], "{window:?}");
    }
    for range in &chains[0] {
        out.push_str(&format!("{}\n", show(text, *range)));
    }
    expect.assert_eq(&out);
}

const CIRCT: &str = r#"// A CIRCT-style function with memory and buffers.
// Second comment line.
module {
  handshake.func @kernel(%mem: memref<10xi32>, %addr: index, %ctrl: none, ...) -> (i32, none) attributes {argNames = ["mem", "addr", "ctrl"]} {
    %ld:2 = memory [ld = 1, st = 0] (%a) {id = 0 : i32, lsq = false} : memref<10xi32>, (index) -> (i32, none)
    %d, %a = load [%addr] %ld#0, %ctrl : index, i32
    %b = buffer [2] seq %d : i32
    %c = buffer [1] fifo %ld#1 : none
    return %b, %c : i32, none
  }
  handshake.func private @ext(i32, none) -> (i32, none)
}
"#;

#[test]
fn outline_circt() {
    check_outline(
        CIRCT,
        expect![[r#"
        Function @kernel : (%mem: memref<10xi32>, %addr: index, %ctrl: none, ...) -> (i32, none)
          at 4:3 focus 4:18-4:25 `@kernel`
          Memory %ld:2 : memory [ld = 1, st = 0]
            at 5:5 focus 5:13-5:19 `memory`
          Buffer %b : seq, 2 slots
            at 7:5 focus 7:10-7:16 `buffer`
          Buffer %c : fifo, 1 slot
            at 8:5 focus 8:10-8:16 `buffer`
        Function @ext : private (i32, none) -> (i32, none)
          at 11:3 focus 11:26-11:30 `@ext`
    "#]],
    );
}

const DYNAMATIC: &str = r#"module {
  handshake.func @gauss(%arg0: memref<20xi32>, %arg1: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) attributes {argNames = ["c", "c_start", "start"], resNames = ["out0", "c_end", "end"]} {
    %outputs, %memEnd = mem_controller[%arg0 : memref<20xi32>] %arg1 (%addr) %start {connectedBlocks = [3 : i32], handshake.name = "mem_controller1"} : (!handshake.channel<i5>) -> !handshake.channel<i32>
    %0 = constant %start {handshake.name = "constant0", value = 1 : i5} : <>, <i5>
    %addr = buffer %0, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 {handshake.name = "buffer0"} : <i5>
    %1 = buffer %outputs {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_NONE", NUM_SLOTS = 4 : ui32, TIMING = #handshake<timing {R: 0}>}} : <i32>
    end %1, %memEnd, %start : <i32>, <>, <>
  }
}
"#;

#[test]
fn outline_dynamatic() {
    check_outline(
        DYNAMATIC,
        expect![[r#"
        Function @gauss : (%arg0: memref<20xi32>, %arg1: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>)
          at 2:3 focus 2:18-2:24 `@gauss`
          Memory mem_controller1 : mem_controller [%arg0 : memref<20xi32>]
            at 3:5 focus 3:25-3:39 `mem_controller`
          Buffer buffer0 : ONE_SLOT_BREAK_DV, 1 slot
            at 5:5 focus 5:13-5:19 `buffer`
          Buffer %1 : FIFO_BREAK_NONE, 4 slots
            at 6:5 focus 6:10-6:16 `buffer`
    "#]],
    );
}

const PIPELINE: &str = r#"hw.module @p(in %arg0 : i32, in %stall : i1, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %0:2 = pipeline.scheduled "named"(%a0 : i32 = %arg0) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) {poweron} -> (out: i32) {
    %1 = comb.add %a0, %a0 : i32
    pipeline.stage ^bb2 regs(%1 : i32)
  ^bb1(%s1_reg : i32, %s1_enable : i1):
    pipeline.return %s1_reg : i32
  ^bb2(%s2_reg : i32, %s2_enable : i1):
    pipeline.stage ^bb1 regs(%s2_reg : i32)
  }
  %u:2 = pipeline.unscheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%e) -> (out: i32) {
    pipeline.return %a0 : i32
  }
  hw.output %0#0 : i32
}
"#;

#[test]
fn outline_pipelines() {
    // Stages are numbered along the `pipeline.stage` chain, not in text order.
    check_outline(
        PIPELINE,
        expect![[r#"
        Module @p : (in %arg0 : i32, in %stall : i1, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32)
          at 1:1 focus 1:11-1:13 `@p`
          Pipeline named : pipeline.scheduled, 3 stages
            at 2:3 focus 2:10-2:28 `pipeline.scheduled`
            Stage entry : stage 0
              at 3:5 focus 3:5-3:33 `%1 = comb.add %a0, %a0 : i32`
            Stage ^bb1 : stage 2
              at 5:3 focus 5:3-5:7 `^bb1`
            Stage ^bb2 : stage 1
              at 7:3 focus 7:3-7:7 `^bb2`
          Pipeline %u:2 : pipeline.unscheduled, 1 stage
            at 10:3 focus 10:10-10:30 `pipeline.unscheduled`
            Stage entry : stage 0
              at 11:5 focus 11:5-11:30 `pipeline.return %a0 : i32`
    "#]],
    );
}

#[test]
fn outline_blocks_loom_and_cases() {
    let fixture = r#"func.func @f(%a: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^bb1(%a : i32), ^bb2
^bb1(%x: i32):
  cf.br ^bb2
^bb2:
  return %a : i32
}

// -----

handshake.func @loop(%n: index, %mem: memref<16xi32>, %start: none) -> none {
  %c0 = arith.constant 0 : index
  %idx, %raw = dataflow.stream %c0, %c0, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %data, %addr = load [%idx] %ld, %start : index, i32
  %ld, %done = extmemory[ld = 1, st = 0] (%mem : memref<16xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  sink %data : i32
  return %done : none
}
"#;
    check_outline(
        fixture,
        expect![[r#"
        Function @f : (%a: i32, %c: i1) -> i32
          at 1:1 focus 1:11-1:13 `@f`
          Block ^bb1 : (%x)
            at 3:1 focus 3:1-3:5 `^bb1`
          Block ^bb2
            at 5:1 focus 5:1-5:5 `^bb2`
        Function @loop : (%n: index, %mem: memref<16xi32>, %start: none) -> none
          at 11:1 focus 11:16-11:21 `@loop`
          Memory %ld, %done : extmemory [ld = 1, st = 0]
            at 15:3 focus 15:16-15:25 `extmemory`
    "#]],
    );
}

#[test]
fn outline_of_a_corpus_file() {
    let Some(path) = shared::path("corpus/dynamatic/gaussian-4-2__handshake_buffered.mlir") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut fixture = Fixture::parse(&text);
    let file = fixture.files[0].1;
    let analysis = fixture.db.analysis();
    let symbols = document_symbols(&analysis, file);
    let mut out = String::new();
    for symbol in &symbols {
        let mut kinds = std::collections::BTreeMap::new();
        for child in &symbol.children {
            *kinds.entry(format!("{:?}", child.kind)).or_insert(0) += 1;
        }
        out.push_str(&format!("{:?} {} {kinds:?}\n", symbol.kind, symbol.name));
        for child in symbol.children.iter().take(4) {
            out.push_str(&format!(
                "  {:?} {} : {}\n",
                child.kind,
                child.name,
                child.detail.as_deref().unwrap_or("")
            ));
        }
    }
    expect![[r#"
        Function @gaussian {"Buffer": 40, "Memory": 2}
          Memory lsq1 : lsq [%arg1 : memref<400xi32>]
          Memory mem_controller1 : mem_controller [%arg0 : memref<20xi32>]
          Buffer buffer0 : ONE_SLOT_BREAK_DV, 1 slot
          Buffer buffer1 : ONE_SLOT_BREAK_R, 1 slot
    "#]]
    .assert_eq(&out);
}

#[test]
fn workspace_search() {
    let mut fixture = Fixture::parse(
        r#"
//- a.mlir
handshake.func @gaussian(%x: i32) -> i32 {
  return %x : i32
}
hw.module @GaussTop(in %a : i32, out o : i32) {
  hw.output %a : i32
}
//- b.mlir
func.func @gauss(%x: i32) -> i32 {
  return %x : i32
}
// -----
func.func @gauss(%x: i32) -> i32 {
  return %x : i32
}
func.func @sum_gain(%x: i32) -> i32 {
  return %x : i32
}
"#,
    );
    let analysis = fixture.db.analysis();
    let search = |query: &str| search_shown(&analysis, &fixture.files, query, false);
    let out = ["", "gauss", "@GAUSS", "gsn", "sg", "xyz"].map(search).concat();
    expect![[r#"
        "":
          Function @gauss b.mlir:1:11 (case 1)
          Function @gauss b.mlir:5:11 (case 2)
          Function @gaussian a.mlir:1:16
          Module @GaussTop a.mlir:4:11
          Function @sum_gain b.mlir:8:11 (case 2)
        "gauss":
          Function @gauss b.mlir:1:11 (case 1)
          Function @gauss b.mlir:5:11 (case 2)
          Function @gaussian a.mlir:1:16
          Module @GaussTop a.mlir:4:11
        "@GAUSS":
          Function @gauss b.mlir:1:11 (case 1)
          Function @gauss b.mlir:5:11 (case 2)
          Function @gaussian a.mlir:1:16
          Module @GaussTop a.mlir:4:11
        "gsn":
          Function @gaussian a.mlir:1:16
        "sg":
          Function @sum_gain b.mlir:8:11 (case 2)
        "xyz":
    "#]]
    .assert_eq(&out);
}

/// The search finds the named ops inside functions too: buffers by `handshake.name` or
/// result, memory interfaces, pipelines and their stages, instances by name and callee.
#[test]
fn workspace_search_finds_named_ops() {
    let mut fixture = Fixture::parse(
        r#"
//- d.mlir
handshake.func @kernel(%a: !handshake.channel<i32>, %m: memref<8xi32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a {handshake.name = "buffer7", hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32}} : <i32>
  %1 = buffer %0, bufferType = FIFO_BREAK_NONE, numSlots = 2 : <i32>
  %2:2 = instance @adder(%1, %start) {handshake.name = "add_inst"} : (!handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  end %2#0, %2#1 : <i32>, <>
}
//- p.mlir
hw.module @pipe(in %a : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out : i32, out done : i1) {
  %out, %done = pipeline.scheduled "stages"(%a0 : i32 = %a) clock(%clk) reset(%rst) go(%go) entryEn(%s0) -> (out : i32) {
    pipeline.stage ^bb1 regs(%a0 : i32)
  ^bb1(%r : i32, %s1 : i1):
    pipeline.return %r : i32
  }
  hw.output %out, %done : i32, i1
}
"#,
    );
    let analysis = fixture.db.analysis();
    let search = |query: &str| search_shown(&analysis, &fixture.files, query, true);
    let out = ["", "buffer7", "%1", "adder", "bb1", "stages"].map(search).concat();
    expect![[r#"
        "":
          Function @kernel d.mlir:1:16 `@kernel`
          Module @pipe p.mlir:1:11 `@pipe`
          Buffer %1 d.mlir:3:8 `buffer` (@kernel)
          Stage ^bb1 p.mlir:4:3 `^bb1` (@pipe)
          Instance add_inst @adder d.mlir:4:10 `instance` (@kernel)
          Buffer buffer7 d.mlir:2:8 `buffer` (@kernel)
          Stage entry p.mlir:3:5 `pipeline.stage ^bb1 regs(%a0 : i32)` (@pipe)
          Pipeline stages p.mlir:2:17 `pipeline.scheduled` (@pipe)
        "buffer7":
          Buffer buffer7 d.mlir:2:8 `buffer` (@kernel)
        "%1":
          Buffer %1 d.mlir:3:8 `buffer` (@kernel)
          Stage ^bb1 p.mlir:4:3 `^bb1` (@pipe)
        "adder":
          Instance add_inst @adder d.mlir:4:10 `instance` (@kernel)
        "bb1":
          Stage ^bb1 p.mlir:4:3 `^bb1` (@pipe)
        "stages":
          Pipeline stages p.mlir:2:17 `pipeline.scheduled` (@pipe)
    "#]]
    .assert_eq(&out);
}

#[test]
fn folds() {
    check_folds(
        CIRCT,
        expect![[r#"
        Comment 1:1-2:24 `// A CIRCT-style function with memory and buffer`...
        Region 3:8-12:2 `{`...
        Region 4:143-10:4 `{`...
    "#]],
    );
    check_folds(
        r#"hw.module @p(in %a : i32, out o : i32) {
  // One comment line alone does not fold.
  %0 = comb.add %a, %a {
    sv.attr = 1,
    other = 2
  } : i32
  // Two lines
  // fold.
  hw.output %0 : i32
}
// -----
// A case header
// over two lines.
func.func @g() {
  return
}
"#,
        expect![[r#"
            Region 1:40-10:2 `{`...
            Region 3:24-6:4 `{`...
            Comment 7:3-8:11 `// Two lines`...
            Comment 12:1-13:19 `// A case header`...
            Region 14:16-16:2 `{`...
        "#]],
    );
}

#[test]
fn selections() {
    check_selection(
        &CIRCT.replace("[%addr]", "[%ad$0dr]"),
        expect![[r#"
        6:20-6:25 `%addr`
        6:19-6:26 `[%addr]`
        6:5-6:52 `%d, %a = load [%addr] %ld#0, %ctrl : index, i32`
        5:5-9:30 `%ld:2 = memory [ld = 1, st = 0] (%a) {id = 0 : i`...
        4:143-10:4 `{`...
        4:3-10:4 `handshake.func @kernel(%mem: memref<10xi32>, %ad`...
        3:1-12:2 `module {`...
        1:1-13:1 `// A CIRCT-style function with memory and buffer`...
    "#]],
    );
    check_selection(
        &PIPELINE.replace("^bb1 regs(%s2_reg", "^bb1 regs(%s2$0_reg"),
        expect![[r#"
        8:30-8:37 `%s2_reg`
        8:25-8:44 `regs(%s2_reg : i32)`
        8:5-8:44 `pipeline.stage ^bb1 regs(%s2_reg : i32)`
        7:3-8:44 `^bb2(%s2_reg : i32, %s2_enable : i1):`...
        2:146-9:4 `{`...
        2:3-9:4 `%0:2 = pipeline.scheduled "named"(%a0 : i32 = %a`...
        2:3-13:23 `%0:2 = pipeline.scheduled "named"(%a0 : i32 = %a`...
        1:109-14:2 `{`...
        1:1-14:2 `hw.module @p(in %arg0 : i32, in %stall : i1, in `...
        1:1-15:1 `hw.module @p(in %arg0 : i32, in %stall : i1, in `...
    "#]],
    );
    // Between items, on a comment line.
    check_selection(
        &CIRCT.replace("// Second", "// Sec$0ond"),
        expect![[r#"
        2:1-2:24 `// Second comment line.`
        1:1-13:1 `// A CIRCT-style function with memory and buffer`...
    "#]],
    );
}

#[test]
fn broken_and_empty_files_do_not_panic() {
    let cases = [
        "",
        "\n",
        "handshake.func @f(%x: i32) -> i32 {\n  %0 = fork [2] %",
        "module {\n  func.func @g() {\n    cf.br ^\n",
        "}}}{{{ ^bb1: %x = @y // c\n// d\n",
        "// -----\n// -----\nfunc.func @",
        "hw.module @m() {\n  %0 = pipeline.scheduled(%a : i32 = %b) -> (o: i32) {\n  ^bb1:\n",
    ];
    let mut out = String::new();
    for case in cases {
        let mut db = hsir_analysis::Database::new();
        let file = FileId(0);
        db.set_text(file, case.to_string());
        let analysis = db.analysis();
        let len = TextSize::of(case);
        let offsets: Vec<TextSize> = (0..=u32::from(len) + 2).map(TextSize::from).collect();
        let chains = selection_ranges(&analysis, file, &offsets);
        assert_eq!(chains.len(), offsets.len());
        for (offset, chain) in offsets.iter().zip(&chains) {
            if *offset <= len {
                assert_eq!(chain.last(), Some(&TextRange::up_to(len)), "{case:?} at {offset:?}");
            } else {
                assert!(chain.is_empty());
            }
        }
        let mut outline = String::new();
        render_symbols(case, &document_symbols(&analysis, file), 0, &mut outline);
        let folds = folding_ranges(&analysis, file).len();
        let found = workspace_symbols(&analysis, "").len();
        out.push_str(&format!("{case:?}: {folds} folds, {found} symbols\n{outline}"));
    }
    expect![[r#"
        "": 0 folds, 0 symbols
        "\n": 0 folds, 0 symbols
        "handshake.func @f(%x: i32) -> i32 {\n  %0 = fork [2] %": 1 folds, 1 symbols
        Function @f : (%x: i32) -> i32
          at 1:1 focus 1:16-1:18 `@f`
        "module {\n  func.func @g() {\n    cf.br ^\n": 1 folds, 1 symbols
        Function @g : ()
          at 2:3 focus 2:13-2:15 `@g`
        "}}}{{{ ^bb1: %x = @y // c\n// d\n": 0 folds, 0 symbols
        "// -----\n// -----\nfunc.func @": 0 folds, 0 symbols
        "hw.module @m() {\n  %0 = pipeline.scheduled(%a : i32 = %b) -> (o: i32) {\n  ^bb1:\n": 2 folds, 3 symbols
        Module @m : ()
          at 1:1 focus 1:11-1:13 `@m`
          Pipeline %0 : pipeline.scheduled, 1 stage
            at 2:3 focus 2:8-2:26 `pipeline.scheduled`
            Stage ^bb1 : stage 0
              at 3:3 focus 3:3-3:7 `^bb1`
    "#]]
    .assert_eq(&out);
    // A file the database does not have.
    let mut fixture = Fixture::parse("");
    let analysis = fixture.db.analysis();
    assert!(document_symbols(&analysis, FileId(9)).is_empty());
    assert!(folding_ranges(&analysis, FileId(9)).is_empty());
    assert_eq!(selection_ranges(&analysis, FileId(9), &[TextSize::from(0)]), vec![Vec::new()]);
}

/// Every feature of this module and of navigation at every name and many other offsets of
/// every corpus file: none may panic, and every selection chain must grow.
#[test]
fn corpus_does_not_panic() {
    use hsir_analysis::ide::navigation;
    use hsir_analysis::ide::FilePosition;
    let mut paths = Vec::new();
    for dialect in ["corpus/circt", "corpus/dynamatic"] {
        let Some(files) = shared::mlir_files(dialect) else { return };
        paths.extend(files);
    }
    paths.sort();
    assert!(paths.len() > 100, "{}", paths.len());
    for path in paths {
        let bytes = std::fs::read(&path).expect("readable");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let mut db = hsir_analysis::Database::new();
        let file = FileId(0);
        db.set_text(file, text.clone());
        let analysis = db.analysis();
        document_symbols(&analysis, file);
        folding_ranges(&analysis, file);
        // Name starts and a sample of other offsets.
        let offsets: Vec<TextSize> = text
            .char_indices()
            .filter(|&(i, c)| matches!(c, '%' | '^' | '@') || i % 97 == 0)
            .map(|(i, _)| TextSize::from(i as u32))
            .take(250)
            .collect();
        for chain in selection_ranges(&analysis, file, &offsets) {
            for window in chain.windows(2) {
                assert!(window[1].contains_range(window[0]), "{path:?}: {chain:?}");
            }
        }
        for &offset in &offsets {
            let pos = FilePosition { file, offset };
            navigation::definition(&analysis, pos);
            navigation::highlight(&analysis, pos);
            if let Ok(range) = navigation::prepare_rename(&analysis, pos) {
                assert!(text.is_char_boundary(range.start().into()), "{path:?}");
                navigation::rename(&analysis, pos, "renamed").ok();
            }
        }
    }
}

/// A function in MLIR's generic form is named by its `sym_name`, in the outline and in the
/// workspace's symbols, as in the custom form.
#[test]
fn outline_and_search_in_generic_form() {
    let text = r#""builtin.module"() ({
  "handshake.func"() ({
  ^bb0(%arg0: i32, %arg1: none):
    %0 = "handshake.buffer"(%arg0) {bufferType = #handshake<buffer_type_enum fifo>, slots = 2 : i32} : (i32) -> i32
    "handshake.return"(%0, %arg1) : (i32, none) -> ()
  }) {function_type = (i32, none) -> (i32, none), sym_name = "generic_kernel"} : () -> ()
}) : () -> ()
"#;
    check_outline(
        text,
        expect![[r#"
        Function @generic_kernel
          at 2:3 focus 6:51-6:78 `sym_name = "generic_kernel"`
          Block ^bb0 : (%arg0, %arg1)
            at 3:3 focus 3:3-3:7 `^bb0`
            Buffer %0 : fifo, 2 slots
              at 4:5 focus 4:10-4:28 `"handshake.buffer"`
    "#]],
    );
    let mut fixture = Fixture::parse(text);
    let analysis = fixture.db.analysis();
    let found = workspace_symbols(&analysis, "generic");
    assert_eq!(found.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["@generic_kernel"]);
}
