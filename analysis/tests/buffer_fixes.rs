//! The quick fixes of the buffer checks (HS2001-HS2008): each is applied to a small function and
//! the result snapshotted, and the result checks clean of that code. Snapshots:
//! `UPDATE_EXPECT=1 cargo test`.

use expect_test::{expect, Expect};
use hsir_analysis::DiagnosticCode;

/// Applies the first fix of the first `code` diagnostic of `text`, and checks that the result
/// has no `code` diagnostic left.
fn check_fix(code: &str, text: &str, expect: Expect) {
    let code = DiagnosticCode::from_code(code).expect("a known code");
    let diagnostics = hsir_analysis::check(&hsir_analysis::parse_bytes(text.as_bytes()).0);
    let diagnostic =
        diagnostics.iter().find(|d| d.code == code).expect("the text has the diagnostic");
    let fix = diagnostic.fixes.first().expect("the diagnostic has a fix");
    let fixed = fix.apply(text);
    let after = hsir_analysis::check(&hsir_analysis::parse_bytes(fixed.as_bytes()).0);
    assert!(after.iter().all(|d| d.code != code), "the fix leaves {code:?}: {after:#?}");
    expect.assert_eq(&format!("{}\n{fixed}", fix.label));
}

#[test]
fn unknown_type_renamed_to_the_suggestion_keeping_quotes() {
    check_fix(
        "HS2001",
        r#"handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "fifo_break_none", NUM_SLOTS = 2 : ui32}} : <i32>
  end %0, %start : <i32>, <>
}
"#,
        expect![[r#"
            Rename to `FIFO_BREAK_NONE`
            handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
              %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_NONE", NUM_SLOTS = 2 : ui32}} : <i32>
              end %0, %start : <i32>, <>
            }
        "#]],
    );
}

#[test]
fn legacy_name_renamed() {
    check_fix(
        "HS2002",
        r#"handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a, bufferType = elastic_fifo_inner, numSlots = 4 : <i32>
  end %0, %start : <i32>, <>
}
"#,
        expect![[r#"
            Rename to `FIFO_BREAK_DV`
            handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
              %0 = buffer %a, bufferType = FIFO_BREAK_DV, numSlots = 4 : <i32>
              end %0, %start : <i32>, <>
            }
        "#]],
    );
}

#[test]
fn one_slot_count_set_to_one_keeping_its_type() {
    check_fix(
        "HS2004",
        r#"handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 3 : ui32}} : <i32>
  end %0, %start : <i32>, <>
}
"#,
        expect![[r#"
            Set `NUM_SLOTS` to 1
            handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
              %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32}} : <i32>
              end %0, %start : <i32>, <>
            }
        "#]],
    );
}

#[test]
fn timing_rewritten() {
    check_fix(
        "HS2005",
        r#"handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1}>}} : <i32>
  end %0, %start : <i32>, <>
}
"#,
        expect![[r#"
            Set `TIMING` to the latencies of `ONE_SLOT_BREAK_R`
            handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
              %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
              end %0, %start : <i32>, <>
            }
        "#]],
    );
}

#[test]
fn malformed_timing_rewritten() {
    check_fix(
        "HS2006",
        r#"handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a {hw.parameters = {TIMING = #handshake<timing {D: 1, D: 1}>, BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32}} : <i32>
  end %0, %start : <i32>, <>
}
"#,
        expect![[r#"
            Set `TIMING` to the latencies of `ONE_SLOT_BREAK_DVR`
            handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
              %0 = buffer %a {hw.parameters = {TIMING = #handshake<timing {D: 1, V: 1, R: 1}>, BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32}} : <i32>
              end %0, %start : <i32>, <>
            }
        "#]],
    );
}

#[test]
fn shift_register_dv_latency_set_to_its_slots() {
    check_fix(
        "HS2007",
        r#"handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a, bufferType = SHIFT_REG_BREAK_DV, numSlots = 4, dvLatency = 1 {handshake.name = "buffer0"} : <i32>
  end %0, %start : <i32>, <>
}
"#,
        expect![[r#"
            Set `dvLatency` to 4
            handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
              %0 = buffer %a, bufferType = SHIFT_REG_BREAK_DV, numSlots = 4, dvLatency = 4 {handshake.name = "buffer0"} : <i32>
              end %0, %start : <i32>, <>
            }
        "#]],
    );
}

#[test]
fn buffer_on_a_port_removed() {
    check_fix(
        "HS2008",
        r#"handshake.func @f(%memref: memref<64xi32>, %addr: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %ldData, %done = mem_controller [%memref: memref<64xi32>] %fork#0 (%ldAddrToMem) %fork#1 {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>) -> !handshake.channel<i32>
  %fork:2 = fork [2] %start : <>
  %ldAddrToMem, %ldDataToSucc = load [%addr] %dataBuf : <i32>, <i32>, <i32>, <i32>
  %dataBuf = buffer %ldData {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32}} : <i32>
  end %ldDataToSucc, %done : <i32>, <>
}
"#,
        expect![[r#"
            Remove the buffer
            handshake.func @f(%memref: memref<64xi32>, %addr: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
              %ldData, %done = mem_controller [%memref: memref<64xi32>] %fork#0 (%ldAddrToMem) %fork#1 {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>) -> !handshake.channel<i32>
              %fork:2 = fork [2] %start : <>
              %ldAddrToMem, %ldDataToSucc = load [%addr] %ldData : <i32>, <i32>, <i32>, <i32>
              end %ldDataToSucc, %done : <i32>, <>
            }
        "#]],
    );
}
