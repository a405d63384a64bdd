//! Completion: a table of fixtures, each with a `$0` cursor, rendered as the labels offered
//! (with kind, detail and what is inserted over which text).

#[path = "../../test-support/shared.rs"]
mod shared;

use expect_test::{expect, Expect};
use hsir_analysis::ide::completion::{completions, Completion, Insert};
use hsir_analysis::ide::Fixture;
use hsir_analysis::{Database, FileId, TextSize};

fn render(text: &str, items: &[Completion], limit: usize) -> String {
    let mut out = String::new();
    if let Some(first) = items.first() {
        out.push_str(&format!("replace {:?}\n", &text[first.replace]));
    }
    assert!(items.iter().all(|c| c.replace == items[0].replace));
    for c in items.iter().take(limit) {
        let insert = match &c.insert {
            Insert::Text(t) => format!("text {t:?}"),
            Insert::Snippet(s) => format!("snippet {s:?}"),
        };
        let detail = c.detail.as_deref().unwrap_or("");
        out.push_str(&format!("{:?} {} | {} | {}\n", c.kind, c.label, detail, insert));
    }
    if items.len() > limit {
        out.push_str(&format!("... {} more\n", items.len() - limit));
    }
    out
}

fn check_n(fixture: &str, limit: usize, expect: Expect) {
    let mut fixture = Fixture::parse(fixture);
    let cursor = fixture.cursor.expect("a $0 cursor");
    let analysis = fixture.db.analysis();
    let text = analysis.text(cursor.file).unwrap();
    let mut items = completions(&analysis, cursor);
    for c in &items {
        assert!(c.replace.end() == cursor.offset, "replace must end at the cursor");
    }
    // Show what an editor would list: the labels that start with the text typed so far.
    items.retain(|c| c.label.starts_with(&text[c.replace]));
    expect.assert_eq(&render(text, &items, limit));
}

fn check(fixture: &str, expect: Expect) {
    check_n(fixture, 8, expect)
}

const CIRCT: &str = r#"
handshake.func @f(%a: i32, %ctrl: none) -> (i32, none) {
  %fork:2 = fork [2] %a : i32
  %fo2 = buffer [2] seq %fork#0 : i32
  LINE
  return %fo2, %ctrl : i32, none
}
"#;

fn circt(line: &str) -> String {
    CIRCT.replace("LINE", line)
}

