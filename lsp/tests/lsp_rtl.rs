//! "Generate RTL" from the editor: the `hsir.generateRtl` command, its code actions, progress,
//! output folders, and the problems it shows on the document.

mod common;

use std::path::{Path, PathBuf};

use common::{repo_file, Client};
use serde_json::{json, Value};

/// A fresh, empty folder of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hsir-lsp-rtl-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
}

fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Starts the server with these `initialize` parameters (capabilities, root, options).
fn start(params: Value) -> Client {
    let mut client = Client::start();
    let mut all = json!({"processId": null, "rootUri": null, "capabilities": {}});
    for (key, value) in params.as_object().unwrap() {
        all[key] = value.clone();
    }
    client.request("initialize", all);
    client.notify("initialized", json!({}));
    client
}

fn execute(client: &mut Client, arguments: Value) -> Value {
    let id = client.send_request(
        "workspace/executeCommand",
        json!({"command": "hsir.generateRtl", "arguments": arguments}),
    );
    client.response(id)
}

fn code_actions(client: &mut Client, uri: &str, line: u32) -> Vec<Value> {
    code_actions_of(client, uri, line, Value::Null)
}

/// The code actions at `line` of the kinds in `only` (all kinds when null).
fn code_actions_of(client: &mut Client, uri: &str, line: u32, only: Value) -> Vec<Value> {
    code_actions_at(client, uri, (line, 2), only)
}

fn code_actions_at(
    client: &mut Client,
    uri: &str,
    (line, character): (u32, u32),
    only: Value,
) -> Vec<Value> {
    let at = json!({"line": line, "character": character});
    let mut context = json!({"diagnostics": []});
    if !only.is_null() {
        context["only"] = only;
    }
    let result = client.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": {"start": at, "end": at}, "context": context}),
    );
    result.as_array().cloned().unwrap_or_default()
}

fn generate_actions(actions: &[Value]) -> Vec<&Value> {
    actions
        .iter()
        .filter(|a| a["title"].as_str().unwrap_or("").starts_with("Generate RTL"))
        .collect()
}

fn line_of(text: &str, needle: &str) -> u32 {
    text.lines().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("no `{needle}`")) as u32
}

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn initialize_advertises_the_command() {
    let mut client = Client::start();
    let result = client
        .request("initialize", json!({"processId": null, "rootUri": null, "capabilities": {}}));
    let commands = &result["capabilities"]["executeCommandProvider"]["commands"];
    assert!(commands.as_array().unwrap().contains(&json!("hsir.generateRtl")), "{commands}");
    let kinds = &result["capabilities"]["codeActionProvider"]["codeActionKinds"];
    assert!(kinds.as_array().unwrap().contains(&json!("source")), "{kinds}");
    client.notify("initialized", json!({}));
    client.shutdown();
}

