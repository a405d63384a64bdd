//! "Place buffers" from the editor: the `hsir.placeBuffers` command and its code actions, the
//! one versioned edit it applies, its progress and cancellation, a document that changes while
//! it runs, and the findings it shows.

mod common;

use common::{repo_file, Client};
use serde_json::{json, Value};

const SUM_LOOP: &str = "backend/test_data/placement/sum_loop.mlir";

/// A client that shows progress and applies versioned workspace edits, as VS Code does.
fn start(options: Value) -> Client {
    let capabilities = json!({
        "window": {"workDoneProgress": true},
        "workspace": {"applyEdit": true, "workspaceEdit": {"documentChanges": true}},
        "textDocument": {"publishDiagnostics": {"versionSupport": true}},
    });
    Client::initialized_with(capabilities, options).0
}

/// Sends the command with `arguments`: an object (the one argument), or the positional list.
fn execute(client: &mut Client, arguments: Value) -> i64 {
    let arguments = if arguments.is_array() { arguments } else { json!([arguments]) };
    client.send_request(
        "workspace/executeCommand",
        json!({"command": "hsir.placeBuffers", "arguments": arguments}),
    )
}

/// The byte offset of an LSP position in ASCII `text`.
fn offset(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().unwrap() as usize;
    let character = position["character"].as_u64().unwrap() as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    start + character
}

