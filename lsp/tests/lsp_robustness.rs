//! The server keeps answering after a handler panics, after malformed messages, after unknown
//! methods, and on pathological input.

mod common;

use common::{uri, Client};
use serde_json::{json, Value};

/// The server still answers: a code-action request on an open document gets a response.
fn still_serving(client: &mut Client, doc: &str) {
    let result = client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": doc},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": []},
        }),
    );
    assert!(result.is_array(), "code actions: {result}");
}

const SMALL: &str = "handshake.func @f(%a: i32) -> (i32) {\n  return %a : i32\n}\n";

#[test]
fn a_panicking_handler_becomes_an_error_response() {
    let (mut client, _) = Client::initialized(Value::Null);
    let doc = uri("a.mlir");
    client.open(&doc, SMALL);
    client.diagnostics(&doc, Some(0));
    let id = client.send_request("hsir/test/panic", Value::Null);
    let response = client.response(id);
    let error = &response["error"];
    assert_eq!(error["code"], -32603, "{response}");
    assert!(error["message"].as_str().is_some_and(|m| m.contains("on purpose")), "{response}");
    still_serving(&mut client, &doc);
    // The worker survived too: an edit is still analysed.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 1}, "contentChanges": [{"text": "handshake.func @f(%a: i32) -> (i32) {\n  return %b : i32\n}\n"}]}),
    );
    let published = client.diagnostics(&doc, Some(1));
    assert!(published.to_string().contains("HS1101"), "{published}");
    client.shutdown();
}

#[test]
fn malformed_messages_get_protocol_errors_and_unknown_methods_method_not_found() {
    let (mut client, _) = Client::initialized(Value::Null);
    let doc = uri("b.mlir");
    client.open(&doc, SMALL);
    client.diagnostics(&doc, Some(0));

    client.send_raw(b"{this is not json");
    let parse_error = client.wait(|m| m["error"]["code"] == -32700);
    assert_eq!(parse_error["id"], Value::Null);

    client.send_raw(
        br#"{"jsonrpc": "2.0", "id": 99, "method": "textDocument/codeAction", "params": 7}"#,
    );
    let bad_params = client.response(99);
    assert_eq!(bad_params["error"]["code"], -32602, "{bad_params}");

    let id = client.send_request("hsir/noSuchMethod", json!({}));
    assert_eq!(client.response(id)["error"]["code"], -32601);
    let id = client.send_request(
        "textDocument/moniker",
        json!({
            "textDocument": {"uri": doc}, "position": {"line": 0, "character": 0}
        }),
    );
    assert_eq!(client.response(id)["error"]["code"], -32601);

    still_serving(&mut client, &doc);
    client.shutdown();
}

#[test]
fn a_hundred_thousand_nested_brackets_are_diagnosed_not_fatal() {
    let (mut client, _) = Client::initialized(Value::Null);
    let deep = uri("deep.mlir");
    let text = format!(
        "%x = \"d.op\"() {{a = {}{}}} : () -> ()\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    client.open(&deep, &text);
    let published = client.diagnostics(&deep, Some(0));
    assert!(
        published.to_string().contains("HS0005"),
        "nesting too deep is reported: {}",
        &published.to_string()[..200.min(published.to_string().len())]
    );
    still_serving(&mut client, &deep);
    client.shutdown();
}

#[test]
fn requests_before_initialize_and_bad_settings_are_answered() {
    let mut client = Client::start();
    let id = client.send_request(
        "textDocument/hover",
        json!({
            "textDocument": {"uri": "file:///x.mlir"}, "position": {"line": 0, "character": 0}
        }),
    );
    // Before `initialize` the protocol says: error -32002.
    assert_eq!(client.response(id)["error"]["code"], -32002);
    let result = client.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {},
               "initializationOptions": {"buffers": {"period": "fast"}}}),
    );
    assert!(result["capabilities"].is_object());
    let message = client.wait(|m| m["method"] == "window/showMessage");
    assert!(message.to_string().contains("buffers.period"), "{message}");
    client.shutdown();
}

/// A file with thousands of diagnostics publishes the first 1,000 and one HS0007 note counting
/// the rest, as `hsir check` prints them; an item with errors before it moves the cut.
#[test]
fn at_most_a_thousand_diagnostics_are_published_per_file() {
    let (mut client, _) = Client::initialized(Value::Null);
    let doc = uri("many.mlir");
    let uses = vec!["%x"; 3_000].join(", ");
    let types = vec!["i32"; 3_000].join(", ");
    let many = format!("  \"t.\u{e9}\"({uses}) : ({types}) -> ()\n");
    let text = format!("handshake.func @f() {{\n{many}{many}  end\n}}\n");
    client.open(&doc, &text);
    let published = client.diagnostics(&doc, Some(0));
    let list = published["diagnostics"].as_array().unwrap();
    assert_eq!(list.len(), 1001);
    let note = &list[1000];
    assert_eq!(note["code"], "HS0007");
    assert_eq!(note["severity"], 3);
    let message = note["message"].as_str().unwrap();
    // Two unknown ops and 6,000 uses: the first op and 999 uses are shown; 5,001 uses and the
    // second op are not.
    assert!(message.starts_with("5002 diagnostics more not shown (5001 errors"), "{message}");
    // After `  "t.é"(`, a use every 4 UTF-16 units.
    assert_eq!(note["range"]["start"], json!({"line": 1, "character": 8 + 999 * 4}));

    // A function with one error before it: one use fewer is shown.
    let shifted =
        format!("handshake.func @g() {{\n  \"t.op\"(%y) : (i32) -> ()\n  end\n}}\n{text}");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 1}, "contentChanges": [{"text": shifted}]}),
    );
    let published = client.diagnostics(&doc, Some(1));
    let list = published["diagnostics"].as_array().unwrap();
    assert_eq!(list.len(), 1001);
    assert!(list[1000]["message"]
        .as_str()
        .unwrap()
        .starts_with("5004 diagnostics more not shown (5003 errors"));
    assert_eq!(list[1000]["range"]["start"], json!({"line": 5, "character": 8 + 997 * 4}));
    still_serving(&mut client, &doc);
    client.shutdown();
}