#[test]
fn code_actions_offer_generate_rtl_inside_functions_with_a_body() {
    let mut client = start(json!({}));
    let uri = "file:///hsir-test/actions.mlir";
    let text = r#"// A comment above the first function.
handshake.func @add(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {
  %c = arith.addi %a, %b : i32
  return %c, %ctrl : i32, none
}

// Between the functions.

handshake.func private @declared(%a: i32, %ctrl: none) -> (i32, none) attributes {argNames = ["a", "ctrl"], resNames = ["out", "done"]}

module {
  handshake.func @nested(%a: i32, %ctrl: none) -> (i32, none) {
    return %a, %ctrl : i32, none
  }
}
"#;
    client.open(uri, text);
    for (line, function) in [
        (line_of(text, "@add"), "add"),
        (line_of(text, "arith.addi"), "add"),
        (line_of(text, "return %c"), "add"),
        (line_of(text, "return %a"), "nested"),
    ] {
        let actions = code_actions(&mut client, uri, line);
        let generate = generate_actions(&actions);
        assert_eq!(generate.len(), 1, "line {line}: {actions:?}");
        assert_eq!(
            generate[0],
            &json!({
                "title": format!("Generate RTL for @{function}"),
                "kind": "source",
                "command": {
                    "title": format!("Generate RTL for @{function}"),
                    "command": "hsir.generateRtl",
                    "arguments": [{"uri": uri, "function": function}],
                },
            }),
            "line {line}"
        );
    }
    // Outside every function, and on a declaration (whose attributes have braces), none.
    for needle in ["A comment", "Between", "@declared"] {
        let actions = code_actions(&mut client, uri, line_of(text, needle));
        assert!(generate_actions(&actions).is_empty(), "{needle}: {actions:?}");
    }
    // A client that asks for some kinds only gets those.
    let line = line_of(text, "arith.addi");
    for (only, expected) in [
        (json!(["source"]), 1),
        (json!(["quickfix"]), 0),
        (json!(["source.organizeImports"]), 0),
        (json!(["refactor", "source"]), 1),
    ] {
        let actions = code_actions_of(&mut client, uri, line, only.clone());
        assert_eq!(generate_actions(&actions).len(), expected, "{only}: {actions:?}");
    }
    // Quick fixes likewise: `%unused` has one (a `sink`).
    let unused = "file:///hsir-test/unused.mlir";
    let text = "handshake.func @g(%a: i32, %unused: i32, %ctrl: none) -> (i32, none) {\n  return %a, %ctrl : i32, none\n}\n";
    client.open(unused, text);
    client.diagnostics(unused, Some(0));
    let kinds = |actions: Vec<Value>| -> Vec<String> {
        actions.iter().map(|a| a["kind"].as_str().unwrap_or("").to_string()).collect()
    };
    let at = (0, text.find("%unused").unwrap() as u32 + 1);
    // The sources: Generate RTL, and Place buffers with each algorithm.
    assert_eq!(
        kinds(code_actions_at(&mut client, unused, at, Value::Null)),
        ["quickfix", "source", "source", "source"]
    );
    assert_eq!(kinds(code_actions_at(&mut client, unused, at, json!(["quickfix"]))), ["quickfix"]);
    assert_eq!(
        kinds(code_actions_at(&mut client, unused, at, json!(["source"]))),
        ["source", "source", "source"]
    );
    client.shutdown();
}

/// The design of `loop_kernel.mlir`, renamed.
fn loop_design(name: &str) -> String {
    repo_file("backend/test_data/designs/loop_kernel.mlir")
        .replace("@sum_loop", &format!("@{name}"))
}

#[test]
fn generate_rtl_uses_the_editors_text_and_reports_progress() {
    let root = scratch("progress");
    let file = root.join("design.mlir");
    // On disk the function has another name; the editor's unsaved text is what counts.
    std::fs::write(&file, loop_design("on_disk")).unwrap();
    let uri = file_uri(&file);
    let out = root.join("out");
    let mut client = start(json!({"capabilities": {"window": {"workDoneProgress": true}}}));
    client.open(&uri, &loop_design("in_editor"));
    let response = execute(
        &mut client,
        json!([{"uri": uri, "function": "in_editor", "outputDir": out.display().to_string()}]),
    );
    let result = &response["result"];
    assert!(response.get("error").is_none(), "{response}");
    let files: Vec<PathBuf> = result["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| PathBuf::from(f.as_str().unwrap()))
        .collect();
    let names: Vec<&str> = files.iter().map(|f| f.file_name().unwrap().to_str().unwrap()).collect();
    assert_eq!(names, ["hsir_lib.v", "in_editor.v", "files.f"]);
    assert!(files.iter().all(|f| f.is_file() && f.starts_with(&out)), "{files:?}");
    assert_eq!(result["folder"], out.display().to_string());
    assert_eq!(result["top"], "in_editor");
    let design = std::fs::read_to_string(out.join("in_editor.v")).unwrap();
    assert!(design.contains("module in_editor"), "{design}");
    assert!(!out.join("on_disk.v").exists());

    // Progress: the server asked for a token, then began and ended on it.
    let token = |m: &Value| m["params"]["token"].clone();
    let end = client.wait(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end");
    let messages = client.shutdown_and_collect();
    let create = messages
        .iter()
        .find(|m| m["method"] == "window/workDoneProgress/create")
        .expect("the server asks the client for a progress token");
    let progress: Vec<&Value> = messages.iter().filter(|m| m["method"] == "$/progress").collect();
    let kinds: Vec<&str> =
        progress.iter().map(|m| m["params"]["value"]["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds.first(), Some(&"begin"), "{progress:?}");
    assert!(kinds[1..].iter().all(|k| *k == "report"), "one end only: {progress:?}");
    assert_eq!(progress[0]["params"]["value"]["title"], "Generate RTL");
    assert!(progress.iter().all(|m| token(m) == token(create)));
    assert_eq!(token(&end), token(create));
    assert_eq!(end["params"]["value"]["message"], format!("wrote 3 files to {}", out.display()));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn no_progress_without_the_clients_consent() {
    let root = scratch("no-progress");
    let file = root.join("design.mlir");
    std::fs::write(&file, loop_design("f")).unwrap();
    let uri = file_uri(&file);
    let mut client = start(json!({}));
    // Not open: the text comes from disk. Positional arguments.
    let out = root.join("out").display().to_string();
    let response = execute(&mut client, json!([uri, "f", out]));
    assert!(response.get("error").is_none(), "{response}");
    assert_eq!(response["result"]["files"].as_array().unwrap().len(), 3);
    let messages = client.shutdown_and_collect();
    let progress: Vec<&Value> = messages
        .iter()
        .filter(|m| m["method"] == "$/progress" || m["method"] == "window/workDoneProgress/create")
        .collect();
    assert!(progress.is_empty(), "{progress:?}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_default_folder_is_the_setting_under_the_workspace_folder() {
    let root = scratch("default-folder");
    std::fs::create_dir_all(root.join("sub/deeper")).unwrap();
    let file = root.join("sub/deeper/design.mlir");
    std::fs::write(&file, loop_design("f")).unwrap();
    let uri = file_uri(&file);
    let files = |response: &Value| -> Vec<String> {
        assert!(response.get("error").is_none(), "{response}");
        response["result"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f.as_str().unwrap().to_string())
            .collect()
    };

    // The root folder, with the setting.
    let mut client = start(json!({
        "rootUri": file_uri(&root),
        "initializationOptions": {"rtl": {"outputDir": "gen"}},
    }));
    let response = execute(&mut client, json!([{"uri": uri, "function": "f"}]));
    assert_eq!(response["result"]["folder"], root.join("gen").display().to_string());
    assert!(files(&response)
        .iter()
        .all(|f| f.starts_with(&root.join("gen").display().to_string())));
    assert!(root.join("gen/f.v").is_file());
    client.shutdown();

    // Workspace folders: the innermost one holding the file; the setting's default, `rtl`.
    let mut client = start(json!({
        "workspaceFolders": [
            {"uri": file_uri(&root), "name": "root"},
            {"uri": file_uri(&root.join("sub")), "name": "sub"},
        ],
    }));
    let response = execute(&mut client, json!([{"uri": uri, "function": "f"}]));
    assert_eq!(response["result"]["folder"], root.join("sub/rtl").display().to_string());
    assert!(root.join("sub/rtl/f.v").is_file());
    client.shutdown();

    // No workspace folder holds the file: beside it.
    let mut client = start(json!({"rootUri": "file:///hsir-test-elsewhere"}));
    let response = execute(&mut client, json!([{"uri": uri, "function": "f"}]));
    assert_eq!(response["result"]["folder"], root.join("sub/deeper/rtl").display().to_string());
    assert_eq!(files(&response).len(), 3);
    client.shutdown();

    // A relative folder that leads out of every workspace folder is refused, by the setting
    // or by the command; nothing is written there. An absolute folder is the user's choice.
    let mut client = start(json!({
        "workspaceFolders": [{"uri": file_uri(&root.join("sub")), "name": "sub"}],
        "initializationOptions": {"rtl": {"outputDir": "../../escaped"}},
    }));
    let escaped = root.parent().unwrap().join("escaped");
    for arguments in [
        json!([{"uri": uri, "function": "f"}]),
        json!([{"uri": uri, "function": "f", "outputDir": "deeper/../../../escaped"}]),
    ] {
        let response = execute(&mut client, arguments.clone());
        assert_eq!(response["error"]["code"], -32803, "{arguments}: {response}");
        let message = response["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!(
                "resolves to `{}`, outside the workspace folders",
                escaped.display()
            )),
            "{message}"
        );
        assert!(!escaped.exists());
    }
    let absolute = root.join("absolute");
    let response = execute(
        &mut client,
        json!([{"uri": uri, "function": "f", "outputDir": absolute.display().to_string()}]),
    );
    assert_eq!(response["result"]["folder"], absolute.display().to_string(), "{response}");
    // Inside the workspace, `..` is fine.
    let response =
        execute(&mut client, json!([{"uri": uri, "function": "f", "outputDir": "deeper/../up"}]));
    assert_eq!(response["result"]["folder"], root.join("sub/up").display().to_string());
    client.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn problems_come_back_as_an_error_and_as_diagnostics_until_the_document_changes() {
    let root = scratch("failure");
    let file = root.join("float.mlir");
    let text = "handshake.func @f(%a: f32, %b: f32, %ctrl: none) -> (f32, none) {\n  %c = arith.remf %a, %b : f32\n  return %c, %ctrl : f32, none\n}\n";
    std::fs::write(&file, text).unwrap();
    let uri = file_uri(&file);
    let out = root.join("out");
    let mut client = start(json!({"capabilities": {"window": {"workDoneProgress": true}}}));
    client.open(&uri, text);
    let first = client.diagnostics(&uri, Some(0));
    assert_eq!(codes(&first), Vec::<String>::new(), "the analysis has nothing against it");

    let response =
        execute(&mut client, json!([{"uri": uri, "outputDir": out.display().to_string()}]));
    let error = &response["error"];
    assert_eq!(error["code"], -32803, "{response}");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains("HS5001") && message.contains("arith.remf"), "{message}");
    assert!(!out.exists(), "nothing is written");
    let end = client.wait(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end");
    assert_eq!(end["params"]["value"]["message"], "failed");
    let published = client.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && m["params"]["uri"] == uri
            && codes(&m["params"]).contains(&"HS5001".to_string())
    });
    let diagnostic = &published["params"]["diagnostics"][0];
    assert_eq!(published["params"]["version"], 0);
    assert_eq!(diagnostic["severity"], 1);
    assert_eq!(
        diagnostic["range"],
        json!({"start": {"line": 1, "character": 7}, "end": {"line": 1, "character": 17}}),
        "the range of `arith.remf`"
    );

    // Any change, and the finding is gone with the version it was about.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 1}, "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "// edited\n"}]}),
    );
    let after = client.diagnostics(&uri, Some(1));
    assert_eq!(codes(&after), Vec::<String>::new());
    client.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// The reason given is the error, not a note that came with it (a fork the backend would add
/// for a value used twice is reported before the unsupported op).
#[test]
fn the_reason_named_is_the_error_not_a_note() {
    let root = scratch("reason");
    let file = root.join("float.mlir");
    let text = "handshake.func @f(%a: f32, %b: f32, %ctrl: none) -> (f32, none) {\n  %c = arith.remf %a, %a : f32\n  sink %b : f32\n  return %c, %ctrl : f32, none\n}\n";
    std::fs::write(&file, text).unwrap();
    let uri = file_uri(&file);
    let out = root.join("out");
    let mut client = start(json!({}));
    client.open(&uri, text);
    let response =
        execute(&mut client, json!([{"uri": uri, "outputDir": out.display().to_string()}]));
    let message = response["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("Generate RTL: no RTL written: HS5001:"), "{message}");
    assert!(!message.contains("and 1 more"), "only errors are counted: {message}");
    client.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// Errors in a function stop "Generate RTL" only for the functions that instantiate it.
#[test]
fn errors_in_other_functions_do_not_stop_generation() {
    let root = scratch("others");
    let file = root.join("two.mlir");
    let text = "\
handshake.func @good(%a: i32, %ctrl: none) -> (i32, none) {
  return %a, %ctrl : i32, none
}
handshake.func @bad(%a: i32, %b: i64, %ctrl: none) -> (i32, none) {
  %c = arith.addi %a, %b : i32
  return %c, %ctrl : i32, none
}
handshake.func @calls_bad(%a: i32, %b: i64, %ctrl: none) -> (i32, none) {
  %0:2 = instance @bad(%a, %b, %ctrl) : (i32, i64, none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}
";
    std::fs::write(&file, text).unwrap();
    let uri = file_uri(&file);
    let out = root.join("out");
    let mut client = start(json!({}));
    client.open(&uri, text);
    assert_eq!(codes(&client.diagnostics(&uri, Some(0))), ["HS1105"]);

    let response = execute(
        &mut client,
        json!([{"uri": uri, "function": "good", "outputDir": out.display().to_string()}]),
    );
    assert!(response.get("error").is_none(), "{response}");
    assert_eq!(response["result"]["top"], "good");
    assert!(out.join("good.v").is_file());

    let response = execute(
        &mut client,
        json!([{"uri": uri, "function": "calls_bad", "outputDir": out.display().to_string()}]),
    );
    assert_eq!(response["error"]["code"], -32803, "{response}");
    let message = response["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("HS5009: `@calls_bad` instantiates `@bad`, which has errors"),
        "{message}"
    );
    assert!(!out.join("calls_bad.v").exists());
    // The refusal is shown where it is, on the instance; the analysis's error is not repeated.
    let published = client.wait(|m| {
        m["method"] == "textDocument/publishDiagnostics"
            && codes(&m["params"]).contains(&"HS5009".to_string())
    });
    assert_eq!(codes(&published["params"]), ["HS1105", "HS5009"]);
    let refusal = published["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "HS5009")
        .unwrap();
    assert_eq!(refusal["range"]["start"], json!({"line": 8, "character": 9}));
    client.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn generations_at_once_into_one_folder_all_succeed() {
    let root = scratch("at-once");
    let file = root.join("design.mlir");
    std::fs::write(&file, loop_design("f")).unwrap();
    let uri = file_uri(&file);
    let out = root.join("out").display().to_string();
    let mut client = start(json!({}));
    let arguments = json!([{"uri": uri, "function": "f", "outputDir": out, "testbench": true}]);
    let ids: Vec<i64> = (0..4)
        .map(|_| {
            client.send_request(
                "workspace/executeCommand",
                json!({"command": "hsir.generateRtl", "arguments": arguments}),
            )
        })
        .collect();
    for id in ids {
        let response = client.response(id);
        assert!(response.get("error").is_none(), "{response}");
        assert_eq!(response["result"]["files"].as_array().unwrap().len(), 4);
    }
    let mut names: Vec<String> = std::fs::read_dir(root.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [".hsir-written", "f.v", "f_tb.v", "files.f", "hsir_lib.v"],
        "no temporary files left"
    );
    // The record lists each file once, whichever generation wrote it last.
    let record = std::fs::read_to_string(root.join("out/.hsir-written")).unwrap();
    assert_eq!(record.lines().filter(|l| !l.starts_with('#')).count(), 4, "{record}");
    client.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_file_the_user_wrote_is_not_replaced() {
    let root = scratch("user-file");
    let file = root.join("design.mlir");
    std::fs::write(&file, loop_design("f")).unwrap();
    std::fs::create_dir_all(root.join("out")).unwrap();
    let mine = root.join("out/f.v");
    std::fs::write(&mine, "module f; endmodule\n").unwrap();
    let mut client = start(json!({}));
    let out = root.join("out").display().to_string();
    let response = execute(&mut client, json!([{"uri": file_uri(&file), "outputDir": out}]));
    assert_eq!(response["error"]["code"], -32803, "{response}");
    let message = response["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("`{}` exists and was not written by hsir", mine.display())),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), "module f; endmodule\n");
    assert_eq!(std::fs::read_dir(root.join("out")).unwrap().count(), 1, "nothing else written");
    client.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// Whether hsir wrote a file is its record's to say, not the file's first line.
#[test]
fn a_file_that_only_looks_like_hsirs_is_not_replaced() {
    let root = scratch("look-alike");
    let file = root.join("design.mlir");
    std::fs::write(&file, loop_design("f")).unwrap();
    let out = root.join("out");
    let mut client = start(json!({}));
    let arguments = json!([{"uri": file_uri(&file), "outputDir": out.display().to_string()}]);
    let first = execute(&mut client, arguments.clone());
    assert!(first.get("error").is_none(), "{first}");
    // The user replaces the design with their own file, which begins as hsir's do.
    let mine = out.join("f.v");
    let text = "// Generated by hsir from `@f`.\nmodule f; endmodule\n";
    std::fs::write(&mine, text).unwrap();
    let response = execute(&mut client, arguments.clone());
    assert_eq!(response["error"]["code"], -32803, "{response}");
    let message = response["error"]["message"].as_str().unwrap();
    assert!(
        message
            .contains(&format!("`{}` was written by hsir but has changed since", mine.display())),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), text);
    // A look-alike hsir never wrote, in a folder with no record.
    std::fs::remove_dir_all(&out).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(&mine, text).unwrap();
    let response = execute(&mut client, arguments);
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!("`{}` exists and was not written by hsir", mine.display())),
        "{response}"
    );
    assert_eq!(std::fs::read_to_string(&mine).unwrap(), text);
    client.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn analysis_errors_are_not_shown_twice() {
    let uri = "file:///hsir-test/type_error.mlir";
    let text = "handshake.func @f(%a: i32, %b: i64, %ctrl: none) -> (i32, none) {\n  %c = arith.addi %a, %b : i32\n  return %c, %ctrl : i32, none\n}\n";
    let mut client = start(json!({}));
    client.open(uri, text);
    assert_eq!(codes(&client.diagnostics(uri, Some(0))), ["HS1105"]);
    let response = execute(&mut client, json!([{"uri": uri, "outputDir": "/hsir-test-never"}]));
    assert_eq!(response["error"]["code"], -32803, "{response}");
    assert!(response["error"]["message"].as_str().unwrap().contains("HS1105"), "{response}");
    let messages = client.shutdown_and_collect();
    for m in messages.iter().filter(|m| m["method"] == "textDocument/publishDiagnostics") {
        assert_eq!(codes(&m["params"]), ["HS1105"], "{m}");
    }
}

#[test]
fn bad_requests_are_named() {
    let mut client = start(json!({}));
    let id = client.send_request(
        "workspace/executeCommand",
        json!({"command": "hsir.frobnicate", "arguments": []}),
    );
    let unknown = client.response(id);
    assert!(
        unknown["error"]["message"].as_str().unwrap().contains("`hsir.frobnicate`"),
        "{unknown}"
    );
    for arguments in
        [json!([{"function": "f"}]), json!([]), json!([{"uri": 3}]), json!([{"uri": "not a uri"}])]
    {
        let response = execute(&mut client, arguments.clone());
        assert_eq!(response["error"]["code"], -32602, "{arguments}: {response}");
    }
    let missing = execute(&mut client, json!([{"uri": "file:///hsir-test/no/such/file.mlir"}]));
    assert_eq!(missing["error"]["code"], -32803, "{missing}");
    assert!(missing["error"]["message"].as_str().unwrap().contains("cannot read"), "{missing}");
    client.shutdown();
}

/// Inside an `hw.module` that holds a pipeline, "Generate RTL" is offered for that module (and
/// no placement, which is for dataflow functions).
#[test]
fn generate_rtl_is_offered_inside_a_pipeline_module() {
    let mut client = start(json!({}));
    let uri = "file:///hsir-test/pipeline.mlir";
    let text = r#"hw.module @adder(in %a : i32, in %b : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out : i32, out done : i1) {
  %out, %done = pipeline.scheduled(%a0 : i32 = %a, %b0 : i32 = %b) clock(%clk) reset(%rst) go(%go) entryEn(%s0) -> (out : i32) {
    %sum = comb.add %a0, %b0 : i32
    pipeline.stage ^bb1 regs(%sum : i32)
  ^bb1(%r : i32, %s1 : i1):
    pipeline.return %r : i32
  }
  hw.output %out, %done : i32, i1
}
"#;
    client.open(uri, text);
    let actions = code_actions(&mut client, uri, line_of(text, "comb.add"));
    let generate = generate_actions(&actions);
    assert_eq!(generate.len(), 1, "{actions:?}");
    assert_eq!(generate[0]["title"], "Generate RTL for @adder");
    assert_eq!(generate[0]["command"]["arguments"], json!([{"uri": uri, "function": "adder"}]));
    let titles: Vec<&str> = actions.iter().filter_map(|a| a["title"].as_str()).collect();
    assert!(!titles.iter().any(|t| t.starts_with("Place buffers")), "{titles:?}");
    client.shutdown();
}