/// `text` with the LSP `edits` applied, as an editor applies them.
fn apply(text: &str, edits: &[Value]) -> String {
    let mut ranges: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            let range = &e["range"];
            (
                offset(text, &range["start"]),
                offset(text, &range["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    ranges.sort_by_key(|&(start, end, _)| (start, end));
    let mut out = String::new();
    let mut at = 0;
    for (start, end, new) in ranges {
        assert!(start >= at, "overlapping edits: {edits:?}");
        out.push_str(&text[at..start]);
        out.push_str(new);
        at = end;
    }
    out + &text[at..]
}

fn is_request(m: &Value, method: &str) -> bool {
    m["method"] == method && m.get("id").is_some()
}

fn progress_end(client: &mut Client) -> Value {
    client.wait(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end")
}

/// Answers the server's `workspace/applyEdit` request `request` with `applied`.
fn answer(client: &mut Client, request: &Value, result: Value) {
    client.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": result}));
}

fn change(client: &mut Client, uri: &str, version: i64, text: &str) {
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
    );
}

fn codes(published: &Value) -> Vec<String> {
    let mut codes: Vec<String> = (published["diagnostics"].as_array().into_iter().flatten())
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect();
    codes.dedup();
    codes
}

/// `hsir check` on `text`: its exit status and output.
fn check(name: &str, text: &str) -> (bool, String) {
    let path = std::env::temp_dir().join(format!("hsir-lsp-buffers-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let output =
        std::process::Command::new(env!("CARGO_BIN_EXE_hsir")).arg("check").arg(&path).output();
    std::fs::remove_file(&path).unwrap();
    let output = output.unwrap();
    let shown = String::from_utf8_lossy(&output.stdout).to_string()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.success(), shown)
}

/// `copies` copies of `sum_loop.mlir`'s function, `@sum_loop_0`, `@sum_loop_1`, ...
fn copies(copies: usize) -> String {
    let text = repo_file(SUM_LOOP);
    (0..copies).map(|i| text.replace("@sum_loop", &format!("@sum_loop_{i}"))).collect()
}

#[test]
fn the_command_is_advertised_and_offered_on_functions() {
    let (mut client, init) = Client::initialized(json!({}));
    let commands = &init["capabilities"]["executeCommandProvider"]["commands"];
    assert!(commands.as_array().unwrap().contains(&json!("hsir.placeBuffers")), "{commands}");
    let uri = "file:///hsir-test/actions.mlir";
    let text = format!("// Above.\n{}\n// Between.\n{}", repo_file(SUM_LOOP), copies(1));
    client.open(uri, &text);
    let line_of = |needle: &str| text.lines().position(|l| l.contains(needle)).unwrap() as u32;
    let actions = |client: &mut Client, start: (u32, u32), end: (u32, u32), only: Value| {
        let mut context = json!({"diagnostics": []});
        if !only.is_null() {
            context["only"] = only;
        }
        let range = json!({"start": {"line": start.0, "character": start.1},
                            "end": {"line": end.0, "character": end.1}});
        let result = client.request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": range, "context": context}),
        );
        result
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["command"]["command"] == "hsir.placeBuffers")
            .cloned()
            .collect::<Vec<Value>>()
    };
    let expected = |title: &str, algorithm: &str, function: &str| {
        json!({
            "title": title,
            "kind": "source",
            "command": {
                "title": title,
                "command": "hsir.placeBuffers",
                "arguments": [{"uri": uri, "algorithm": algorithm, "function": function}],
            },
        })
    };
    // On the name, and anywhere in the body.
    let name = line_of("@sum_loop(");
    let at = (name, text.lines().nth(name as usize).unwrap().find("@sum_loop").unwrap() as u32);
    for position in [at, (line_of("%more = cmpi"), 4), (line_of("end %sum_f") + 1, 0)] {
        let mut found = actions(&mut client, position, position, Value::Null);
        // The function has no buffers and open cycles: its name holds HS2023, whose quick fix
        // runs the same command on it.
        if position == at {
            let fix = found.remove(0);
            assert_eq!(fix["kind"], "quickfix", "{fix}");
            assert_eq!(fix["title"], "Place buffers in @sum_loop (FPGA20)");
            assert_eq!(fix["diagnostics"][0]["code"], "HS2023", "{fix}");
            assert_eq!(
                fix["command"]["arguments"],
                json!([{"uri": uri, "algorithm": "fpga20", "function": "sum_loop"}])
            );
        }
        assert_eq!(
            found,
            [
                expected("Place buffers (FPGA20)", "fpga20", "sum_loop"),
                expected("Place buffers (FPL22)", "fpl22", "sum_loop"),
            ],
            "at {position:?}"
        );
    }
    // Outside functions, none; over two functions, each named.
    for needle in ["// Above.", "// Between."] {
        let position = (line_of(needle), 0);
        assert_eq!(actions(&mut client, position, position, Value::Null), Vec::<Value>::new());
    }
    let both = actions(&mut client, (name, 0), (line_of("@sum_loop_0"), 0), Value::Null);
    let titles: Vec<&str> = both.iter().map(|a| a["title"].as_str().unwrap()).collect();
    assert_eq!(
        titles,
        [
            // The quick fix of `@sum_loop`'s HS2023 (the range ends before `@sum_loop_0`'s).
            "Place buffers in @sum_loop (FPGA20)",
            "Place buffers in @sum_loop (FPGA20)",
            "Place buffers in @sum_loop (FPL22)",
            "Place buffers in @sum_loop_0 (FPGA20)",
            "Place buffers in @sum_loop_0 (FPL22)",
        ]
    );
    // Only for clients that ask for source actions.
    assert_eq!(actions(&mut client, at, at, json!(["source"])).len(), 2);
    assert_eq!(actions(&mut client, at, at, json!(["quickfix"])).len(), 1);
    let body = (line_of("%more = cmpi"), 4);
    assert_eq!(actions(&mut client, body, body, json!(["quickfix"])).len(), 0);
    client.shutdown();
}

#[test]
fn placement_applies_one_versioned_edit_whose_text_checks_clean() {
    // The algorithm comes from the setting when the command does not name one.
    let mut client = start(json!({"buffers": {"algorithm": "fpga20", "period": 4}}));
    let uri = "file:///hsir-test/sum_loop.mlir";
    let text = repo_file(SUM_LOOP);
    client.open(uri, &text);
    client.diagnostics(uri, Some(0));
    let id = execute(&mut client, json!({"uri": uri}));
    let request = client.wait(|m| is_request(m, "workspace/applyEdit"));
    let params = &request["params"];
    assert_eq!(params["label"], "Place buffers (FPGA20)");
    let changes = params["edit"]["documentChanges"].as_array().expect("versioned changes");
    assert_eq!(changes.len(), 1, "one document edit: {params}");
    assert_eq!(changes[0]["textDocument"], json!({"uri": uri, "version": 0}));
    assert!(params["edit"].get("changes").is_none());
    let placed = apply(&text, changes[0]["edits"].as_array().unwrap());
    answer(&mut client, &request, json!({"applied": true}));
    change(&mut client, uri, 1, &placed);

    let response = client.response(id);
    let result = &response["result"];
    assert!(response.get("error").is_none(), "{response}");
    assert_eq!((&result["applied"], &result["cancelled"]), (&json!(true), &json!(false)));
    assert_eq!(result["version"], 0);
    let function = &result["functions"][0];
    assert_eq!(
        (&function["function"], &function["algorithm"]),
        (&json!("sum_loop"), &json!("fpga20"))
    );
    let buffers = function["buffers"].as_u64().unwrap();
    assert!(buffers > 0, "{result}");
    assert_eq!(
        placed.matches("handshake.buffer").count() + placed.matches("= buffer ").count(),
        buffers as usize,
        "every buffer the answer counts is in the text:\n{placed}"
    );
    let (clean, shown) = check("placed.mlir", &placed);
    assert!(clean, "the placed text has errors:\n{shown}\n{placed}");
    for code in ["HS2020", "HS2021", "HS2022"] {
        assert!(!shown.contains(code), "{code} after placement:\n{shown}");
    }
    // The server's copy is the placed text, and its diagnostics are about it.
    assert!(codes(&client.diagnostics(uri, Some(1))).iter().all(|c| !c.starts_with("HS20")));

    // Progress: on a token the server asked for; the title names the function and the
    // algorithm, each function is reported, the end sums it up as the CLI does.
    let end = progress_end(&mut client);
    let message = end["params"]["value"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("@sum_loop: fpga20 {buffers} buffers"))
            && message.contains("critical path"),
        "{message}"
    );
    assert_eq!(result["message"], message);
    let messages = client.shutdown_and_collect();
    let progress: Vec<&Value> = messages.iter().filter(|m| m["method"] == "$/progress").collect();
    let begin = &progress[0]["params"]["value"];
    assert_eq!(begin["kind"], "begin");
    assert_eq!(begin["title"], "Placing buffers in @sum_loop (FPGA20)");
    assert_eq!(begin["cancellable"], true);
    assert_eq!(progress[1]["params"]["value"]["message"], "@sum_loop (1/1)");
    assert!(messages.iter().all(|m| m["method"] != "window/showMessage"), "{messages:?}");
}

#[test]
fn a_document_changed_meanwhile_gets_nothing() {
    let mut client = start(json!({}));
    let uri = "file:///hsir-test/raced.mlir";
    let text = repo_file(SUM_LOOP);
    client.open(uri, &text);
    client.diagnostics(uri, Some(0));
    let id = execute(&mut client, json!({"uri": uri, "function": "sum_loop"}));
    // The server has read the text when it asks for a progress token; the user types before
    // the client answers, and the server has the edit (its copy says so) before placement
    // can finish.
    let create = client.wait(|m| is_request(m, "window/workDoneProgress/create"));
    let edited = format!("// typed meanwhile\n{text}");
    change(&mut client, uri, 1, &edited);
    let copy = client.request("hsir/test/text", json!({"uri": uri}));
    assert_eq!(copy, json!(edited));
    answer(&mut client, &create, Value::Null);

    let response = client.response(id);
    let result = &response["result"];
    assert_eq!(
        (&result["applied"], &result["cancelled"]),
        (&json!(false), &json!(false)),
        "{response}"
    );
    let shown = client.wait(|m| m["method"] == "window/showMessage");
    let message = shown["params"]["message"].as_str().unwrap();
    assert!(
        message.contains("`raced.mlir` changed") && message.contains("run Place buffers again"),
        "{message}"
    );
    assert_eq!(shown["params"]["type"], 2, "a warning");
    let end = progress_end(&mut client);
    assert_eq!(end["params"]["value"]["message"], "the document changed; nothing was applied");
    let messages = client.shutdown_and_collect();
    assert!(messages.iter().all(|m| m["method"] != "workspace/applyEdit"), "{messages:?}");
}

/// Placement that runs for minutes unless cancelled: FPL22's models on eight loops, each with
/// ten minutes to prove its optimum.
fn long_placement() -> (Client, &'static str) {
    let mut client = start(json!({"buffers": {"timeLimit": 600}}));
    let uri = "file:///hsir-test/long.mlir";
    client.open(uri, &copies(8));
    (client, uri)
}

#[test]
fn cancelling_the_progress_applies_nothing() {
    let (mut client, uri) = long_placement();
    let id = execute(&mut client, json!({"uri": uri, "algorithm": "fpl22"}));
    let create = client.wait(|m| is_request(m, "window/workDoneProgress/create"));
    let token = create["params"]["token"].clone();
    answer(&mut client, &create, Value::Null);
    let begin =
        client.wait(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "begin");
    assert_eq!(begin["params"]["value"]["title"], "Placing buffers in 8 functions (FPL22)");
    client.wait(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "report");
    client.notify("window/workDoneProgress/cancel", json!({"token": token}));

    let response = client.response(id);
    let result = &response["result"];
    assert_eq!(
        (&result["applied"], &result["cancelled"]),
        (&json!(false), &json!(true)),
        "{response}"
    );
    assert_eq!(result["message"], "buffer placement was cancelled; nothing was applied");
    let end = progress_end(&mut client);
    assert_eq!(end["params"]["value"]["message"], "cancelled; nothing was applied");
    assert_eq!(end["params"]["token"], token);
    let messages = client.shutdown_and_collect();
    assert!(messages.iter().all(|m| m["method"] != "workspace/applyEdit"), "{messages:?}");
    let reports = messages
        .iter()
        .filter(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "report")
        .count();
    assert!(reports <= 2, "placement went on after the cancel: {reports} functions begun");
}

#[test]
fn cancelling_the_request_applies_nothing_and_ends_the_progress() {
    let (mut client, uri) = long_placement();
    let id = execute(&mut client, json!({"uri": uri, "algorithm": "fpl22"}));
    client.wait(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "report");
    client.notify("$/cancelRequest", json!({"id": id}));
    let response = client.response(id);
    assert_eq!(response["error"]["code"], -32800, "RequestCancelled: {response}");
    let end = progress_end(&mut client);
    assert_eq!(end["params"]["value"]["message"], "cancelled; nothing was applied");
    // The server goes on serving, and placement stopped (or this request would wait behind
    // nothing, but the placement thread would hold a core for minutes).
    let text = client.request("hsir/test/text", json!({"uri": uri}));
    assert_eq!(text, json!(copies(8)));
    let messages = client.shutdown_and_collect();
    assert!(messages.iter().all(|m| m["method"] != "workspace/applyEdit"), "{messages:?}");
}

#[test]
fn placement_findings_show_on_the_placed_text_until_it_changes() {
    let mut client = start(json!({}));
    let uri = "file:///hsir-test/too_fast.mlir";
    let text = repo_file(SUM_LOOP);
    client.open(uri, &text);
    // Before placement: only the remark that the loop has no buffers yet.
    assert_eq!(codes(&client.diagnostics(uri, Some(0))), ["HS2023"]);
    // A 1 ns clock: some paths cannot be cut short enough.
    let id = execute(&mut client, json!([uri, "fpga20", 1.0, "sum_loop"]));
    let request = client.wait(|m| is_request(m, "workspace/applyEdit"));
    let edits = request["params"]["edit"]["documentChanges"][0]["edits"].as_array().unwrap();
    let placed = apply(&text, edits);
    answer(&mut client, &request, json!({"applied": true}));
    change(&mut client, uri, 1, &placed);
    let response = client.response(id);
    let result = &response["result"];
    assert_eq!(result["applied"], true, "{response}");
    let reported: Vec<&str> = result["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(reported.contains(&"HS6002"), "{result}");

    let published = client.diagnostics(uri, Some(1));
    assert!(codes(&published).contains(&"HS6002".to_string()), "{published}");
    // Each finding is on the placed text: its range starts at an op the path names.
    for d in published["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "HS6002") {
        let start = offset(&placed, &d["range"]["start"]);
        let end = offset(&placed, &d["range"]["end"]);
        let covered = &placed[start..end];
        let message = d["message"].as_str().unwrap();
        let first_op = covered.split_whitespace().find(|w| !w.starts_with('%') && *w != "=");
        assert!(
            first_op.is_some_and(|op| message.contains(op)),
            "`{covered}` is not on the path of: {message}"
        );
    }
    change(&mut client, uri, 2, &format!("{placed}// edited\n"));
    assert_eq!(
        codes(&client.diagnostics(uri, Some(2))).iter().filter(|c| c.starts_with("HS6")).count(),
        0
    );
    client.shutdown();
}

/// Errors in a function stop "Place buffers" only in the functions that instantiate it.
#[test]
fn errors_in_other_functions_do_not_stop_placement() {
    let mut client = start(json!({}));
    let uri = "file:///hsir-test/others.mlir";
    let text = repo_file(SUM_LOOP)
        + "\
handshake.func @bad(%a: i32, %b: i64, %ctrl: none) -> (i32, none) {
  %c = arith.addi %a, %b : i32
  return %c, %ctrl : i32, none
}
handshake.func @calls_bad(%a: i32, %b: i64, %ctrl: none) -> (i32, none) {
  %0:2 = instance @bad(%a, %b, %ctrl) : (i32, i64, none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}
";
    client.open(uri, &text);
    assert!(codes(&client.diagnostics(uri, Some(0))).contains(&"HS1105".to_string()));
    let id = execute(&mut client, json!({"uri": uri, "function": "sum_loop"}));
    let request = client.wait(|m| is_request(m, "workspace/applyEdit"));
    answer(&mut client, &request, json!({"applied": true}));
    let response = client.response(id);
    assert!(response.get("error").is_none(), "{response}");
    assert_eq!(response["result"]["functions"][0]["function"], "sum_loop");

    let id = execute(&mut client, json!({"uri": uri, "function": "calls_bad"}));
    let response = client.response(id);
    assert_eq!(response["error"]["code"], -32803, "{response}");
    let message = response["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("no buffers placed: HS5009: `@calls_bad` instantiates `@bad`"),
        "{message}"
    );
    client.shutdown();
}

#[test]
fn problems_are_named() {
    let mut client = start(json!({}));
    let uri = "file:///hsir-test/problems.mlir";
    client.open(uri, &repo_file(SUM_LOOP));
    let error = |client: &mut Client, arguments: Value| -> (i64, String) {
        let id = execute(client, arguments);
        let response = client.response(id);
        let error = &response["error"];
        (error["code"].as_i64().unwrap_or(0), error["message"].as_str().unwrap_or("").to_string())
    };
    let (code, message) = error(&mut client, json!({"uri": uri, "function": "nope"}));
    assert_eq!(code, -32803);
    assert!(message.contains("HS5005") && message.contains("`nope`"), "{message}");
    let (code, message) = error(&mut client, json!({"uri": "file:///hsir-test/closed.mlir"}));
    assert_eq!(code, -32803);
    assert!(message.contains("is not open"), "{message}");
    let broken = "file:///hsir-test/broken.mlir";
    client.open(
        broken,
        "handshake.func @f(%a: i32, %b: i64, %ctrl: none) -> (i32, none) {\n  %c = arith.addi %a, %b : i32\n  return %c, %ctrl : i32, none\n}\n",
    );
    let (code, message) = error(&mut client, json!({"uri": broken}));
    assert_eq!(code, -32803);
    assert!(message.contains("no buffers placed") && message.contains("HS1105"), "{message}");
    for (arguments, needle) in [
        (json!({"uri": uri, "algorithm": "fpga99"}), "unknown algorithm `fpga99`"),
        (json!({"uri": uri, "period": -2}), "positive number"),
        (json!({"function": "f"}), "needs a `uri`"),
        (json!({"uri": "not a uri"}), "is not a URI"),
    ] {
        let (code, message) = error(&mut client, arguments.clone());
        assert_eq!(code, -32602, "{arguments}");
        assert!(message.contains(needle), "{arguments}: {message}");
    }
    let messages = client.shutdown_and_collect();
    assert!(messages.iter().all(|m| m["method"] != "workspace/applyEdit"), "{messages:?}");
}

/// `sum_loop.mlir` as placement left it: a function that already has buffers.
const SUM_LOOP_PLACED: &str = "backend/test_data/placement/placed/sum_loop.fpga20.mlir";

/// The buffers written in `text`.
fn buffer_count(text: &str) -> usize {
    text.matches("handshake.buffer").count() + text.matches("= buffer ").count()
}

/// A client that can be asked questions (`window/showMessageRequest`), as VS Code and Neovim.
fn start_asking() -> Client {
    let capabilities = json!({
        "window": {"workDoneProgress": true, "showMessage": {"messageActionItem": {}}},
        "workspace": {"applyEdit": true, "workspaceEdit": {"documentChanges": true}},
        "textDocument": {"publishDiagnostics": {"versionSupport": true}},
    });
    Client::initialized_with(capabilities, json!({})).0
}

#[test]
fn a_buffered_function_asks_and_replace_places_it_from_scratch() {
    let mut client = start_asking();
    let uri = "file:///hsir-test/buffered.mlir";
    let text = repo_file(SUM_LOOP_PLACED);
    let existing = buffer_count(&text);
    assert!(existing > 0);
    client.open(uri, &text);
    client.diagnostics(uri, Some(0));
    // Kept as lower bounds, the buffers placement wrote would need nothing more (no edit at
    // all, see below); replaced, they are placed again from scratch.
    let id = execute(&mut client, json!({"uri": uri, "period": 100}));
    let question = client.wait(|m| is_request(m, "window/showMessageRequest"));
    let message = question["params"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("@sum_loop already has {existing} buffers"))
            && message.contains("Replace them with a new FPGA20 placement"),
        "{message}"
    );
    let titles: Vec<&str> = question["params"]["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Replace", "Keep and add", "Cancel"]);
    answer(&mut client, &question, json!({"title": "Replace"}));

    let request = client.wait(|m| is_request(m, "workspace/applyEdit"));
    let edits = request["params"]["edit"]["documentChanges"][0]["edits"].as_array().unwrap();
    let placed = apply(&text, edits);
    answer(&mut client, &request, json!({"applied": true}));
    let response = client.response(id);
    let result = &response["result"];
    assert_eq!(result["applied"], true, "{response}");
    assert_eq!(result["replacedBuffers"], existing, "{result}");
    let message = result["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("replaced {existing} existing buffers: @sum_loop: fpga20 ")),
        "{message}"
    );
    // Only the new placement's buffers are in the text: none of the old ones stayed.
    let buffers = result["functions"][0]["buffers"].as_u64().unwrap() as usize;
    assert_eq!(buffer_count(&placed), buffers, "{placed}");
    let (clean, shown) = check("replaced.mlir", &placed);
    assert!(clean, "{shown}\n{placed}");
    client.shutdown();
}

