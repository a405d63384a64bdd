//! The VS Code extension, end to end, in a real editor: `editors/vscode/test/e2e.mjs` builds
//! and packages the extension, installs it into code-server (VS Code in the browser) with this
//! build of `hsir` as its server, and drives the editor with Chromium: a fixture's diagnostic
//! in the Problems panel, a buffer's hover with its latencies, "hsir: Generate RTL" from the
//! command palette writing Verilog to disk, "Co-simulate against C" on Dynamatic's fir (its
//! dialog, progress, PASS with cycles, an altered copy's FAIL, Cancel; with cc and Icarus
//! Verilog, and skipped without `../shared/dynamatic-suite`). What it checks, step by step, is
//! at the top of `e2e.mjs`.
//!
//! It needs Node.js 20, npm and Chromium (and, the first time, what code-server's install
//! builds with); `.ci/run` installs them. Without them the test fails and says what is
//! missing. code-server is installed once under `target/vscode-e2e/`, and later runs reuse it.
//! The README's screenshots, `docs/screenshots/vscode.png` (a diagnostic, the Problems panel
//! and a buffer's hover) and `vscode-graph.png` (the dataflow graph), are taken on the way.

#[path = "../../test-support/shared.rs"]
mod shared;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|candidate| candidate.is_file())
}

/// Waits for `child`, killing it after `limit`.
fn wait_at_most(child: &mut std::process::Child, limit: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(500)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

#[test]
fn vscode_extension_in_code_server() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root");
    let hsir = Path::new(env!("CARGO_BIN_EXE_hsir"));
    let chromium = std::env::var_os("HSIR_E2E_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));

    let node = on_path("node");
    let mut missing = Vec::new();
    if node.is_none() {
        missing.push("`node` (Node.js 20; Debian: apt-get install nodejs)".to_string());
    }
    if on_path("npm").is_none() {
        missing.push("`npm` (Debian: apt-get install npm)".to_string());
    }
    if !chromium.is_file() {
        missing.push(format!(
            "Chromium at {} (Debian: apt-get install chromium; or set HSIR_E2E_CHROMIUM)",
            chromium.display()
        ));
    }
    assert!(
        missing.is_empty(),
        "the VS Code end-to-end test cannot run; missing: {}. `.ci/run` installs what it needs.",
        missing.join(", ")
    );

    // The target folder the binary was built in (`target/debug/hsir`), which holds the cache.
    let target = hsir.parent().and_then(Path::parent).expect("the target folder");
    let cache = target.join("vscode-e2e");
    std::fs::create_dir_all(&cache).expect("the e2e cache folder");
    let log_path = cache.join("last-run.log");
    let log = std::fs::File::create(&log_path).expect("the e2e log");
    let mut child = Command::new(node.expect("checked above"))
        .arg(repo.join("editors").join("vscode").join("test").join("e2e.mjs"))
        .env("HSIR_BIN", hsir)
        // Where the shared data is, as the tests' one finder says (e2e.mjs's co-simulation).
        .env("HSIR_SHARED", shared::root())
        .env("HSIR_E2E_CACHE", &cache)
        .env("HSIR_E2E_CHROMIUM", &chromium)
        .stdout(log.try_clone().expect("the e2e log"))
        .stderr(log)
        .spawn()
        .expect("starting node");
    // e2e.mjs stops itself after HSIR_E2E_TIMEOUT (900 s by default, a first install
    // included); this limit is for a node that hangs regardless.
    let status = wait_at_most(&mut child, Duration::from_secs(1000));
    let output = std::fs::read_to_string(&log_path).unwrap_or_default();
    println!("{output}");
    match status {
        Some(status) if status.success() => {}
        Some(status) => panic!(
            "the VS Code end-to-end test failed ({status}); its log ({}):\n{output}",
            log_path.display()
        ),
        None => panic!(
            "the VS Code end-to-end test did not finish in 1000 s; its log ({}):\n{output}",
            log_path.display()
        ),
    }
}
