//! "Show Dataflow Graph": the `hsir.showGraph` command over stdio, on an open document.

mod common;

use common::{repo_file, uri, Client};
use serde_json::{json, Value};

fn show(client: &mut Client, arguments: Value) -> Value {
    let id = client.send_request(
        "workspace/executeCommand",
        json!({"command": "hsir.showGraph", "arguments": [arguments]}),
    );
    client.response(id)
}

#[test]
fn the_graph_of_a_function_with_clickable_nodes() {
    let (mut client, init) = Client::initialized(json!({}));
    let commands = &init["capabilities"]["executeCommandProvider"]["commands"];
    assert!(commands.as_array().unwrap().iter().any(|c| c == "hsir.showGraph"), "{commands}");
    let text = repo_file("examples/kernel.mlir");
    let file = uri("kernel.mlir");
    client.open(&file, &text);
    // By position: a line inside the function.
    let line = text.lines().position(|l| l.contains("= control_merge")).unwrap() as u32;
    let answer =
        show(&mut client, json!({"uri": file, "position": {"line": line, "character": 4}}));
    let result = &answer["result"];
    assert_eq!(result["function"], "accumulate", "{answer}");
    let svg = result["svg"].as_str().unwrap();
    assert!(svg.starts_with("<svg "), "{svg}");
    // The control_merge's node says where the op is, in bytes and in the client's terms.
    let start = text.find("control_merge [").unwrap();
    let node = format!(
        "data-start=\"{start}\" data-end=\"{}\" data-line=\"{line}\"",
        start + "control_merge".len()
    );
    assert!(svg.contains(&node), "no `{node}` in:\n{svg}");
    // Buffers are drawn as buffers, and the loop's channels as a cycle.
    assert!(svg.contains("class=\"node buffer cycle\""), "{svg}");
    assert!(result["dot"].as_str().unwrap().starts_with("digraph \"accumulate\""));
    // By name, the same function.
    let by_name = show(&mut client, json!({"uri": file, "function": "@accumulate"}));
    assert_eq!(by_name["result"]["svg"], result["svg"]);
    // Problems are errors that say what is wrong.
    let missing = show(&mut client, json!({"uri": file, "function": "nosuch"}));
    assert_eq!(missing["error"]["code"], -32803, "{missing}");
    assert!(missing["error"]["message"].as_str().unwrap().contains("no function `@nosuch`"));
    let missing_file = show(&mut client, json!({"uri": uri("other.mlir")}));
    assert!(
        missing_file["error"]["message"].as_str().unwrap().contains("cannot read"),
        "{missing_file}"
    );
    // A file that is not open is read from disk, as "Generate RTL" does.
    let on_disk = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernel.mlir");
    let disk_uri = format!("file://{}", on_disk.canonicalize().unwrap().display());
    let from_disk = show(&mut client, json!({"uri": disk_uri, "function": "accumulate"}));
    assert_eq!(from_disk["result"]["svg"], result["svg"], "{from_disk}");
    let bad = show(&mut client, json!({"function": "accumulate"}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    client.shutdown();
}

/// A file read from disk whose bytes are not UTF-8 is drawn as decoded (bad bytes as U+FFFD),
/// and the user is told where the first bad byte is (HS0001's message), not left guessing.
#[test]
fn a_file_on_disk_that_is_not_utf8_is_drawn_and_reported() {
    let (mut client, _) = Client::initialized(json!({}));
    let dir = std::env::temp_dir().join(format!("hsir-graph-latin1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("latin1.mlir");
    let mut bytes = b"// caf\xe9: a Latin-1 comment\n".to_vec();
    bytes.extend_from_slice(repo_file("examples/kernel.mlir").as_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let disk_uri = format!("file://{}", path.display());
    let shown = show(&mut client, json!({"uri": disk_uri, "function": "accumulate"}));
    assert!(shown["result"]["svg"].as_str().is_some_and(|svg| svg.contains("<svg")), "{shown}");
    let message = client.wait(|m| m["method"] == "window/showMessage");
    let text = message["params"]["message"].as_str().unwrap();
    assert!(text.contains("not valid UTF-8 (first bad byte at offset 6"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
    client.shutdown();
}
