//! Hover data of buffers (`lints::buffer_hover`) in the three buffer syntaxes, on small
//! fixtures with a `$0` cursor on the buffer. Snapshots: `UPDATE_EXPECT=1 cargo test`.

use expect_test::{expect, Expect};
use hsir_analysis::ir::{self, Item, OpId};
use hsir_analysis::lints::{buffer_hover, BufferHover, Signal};
use hsir_analysis::TextSize;
use hsir_parser::ast::AstNode;

/// The hover of the innermost op at the cursor, rendered.
fn check(fixture: &str, expect: Expect) {
    let cursor = fixture.find("$0").expect("the fixture has a `$0` cursor");
    let text = fixture.replacen("$0", "", 1);
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    let cursor = TextSize::from(cursor as u32);
    let node = hsir_analysis::items(&parse)
        .into_iter()
        .find(|op| op.syntax().text_range().contains(cursor))
        .expect("the cursor is in an item");
    let at = cursor - node.syntax().text_range().start();
    let item = ir::lower(node);
    let op = (1..item.ops.len() as OpId)
        .filter(|&op| item.ops[op as usize].range.contains(at))
        .min_by_key(|&op| item.ops[op as usize].range.len())
        .expect("the cursor is on an op");
    let hover = buffer_hover(&item, op).expect("the op is a buffer");
    expect.assert_eq(&render(&item, &hover));
}

fn render(item: &Item, hover: &BufferHover) -> String {
    let signals = |signals: &[Signal]| {
        let names: Vec<&str> = signals.iter().map(|s| s.name()).collect();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    };
    let name = |op: OpId| {
        let data = &item.ops[op as usize];
        let result = item.results(data).first().map_or("?".to_string(), |&v| {
            item.values[v as usize].display(item, ir::group_len(item, v))
        });
        let this = if op == hover.info.op { " (this)" } else { "" };
        format!("{result} = {}{this}", data.short_name())
    };
    let chain: Vec<String> = hover.channel_buffers.iter().map(|&op| name(op)).collect();
    format!(
        "syntax: {:?}\ntype: {}\nlegacy name: {}\nslots: {}\nlatency: {}\nbreaks: {}\nbypasses: {}\nchannel: {}\nchannel latency: {}\n",
        hover.info.syntax,
        hover.type_name.as_deref().unwrap_or("none"),
        hover.legacy_name.unwrap_or("none"),
        hover.slots.map_or("unknown".to_string(), |n| n.to_string()),
        hover.latency,
        signals(&hover.breaks),
        signals(&hover.bypasses),
        chain.join(" -> "),
        hover.channel_latency,
    )
}

