//! One bad frame never ends or silences the server: after each malformed frame a valid
//! request is still answered, and the process is still running.

mod common;

use common::{uri, Client};
use serde_json::{json, Value};

const SMALL: &str = "handshake.func @f(%a: i32) -> (i32) {\n  return %a : i32\n}\n";

/// A hover on the open document is answered, and the server has not exited.
fn still_serving(client: &mut Client, doc: &str, after: &str) {
    let id = client.send_request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": {"line": 0, "character": 16}}),
    );
    let response = client.response(id);
    assert!(response.get("result").is_some(), "after {after}: {response}");
    assert!(client.is_running(), "after {after}: the server exited");
}

fn frame(header: &str, body: &[u8]) -> Vec<u8> {
    let mut bytes = header.as_bytes().to_vec();
    bytes.extend_from_slice(body);
    bytes
}

#[test]
fn every_malformed_frame_is_skipped_and_the_next_one_answered() {
    let (mut client, _) = Client::initialized(Value::Null);
    let doc = uri("transport.mlir");
    client.open(&doc, SMALL);
    client.diagnostics(&doc, Some(0));
    let hover = br#"{"jsonrpc":"2.0","id":1000,"method":"textDocument/hover","params":{}}"#;

    let malformed: Vec<(&str, Vec<u8>)> = vec![
        ("a terabyte Content-Length", frame("Content-Length: 1000000000000\r\n\r\n", hover)),
        ("a body shorter than its length", frame("Content-Length: 500\r\n\r\n", b"{\"jsonrpc\"")),
        ("a body longer than its length", frame("Content-Length: 10\r\n\r\n", hover)),
        ("a non-numeric length", frame("Content-Length: twelve\r\n\r\n", hover)),
        ("a negative length", frame("Content-Length: -5\r\n\r\n", hover)),
        ("a length of 2^64", frame("Content-Length: 18446744073709551616\r\n\r\n", hover)),
        ("no Content-Length", frame("Content-Type: application/vscode-jsonrpc\r\n\r\n", hover)),
        ("a line that is not a header", frame("hello\r\n\r\n", hover)),
    ];
    for (what, bytes) in malformed {
        client.send_bytes(&bytes);
        still_serving(&mut client, &doc, what);
    }

    // LF-only header lines are a frame like any other.
    let id = 2000;
    let body = json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": doc}, "position": {"line": 0, "character": 16}}})
    .to_string();
    client.send_bytes(&frame(&format!("Content-Length: {}\n\n", body.len()), body.as_bytes()));
    let response = client.response(id);
    assert!(response.get("result").is_some(), "LF-only headers: {response}");
    still_serving(&mut client, &doc, "LF-only headers");

    // A request whose body is not UTF-8 is answered with its id.
    client.send_raw(b"{\"jsonrpc\":\"2.0\",\"id\":3000,\"method\":\"workspace/symbol\",\"params\":{\"query\":\"\xff\"}}");
    assert_eq!(client.response(3000)["error"]["code"], -32700);
    still_serving(&mut client, &doc, "a body that is not UTF-8");

    // A batch: each request in it is refused, with its id.
    client.send_raw(
        br#"[{"jsonrpc":"2.0","id":3001,"method":"shutdown"},{"jsonrpc":"2.0","id":3002,"method":"workspace/symbol","params":{"query":""}}]"#,
    );
    assert_eq!(client.response(3001)["error"]["code"], -32600);
    assert_eq!(client.response(3002)["error"]["code"], -32600);
    still_serving(&mut client, &doc, "a batch");

    // An unknown `$/` request is a request: MethodNotFound.
    let id = client.send_request("$/foo", json!({}));
    assert_eq!(client.response(id)["error"]["code"], -32601);
    still_serving(&mut client, &doc, "an unknown `$/` request");

    // None of the dropped frames reached the server: the one hover they all carried (id
    // 1000) was never answered.
    let messages = client.shutdown_and_collect();
    assert!(
        !messages.iter().any(|m| m["id"] == 1000 && m.get("method").is_none()),
        "a malformed frame's body was handled"
    );
}
