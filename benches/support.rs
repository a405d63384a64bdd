//! What the workspace's bench binaries share: the generated inputs and mlir-opt's timings.
//! Each bench includes this file (`#[path = "../../benches/support.rs"] mod support;`).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// `target/bench-data`, where generated inputs are kept between runs.
pub fn data_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-data");
    std::fs::create_dir_all(&dir).expect("can create target/bench-data");
    dir
}

/// `../shared`, where the generator, the LSP client and the corpus are.
pub fn shared_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    std::fs::canonicalize(&dir).unwrap_or(dir)
}

/// The arguments of one `gen_handshake.py` run.
#[derive(Debug, Clone, Copy)]
pub struct Generate {
    /// `--target-bytes`, as the generator takes it (`10000000`, `15M`).
    pub bytes: &'static str,
    pub seed: u64,
    /// `--ops`: ops per function.
    pub ops: Option<u32>,
}

/// Generates `gen_handshake.py --target-bytes SIZE --seed 42 [--generic]` once.
pub fn generated(size: &'static str, generic: bool) -> PathBuf {
    generated_with(Generate { bytes: size, seed: 42, ops: None }, generic)
}

/// Generates `gen_handshake.py` with these arguments (and `--generic`) once.
pub fn generated_with(args: Generate, generic: bool) -> PathBuf {
    let Generate { bytes, seed, ops } = args;
    let ops_part = ops.map(|n| format!("-ops{n}")).unwrap_or_default();
    let generic_part = if generic { "-generic" } else { "" };
    let path =
        data_dir().join(format!("handshake-{bytes}-seed{seed}{ops_part}{generic_part}.mlir"));
    if !path.exists() {
        let script = shared_dir().join("tools/gen_handshake.py");
        let mut cmd = Command::new("python3");
        cmd.arg(&script).args(["--target-bytes", bytes, "--seed", &seed.to_string()]);
        if let Some(n) = ops {
            cmd.args(["--ops", &n.to_string()]);
        }
        cmd.arg("-o").arg(&path);
        if generic {
            cmd.arg("--generic");
        }
        let status = cmd.status().expect("python3 runs");
        assert!(status.success(), "{} failed", script.display());
    }
    path
}

pub fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Runs `mlir-opt-16 --allow-unregistered-dialect --mlir-timing` on `path`: the median of the
/// named phases of its timing report, summed, and of the whole process. `None` when mlir-opt-16
/// is not installed.
pub fn mlir_opt(path: &Path, runs: usize, phases: &[&str]) -> Option<(Duration, Duration)> {
    let mut timed = Vec::new();
    let mut process = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let output = Command::new("mlir-opt-16")
            .args(["--allow-unregistered-dialect", "--mlir-timing", "-o", "/dev/null"])
            .arg(path)
            .output()
            .ok()?;
        process.push(start.elapsed());
        assert!(output.status.success(), "mlir-opt-16 failed on {}", path.display());
        let report = String::from_utf8_lossy(&output.stderr);
        let phase = |name: &str| {
            report
                .lines()
                .find(|l| l.trim_end().ends_with(name))
                .and_then(|l| l.split_whitespace().next())
                .and_then(|s| s.parse::<f64>().ok())
        };
        let found: Vec<f64> = phases.iter().filter_map(|p| phase(p)).collect();
        assert!(!found.is_empty(), "mlir-opt's timing report has none of {phases:?}");
        timed.push(Duration::from_secs_f64(found.iter().sum()));
    }
    Some((median(timed), median(process)))
}