#[test]
fn a_buffered_function_kept_or_cancelled() {
    let mut client = start_asking();
    let uri = "file:///hsir-test/kept.mlir";
    let text = repo_file(SUM_LOOP_PLACED);
    let existing = buffer_count(&text);
    client.open(uri, &text);
    // Cancel: nothing runs, nothing is applied.
    let id = execute(&mut client, json!({"uri": uri}));
    let question = client.wait(|m| is_request(m, "window/showMessageRequest"));
    answer(&mut client, &question, json!({"title": "Cancel"}));
    let response = client.response(id);
    let result = &response["result"];
    assert_eq!((&result["applied"], &result["cancelled"]), (&json!(false), &json!(true)));
    assert!(
        result["message"].as_str().unwrap().contains(&format!("@sum_loop has {existing} buffers")),
        "{result}"
    );
    // Keep and add: placement over what placement wrote adds nothing.
    let id = execute(&mut client, json!({"uri": uri}));
    let question = client.wait(|m| is_request(m, "window/showMessageRequest"));
    answer(&mut client, &question, json!({"title": "Keep and add"}));
    let response = client.response(id);
    let message = response["result"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!("no buffers to add: kept {existing} existing buffers")),
        "{message}"
    );
    // The command may say it, and is not asked.
    let id = execute(&mut client, json!({"uri": uri, "existing": "keep"}));
    let response = client.response(id);
    assert!(response["result"]["message"].as_str().unwrap().contains("kept"), "{response}");
    let messages = client.shutdown_and_collect();
    assert!(messages.iter().all(|m| m["method"] != "workspace/applyEdit"), "{messages:?}");
    assert!(messages.iter().all(|m| m["method"] != "window/showMessageRequest"), "{messages:?}");
}

