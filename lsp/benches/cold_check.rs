//! Cold `hsir check` against `mlir-opt-16`, and the server against `mlir-lsp-server-16`
//! (issue 26), as whole processes.
//!
//! `cargo bench -p hsir --bench cold_check [-- --baseline OLD/hsir --runs 5 --edits 7
//! --no-server --hsir PATH]` needs python3 (the shared generator and LSP client), GNU time
//! (`/usr/bin/time`) and Debian's `mlir-16-tools`. The hsir measured is the one cargo built
//! for this bench (release settings), unless `--hsir` names another. It measures, in one run:
//! - cold `hsir check --format json` of the 10 MB generated file (`gen_handshake.py
//!   --target-bytes 10000000 --seed 0`) against `mlir-opt-16 --allow-unregistered-dialect FILE
//!   -o /dev/null` on its `--generic` twin: wall time, CPU and peak RSS of each process, medians
//!   of alternating runs (goals: ≥ 5× faster, ≤ 1× the memory);
//! - the same on the largest file of `../shared/corpus` that mlir-opt-16 reads, against the
//!   generic form mlir-opt-16 prints of it; the larger files it cannot read (most are in
//!   Handshake's custom syntax) are named with mlir-opt-16's reason, and the largest is timed
//!   with hsir alone;
//! - the server's peak (VmHWM) after `didOpen` of a 15 MB generated file and its diagnostics,
//!   against mlir-lsp-server-16's on the generic twin (goal: ≤ 1×), and the median latency of
//!   one-character edits to diagnostics, by `../shared/tools/lsp_latency.py`; with `--baseline`
//!   (an hsir built before a change) the same for it, and the latency ratio (goal: ≤ 1×).
//!
//! Generated inputs are kept in `target/bench-data` between runs.

#[path = "../../benches/support.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use support::{generated_with, shared_dir, Generate};

/// One process's wall time (s), peak resident memory (KiB) and CPU time, user plus system (s).
#[derive(Debug, Clone, Copy)]
struct Run {
    wall: f64,
    peak_kib: f64,
    cpu: f64,
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn medians(runs: &[Run]) -> Run {
    Run {
        wall: median(runs.iter().map(|r| r.wall).collect()),
        peak_kib: median(runs.iter().map(|r| r.peak_kib).collect()),
        cpu: median(runs.iter().map(|r| r.cpu).collect()),
    }
}

/// Runs `program args` under GNU time, its output discarded.
fn timed(program: &Path, args: &[&std::ffi::OsStr]) -> Result<Run, String> {
    let report = tempfile_path("time");
    let start = Instant::now();
    let status = Command::new("/usr/bin/time")
        .args(["-f", "%M %U %S", "-o"])
        .arg(&report)
        .arg(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|err| format!("cannot run /usr/bin/time (GNU time): {err}"))?;
    let wall = start.elapsed().as_secs_f64();
    let text = std::fs::read_to_string(&report)
        .map_err(|err| format!("no report from /usr/bin/time ({status}): {err}"))?;
    let _ = std::fs::remove_file(&report);
    let last = text.lines().last().unwrap_or_default();
    let fields: Vec<f64> = last.split_whitespace().filter_map(|f| f.parse().ok()).collect();
    let [peak_kib, user, system] = fields[..] else {
        return Err(format!("unexpected /usr/bin/time report: {text:?}"));
    };
    Ok(Run { wall, peak_kib, cpu: user + system })
}

/// A fresh path in `target/bench-data` for a helper's output.
fn tempfile_path(what: &str) -> PathBuf {
    support::data_dir().join(format!("{what}-{}.tmp", std::process::id()))
}

fn hsir_check(hsir: &Path, file: &Path) -> Result<Run, String> {
    timed(hsir, &["check".as_ref(), "--format".as_ref(), "json".as_ref(), file.as_os_str()])
}

fn mlir_opt(file: &Path) -> Result<Run, String> {
    timed(
        Path::new("mlir-opt-16"),
        &[
            "--allow-unregistered-dialect".as_ref(),
            file.as_os_str(),
            "-o".as_ref(),
            "/dev/null".as_ref(),
        ],
    )
}

/// A corpus file mlir-opt-16 reads, and the generic form it prints of it.
type Pair = (PathBuf, PathBuf);

/// The largest corpus file mlir-opt-16 can read and its generic form, and the larger files it
/// cannot read with the first line of its complaint.
fn largest_corpus_pair(corpus: &Path) -> (Option<Pair>, Vec<(PathBuf, String)>) {
    let mut files = Vec::new();
    let mut dirs = vec![corpus.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "mlir") {
                let size = entry.metadata().map_or(0, |m| m.len());
                files.push((size, path));
            }
        }
    }
    // Largest first; equal sizes by name, so that the choice does not depend on the walk.
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut skipped = Vec::new();
    for (_, path) in files {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let twin = support::data_dir().join(format!("corpus-generic-{name}"));
        let done = Command::new("mlir-opt-16")
            .args(["--allow-unregistered-dialect", "--mlir-print-op-generic"])
            .arg(&path)
            .arg("-o")
            .arg(&twin)
            .output();
        match done {
            Ok(out) if out.status.success() => return (Some((path, twin)), skipped),
            Ok(out) => {
                let err = String::from_utf8_lossy(&out.stderr);
                let first = err.trim().lines().next().unwrap_or("(no message)").to_string();
                skipped.push((path, first));
            }
            Err(err) => {
                skipped.push((path, format!("cannot run mlir-opt-16: {err}")));
                break;
            }
        }
    }
    (None, skipped)
}

