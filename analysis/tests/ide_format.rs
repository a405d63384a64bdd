//! Formatting (`ide::format`): snapshots of whole files (`test_data/ide/format/*.mlir` against
//! `*.mlir.expected`), small before/after cases, range requests, and the properties every
//! formatted file must have: the same tokens and parse errors, edits only outside broken items,
//! and a second run that changes nothing. The properties run on every corpus file, every
//! diagnostics fixture and every snapshot input, as written and with their whitespace scrambled.
//! Snapshots: `UPDATE_EXPECT=1 cargo test -p hsir-analysis --test ide_format`.

#[path = "../../test-support/shared.rs"]
mod shared;

use std::path::{Path, PathBuf};

use expect_test::{expect, expect_file, Expect};
use hsir_analysis::ide::format::{format, format_text, FormatOptions};
use hsir_analysis::ide::Fixture;
use hsir_analysis::{Parse, TextEdit, TextRange, TextSize};
use hsir_parser::ast::AstNode;

/// `text` with `edits` applied; the edits must be sorted and must not overlap.
fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    for edit in edits {
        let (start, end) = (usize::from(edit.range.start()), usize::from(edit.range.end()));
        assert!(start >= at, "edits overlap or are out of order at {start}: {edits:?}");
        assert!(end <= text.len() && start <= end, "edit out of the text: {edit:?}");
        out.push_str(&text[at..start]);
        out.push_str(&edit.new_text);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

fn formatted(text: &str, options: &FormatOptions) -> String {
    apply(text, &format_text(text, None, options))
}

const SNAPSHOTS: &[&str] = &["circt", "dynamatic", "pipeline", "loom", "messy", "broken"];

fn format_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/ide/format")
}

#[test]
fn snapshots() {
    for name in SNAPSHOTS {
        let text = std::fs::read_to_string(format_dir().join(format!("{name}.mlir")))
            .unwrap_or_else(|e| panic!("{name}.mlir: {e}"));
        let out = formatted(&text, &FormatOptions::default());
        expect_file![format!("../test_data/ide/format/{name}.mlir.expected")].assert_eq(&out);
    }
}

/// Formats the fixture and shows the result, with `·` for trailing blanks so they are visible,
/// and how many edits it took.
fn check_with(fixture: &str, options: &FormatOptions, expect: Expect) {
    let fixture = Fixture::parse(fixture);
    let file = fixture.files[0].1;
    let mut db = fixture.db;
    let analysis = db.analysis();
    let text = analysis.text(file).expect("the fixture's file").to_string();
    let range = fixture.selection.map(|s| s.range);
    let edits = format(&analysis, file, range, options);
    let out = apply(&text, &edits);
    let shown: Vec<String> = out
        .split('\n')
        .map(|line| {
            let kept = line.trim_end_matches([' ', '\t']);
            format!("{kept}{}", "·".repeat(line.len() - kept.len()))
        })
        .collect();
    expect.assert_eq(&format!("{}\n-- {} edit(s)\n", shown.join("\n"), edits.len()));
}

fn check(fixture: &str, expect: Expect) {
    check_with(fixture, &FormatOptions::default(), expect);
}

