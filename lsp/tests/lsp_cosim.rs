//! "Co-simulate against C" from the editor: the `hsir.cosim` command over JSON-RPC, with its
//! progress, its verdict (returned and shown), the C file found beside the IR, cancellation.
//! Uses `../shared/dynamatic-suite` (skipped with a message without it), cc and iverilog.

mod common;

use std::path::{Path, PathBuf};

use common::Client;
use serde_json::{json, Value};

use common::dynamatic_suite as suite;

/// A fresh folder holding `ir/` and `c/` as the suite lays them out, with `kernel`'s files.
fn layout(suite: &Path, name: &str, kernel: &str) -> PathBuf {
    layout_flow(suite, name, kernel, "LEGACY")
}

/// The same with the export of `flow` (`LEGACY` or `FTD`).
fn layout_flow(suite: &Path, name: &str, kernel: &str, flow: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hsir-lsp-cosim-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("ir")).unwrap();
    std::fs::create_dir_all(dir.join("c")).unwrap();
    let ir = format!("{kernel}_{flow}__handshake_export.mlir");
    std::fs::copy(suite.join("ir").join(&ir), dir.join("ir").join(&ir)).unwrap();
    for ext in ["c", "h"] {
        let file = format!("{kernel}.{ext}");
        std::fs::copy(suite.join("c").join(&file), dir.join("c").join(&file)).unwrap();
    }
    dir.canonicalize().unwrap()
}

fn start() -> Client {
    let mut client = Client::start();
    client.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {"window": {"workDoneProgress": true}}}),
    );
    client.notify("initialized", json!({}));
    client
}

fn cosim(client: &mut Client, arguments: Value) -> i64 {
    client.send_request(
        "workspace/executeCommand",
        json!({"command": "hsir.cosim", "arguments": arguments}),
    )
}