/// What `lsp_latency.py --json` reports of one server on one file.
struct Server {
    open_s: f64,
    peak_after_open_kib: f64,
    rss_after_edits_kib: f64,
    change_median_s: f64,
    change_fastest_s: f64,
}

fn server(command: &str, file: &Path, edits: usize) -> Result<Server, String> {
    let out = tempfile_path("lsp-latency");
    let done = Command::new("python3")
        .arg(shared_dir().join("tools/lsp_latency.py"))
        .arg(file)
        .args(["--server", command, "--repeat", &edits.to_string(), "--json"])
        .arg(&out)
        .output()
        .map_err(|err| format!("cannot run python3: {err}"))?;
    if !done.status.success() {
        return Err(format!(
            "lsp_latency.py failed on `{command}`: {}",
            String::from_utf8_lossy(&done.stderr).trim()
        ));
    }
    let text = std::fs::read_to_string(&out).map_err(|err| format!("no JSON report: {err}"))?;
    let _ = std::fs::remove_file(&out);
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|err| format!("lsp_latency.py's JSON: {err}"))?;
    let num = |path: &[&str]| {
        path.iter()
            .try_fold(&json, |v, key| v.get(key))
            .and_then(|v| v.as_f64())
            .ok_or_else(|| format!("lsp_latency.py's JSON has no number at {}", path.join(".")))
    };
    let changes: Vec<f64> = json
        .get("change_s")
        .and_then(|v| v.as_array())
        .map(|a| a.iter().filter_map(|v| v.as_f64()).collect())
        .unwrap_or_default();
    Ok(Server {
        open_s: num(&["open_s"])?,
        peak_after_open_kib: num(&["rss_after_open_kb", "VmHWM"])?,
        rss_after_edits_kib: num(&["rss_after_edits_kb", "VmRSS"])?,
        change_median_s: num(&["change_median_s"])?,
        change_fastest_s: changes.iter().copied().fold(f64::INFINITY, f64::min),
    })
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "NOT met"
    }
}

struct Options {
    hsir: PathBuf,
    baseline: Option<PathBuf>,
    runs: usize,
    edits: usize,
    server: bool,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        hsir: PathBuf::from(env!("CARGO_BIN_EXE_hsir")),
        baseline: None,
        runs: 5,
        edits: 7,
        server: true,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let count = |name: &str, v: String| match v.parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(format!("{name} takes a positive count, not `{v}`")),
        };
        match arg.as_str() {
            // What `cargo bench` passes to every bench.
            "--bench" => {}
            "--hsir" => options.hsir = value("--hsir")?.into(),
            "--baseline" => options.baseline = Some(value("--baseline")?.into()),
            "--runs" => options.runs = count("--runs", value("--runs")?)?,
            "--edits" => options.edits = count("--edits", value("--edits")?)?,
            "--no-server" => options.server = false,
            other => {
                return Err(format!(
                    "unknown argument `{other}`; this bench takes --hsir PATH, --baseline PATH, \
                     --runs N, --edits N, --no-server"
                ))
            }
        }
    }
    for path in std::iter::once(&options.hsir).chain(&options.baseline) {
        if !path.is_file() {
            return Err(format!("no hsir binary at {}", path.display()));
        }
    }
    Ok(options)
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("cold_check: {message}");
            std::process::exit(2);
        }
    };
    if !shared_dir().join("tools/gen_handshake.py").is_file() {
        println!("cold_check: skipped, the shared tools are not at {}", shared_dir().display());
        return;
    }
    if let Err(message) = run(&options) {
        eprintln!("cold_check: {message}");
        std::process::exit(1);
    }
}