#[test]
fn spacing_within_a_line() {
    check(
        r#"%0:2=fork [2]%a:i32
%1 = "handshake.buffer"( %0#0 , %x ) {numSlots = 2 : i32}:( i32 , i32 )->i32
%2 = constant %c {value = 1 : i32} :<i32 , [e : i1 (U)]>
%3 = cmpi   ult,%a,%b  :   !handshake.channel  < i32 >
%4 = foo {a = {b = 1}, c = [ 1, 2 ], s = "two  spaces"} : memref< 4xi32 >
%5 = bar %a {x = #handshake<deps[ ["a", 1] ]>} : i32 loc( "f.mlir":1:2 )
%6 = hw.instance "x" sym @a::@b (a:%a : i32)-> (o:i32)
"#,
        expect![[r#"
            %0:2 = fork [2]%a : i32
            %1 = "handshake.buffer"(%0#0, %x) {numSlots = 2 : i32} : (i32, i32) -> i32
            %2 = constant %c {value = 1 : i32} : <i32, [e: i1 (U)]>
            %3 = cmpi ult, %a, %b : !handshake.channel<i32>
            %4 = foo {a = {b = 1}, c = [1, 2], s = "two  spaces"} : memref<4xi32>
            %5 = bar %a {x = #handshake<deps[ ["a", 1] ]>} : i32 loc( "f.mlir":1:2 )
            %6 = hw.instance "x" sym @a::@b (a: %a : i32) -> (o: i32)

            -- 32 edit(s)
        "#]],
    );
}

#[test]
fn glued_tokens_stay_apart_when_gluing_would_merge_them() {
    // `- >` glued would lex as `->`, so the space before a type's `>` stays there.
    check(
        "%0 = foo : !foo.t< - >\n%1 = foo : !foo.t< -1 >, memref< ? x i32 >\n",
        expect![[r#"
            %0 = foo : !foo.t<- >
            %1 = foo : !foo.t<-1>, memref<? x i32>

            -- 5 edit(s)
        "#]],
    );
}

#[test]
fn indentation_of_regions_labels_and_continuations() {
    check(
        r#"func.func @f(%a: i32,
                 %b: i32) -> i32 {
        %r = scf.execute_region -> i32 {
    cf.br ^bb1
              ^bb1:
      scf.yield %a : i32
                      }
  %s = "foo"() ({
    ^bb0(%x: i32):
  "foo.yield"(%x) : (i32) -> ()
    }) : () -> i32
return %r : i32
    }
"#,
        expect![[r#"
            func.func @f(%a: i32,
                             %b: i32) -> i32 {
              %r = scf.execute_region -> i32 {
                cf.br ^bb1
              ^bb1:
                scf.yield %a : i32
              }
              %s = "foo"() ({
              ^bb0(%x: i32):
                "foo.yield"(%x) : (i32) -> ()
              }) : () -> i32
              return %r : i32
            }

            -- 9 edit(s)
        "#]],
    );
}

#[test]
fn continuation_lines_move_with_their_op() {
    // The op moves 4 columns left, and its continuation lines with it; a closer may come back
    // to the op's column, anything else stays deeper than the op.
    check(
        r#"module {
      hw.module @m(
          in %a : i32,
          in %b : i32
      ) {
          %0 = comb.add %a,
        %b : i32
          hw.output
      }
}
"#,
        expect![[r#"
            module {
              hw.module @m(
                  in %a : i32,
                  in %b : i32
              ) {
                %0 = comb.add %a,
                  %b : i32
                hw.output
              }
            }

            -- 8 edit(s)
        "#]],
    );
}

#[test]
fn comments_blank_lines_and_the_end_of_the_file() {
    check(
        "\n\n// header   \nhandshake.func @f(%a: i32) -> i32 {   // after the brace\n\n\n\n      // before the op\n  %0 = buffer [1] seq %a : i32      // trailing\n        // before the closer\n  return %0 : i32\n    // at the end of the block\n}\n\n\n// last words",
        expect![[r#"
            // header···
            handshake.func @f(%a: i32) -> i32 {   // after the brace

              // before the op
              %0 = buffer [1] seq %a : i32      // trailing
              // before the closer
              return %0 : i32
              // at the end of the block
            }

            // last words

            -- 7 edit(s)
        "#]],
    );
}

#[test]
fn crlf_line_endings_are_kept() {
    let text =
        "handshake.func @f(%a: i32) -> i32 {  \r\n\r\n\r\n\r\n    return %a : i32 // r \r\n}";
    let out = formatted(text, &FormatOptions::default());
    assert_eq!(out, "handshake.func @f(%a: i32) -> i32 {\r\n\r\n  return %a : i32 // r \r\n}\r\n");
}

#[test]
fn split_markers_stay_as_written() {
    check(
        "  handshake.func @a() {\n}\n\n\n   // -----   \n\n\n// -----\n   handshake.func @b() {\n}\n",
        expect![[r#"
            handshake.func @a() {
            }

               // -----···

            // -----
            handshake.func @b() {
            }

            -- 4 edit(s)
        "#]],
    );
}

#[test]
fn indent_width_option() {
    check_with(
        "module {\nhandshake.func @f(%a: i32) -> i32 {\nreturn %a : i32\n}\n}\n",
        &FormatOptions { indent: 4 },
        expect![[r#"
            module {
                handshake.func @f(%a: i32) -> i32 {
                    return %a : i32
                }
            }

            -- 3 edit(s)
        "#]],
    );
}

#[test]
fn a_range_formats_only_the_lines_it_touches() {
    // The selection covers two lines of @b: only those are formatted, indented as @b wants
    // them; @b's header and its other lines, and @a and @c, are left as they are.
    check(
        r#"handshake.func @a(%x :i32) -> i32 {
        return %x : i32
}
handshake.func @b(%x :i32) -> i32 {
        %0 = buffer [1] seq $0%x : i32
        %1 = buffer [1]$0 seq %0 : i32
        return %1 : i32
}
handshake.func @c(%x :i32) -> i32 {
        return %x : i32
}
"#,
        expect![[r#"
            handshake.func @a(%x :i32) -> i32 {
                    return %x : i32
            }
            handshake.func @b(%x :i32) -> i32 {
              %0 = buffer [1] seq %x : i32
              %1 = buffer [1] seq %0 : i32
                    return %1 : i32
            }
            handshake.func @c(%x :i32) -> i32 {
                    return %x : i32
            }

            -- 2 edit(s)
        "#]],
    );
}

#[test]
fn a_range_in_a_broken_item_changes_nothing() {
    check(
        "handshake.func @f(%a :i32) -> i32 {\n      %0 = fork [1 $0%a : i32\n  return %a : i32\n",
        expect![[r#"
            handshake.func @f(%a :i32) -> i32 {
                  %0 = fork [1 %a : i32
              return %a : i32

            -- 0 edit(s)
        "#]],
    );
}

#[test]
fn files_are_told_apart() {
    let fixture = Fixture::parse("//- a.mlir\nmodule {\n}\n//- b.mlir\n  module {\n}\n");
    let mut db = fixture.db;
    let analysis = db.analysis();
    let options = FormatOptions::default();
    let a = format(&analysis, hsir_analysis::FileId(0), None, &options);
    let b = format(&analysis, hsir_analysis::FileId(1), None, &options);
    let missing = format(&analysis, hsir_analysis::FileId(7), None, &options);
    assert_eq!((a.len(), b.len(), missing.len()), (0, 1, 0));
}

#[test]
fn a_range_outside_items_formats_its_lines() {
    check(
        "// a   \n$0// b   \n$0// c   \n",
        expect![[r#"
            // a···
            // b···
            // c···

            -- 0 edit(s)
        "#]],
    );
}

#[test]
fn degenerate_texts() {
    for (text, want) in [
        ("", ""),
        ("   \n\n", ""),
        ("// only a comment", "// only a comment\n"),
        ("%", "%"),
        ("{", "{"),
        ("}\n\n\n}", "}\n\n\n}"),
        // The broken string is an item of its own; the op after it is not broken.
        ("\"unterminated   string\n  %0 = foo", "\"unterminated   string\n%0 = foo\n"),
        // Here the broken string is junk at the end of the op before it.
        ("  %0 = foo\n\"unterminated   string  \n", "  %0 = foo\n\"unterminated   string  \n"),
        ("handshake.func @f() {\n  return\n}", "handshake.func @f() {\n  return\n}\n"),
    ] {
        let out = formatted(text, &FormatOptions::default());
        assert_eq!(out, want, "formatting {text:?}");
        for at in 0..=text.len() {
            if text.is_char_boundary(at) {
                let range = TextRange::empty(TextSize::from(at as u32));
                let _ = format_text(text, Some(range), &FormatOptions::default());
            }
        }
    }
    // Hostile and half-typed inputs keep their tokens and format once, without panicking.
    let deep = format!("handshake.func @f() {{\n{}%0 = foo\n}}\n", "(".repeat(100_000));
    let many_regions = format!("{}\n{}", "module {\n".repeat(300), "}\n".repeat(300));
    for (name, text) in [
        ("deep brackets", deep.as_str()),
        ("deep regions", many_regions.as_str()),
        ("resource block", "{-#   dialect_resources: {   builtin: {} }\n  #-}\n  module {\n}\n"),
        (
            "half-typed op",
            "handshake.func @f(%a: i32) -> i32 {\n  %0 = fork [2\n  return %a : i32\n}\n",
        ),
        ("half-typed signature", "handshake.func @f(%a: i32,\n"),
        ("stray closers", ")  ]  }\n  handshake.func @f() {\n    return\n  }\n"),
        ("tabs and form feeds", "\thandshake.func @f()\t{\x0C\n\t\treturn\n}\n"),
    ] {
        check_properties(name, text);
    }

    let huge_indent = FormatOptions { indent: u32::MAX };
    assert_eq!(
        formatted("module {\nfunc.func @f() {\nreturn\n}\n}\n", &huge_indent),
        format!("module {{\n{0}func.func @f() {{\n{0}{0}return\n{0}}}\n}}\n", " ".repeat(16))
    );
}

// ---- properties ------------------------------------------------------------------------------

fn mlir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            mlir_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "mlir") {
            out.push(path);
        }
    }
}

/// Every corpus file, diagnostics fixture and snapshot input, decoded as the server would.
fn all_files() -> Vec<(PathBuf, String)> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    // Without the corpus (which says so), the fixtures alone.
    if let Some(corpus) = shared::path("corpus") {
        mlir_files(&corpus, &mut paths);
        let corpus = paths.len();
        assert!(corpus > 100, "expected the whole corpus, found {corpus} files");
    }
    mlir_files(&manifest.join("test_data/diagnostics"), &mut paths);
    mlir_files(&format_dir(), &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).expect("readable");
            let text = hsir_parser::decode(&bytes).0.into_owned();
            (path, text)
        })
        .collect()
}

/// The non-trivia tokens, the node kinds in preorder, and the errors without their ranges:
/// what must not change when only whitespace does.
fn shape(parse: &Parse) -> (Vec<String>, Vec<&'static str>, Vec<String>) {
    let tokens = parse
        .root()
        .tokens()
        .filter(|t| !t.kind().is_trivia())
        .map(|t| format!("{:?} {}", t.kind(), t.text()))
        .collect();
    let nodes = parse.root().descendants().map(|n| n.kind().name()).collect();
    let errors = parse.errors().iter().map(|e| format!("{:?} {}", e.kind, e.message)).collect();
    (tokens, nodes, errors)
}

/// The ranges no edit may touch: items with a syntax error.
fn broken_items(parse: &Parse) -> Vec<TextRange> {
    hsir_analysis::items(parse)
        .iter()
        .map(|op| op.syntax().text_range())
        .filter(|item| {
            parse
                .errors()
                .iter()
                .any(|e| e.range.start() <= item.end() && item.start() <= e.range.end())
        })
        .collect()
}

/// Formats `text` and checks every property; returns whether anything changed.
fn check_properties(name: &str, text: &str) -> bool {
    let options = FormatOptions::default();
    let edits = format_text(text, None, &options);
    let out = apply(text, &edits);
    let before = hsir_parser::parse(text);
    let after = hsir_parser::parse(out.as_str());
    let (tokens, nodes, errors) = shape(&before);
    let (tokens_after, nodes_after, errors_after) = shape(&after);
    assert!(tokens == tokens_after, "{name}: formatting changed the tokens");
    assert!(nodes == nodes_after, "{name}: formatting changed the tree");
    assert_eq!(errors, errors_after, "{name}: formatting changed the parse errors");
    for item in broken_items(&before) {
        for edit in &edits {
            let inside = edit.range.start() < item.end() && item.start() < edit.range.end()
                || item.contains_range(edit.range) && !edit.range.is_empty();
            assert!(!inside, "{name}: an edit {edit:?} touches the broken item at {item:?}");
        }
    }
    if errors.is_empty() && !text.trim().is_empty() {
        assert!(out.ends_with('\n') && !out.ends_with("\n\n"), "{name}: ends with one newline");
        for (n, line) in out.lines().enumerate() {
            assert!(
                line.trim_end() == line || line.contains("//"),
                "{name}:{}: trailing whitespace in {line:?}",
                n + 1
            );
        }
    }
    let again = format_text(&out, None, &options);
    assert!(
        again.is_empty(),
        "{name}: a second run still edits: {:?}",
        &again[..again.len().min(5)]
    );
    // Range requests give a subset of the whole-file edits.
    for item in hsir_analysis::items(&before).iter().step_by(3) {
        let range = TextRange::empty(item.syntax().text_range().start());
        for edit in format_text(text, Some(range), &options) {
            assert!(edits.contains(&edit), "{name}: range edit {edit:?} not in the file's edits");
        }
    }
    !edits.is_empty()
}

/// A deterministic scramble of a text's whitespace: each line indented anew, some spaces
/// doubled, trailing blanks, blank lines added if `blank_lines`; never a space removed or a line
/// break moved.
fn scramble(text: &str, seed: u64, blank_lines: bool) -> String {
    let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut next = move |n: u64| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) % n
    };
    let mut out = String::with_capacity(text.len() * 2);
    for line in text.split_inclusive('\n') {
        let body = line.trim_start_matches([' ', '\t']);
        if body.starts_with("// -----") {
            out.push_str(line);
            continue;
        }
        for _ in 0..next(10) {
            out.push(if next(4) == 0 { '\t' } else { ' ' });
        }
        // Double some of the spaces outside strings and comments.
        let mut in_string = false;
        let mut in_comment = false;
        let mut previous = '\0';
        for (at, c) in body.char_indices() {
            if c == '"' && !in_comment && previous != '\\' {
                in_string = !in_string;
            }
            if c == '/' && previous == '/' && !in_string {
                in_comment = true;
            }
            if c == '\n' && !in_string && !in_comment && next(3) == 0 {
                out.push_str("  ");
            }
            out.push(c);
            // Not before a comment: the blanks before a trailing comment are kept as written.
            let before_comment = body[at..].trim_start_matches(' ').starts_with("//");
            if c == ' ' && !in_string && !in_comment && !before_comment && next(3) == 0 {
                out.push(' ');
            }
            previous = c;
        }
        if blank_lines && line.ends_with('\n') && next(8) == 0 {
            out.push('\n');
        }
    }
    out
}

#[test]
fn every_file_keeps_its_tokens_and_formats_once() {
    let mut changed = 0;
    let files = all_files();
    for (path, text) in &files {
        let name = path.display().to_string();
        if check_properties(&name, text) {
            changed += 1;
        }
        for seed in 0..2 {
            let scrambled = scramble(text, seed, true);
            let edited = check_properties(&format!("{name} (scrambled, seed {seed})"), &scrambled);
            let has_errors = !hsir_parser::parse(text.as_str()).errors().is_empty();
            assert!(edited || has_errors, "{name}: the scrambled text needs edits");
        }
    }
    // Real printer output is mostly formatted already, but not all of it.
    let with_corpus = files.iter().any(|(path, _)| path.starts_with(shared::root()));
    if with_corpus {
        assert!(changed > 20, "only {changed} of {} files needed edits", files.len());
    }
}

#[test]
fn scrambled_well_formed_files_format_like_the_original() {
    // Where no line continues an op, indentation is decided by structure alone, so a scrambled
    // text formats to what the original formats to.
    for name in ["circt", "dynamatic", "loom", "pipeline"] {
        let text =
            std::fs::read_to_string(format_dir().join(format!("{name}.mlir"))).expect("read");
        let want = formatted(&text, &FormatOptions::default());
        for seed in 0..4 {
            let got = formatted(&scramble(&text, seed, false), &FormatOptions::default());
            assert_eq!(got, want, "{name} scrambled with seed {seed}");
        }
    }
}

/// The edits of a corpus file, one per line: `line:column "old" -> "new"`.
fn render_edits(text: &str, edits: &[TextEdit]) -> String {
    let mut out = String::new();
    for edit in edits {
        let start = usize::from(edit.range.start());
        let line = text[..start].matches('\n').count() + 1;
        let column = start - text[..start].rfind('\n').map_or(0, |at| at + 1) + 1;
        let old = &text[edit.range];
        out.push_str(&format!("{line}:{column} {old:?} -> {:?}\n", edit.new_text));
    }
    out
}

#[test]
fn a_corpus_file() {
    // Hand-written pipeline IR from CIRCT's tests: labels one space off, a missing space before
    // `{`, runs of blank lines.
    let Some(path) = shared::path("corpus/circt/Dialect-Pipeline__round-trip.mlir") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let edits = format_text(&text, None, &FormatOptions::default());
    expect![[r#"
        4:134 "" -> " "
        14:1 "\n" -> ""
        16:132 "" -> " "
        20:3 " " -> ""
        28:132 "" -> " "
        31:3 " " -> ""
        45:1 "\n\n" -> ""
        52:3 " " -> ""
        58:1 "\n" -> ""
        64:3 " " -> ""
        70:1 "\n" -> ""
        78:1 "\n" -> ""
        83:3 " " -> ""
        89:1 "\n" -> ""
        97:3 " " -> ""
        103:1 "\n" -> ""
        105:145 "" -> " "
        109:3 " " -> ""
        120:3 " " -> ""
        122:3 " " -> ""
        124:3 " " -> ""
        131:1 "\n" -> ""
        135:3 " " -> ""
    "#]]
    .assert_eq(&render_edits(&text, &edits));
}