#[test]
fn hw_parameters() {
    check(
        r#"
handshake.func @f(%a: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.channel<i1>, !handshake.control<>) {
  %0 = $0buffer %a {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_DV", NUM_SLOTS = 4 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i1>
  end %0, %start : <i1>, <>
}
"#,
        expect![[r#"
            syntax: HwParameters
            type: FIFO_BREAK_DV
            legacy name: elastic_fifo_inner
            slots: 4
            latency: D: 1, V: 1, R: 0
            breaks: data, valid
            bypasses: ready
            channel: %0 = buffer (this)
            channel latency: D: 1, V: 1, R: 0
        "#]],
    );
}

#[test]
fn inline() {
    check(
        r#"
handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a, bufferType = ONE_SLOT_BREAK_R, $0numSlots = 1 : <i32>
  end %0, %start : <i32>, <>
}
"#,
        expect![[r#"
            syntax: Inline
            type: ONE_SLOT_BREAK_R
            legacy name: TEHB
            slots: 1
            latency: D: 0, V: 0, R: 1
            breaks: ready
            bypasses: data, valid
            channel: %0 = buffer (this)
            channel latency: D: 0, V: 0, R: 1
        "#]],
    );
}

#[test]
fn shift_register_latency_is_its_slot_count() {
    check(
        r#"
handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = $0buffer %a, bufferType = SHIFT_REG_BREAK_DV, numSlots = 3, dvLatency = 3 : <i32>
  end %0, %start : <i32>, <>
}
"#,
        expect![[r#"
            syntax: Inline
            type: SHIFT_REG_BREAK_DV
            legacy name: none
            slots: 3
            latency: D: 3, V: 3, R: 0
            breaks: data, valid
            bypasses: ready
            channel: %0 = buffer (this)
            channel latency: D: 3, V: 3, R: 0
        "#]],
    );
}

#[test]
fn circt_seq_and_fifo() {
    check(
        r#"
handshake.func @f(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = buffer [2] seq %a {initValues = [0, 1]} : i32
  %1 = buffer [4] $0fifo %0 : i32
  return %1, %ctrl : i32, none
}
"#,
        expect![[r#"
            syntax: Circt
            type: fifo
            legacy name: none
            slots: 4
            latency: D: 1, V: 1, R: 0
            breaks: data, valid
            bypasses: ready
            channel: %0 = buffer -> %1 = buffer (this)
            channel latency: D: 3, V: 3, R: 2
        "#]],
    );
}

#[test]
fn legacy_name() {
    check(
        r#"
handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "$0TEHB", NUM_SLOTS = 1 : ui32}} : <i32>
  end %0, %start : <i32>, <>
}
"#,
        expect![[r#"
            syntax: HwParameters
            type: ONE_SLOT_BREAK_R
            legacy name: TEHB
            slots: 1
            latency: D: 0, V: 0, R: 1
            breaks: ready
            bypasses: data, valid
            channel: %0 = buffer (this)
            channel latency: D: 0, V: 0, R: 1
        "#]],
    );
}

/// FPL22's mapping of a channel that breaks D, V and R with three slots: ONE_SLOT_BREAK_DV,
/// then FIFO_BREAK_NONE, then ONE_SLOT_BREAK_R. The chain runs from the first producer that is
/// not a buffer (`addi`) to the first consumer that is not one (`end`), whichever buffer the
/// cursor is on, and mixes syntaxes.
#[test]
fn chain_of_buffers() {
    let chain = |cursor_on: usize| {
        let lines = [
            "%1 = buffer %0, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>",
            "%2 = buffer %1 {hw.parameters = {BUFFER_TYPE = \"FIFO_BREAK_NONE\", NUM_SLOTS = 2 : ui32}} : <i32>",
            "%3 = buffer %2, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>",
        ];
        let body: Vec<String> = lines
            .iter()
            .enumerate()
            .map(|(i, l)| if i == cursor_on { format!("  $0{l}") } else { format!("  {l}") })
            .collect();
        format!(
            "handshake.func @f(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {{\n  %0 = addi %a, %b : <i32>\n{}\n  end %3, %start : <i32>, <>\n}}\n",
            body.join("\n")
        )
    };
    check(
        &chain(1),
        expect![[r#"
            syntax: HwParameters
            type: FIFO_BREAK_NONE
            legacy name: TFIFO
            slots: 2
            latency: D: 0, V: 0, R: 0
            breaks: none
            bypasses: data, valid, ready
            channel: %1 = buffer -> %2 = buffer (this) -> %3 = buffer
            channel latency: D: 1, V: 1, R: 1
        "#]],
    );
    check(
        &chain(0),
        expect![[r#"
            syntax: Inline
            type: ONE_SLOT_BREAK_DV
            legacy name: OEHB
            slots: 1
            latency: D: 1, V: 1, R: 0
            breaks: data, valid
            bypasses: ready
            channel: %1 = buffer (this) -> %2 = buffer -> %3 = buffer
            channel latency: D: 1, V: 1, R: 1
        "#]],
    );
}

/// Buffers that close a ring among themselves: each is counted once.
#[test]
fn ring_of_buffers() {
    check(
        r#"
handshake.func @f(%start: !handshake.control<>) -> (!handshake.control<>) {
  %0 = buffer %1, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <>
  %1 = $0buffer %0, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <>
  end %start : <>
}
"#,
        expect![[r#"
            syntax: Inline
            type: ONE_SLOT_BREAK_R
            legacy name: TEHB
            slots: 1
            latency: D: 0, V: 0, R: 1
            breaks: ready
            bypasses: data, valid
            channel: %0 = buffer -> %1 = buffer (this)
            channel latency: D: 1, V: 1, R: 1
        "#]],
    );
}

/// Dynamatic 2025's IR, before the type names: `NUM_SLOTS` and `TIMING` imply the type its RTL
/// backend chose (`{R: 1}` with five slots is a transparent FIFO, which breaks no path).
#[test]
fn timing_without_a_type() {
    check(
        r#"
handshake.func @f(%a: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) {
  %0 = $0buffer %a {hw.parameters = {NUM_SLOTS = 5 : ui32, TIMING = #handshake<timing {R: 1}>}} : <>
  end %0, %start : <>, <>
}
"#,
        expect![[r#"
            syntax: HwParameters
            type: FIFO_BREAK_NONE
            legacy name: TFIFO
            slots: 5
            latency: D: 0, V: 0, R: 0
            breaks: none
            bypasses: data, valid, ready
            channel: %0 = buffer (this)
            channel latency: D: 0, V: 0, R: 0
        "#]],
    );
}

/// An `init` is configured like a buffer, and is not one of a chain.
#[test]
fn init() {
    check(
        r#"
handshake.func @f(%c: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.channel<i1>, !handshake.control<>) {
  %0 = buffer %c, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i1>
  %1 = $0init %0 {hw.parameters = {INITIAL_TOKEN = 0 : i1, BUFFER_TYPE = "ONE_SLOT_BREAK_DV"}} : <i1>
  end %1, %start : <i1>, <>
}
"#,
        expect![[r#"
            syntax: HwParameters
            type: ONE_SLOT_BREAK_DV
            legacy name: OEHB
            slots: unknown
            latency: D: 1, V: 1, R: 0
            breaks: data, valid
            bypasses: ready
            channel: %0 = buffer -> %1 = init (this)
            channel latency: D: 1, V: 1, R: 0
        "#]],
    );
}

/// CIRCT's generic form names its kind with `#handshake<buffer_type_enum ...>` and its slots
/// with `slots`.
#[test]
fn circt_generic_form() {
    check(
        r#"
handshake.func @f(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = $0"handshake.buffer"(%a) {bufferType = #handshake<buffer_type_enum fifo>, slots = 2 : i32} : (i32) -> i32
  return %0, %ctrl : i32, none
}
"#,
        expect![[r#"
            syntax: Circt
            type: fifo
            legacy name: none
            slots: 2
            latency: D: 1, V: 1, R: 0
            breaks: data, valid
            bypasses: ready
            channel: %0 = buffer (this)
            channel latency: D: 1, V: 1, R: 0
        "#]],
    );
}

/// Dynamatic 2024's `oehb [N]` is an opaque buffer (one slot) or FIFO (more).
#[test]
fn oehb_2024() {
    check(
        r#"
handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = $0oehb [1] %a : <i32>
  %1 = tehb [2] %0 : <i32>
  end %1, %start : <i32>, <>
}
"#,
        expect![[r#"
            syntax: Circt
            type: ONE_SLOT_BREAK_DV
            legacy name: OEHB
            slots: 1
            latency: D: 1, V: 1, R: 0
            breaks: data, valid
            bypasses: ready
            channel: %0 = oehb (this) -> %1 = tehb
            channel latency: D: 1, V: 1, R: 0
        "#]],
    );
}

/// Dynamatic 2025's `{NUM_SLOTS = 1, TIMING = {D: 1, V: 1, R: 0}}`: the opaque buffer its RTL
/// backend chose.
#[test]
fn timing_opaque_2025() {
    check(
        r#"
handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = $0buffer %a {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  end %0, %start : <i32>, <>
}
"#,
        expect![[r#"
            syntax: HwParameters
            type: ONE_SLOT_BREAK_DV
            legacy name: OEHB
            slots: 1
            latency: D: 1, V: 1, R: 0
            breaks: data, valid
            bypasses: ready
            channel: %0 = buffer (this)
            channel latency: D: 1, V: 1, R: 0
        "#]],
    );
}