fn run(options: &Options) -> Result<(), String> {
    let mb = |kib: f64| kib / 1024.0;
    let mut rows = Vec::new();
    // The file: the generator's default seed (0).
    let big = Generate { bytes: "10000000", seed: 0, ops: None };
    rows.push((
        "10 MB generated".to_string(),
        generated_with(big, false),
        generated_with(big, true),
    ));
    let (corpus, skipped) = largest_corpus_pair(&shared_dir().join("corpus"));
    for (path, why) in &skipped {
        let size = std::fs::metadata(path).map_or(0, |m| m.len());
        let shown = path.strip_prefix(shared_dir()).unwrap_or(path);
        println!("corpus: mlir-opt-16 cannot read {} ({size} bytes): {why}", shown.display());
    }
    if let Some((path, _)) = skipped.first() {
        // The largest file of all, which hsir reads and mlir-opt-16 does not: hsir alone.
        let runs: Vec<Run> =
            (0..options.runs).map(|_| hsir_check(&options.hsir, path)).collect::<Result<_, _>>()?;
        let m = medians(&runs);
        println!(
            "corpus: hsir check of the largest file, {}: {:.1} ms, peak {:.1} MB (median of {})",
            path.file_name().unwrap_or_default().to_string_lossy(),
            m.wall * 1e3,
            mb(m.peak_kib),
            options.runs
        );
    }
    match corpus {
        Some((file, twin)) => {
            let name = file.file_name().unwrap_or_default().to_string_lossy().into_owned();
            rows.push((format!("largest corpus file mlir-opt-16 reads: {name}"), file, twin));
        }
        None => println!("corpus: mlir-opt-16 reads none of ../shared/corpus"),
    }

    println!();
    println!(
        "| input | bytes (hsir / generic) | hsir check (CPU) | mlir-opt-16 (CPU) | speed-up (goal \
         >= 5x) | hsir peak | mlir-opt-16 peak | memory ratio (goal <= 1x) |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut summary = Vec::new();
    for (label, mine, theirs) in &rows {
        let (mut ours, mut others) = (Vec::new(), Vec::new());
        for _ in 0..options.runs {
            ours.push(hsir_check(&options.hsir, mine)?);
            others.push(mlir_opt(theirs)?);
        }
        let (h, m) = (medians(&ours), medians(&others));
        let (speed, memory) = (m.wall / h.wall, h.peak_kib / m.peak_kib);
        let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
        println!(
            "| {label} | {} / {} | {:.1} ms ({:.0} ms) | {:.1} ms ({:.0} ms) | {speed:.2}x | \
             {:.1} MB | {:.1} MB | {memory:.2}x |",
            size(mine),
            size(theirs),
            h.wall * 1e3,
            h.cpu * 1e3,
            m.wall * 1e3,
            m.cpu * 1e3,
            mb(h.peak_kib),
            mb(m.peak_kib),
        );
        let short = label.split(':').next().unwrap_or(label);
        summary.push(format!(
            "{short}: speed {speed:.2}x (goal >= 5x: {}), peak memory {memory:.2}x (goal <= 1x: {})",
            verdict(speed >= 5.0),
            verdict(memory <= 1.0)
        ));
    }

    if options.server {
        let lsp = Generate { bytes: "15M", seed: 1, ops: Some(400) };
        let (file, twin) = (generated_with(lsp, false), generated_with(lsp, true));
        let command = |hsir: &Path| format!("{} lsp", hsir.display());
        let mut servers = vec![("hsir", command(&options.hsir), file.clone())];
        if let Some(baseline) = &options.baseline {
            servers.push(("hsir baseline", command(baseline), file.clone()));
        }
        servers.push(("mlir-lsp-server-16", "mlir-lsp-server-16".to_string(), twin));
        println!();
        println!(
            "| server (15 MB) | didOpen -> diagnostics | peak RSS after open | RSS after edits | \
             edit -> diagnostics, median (fastest) of {} |",
            options.edits
        );
        println!("| --- | ---: | ---: | ---: | ---: |");
        let mut got = Vec::new();
        for (name, command, path) in servers {
            let r = server(&command, &path, options.edits)?;
            println!(
                "| {name} | {:.0} ms | {:.1} MB | {:.1} MB | {:.1} ms ({:.1} ms) |",
                r.open_s * 1e3,
                mb(r.peak_after_open_kib),
                mb(r.rss_after_edits_kib),
                r.change_median_s * 1e3,
                r.change_fastest_s * 1e3
            );
            got.push((name, r));
        }
        let find = |name: &str| got.iter().find(|(n, _)| *n == name).map(|(_, r)| r);
        if let (Some(ours), Some(theirs)) = (find("hsir"), find("mlir-lsp-server-16")) {
            let peak = ours.peak_after_open_kib / theirs.peak_after_open_kib;
            summary.push(format!(
                "server peak on didOpen of 15 MB: {peak:.2}x mlir-lsp-server-16's (goal <= 1x: {})",
                verdict(peak <= 1.0)
            ));
            summary.push(format!(
                "edit -> diagnostics: {:.1} ms, {:.0}x faster than mlir-lsp-server-16",
                ours.change_median_s * 1e3,
                theirs.change_median_s / ours.change_median_s
            ));
            if let Some(before) = find("hsir baseline") {
                let ratio = ours.change_median_s / before.change_median_s;
                summary.push(format!(
                    "edit -> diagnostics against the baseline: {ratio:.2}x (goal <= 1x, within \
                     noise: {})",
                    verdict(ratio <= 1.1)
                ));
            }
        }
    }
    println!();
    for line in summary {
        println!("{line}");
    }
    Ok(())
}
