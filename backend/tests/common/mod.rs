//! Shared by the simulation tests: generating a design into a fresh folder, running iverilog
//! and verilator on it, and running jobs on every core.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use hsir_backend::rtl::{self, Options, TestbenchOptions};
use hsir_backend::Program;

/// The shared test data beside the workspace (`../shared`, or `$HSIR_SHARED`): the one finder.
#[path = "../../../test-support/shared.rs"]
pub mod shared;

/// Dynamatic's suite (`dynamatic-suite` of the shared data: `ir/`, `c/`, `RESULTS.tsv`), or
/// `None` after saying the test is skipped.
#[allow(unused_imports)]
pub use shared::dynamatic_suite;

/// The `.mlir` files of a folder of the crate (`test_data/ops`), sorted.
pub fn mlir_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    paths.sort();
    paths
}

/// The functions of a file that have a body.
pub fn functions(path: &Path) -> Vec<String> {
    let text = std::fs::read(path).unwrap();
    let (parse, _) = hsir_analysis::parse_bytes(&text);
    let program = Program::analyse(&parse);
    program.funcs.iter().filter(|f| !f.external).map(|f| f.name.clone()).collect()
}

/// A design written to its own folder.
pub struct Generated {
    pub dir: PathBuf,
    pub top: String,
    pub files: Vec<PathBuf>,
    /// The design files without the testbench.
    pub design: Vec<PathBuf>,
    pub stderr: String,
}

impl Drop for Generated {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

static NEXT: AtomicUsize = AtomicUsize::new(0);

fn fresh_dir(label: &str) -> PathBuf {
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let label: String =
        label.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let dir = std::env::temp_dir().join(format!("hsir-test-{}-{n}-{label}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

impl Generated {
    /// Generates `function` of `path` with a testbench of the given seed (tokens as the file's
    /// directives say).
    pub fn new(path: &Path, function: &str, seed: u64) -> Result<Generated, String> {
        Generated::with(
            path,
            function,
            TestbenchOptions { tokens: None, seed, probe_leftovers: true },
        )
    }

    pub fn with(path: &Path, function: &str, tb: TestbenchOptions) -> Result<Generated, String> {
        let text = std::fs::read(path).map_err(|e| e.to_string())?;
        let (parse, _) = hsir_analysis::parse_bytes(&text);
        // Designs with lint errors are simulated too: the RTL must show what the interpreter
        // shows (the raw_will_continue kernels' extra token).
        let options = Options {
            top: Some(function.to_string()),
            testbench: Some(tb),
            allow_lint_errors: true,
            inputs_file: None,
            skip_capacity_check: false,
        };
        let output = rtl::generate(&parse, &options).map_err(|errors| {
            let list: Vec<String> =
                errors.iter().map(|d| format!("{}: {}", d.code.code(), d.message)).collect();
            format!("generation failed:\n  {}", list.join("\n  "))
        })?;
        let dir = fresh_dir(function);
        let mut files = Vec::new();
        let mut design = Vec::new();
        for file in &output.files {
            let p = dir.join(&file.name);
            std::fs::write(&p, &file.text).unwrap();
            if !file.name.ends_with("_tb.v") {
                design.push(p.clone());
            }
            files.push(p);
        }
        let stderr = output
            .diagnostics
            .iter()
            .map(|d| format!("{}: {}", d.code.code(), d.message))
            .collect::<Vec<_>>()
            .join("\n");
        Ok(Generated { dir, top: output.top, files, design, stderr })
    }
}

fn tool(name: &str) -> Command {
    let probe = Command::new(name).arg(if name == "vvp" { "-V" } else { "--version" }).output();
    if probe.is_err() {
        panic!("`{name}` is not installed: the simulation tests need it (apt-get install iverilog verilator)");
    }
    Command::new(name)
}

/// Compiles with iverilog and runs the testbench; returns what it printed.
pub fn simulate(g: &Generated) -> Result<String, String> {
    simulate_with(g, &[])
}

/// As `simulate`, with plusargs for the testbench (`+trace`).
pub fn simulate_with(g: &Generated, plusargs: &[&str]) -> Result<String, String> {
    let sim = g.dir.join("sim.vvp");
    let out = tool("iverilog")
        .arg("-g2012")
        .arg("-o")
        .arg(&sim)
        .args(&g.files)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "iverilog failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let run = tool("vvp")
        .arg("-n")
        .arg(&sim)
        .args(plusargs)
        .current_dir(&g.dir)
        .output()
        .map_err(|e| e.to_string())?;
    let text =
        format!("{}{}", String::from_utf8_lossy(&run.stdout), String::from_utf8_lossy(&run.stderr));
    Ok(text)
}

/// `verilator --lint-only -Wall` on the design (DECLFILENAME aside: one file holds a design's
/// modules, as `hsir rtl` writes them).
pub fn lint(g: &Generated) -> Result<(), String> {
    let out = tool("verilator")
        .args(["--lint-only", "-Wall", "-Wno-DECLFILENAME", "--top-module"])
        .arg(&g.top)
        .args(&g.design)
        .output()
        .map_err(|e| e.to_string())?;
    let text =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    if !out.status.success() || text.contains("%Warning") || text.contains("%Error") {
        return Err(format!("verilator --lint-only -Wall:\n{text}"));
    }
    Ok(())
}

/// Runs `job` on every item, on every core; returns the errors.
pub fn run_parallel<T: Send>(
    items: Vec<T>,
    job: impl Fn(T) -> Result<(), String> + Sync,
) -> Vec<String> {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).max(2);
    let queue = Mutex::new(items.into_iter());
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let next = queue.lock().unwrap().next();
                let Some(item) = next else { break };
                if let Err(e) = job(item) {
                    failures.lock().unwrap().push(e);
                }
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    failures
}