#[test]
fn circt_op_after_eq() {
    check(
        &circt("%x = fo$0"),
        expect![[r#"
        replace "fo"
        Op fork | handshake | snippet "fork [${1:2}] ${2:%x} : ${3:i32}"
    "#]],
    );
}

#[test]
fn circt_values() {
    check(
        &circt("%x = merge %fo$0"),
        expect![[r#"
        replace "%fo"
        Value %fork#0 | i32 | text "%fork#0"
        Value %fork#1 | i32 | text "%fork#1"
        Value %fo2 | i32 | text "%fo2"
    "#]],
    );
}

#[test]
fn circt_types() {
    check(
        &circt("sink %fork#1 : $0"),
        expect![[r#"
        replace ""
        Type i1 | 1-bit integer | text "i1"
        Type i32 | 32-bit integer | text "i32"
        Type i64 | 64-bit integer | text "i64"
        Type index | index | text "index"
        Type f32 | 32-bit float | text "f32"
        Type none | CIRCT control (dataless channel) | text "none"
        Type memref<16xi32> | memory reference | snippet "memref<${1:16}x${2:i32}>"
        Type !handshake.channel<i32> | Dynamatic channel | snippet "!handshake.channel<${1:i32}>"
        ... 5 more
    "#]],
    );
}

#[test]
fn circt_start_of_line_offers_ops_with_circt_types() {
    check_n(
        &circt("$0"),
        3,
        expect![[r#"
            replace ""
            Op fork | handshake | snippet "fork [${1:2}] ${2:%x} : ${3:i32}"
            Op lazy_fork | handshake | snippet "lazy_fork [${1:2}] ${2:%x} : ${3:i32}"
            Op join | handshake | snippet "join ${1:%a}, ${2:%b} : ${3:none}, ${4:none}"
            ... 67 more
        "#]],
    );
}

#[test]
fn circt_operand_after_op_name_and_comma() {
    check(
        &circt("%m = merge %fork#1, $0"),
        expect![[r#"
        replace ""
        Value %a | i32 | text "%a"
        Value %ctrl | none | text "%ctrl"
        Value %fork#0 | i32 | text "%fork#0"
        Value %fork#1 | i32 | text "%fork#1"
        Value %fo2 | i32 | text "%fo2"
    "#]],
    );
}

#[test]
fn operands_after_the_ops_bracket() {
    check(
        &circt("%y:2 = fork [2] $0"),
        expect![[r#"
        replace ""
        Value %a | i32 | text "%a"
        Value %ctrl | none | text "%ctrl"
        Value %fork#0 | i32 | text "%fork#0"
        Value %fork#1 | i32 | text "%fork#1"
        Value %fo2 | i32 | text "%fo2"
    "#]],
    );
    // With the cursor after the sigil of an operand already written (Dynamatic's gaussian).
    check(
        &circt("%y:2 = fork [2] %$0a"),
        expect![[r#"
        replace "%"
        Value %a | i32 | text "%a"
        Value %ctrl | none | text "%ctrl"
        Value %fork#0 | i32 | text "%fork#0"
        Value %fork#1 | i32 | text "%fork#1"
        Value %fo2 | i32 | text "%fo2"
    "#]],
    );
    check(
        &circt("%z = buffer [2] fifo %f$0"),
        expect![[r#"
        replace "%f"
        Value %fork#0 | i32 | text "%fork#0"
        Value %fork#1 | i32 | text "%fork#1"
        Value %fo2 | i32 | text "%fo2"
    "#]],
    );
}

#[test]
fn inside_the_ops_bracket_nothing() {
    check(&circt("%y:2 = fork [$0"), expect![[r#""#]]);
}

#[test]
fn type_position_offers_no_ops_and_no_values() {
    check_n(
        &circt("%m = merge %fork#1 : (i32, $0"),
        3,
        expect![[r#"
        replace ""
        Type i1 | 1-bit integer | text "i1"
        Type i32 | 32-bit integer | text "i32"
        Type i64 | 64-bit integer | text "i64"
        ... 10 more
    "#]],
    );
}

#[test]
fn after_a_value_nothing() {
    check(&circt("sink %fork#1 $0"), expect![[r#""#]]);
}

const DYNAMATIC: &str = r#"
module {
  handshake.func @g(%a: !handshake.channel<i32>, %start: !handshake.control<>, ...) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "end"]} {
    %b = buffer %a {hw.parameters = {NUM_SLOTS = 1 : ui32, BUFFER_TYPE = "ONE_SLOT_BREAK_R"}} : <i32>
    LINE
    end %b, %start : <i32>, <>
  }
}
"#;

fn dynamatic(line: &str) -> String {
    DYNAMATIC.replace("LINE", line)
}

#[test]
fn dynamatic_ops_use_dynamatic_spellings() {
    check_n(
        &dynamatic("%c:2 = $0"),
        12,
        expect![[r#"
        replace ""
        Op fork | handshake | snippet "fork [${1:2}] ${2:%x} : ${3:<i32>}"
        Op lazy_fork | handshake | snippet "lazy_fork [${1:2}] ${2:%x} : ${3:<i32>}"
        Op join | handshake | snippet "join ${1:%a}, ${2:%b} : ${3:<>}"
        Op merge | handshake | snippet "merge ${1:%a}, ${2:%b} : ${3:<i32>}"
        Op mux | handshake | snippet "mux ${1:%sel} [${2:%a}, ${3:%b}] : ${4:<i1>}, [${5:<i32>}, ${5:<i32>}] to ${5:<i32>}"
        Op control_merge | handshake | snippet "control_merge [${1:%a}, ${2:%b}] : [${3:<>}, ${3:<>}] to ${3:<>}, ${4:<i1>}"
        Op br | handshake | snippet "br ${1:%x} : ${2:<i32>}"
        Op cond_br | handshake | snippet "cond_br ${1:%cond}, ${2:%x} : ${3:<i1>}, ${4:<i32>}"
        Op sink | handshake | snippet "sink ${1:%x} : ${2:<i32>}"
        Op source | handshake | snippet "source : <>"
        Op constant | handshake | snippet "constant ${1:%ctrl} {value = ${2:0} : ${3:i32}} : <>, <${3:i32}>"
        Op buffer | handshake | snippet "buffer ${1:%x} {hw.parameters = {BUFFER_TYPE = \"${2:ONE_SLOT_BREAK_DV}\", NUM_SLOTS = ${3:1} : ui32}} : ${4:<i32>}"
        ... 77 more
    "#]],
    );
}

#[test]
fn dynamatic_types_come_first_in_a_dynamatic_function() {
    check(
        &dynamatic("sink %b : $0"),
        expect![[r#"
        replace ""
        Type !handshake.channel<i32> | Dynamatic channel | snippet "!handshake.channel<${1:i32}>"
        Type !handshake.control<> | Dynamatic control (dataless channel) | text "!handshake.control<>"
        Type <i32> | Dynamatic channel, short form | snippet "<${1:i32}>"
        Type <> | Dynamatic control, short form | text "<>"
        Type i1 | 1-bit integer | text "i1"
        Type i32 | 32-bit integer | text "i32"
        Type i64 | 64-bit integer | text "i64"
        Type index | index | text "index"
        ... 5 more
    "#]],
    );
}

#[test]
fn types_inside_angle_brackets_are_data_types() {
    check(
        &dynamatic("sink %b : !handshake.channel<$0"),
        expect![[r#"
        replace ""
        Type i1 | 1-bit integer | text "i1"
        Type i32 | 32-bit integer | text "i32"
        Type i64 | 64-bit integer | text "i64"
        Type index | index | text "index"
        Type f32 | 32-bit float | text "f32"
    "#]],
    );
}

#[test]
fn bang_prefix_filters_types() {
    check(
        &dynamatic("sink %b : !hand$0"),
        expect![[r#"
        replace "!hand"
        Type !handshake.channel<i32> | Dynamatic channel | snippet "!handshake.channel<${1:i32}>"
        Type !handshake.control<> | Dynamatic control (dataless channel) | text "!handshake.control<>"
    "#]],
    );
}

#[test]
fn buffer_type_names_quoted_and_bare() {
    check(
        &dynamatic(
            r#"%c = buffer %b {hw.parameters = {NUM_SLOTS = 1 : ui32, BUFFER_TYPE = "ONE$0"}} : <i32>"#,
        ),
        expect![[r#"
            replace "ONE"
            BufferType ONE_SLOT_BREAK_DV | D: 1, V: 1, R: 0 | text "ONE_SLOT_BREAK_DV"
            BufferType ONE_SLOT_BREAK_R | D: 0, V: 0, R: 1 | text "ONE_SLOT_BREAK_R"
            BufferType ONE_SLOT_BREAK_DVR | D: 1, V: 1, R: 1 | text "ONE_SLOT_BREAK_DVR"
        "#]],
    );
    check(
        &dynamatic(r#"%c = buffer %b {hw.parameters = {BUFFER_TYPE = $0"#),
        expect![[r#"
        replace ""
        BufferType ONE_SLOT_BREAK_DV | D: 1, V: 1, R: 0 | text "\"ONE_SLOT_BREAK_DV\""
        BufferType ONE_SLOT_BREAK_R | D: 0, V: 0, R: 1 | text "\"ONE_SLOT_BREAK_R\""
        BufferType ONE_SLOT_BREAK_DVR | D: 1, V: 1, R: 1 | text "\"ONE_SLOT_BREAK_DVR\""
        BufferType FIFO_BREAK_DV | D: 1, V: 1, R: 0 | text "\"FIFO_BREAK_DV\""
        BufferType FIFO_BREAK_NONE | D: 0, V: 0, R: 0 | text "\"FIFO_BREAK_NONE\""
        BufferType SHIFT_REG_BREAK_DV | D: 1, V: 1, R: 0 | text "\"SHIFT_REG_BREAK_DV\""
    "#]],
    );
    check(
        &dynamatic("%c = buffer %b, bufferType = FI$0"),
        expect![[r#"
        replace "FI"
        BufferType FIFO_BREAK_DV | D: 1, V: 1, R: 0 | text "FIFO_BREAK_DV"
        BufferType FIFO_BREAK_NONE | D: 0, V: 0, R: 0 | text "FIFO_BREAK_NONE"
    "#]],
    );
}

#[test]
fn timing_follows_the_written_buffer_type() {
    check(
        &dynamatic(
            r#"%c = buffer %b {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_DV", NUM_SLOTS = 2 : ui32, TIMING = $0}} : <i32>"#,
        ),
        expect![[r##"
            replace ""
            Attribute #handshake<timing {D: 1, V: 1, R: 0}> | the latencies of FIFO_BREAK_DV | text "#handshake<timing {D: 1, V: 1, R: 0}>"
        "##]],
    );
    check(&dynamatic("%c = buffer %b {hw.parameters = {TIMING = $0}} : <i32>"), expect![[r#""#]]);
}

#[test]
fn attribute_keys_suit_the_op() {
    check(
        &dynamatic("%c = buffer %b {$0"),
        expect![[r#"
        replace ""
        Attribute hw.parameters |  | text "hw.parameters = "
        Attribute handshake.name |  | text "handshake.name = "
        Attribute handshake.bb |  | text "handshake.bb = "
    "#]],
    );
    check(
        &dynamatic("%c = buffer %b {hw.parameters = {$0"),
        expect![[r#"
        replace ""
        Attribute BUFFER_TYPE |  | text "BUFFER_TYPE = "
        Attribute NUM_SLOTS |  | text "NUM_SLOTS = "
        Attribute TIMING |  | text "TIMING = "
    "#]],
    );
    check(
        &dynamatic("%c = constant %start {$0"),
        expect![[r#"
        replace ""
        Attribute value |  | text "value = "
        Attribute handshake.name |  | text "handshake.name = "
        Attribute handshake.bb |  | text "handshake.bb = "
    "#]],
    );
    check(
        &dynamatic("%i, %w = dataflow.stream %x, %y, %z {step_op = \"+=\", $0"),
        expect![[r#"
        replace ""
        Attribute step_op |  | text "step_op = "
        Attribute cont_cond |  | text "cont_cond = "
        Attribute handshake.name |  | text "handshake.name = "
        Attribute handshake.bb |  | text "handshake.bb = "
    "#]],
    );
    check(
        &dynamatic("%ld, %d1, %d2 = extmemory [$0"),
        expect![[r#"
        replace ""
        Attribute ld |  | text "ld = "
        Attribute st |  | text "st = "
    "#]],
    );
}

#[test]
fn function_attribute_keys() {
    check(
        "handshake.func @f(%a: i32, %ctrl: none) -> (i32, none) attributes {$0",
        expect![[r#"
            replace ""
            Attribute argNames |  | text "argNames = "
            Attribute resNames |  | text "resNames = "
        "#]],
    );
}

#[test]
fn symbols_are_the_workspace_functions_of_the_same_case() {
    check(
        r#"//- main.mlir
handshake.func @callee(%a: i32, %ctrl: none) -> (i32, none) {
  return %a, %ctrl : i32, none
}
handshake.func @caller(%a: i32, %ctrl: none) -> (i32, none) {
  %r:2 = instance @ca$0
}
// -----
handshake.func @other_case(%a: i32) -> (i32) {
  return %a : i32
}
//- lib.mlir
handshake.func @library(%x: !handshake.channel<i8>) -> (!handshake.channel<i8>) {
  end %x : <i8>
}
"#,
        expect![[r#"
            replace "@ca"
            Symbol @callee | handshake.func (i32, none) -> (i32, none) | text "@callee"
            Symbol @caller | handshake.func (i32, none) -> (i32, none) | text "@caller"
        "#]],
    );
}

#[test]
fn a_function_name_being_defined_gets_no_symbols() {
    check("handshake.func @$0", expect![[r#""#]]);
}

const PIPELINE: &str = r#"
hw.module @p(in %arg0 : i32, in %ext : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    %c1 = hw.constant 1 : i32
    %0 = comb.add %a0, %c1 : i32
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %1 = pipeline.src %0 : i32
    LINE
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}
"#;

fn pipeline(line: &str) -> String {
    PIPELINE.replace("LINE", line)
}

#[test]
fn pipeline_stage_sees_its_block_constants_and_the_outside() {
    check_n(
        &pipeline("%2 = comb.add %$0"),
        20,
        expect![[r#"
        replace "%"
        Value %arg0 | i32 | text "%arg0"
        Value %ext | i32 | text "%ext"
        Value %go | i1 | text "%go"
        Value %clk | !seq.clock | text "%clk"
        Value %rst | i1 | text "%rst"
        Value %c1 |  | text "%c1"
        Value %s1_enable | i1 | text "%s1_enable"
        Value %1 |  | text "%1"
    "#]],
    );
}

#[test]
fn pipeline_src_reads_other_stages() {
    check_n(
        &pipeline("%2 = pipeline.src %$0"),
        20,
        expect![[r#"
        replace "%"
        Value %arg0 | i32 | text "%arg0"
        Value %ext | i32 | text "%ext"
        Value %go | i1 | text "%go"
        Value %clk | !seq.clock | text "%clk"
        Value %rst | i1 | text "%rst"
        Value %a0 | i32 | text "%a0"
        Value %s0_enable | i1 | text "%s0_enable"
        Value %c1 |  | text "%c1"
        Value %0 |  | text "%0"
        Value %s1_enable | i1 | text "%s1_enable"
        Value %1 |  | text "%1"
    "#]],
    );
}

#[test]
fn pipeline_ops_and_blocks() {
    check(
        &pipeline("$0"),
        expect![[r#"
        replace ""
        Op pipeline.stage | pipeline | snippet "pipeline.stage ^${1:bb1}"
        Op pipeline.return | pipeline | snippet "pipeline.return ${1:%x} : ${2:i32}"
        Op pipeline.latency | pipeline | snippet "pipeline.latency ${1:1} -> (${2:i32}) {\n  $0\n  pipeline.latency.return ${3:%x} : ${2:i32}\n}"
        Op pipeline.src | pipeline | snippet "pipeline.src ${1:%x} : ${2:i32}"
    "#]],
    );
    check(
        &pipeline("pipeline.stage ^$0"),
        expect![[r#"
        replace "^"
        Block ^bb1 | (i1) | text "^bb1"
    "#]],
    );
    check(
        &pipeline("%2 = comb.add %1, %ext : $0"),
        expect![[r#"
        replace ""
        Type i1 | 1-bit integer | text "i1"
        Type i32 | 32-bit integer | text "i32"
        Type i64 | 64-bit integer | text "i64"
        Type index | index | text "index"
        Type f32 | 32-bit float | text "f32"
        Type none | CIRCT control (dataless channel) | text "none"
        Type memref<16xi32> | memory reference | snippet "memref<${1:16}x${2:i32}>"
        Type !handshake.channel<i32> | Dynamatic channel | snippet "!handshake.channel<${1:i32}>"
        ... 5 more
    "#]],
    );
}

#[test]
fn hw_module_body_offers_the_pipeline_header() {
    check(
        "hw.module @m(in %a : i32, out o : i32) {\n  $0\n  hw.output %a : i32\n}\n",
        expect![[r#"
            replace ""
            Op pipeline.scheduled | pipeline | snippet "pipeline.scheduled(${1:%a0} : ${2:i32} = ${3:%arg0}) clock(${4:%clk}) reset(${5:%rst}) go(${6:%go}) entryEn(${7:%s0_enable}) -> (${8:out} : ${2:i32}) {\n  $0\n}"
            Op hw.output | hw | snippet "hw.output ${1:%x} : ${2:i32}"
            Op hw.instance | hw | snippet "hw.instance \"${1:name}\" @${2:module}(${3:a}: ${4:%x}: ${5:i32}) -> (${6:out}: ${7:i32})"
        "#]],
    );
}

#[test]
fn loom_ops_in_a_circt_function() {
    check_n(
        &circt("%v, %c = dataflow.$0"),
        40,
        expect![[r#"
        replace "dataflow."
        Op dataflow.stream | LOOM dataflow | snippet "dataflow.stream ${1:%start}, ${2:%step}, ${3:%bound} {step_op = \"${4:+=}\", cont_cond = \"${5:<}\"} : (index, index, index) -> (index, i1)"
        Op dataflow.gate | LOOM dataflow | snippet "dataflow.gate ${1:%value}, ${2:%cond} : ${3:index}, i1 -> ${3:index}, i1"
        Op dataflow.carry | LOOM dataflow | snippet "dataflow.carry ${1:%cond}, ${2:%init}, ${3:%next} : i1, ${4:none}, ${4:none} -> ${4:none}"
        Op dataflow.invariant | LOOM dataflow | snippet "dataflow.invariant ${1:%cond}, ${2:%value} : i1, ${3:i32} -> ${3:i32}"
    "#]],
    );
}

#[test]
fn dominance_regions_see_only_earlier_values() {
    check(
        r#"func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %c = arith.addi %b, %$0
  %d = arith.addi %c, %a : i32
  return %d : i32
}
"#,
        expect![[r#"
            replace "%"
            Value %a | i32 | text "%a"
            Value %b |  | text "%b"
        "#]],
    );
}

#[test]
fn top_level_offers_items() {
    check(
        "// a file\n$0\n",
        expect![[r#"
        replace ""
        Op handshake.func | handshake | snippet "handshake.func @${1:name}(${2:%a}: ${3:i32}, ${4:%ctrl}: none) -> (${3:i32}, none) {\n  $0\n}"
        Op hw.module | hw | snippet "hw.module @${1:name}(in %${2:a} : ${3:i32}, out ${4:out} : ${3:i32}) {\n  $0\n}"
        Op module | builtin | snippet "module {\n  $0\n}"
    "#]],
    );
}

/// Every position of a corpus file (and of broken texts) is safe to complete at, and what
/// comes back replaces a range that ends at the cursor.
#[test]
fn completion_never_panics_on_the_corpus_and_broken_text() {
    let mut texts = vec![
        String::new(),
        "%".to_string(),
        "handshake.func @f(%a: i32".to_string(),
        "handshake.func @f(%a: i32) -> i32 {\n  %0 = fork [2 %a : <i32\n  \"unterminated\n}"
            .to_string(),
        "é %ü = \"ß".to_string(),
    ];
    // The broken texts alone without the corpus (which says so).
    for name in
        ["corpus/dynamatic/Handshake__ops.mlir", "corpus/circt/Dialect-Pipeline__round-trip.mlir"]
    {
        if let Some(path) = shared::path(name) {
            texts.push(std::fs::read_to_string(path).unwrap());
        }
    }
    for text in texts {
        let mut db = Database::new();
        db.set_text(FileId(0), text.clone());
        let analysis = db.analysis();
        // Every position of small texts; every 7th byte of larger ones.
        let step = if text.len() < 200 { 1 } else { 7 };
        for offset in (0..=text.len() + 1).step_by(step) {
            let pos = hsir_analysis::ide::FilePosition {
                file: FileId(0),
                offset: TextSize::from(offset as u32),
            };
            for c in completions(&analysis, pos) {
                assert!(c.replace.end() <= TextSize::of(text.as_str()));
                assert!(c.replace.start() <= c.replace.end());
            }
        }
    }
}

/// A corpus function: inside its body, `fork` is offered in Dynamatic spelling and the values
/// offered after an op name are the function's, typed.
#[test]
fn corpus_function_values() {
    let Some(path) = shared::path("corpus/dynamatic/Handshake__ops.mlir") else { return };
    let text = std::fs::read_to_string(path).unwrap();
    let at = text.find("\n  end ").expect("an end op") + 1;
    let mut with_cursor = text.clone();
    with_cursor.insert_str(at, "  sink $0\n");
    check_n(
        &with_cursor,
        5,
        expect![[r#"
        replace ""
        Value %ctrl | <> | text "%ctrl"
        Value %valid | i1 | text "%valid"
        Value %ctrlAgain | <> | text "%ctrlAgain"
        Value %ready | i1 | text "%ready"
    "#]],
    );
}

/// The snippet table names only ops the signatures know, so completion and checking agree.
#[test]
fn offered_handshake_ops_are_known_to_the_checks() {
    let mut fixture = Fixture::parse(&circt("%x = $0"));
    let cursor = fixture.cursor.unwrap();
    let analysis = fixture.db.analysis();
    let offered = completions(&analysis, cursor);
    assert!(offered.len() > 40);
    for c in offered {
        assert!(
            hsir_analysis::ops::OpKind::from_name(&c.label).is_some(),
            "{} is offered but unknown to the checks",
            c.label
        );
    }
}

/// The ops offered are those of the function's era: Dynamatic 2024's accesses and buffers in a
/// 2024 function (`mc_load`, `oehb`), 2025's `load` and `buffer` in a 2025 one.
#[test]
fn ops_offered_follow_the_era() {
    let labels = |fixture: &str| -> Vec<String> {
        let mut f = Fixture::parse(fixture);
        let cursor = f.cursor.unwrap();
        let analysis = f.db.analysis();
        completions(&analysis, cursor).into_iter().map(|c| c.label).collect()
    };
    let era2024 = labels("handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> !handshake.channel<i32> {\n  %b = oehb [1] %a : <i32>\n  %x = $0\n  end %b : <i32>\n}");
    let era2025 = labels("handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> !handshake.channel<i32> {\n  %b = buffer %a {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>\n  %x = $0\n  end %b : <i32>\n}");
    let has = |list: &[String], name: &str| list.iter().any(|l| l == name);
    for name in ["mc_load", "lsq_store", "oehb", "tehb"] {
        assert!(has(&era2024, name), "{name} in 2024: {era2024:?}");
        assert!(!has(&era2025, name), "{name} in 2025");
    }
    for name in ["load", "store", "buffer"] {
        assert!(has(&era2025, name), "{name} in 2025: {era2025:?}");
        assert!(!has(&era2024, name), "{name} in 2024");
    }
}
