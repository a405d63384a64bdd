//! A thousand incremental edits sent as fast as the client can write them end in the text the
//! client has, and in the diagnostics a fresh open of that text gives.

mod common;

use common::{repo_file, uri, Client};
use serde_json::{json, Value};

#[path = "../../test-support/rng.rs"]
mod rng;
use rng::Rng;

/// The LSP position (UTF-16 columns) of a byte offset.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = before[line_start..].chars().map(char::len_utf16).sum();
    json!({"line": line, "character": character})
}

fn char_boundary_at_or_before(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Diagnostics without the document's URI, to compare two documents' lists.
fn normalized(diagnostics: &Value, uri: &str) -> String {
    diagnostics.to_string().replace(uri, "URI")
}

#[test]
fn a_thousand_rapid_edits_end_in_the_same_text_and_diagnostics_as_a_fresh_open() {
    let mut text = repo_file("analysis/test_data/diagnostics/loop_kernel_raw_bug.mlir");
    let (mut client, _) = Client::initialized(Value::Null);
    let edited = uri("edited.mlir");
    client.open(&edited, &text);
    client.diagnostics(&edited, Some(0));

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let pieces = [" ", "%x", "\n", "{", "}", "é", "𝄞", "fork [2] ", ":", "// c\n", "#1"];
    for version in 1..=1000 {
        let start = char_boundary_at_or_before(&text, rng.below(text.len() + 1));
        let (end, new_text) = if rng.below(3) == 0 && start < text.len() {
            let end = char_boundary_at_or_before(&text, (start + 1 + rng.below(3)).min(text.len()));
            let end = if end == start {
                text[start..].chars().next().map_or(start, |c| start + c.len_utf8())
            } else {
                end
            };
            (end, String::new())
        } else {
            (start, pieces[rng.below(pieces.len())].to_string())
        };
        let range = json!({"start": position(&text, start), "end": position(&text, end)});
        text.replace_range(start..end, &new_text);
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": edited, "version": version},
                "contentChanges": [{"range": range, "text": new_text}],
            }),
        );
    }
    let after_edits = client.diagnostics(&edited, Some(1000));
    let server_text = client.request("hsir/test/text", json!({"uri": edited}));
    assert_eq!(server_text.as_str(), Some(text.as_str()), "the server's text differs");

    let fresh = uri("fresh.mlir");
    client.open(&fresh, &text);
    let fresh_diagnostics = client.diagnostics(&fresh, Some(0));
    assert!(
        after_edits["diagnostics"].as_array().is_some_and(|d| !d.is_empty()),
        "the edits should have broken the file"
    );
    assert_eq!(
        normalized(&after_edits["diagnostics"], &edited),
        normalized(&fresh_diagnostics["diagnostics"], &fresh)
    );
    client.shutdown();
}

/// Edits queued behind busy work are analysed once, for the last version: no diagnostics are
/// published for the versions they superseded. A request cancelled while it waits is answered
/// with RequestCancelled.
#[test]
fn superseded_versions_are_not_published_and_cancelled_requests_are_answered_so() {
    let (mut client, _) = Client::initialized(Value::Null);
    let doc = uri("busy.mlir");
    let text = "handshake.func @f(%a: i32) -> (i32) {\n  return %a : i32\n}\n";
    client.open(&doc, text);
    client.diagnostics(&doc, Some(0));

    let busy = client.send_request("hsir/test/busy", json!(500));
    let hover = client.send_request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": {"line": 1, "character": 10}}),
    );
    client.notify("$/cancelRequest", json!({"id": hover}));
    for version in 1..=5 {
        let name = format!("%v{version}");
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": doc, "version": version},
                "contentChanges": [{"text": text.replace("return %a", &format!("return {name}"))}],
            }),
        );
    }
    assert_eq!(client.response(hover)["error"]["code"], -32800, "the hover was cancelled");
    assert!(client.response(busy).get("error").is_none());
    let last = client.diagnostics(&doc, Some(5));
    assert!(last.to_string().contains("%v5"), "{last}");
    // Everything published for the document since the busy request: only version 5.
    let earlier: Vec<Value> = client
        .drain()
        .into_iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == doc)
        .map(|m| m["params"]["version"].clone())
        .collect();
    assert!(earlier.is_empty(), "superseded versions were published: {earlier:?}");
    client.shutdown();
}
