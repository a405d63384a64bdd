//! A minimal LSP client over the built `hsir lsp` binary's stdio, for the integration tests.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The shared test data beside the workspace (`../shared`, or `$HSIR_SHARED`): the one finder.
#[path = "../../../test-support/shared.rs"]
pub mod shared;

/// Dynamatic's suite (`dynamatic-suite` of the shared data: `ir/`, `c/`, `RESULTS.tsv`) as an
/// absolute path, or `None` after saying the test is skipped.
#[allow(unused_imports)]
pub use shared::dynamatic_suite;

/// Dynamatic's cycles for a kernel and flow of its suite (`RESULTS.tsv`), less the 9 of its
/// testbench; `None` (the caller is skipped) without the file.
#[allow(dead_code)]
pub fn dynamatic_cycles(kernel: &str, flow: &str) -> Option<u64> {
    let path = shared::path("dynamatic-suite/RESULTS.tsv")?;
    let results = std::fs::read_to_string(path).unwrap();
    let row = results
        .lines()
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f[0] == kernel && f[1] == flow)
        .unwrap_or_else(|| panic!("{kernel} {flow} in RESULTS.tsv"));
    Some(row[4].parse::<u64>().unwrap() - 9)
}

pub struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    /// Messages read while waiting for something else, oldest first.
    backlog: Vec<Value>,
    next_id: i64,
}

impl Client {
    /// Starts `hsir lsp` with test hooks on.
    pub fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hsir"))
            .arg("lsp")
            .env("HSIR_TEST_HOOKS", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("hsir starts");
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length:") {
                        length = v.trim().parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("Content-Length")];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let value: Value = serde_json::from_slice(&body).expect("the server sends JSON");
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        Client { child, stdin, messages, backlog: Vec::new(), next_id: 1 }
    }

    /// Starts the server and completes the `initialize` handshake, as a client that shows
    /// everything a diagnostic can carry (as VS Code does).
    pub fn initialized(options: Value) -> (Client, Value) {
        let capabilities = json!({"textDocument": {"publishDiagnostics": {
            "relatedInformation": true,
            "codeDescriptionSupport": true,
            "tagSupport": {"valueSet": [1, 2]},
            "versionSupport": true,
        }}});
        Client::initialized_with(capabilities, options)
    }

    /// Starts the server and completes the `initialize` handshake with these client
    /// capabilities.
    pub fn initialized_with(capabilities: Value, options: Value) -> (Client, Value) {
        let mut client = Client::start();
        let result = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": null,
                "capabilities": capabilities,
                "initializationOptions": options,
            }),
        );
        client.notify("initialized", json!({}));
        (client, result)
    }

    pub fn send_raw(&mut self, body: &[u8]) {
        let header = format!("Content-Length: {}\r\n\r\n", body.len());
        self.stdin.write_all(header.as_bytes()).expect("server reads");
        self.stdin.write_all(body).expect("server reads");
        self.stdin.flush().expect("flush");
    }

    /// Writes bytes as they are, without a header: for malformed frames.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("server reads");
        self.stdin.flush().expect("flush");
    }

    /// Whether the server process has not exited.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("wait").is_none()
    }

    pub fn send(&mut self, message: Value) {
        self.send_raw(message.to_string().as_bytes());
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its id without waiting.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The whole response to request `id`.
    pub fn response(&mut self, id: i64) -> Value {
        self.wait(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
    }

    /// Sends a request and returns its `result`, failing on an error response.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        let response = self.response(id);
        if let Some(error) = response.get("error") {
            panic!("{method} failed: {error}");
        }
        response["result"].clone()
    }

    /// The first message (from the backlog, then the stream) that satisfies `pred`.
    pub fn wait(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) if pred(&message) => return message,
                Ok(message) => {
                    // Answer the server's own requests so that it never waits on us.
                    if message.get("method").is_some() && message.get("id").is_some() {
                        let id = message["id"].clone();
                        self.send(json!({"jsonrpc": "2.0", "id": id, "result": null}));
                    }
                    self.backlog.push(message);
                }
                Err(RecvTimeoutError::Timeout) => panic!("no matching message within {TIMEOUT:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
            }
        }
    }

    /// Every message read so far and not yet waited for.
    pub fn drain(&mut self) -> Vec<Value> {
        self.backlog.extend(self.messages.try_iter());
        std::mem::take(&mut self.backlog)
    }

    /// The next diagnostics published for `uri` (at `version`, when given).
    pub fn diagnostics(&mut self, uri: &str, version: Option<i64>) -> Value {
        self.wait(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && version.is_none_or(|v| m["params"]["version"] == v)
        })["params"]
            .clone()
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "mlir", "version": 0, "text": text}}),
        );
    }

    /// `shutdown` then `exit`, as `shutdown`; returns every message the server sent that was
    /// not waited for, up to its last, so that a test can say what it never sent.
    pub fn shutdown_and_collect(mut self) -> Vec<Value> {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let mut all = std::mem::take(&mut self.backlog);
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(message) => all.push(message),
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => panic!("hsir lsp did not close its output"),
            }
        }
        let status = self.child.wait().expect("wait");
        assert!(status.success(), "hsir lsp exited with {status}");
        all
    }

    /// `shutdown` then `exit`; the server must exit by itself, with status 0.
    pub fn shutdown(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "hsir lsp exited with {status}");
                return;
            }
            assert!(Instant::now() < deadline, "hsir lsp did not exit after `exit`");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A file URI for a test document.
pub fn uri(name: &str) -> String {
    format!("file:///hsir-test/{name}")
}

/// Reads a file of the repository.
pub fn repo_file(path: &str) -> String {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
}