#[test]
fn cosim_reports_progress_and_returns_and_shows_the_verdict() {
    let Some(suite) = suite() else { return };
    let dir = layout(&suite, "verdict", "gcd");
    let ir = dir.join("ir/gcd_LEGACY__handshake_export.mlir");
    let uri = format!("file://{}", ir.display());
    let mut client = start();
    client.open(&uri, &std::fs::read_to_string(&ir).unwrap());
    // No C file given: `c/gcd.c`, a sibling folder's, is found.
    let id = cosim(&mut client, json!([{"uri": uri}]));
    let response = client.response(id);
    assert!(response.get("error").is_none(), "{response}");
    let result = &response["result"];
    assert_eq!(result["verdict"], "pass", "{result}");
    assert_eq!(result["interpreter"]["verdict"], "pass");
    assert_eq!(result["rtl"]["verdict"], "pass");
    assert!(result["cycles"].as_u64().unwrap() > 0);
    let shown = client.wait(|m| m["method"] == "window/showMessage");
    let message = shown["params"]["message"].as_str().unwrap();
    assert!(message.starts_with("hsir: co-simulation of @gcd against gcd.c: PASS, "), "{message}");
    assert_eq!(shown["params"]["type"], 3, "information");
    let messages = client.shutdown_and_collect();
    let progress: Vec<&Value> = messages.iter().filter(|m| m["method"] == "$/progress").collect();
    let values: Vec<(&str, &str)> = progress
        .iter()
        .map(|m| {
            let v = &m["params"]["value"];
            (
                v["kind"].as_str().unwrap(),
                v["message"].as_str().or(v["title"].as_str()).unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        values,
        [
            ("begin", "Co-simulating against gcd.c"),
            ("report", "compiling the C program"),
            ("report", "running the C program"),
            ("report", "running the interpreter"),
            ("report", "compiling the RTL"),
            ("report", "simulating the RTL"),
            ("end", "PASS"),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failing_kernel_is_a_warning_and_a_missing_c_file_an_error() {
    let Some(suite) = suite() else { return };
    let dir = layout(&suite, "fail", "fir");
    let ir = dir.join("ir/fir_LEGACY__handshake_export.mlir");
    let uri = format!("file://{}", ir.display());
    let text = std::fs::read_to_string(&ir).unwrap();
    let mut client = start();
    // The editor's unsaved text computes `tmp - idx[i] * di[...]`.
    let from = "%38 = addi %37, %35";
    assert!(text.contains(from));
    client.open(&uri, &text.replace(from, "%38 = subi %37, %35"));
    let c = dir.join("c/fir.c");
    let id = cosim(&mut client, json!([uri, c.display().to_string()]));
    let response = client.response(id);
    let result = &response["result"];
    assert_eq!(result["verdict"], "fail", "{response}");
    assert_eq!(result["mismatches"][0]["output"], "return");
    let shown = client.wait(|m| m["method"] == "window/showMessage");
    assert_eq!(shown["params"]["type"], 2, "warning");
    let message = shown["params"]["message"].as_str().unwrap();
    assert!(
        message.contains(": FAIL") && message.contains("interpreter: return: got "),
        "{message}"
    );

    let id =
        cosim(&mut client, json!([{"uri": uri, "c": dir.join("c/none.c").display().to_string()}]));
    let response = client.response(id);
    let error = response["error"]["message"].as_str().unwrap();
    assert!(error.starts_with("Co-simulate: cannot read the C file"), "{error}");
    client.shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}

/// bicg_FTD's `end` fires before its last stores to `s` land: the verdict fails for late
/// writes, and the message shown says so, with the elements stale at `end`.
#[test]
fn late_writes_are_the_reason_shown() {
    let Some(suite) = suite() else { return };
    let dir = layout_flow(&suite, "late", "bicg", "FTD");
    let ir = dir.join("ir/bicg_FTD__handshake_export.mlir");
    let uri = format!("file://{}", ir.display());
    let mut client = start();
    let id = cosim(&mut client, json!([{"uri": uri}]));
    let response = client.response(id);
    let result = &response["result"];
    assert_eq!(result["verdict"], "fail", "{response}");
    assert_eq!(result["reasons"], json!(["late writes"]), "{response}");
    assert_eq!(result["late_writes"][0]["output"], "s", "{response}");
    let shown = client.wait(|m| m["method"] == "window/showMessage");
    assert_eq!(shown["params"]["type"], 2, "warning");
    let message = shown["params"]["message"].as_str().unwrap();
    assert!(message.contains(": FAIL"), "{message}");
    assert!(
        message.contains("RTL: late writes, values equal C once they land: s: ")
            && message.contains("sees s["),
        "{message}"
    );
    assert_eq!(result["message"], message);
    client.shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cancelling_stops_a_c_program_that_never_ends() {
    let Some(suite) = suite() else { return };
    let dir = layout(&suite, "cancel", "gcd");
    let ir = dir.join("ir/gcd_LEGACY__handshake_export.mlir");
    let c = dir.join("c/forever.c");
    std::fs::write(&c, "#include \"dynamatic/Integration.h\"\nint main(void) { for (;;) {} }\n")
        .unwrap();
    let uri = format!("file://{}", ir.display());
    let mut client = start();
    let id = cosim(&mut client, json!([{"uri": uri, "c": c.display().to_string()}]));
    let running = client.wait(|m| {
        m["method"] == "$/progress" && m["params"]["value"]["message"] == "running the C program"
    });
    client.notify("window/workDoneProgress/cancel", json!({"token": running["params"]["token"]}));
    let response = client.response(id);
    assert_eq!(response["result"]["verdict"], "cancelled", "{response}");
    let end = client.wait(|m| m["method"] == "$/progress" && m["params"]["value"]["kind"] == "end");
    assert_eq!(end["params"]["value"]["message"], "cancelled");
    client.shutdown();
    let _ = std::fs::remove_dir_all(&dir);
}

/// The output folder resolves as "Generate RTL"'s does: a relative one may not lead out of the
/// workspace. Refused before any C is compiled, so no suite is needed.
#[test]
fn an_output_folder_outside_the_workspace_is_refused() {
    let dir = std::env::temp_dir().join(format!("hsir-lsp-cosim-{}-escape", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("w")).unwrap();
    let dir = dir.canonicalize().unwrap();
    let ir = dir.join("w/k.mlir");
    std::fs::write(&ir, "handshake.func @k(%a: i32, %ctrl: none) -> (i32, none) {\n  return %a, %ctrl : i32, none\n}\n").unwrap();
    std::fs::write(dir.join("w/k.c"), "int main(void) { return 0; }\n").unwrap();
    let uri = format!("file://{}", ir.display());
    let mut client = Client::start();
    client.request(
        "initialize",
        json!({"processId": null, "rootUri": format!("file://{}", dir.join("w").display()), "capabilities": {}}),
    );
    client.notify("initialized", json!({}));
    let id = cosim(&mut client, json!([{"uri": uri, "c": "k.c", "outputDir": "../../out"}]));
    let response = client.response(id);
    assert_eq!(response["error"]["code"], -32803, "{response}");
    let message = response["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("Co-simulate: the output folder `../../out` resolves to")
            && message.contains("outside the workspace folders"),
        "{message}"
    );
    assert!(!dir.parent().unwrap().join("out").exists());
    client.shutdown();
    std::fs::remove_dir_all(&dir).unwrap();
}
