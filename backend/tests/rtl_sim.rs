//! Every op and design of `test_data/{ops,designs}`, generated to Verilog with a testbench,
//! simulated in iverilog with random valid and ready stalls, and compared with the
//! interpreter; the generated Verilog linted by verilator.

mod common;

use std::path::{Path, PathBuf};

use common::{lint, run_parallel, simulate, Generated};

fn mlir_files(dir: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    paths.sort();
    paths
}

/// Generates, simulates and lints every function of the files under `dir`, with two seeds.
fn check_dir(dir: &str) {
    let mut jobs = Vec::new();
    for path in mlir_files(dir) {
        for function in common::functions(&path) {
            for seed in [1, 2] {
                jobs.push((path.clone(), function.clone(), seed));
            }
        }
    }
    assert!(!jobs.is_empty(), "no functions under {dir}");
    let failures = run_parallel(jobs, |(path, function, seed)| {
        let name = format!("{}:@{function} (seed {seed})", path.display());
        let generated =
            Generated::new(&path, &function, seed).map_err(|e| format!("{name}: {e}"))?;
        let out = simulate(&generated).map_err(|e| format!("{name}: {e}"))?;
        if !out.contains("hsir-tb: PASS") {
            return Err(format!("{name}: the testbench did not pass:\n{out}"));
        }
        if seed == 1 {
            lint(&generated).map_err(|e| format!("{name}: {e}"))?;
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{} failures:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn every_op_simulates_like_the_interpreter() {
    check_dir("test_data/ops");
}

#[test]
fn every_design_simulates_like_the_interpreter() {
    check_dir("test_data/designs");
}
