//! The quick fix of HS3026 (a done token going into a `sink`): applying its edits gives IR where
//! the done token reaches the returned control, with no diagnostic at all.

use hsir_analysis::{Diagnostic, DiagnosticCode};

fn check(text: &str) -> Vec<Diagnostic> {
    let (parse, decode_error) = hsir_analysis::parse_bytes(text.as_bytes());
    assert!(decode_error.is_none());
    hsir_analysis::check(&parse)
}

fn apply_first_fix(text: &str, code: DiagnosticCode) -> String {
    let diagnostics = check(text);
    let d = diagnostics
        .iter()
        .find(|d| d.code == code)
        .unwrap_or_else(|| panic!("no {} in {diagnostics:#?}", code.code()));
    let fix = d.fixes.first().unwrap_or_else(|| panic!("{} has no fix", code.code()));
    fix.apply(text)
}

const STORE_DONE_SUNK: &str = "\
handshake.func @f(%a: memref<4xi32>, %i: index, %v: i32, %start: none) -> none {
  %s:2 = fork [2] %start : none
  %stDone = extmemory [ld = 0, st = 1] (%a : memref<4xi32>) (%stData, %stAddr) {id = 0 : i32} : (i32, index) -> (none)
  %stData, %stAddr = store [%i] %v, %s#0 : index, i32
  sink %stDone : none
  return %s#1 : none
}
";

#[test]
fn sunk_done_token_is_joined_into_the_return() {
    let fixed = apply_first_fix(STORE_DONE_SUNK, DiagnosticCode::DoneTokenSunk);
    assert!(
        fixed.contains(
            "  %stDone_joined = join %stDone, %s#1 : none, none\n  return %stDone_joined : none\n"
        ),
        "{fixed}"
    );
    assert!(!fixed.contains("sink"), "{fixed}");
    let after = check(&fixed);
    assert!(after.is_empty(), "{fixed}\n{after:#?}");
}

#[test]
fn sunk_done_token_through_a_buffer_keeps_the_buffer() {
    let text = "\
handshake.func @f(%a: memref<4xi32>, %i: index, %start: none) -> (i32, none) {
  %s:2 = fork [2] %start : none
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  %x, %addr = load [%i] %ld, %s#0 : index, i32
  %b = buffer [2] fifo %ldDone : none
  sink %b : none
  return %x, %s#1 : i32, none
}
";
    let fixed = apply_first_fix(text, DiagnosticCode::DoneTokenSunk);
    assert!(fixed.contains("%ldDone_joined = join %b, %s#1 : none, none"), "{fixed}");
    assert!(fixed.contains("return %x, %ldDone_joined : i32, none"), "{fixed}");
    let after = check(&fixed);
    assert!(after.is_empty(), "{fixed}\n{after:#?}");
}

#[test]
fn the_joined_name_is_fresh() {
    let text = STORE_DONE_SUNK
        .replace("%s:2 = fork [2] %start", "%stDone_joined:2 = fork [2] %start")
        .replace("%s#", "%stDone_joined#");
    let fixed = apply_first_fix(&text, DiagnosticCode::DoneTokenSunk);
    assert!(fixed.contains("%stDone_joined1 = join %stDone, %stDone_joined#1"), "{fixed}");
    assert!(check(&fixed).is_empty(), "{fixed}");
}
