//! Diagnostics that depend on other files and on settings are republished when those change.

mod common;

use common::{repo_file, uri, Client};
use serde_json::{json, Value};

fn codes(published: &Value) -> Vec<(String, i64)> {
    published["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| {
            (d["code"].as_str().unwrap_or("").to_string(), d["severity"].as_i64().unwrap_or(0))
        })
        .collect()
}

#[test]
fn editing_a_callee_republishes_its_callers() {
    let (mut client, _) = Client::initialized(Value::Null);
    let (caller, callee) = (uri("caller.mlir"), uri("callee.mlir"));
    let callee_text = repo_file("lsp/tests/data/callee.mlir");
    client.open(&callee, &callee_text);
    client.diagnostics(&callee, Some(0));
    client.open(&caller, &repo_file("lsp/tests/data/caller.mlir"));
    let before = codes(&client.diagnostics(&caller, Some(0)));
    assert!(
        before.iter().any(|(c, _)| c == "HS1209"),
        "the i64/i32 mismatch is reported: {before:?}"
    );

    // The callee now takes i64: the caller's instance is right, and only the caller's own
    // unused argument remains.
    let fixed =
        callee_text.replace("%a: i32, %ctrl: none) -> (i32", "%a: i64, %ctrl: none) -> (i32");
    let fixed = fixed.replace(
        "return %a, %ctrl : i32, none",
        "%t = arith.trunci %a : i64 to i32\n  return %t, %ctrl : i32, none",
    );
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": callee, "version": 1}, "contentChanges": [{"text": fixed}]}),
    );
    let after = codes(&client.diagnostics(&caller, Some(0)));
    assert!(
        !after.iter().any(|(c, _)| c == "HS1209"),
        "republished without the mismatch: {after:?}"
    );
    assert!(after.iter().any(|(c, _)| c == "HS1107"), "{after:?}");
    client.shutdown();
}

#[test]
fn severity_overrides_apply_at_once_and_bad_ones_are_named() {
    let (mut client, _) =
        Client::initialized(json!({"diagnostics": {"severity": {"HS1107": "error"}}}));
    let caller = uri("caller.mlir");
    client.open(&caller, &repo_file("lsp/tests/data/caller.mlir"));
    let first = codes(&client.diagnostics(&caller, Some(0)));
    assert!(first.contains(&("HS1107".to_string(), 1)), "HS1107 raised to error: {first:?}");

    client.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"hsir": {"diagnostics": {"severity": {"HS1107": "off", "HS1210": "hint", "HS12": "off"}}}}}),
    );
    let message = client.wait(|m| m["method"] == "window/showMessage");
    assert!(message.to_string().contains("HS12"), "{message}");
    let second = codes(&client.diagnostics(&caller, Some(0)));
    assert!(!second.iter().any(|(c, _)| c == "HS1107"), "HS1107 turned off: {second:?}");
    assert!(
        second.contains(&("HS1210".to_string(), 4)),
        "HS1210 (unknown callee: the callee is not open) lowered to hint: {second:?}"
    );
    client.shutdown();
}
