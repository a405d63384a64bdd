//! Whole-file requests (semantic tokens, outline, folds) on a large file do not hold up a
//! hover sent while they are being made: the hover is answered first.

mod common;

use std::time::Instant;

use common::{uri, Client};
use serde_json::{json, Value};

/// A 5 MB file of generated Handshake IR, or `None` (after saying so) without the generator.
fn five_megabytes() -> Option<String> {
    let tool = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/tools/gen_handshake.py");
    if !tool.exists() {
        eprintln!("skipped: ../shared/tools/gen_handshake.py is missing");
        return None;
    }
    let output = std::process::Command::new("python3")
        .arg(&tool)
        .args(["--target-bytes", "5M", "--ops", "400", "--seed", "1"])
        .output()
        .expect("python3 runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    Some(String::from_utf8(output.stdout).expect("UTF-8"))
}

/// A hover on a value in the middle of the file.
fn hover_params(doc: &str, text: &str) -> Value {
    let middle = text.len() / 2;
    let line = text[..middle].matches('\n').count();
    let line_text = text[middle..].lines().nth(1).unwrap_or_default();
    let column = line_text.find('%').unwrap_or(0);
    json!({"textDocument": {"uri": doc}, "position": {"line": line + 1, "character": column}})
}

#[test]
fn a_hover_sent_after_a_whole_file_request_is_answered_first() {
    let Some(text) = five_megabytes() else { return };
    let (mut client, _) = Client::initialized(Value::Null);
    let doc = uri("large.mlir");
    client.open(&doc, &text);
    client.diagnostics(&doc, Some(0));
    let hover = hover_params(&doc, &text);

    // A lone hover, for scale.
    let started = Instant::now();
    let alone = client.request("textDocument/hover", hover.clone());
    let lone = started.elapsed();
    assert!(alone.is_object(), "the hover finds a value: {alone}");

    for (method, params) in [
        ("textDocument/semanticTokens/full", json!({"textDocument": {"uri": doc}})),
        ("textDocument/documentSymbol", json!({"textDocument": {"uri": doc}})),
        ("textDocument/foldingRange", json!({"textDocument": {"uri": doc}})),
    ] {
        let started = Instant::now();
        let whole = client.send_request(method, params);
        let hovered = client.send_request("textDocument/hover", hover.clone());
        let first = client.wait(|m| {
            m.get("method").is_none() && (m["id"] == json!(whole) || m["id"] == json!(hovered))
        });
        let hover_time = started.elapsed();
        assert_eq!(first["id"], json!(hovered), "the hover is answered before {method}");
        assert_eq!(first["result"], alone, "the same hover as alone");
        let answer = client.response(whole);
        let whole_time = started.elapsed();
        assert!(answer["result"].is_object() || answer["result"].is_array(), "{method}");
        eprintln!(
            "{method}: answered in {whole_time:?}; the hover sent after it in {hover_time:?} \
             (alone: {lone:?})"
        );
    }
    client.shutdown();
}
