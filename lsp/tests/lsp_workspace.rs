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

/// A fresh folder for one test's workspace.
fn workspace_dir(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the test's workspace folder");
    dir
}

fn file_uri(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}

/// `workspace/symbol` answers as `(name, file name, line, container)`.
fn symbols(client: &mut Client, query: &str) -> Vec<(String, String, u64, String)> {
    let found = client.request("workspace/symbol", json!({"query": query}));
    found
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            let uri = s["location"]["uri"].as_str().unwrap_or("");
            (
                s["name"].as_str().unwrap_or("").to_string(),
                uri.rsplit('/').next().unwrap_or("").to_string(),
                s["location"]["range"]["start"]["line"].as_u64().unwrap_or(0),
                s["containerName"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

const KERNEL: &str = "handshake.func @kernel(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {\n  %0 = buffer %a {handshake.name = \"buffer_far\", hw.parameters = {BUFFER_TYPE = \"ONE_SLOT_BREAK_DV\", NUM_SLOTS = 1 : ui32}} : <i32>\n  end %0, %start : <i32>, <>\n}\n";

/// Workspace symbols cover the workspace folder's files that are not open (a buffer by its
/// `handshake.name` in one), follow them when they change on disk (the server registers a
/// watcher; the change notification makes it read the file again), and prefer an open
/// document's text to its file's.
#[test]
fn workspace_symbols_cover_files_on_disk() {
    let dir = workspace_dir("workspace_symbols_on_disk");
    let (opened, unopened) = (dir.join("open.mlir"), dir.join("sub/far.mlir"));
    std::fs::create_dir_all(dir.join("sub")).expect("sub folder");
    let caller = "handshake.func @caller(%x: !handshake.channel<i32>, %s: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {\n  end %x, %s : <i32>, <>\n}\n";
    std::fs::write(&opened, caller).expect("write");
    std::fs::write(&unopened, KERNEL).expect("write");
    // Build output is not the user's code.
    std::fs::create_dir_all(dir.join("target")).expect("target");
    std::fs::write(dir.join("target/copy.mlir"), KERNEL).expect("write");

    let mut client = Client::start();
    client.request(
        "initialize",
        json!({
            "processId": null,
            "rootUri": file_uri(&dir),
            "workspaceFolders": [{"uri": file_uri(&dir), "name": "w"}],
            "capabilities": {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}},
        }),
    );
    client.notify("initialized", json!({}));
    let registration = client.wait(|m| m["method"] == "client/registerCapability");
    assert_eq!(
        registration["params"]["registrations"][0]["method"], "workspace/didChangeWatchedFiles",
        "{registration}"
    );
    client.send(json!({"jsonrpc": "2.0", "id": registration["id"], "result": null}));
    client.open(&file_uri(&opened), caller);

    assert_eq!(
        symbols(&mut client, "buffer_far"),
        [("buffer_far".to_string(), "far.mlir".to_string(), 1, "@kernel".to_string())]
    );
    let all: Vec<String> = symbols(&mut client, "").into_iter().map(|s| s.0).collect();
    assert_eq!(all, ["@caller", "@kernel", "buffer_far"], "the target folder is skipped");

    // The file changes on disk: the buffer is renamed and moves down a line.
    std::fs::write(
        &unopened,
        format!("// moved\n{}", KERNEL.replace("buffer_far", "buffer_moved")),
    )
    .expect("write");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&unopened), "type": 2}]}),
    );
    assert!(symbols(&mut client, "buffer_far").is_empty());
    assert_eq!(
        symbols(&mut client, "buffer_moved"),
        [("buffer_moved".to_string(), "far.mlir".to_string(), 2, "@kernel".to_string())]
    );

    // Opened and edited without saving: the editor's text wins over the file's.
    client.open(&file_uri(&unopened), KERNEL);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": file_uri(&unopened), "version": 1},
               "contentChanges": [{"text": KERNEL.replace("buffer_far", "buffer_edited")}]}),
    );
    let edited: Vec<String> = symbols(&mut client, "buffer").into_iter().map(|s| s.0).collect();
    assert_eq!(edited, ["buffer_edited"]);

    // Deleted from disk (and closed): gone.
    client.notify("textDocument/didClose", json!({"textDocument": {"uri": file_uri(&unopened)}}));
    std::fs::remove_file(&unopened).expect("remove");
    assert!(symbols(&mut client, "buffer").is_empty());
    client.shutdown();
}