#[test]
fn a_client_that_cannot_be_asked_gets_the_buffers_replaced_and_told() {
    // `start`'s client declares no `window.showMessage`.
    let mut client = start(json!({}));
    let uri = "file:///hsir-test/unasked.mlir";
    let text = repo_file(SUM_LOOP_PLACED);
    let existing = buffer_count(&text);
    client.open(uri, &text);
    let id = execute(&mut client, json!({"uri": uri, "period": 100}));
    let request = client.wait(|m| is_request(m, "workspace/applyEdit"));
    let edits = request["params"]["edit"]["documentChanges"][0]["edits"].as_array().unwrap();
    let placed = apply(&text, edits);
    answer(&mut client, &request, json!({"applied": true}));
    let response = client.response(id);
    let message = response["result"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(&format!(
            "replaced {existing} existing buffers (this editor cannot be asked whether to keep them"
        )),
        "{message}"
    );
    let buffers = response["result"]["functions"][0]["buffers"].as_u64().unwrap() as usize;
    assert_eq!(buffer_count(&placed), buffers);
    let messages = client.shutdown_and_collect();
    assert!(messages.iter().all(|m| m["method"] != "window/showMessageRequest"), "{messages:?}");
}

/// The editor's command on a kernel of Dynamatic's suite (its unbuffered `handshake.mlir`, as
/// Dynamatic's flow hands it to placement): the placed text runs in co-simulation equal to the
/// kernel's C, in the cycles the CLI's placement reaches (the slack search included), no more
/// than Dynamatic's own circuit. Without `../shared` the test says so and passes.
#[test]
fn a_suite_kernel_placed_from_the_editor_equals_c_in_dynamatics_cycles() {
    let Some(suite) = common::dynamatic_suite() else { return };
    let text = std::fs::read_to_string(suite.join("ir/atax_LEGACY__handshake.mlir")).unwrap();
    let mut client = start(json!({"buffers": {"algorithm": "fpga20"}}));
    let uri = "file:///hsir-test/atax_LEGACY.mlir";
    client.open(uri, &text);
    let id = execute(&mut client, json!({"uri": uri}));
    let request = client.wait(|m| is_request(m, "workspace/applyEdit"));
    let edits = request["params"]["edit"]["documentChanges"][0]["edits"].as_array().unwrap();
    let placed = apply(&text, edits);
    answer(&mut client, &request, json!({"applied": true}));
    let response = client.response(id);
    let message = response["result"]["message"].as_str().unwrap().to_string();
    assert!(message.contains("slack: +"), "{message}");
    client.shutdown_and_collect();

    let dir = std::env::temp_dir().join(format!("hsir-lsp-buffers-{}-atax", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("atax.mlir");
    std::fs::write(&file, &placed).unwrap();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_hsir"))
        .args(["cosim", file.to_str().unwrap(), "--format", "json", "--c"])
        .arg(suite.join("c/atax.c"))
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(output.status.success(), "{shown}{}", String::from_utf8_lossy(&output.stderr));
    let v: Value = serde_json::from_str(&shown).unwrap();
    assert_eq!(v["verdict"], "pass", "{v}");
    let Some(dynamatic) = common::dynamatic_cycles("atax", "LEGACY") else { return };
    let cycles = v["cycles"].as_u64().unwrap();
    assert!(
        cycles <= dynamatic,
        "{cycles} cycles from the editor's placement, Dynamatic {dynamatic}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
