//! Cycle counts of generated designs, simulated in iverilog with a testbench without stalls (one
//! token per argument): the LSQ's store-to-load bypass on a fixture, and hsir's cycles beside
//! Dynamatic's own on the 2025 suite (`../shared/dynamatic-suite`): every LEGACY
//! `__handshake_export.mlir`, from the first input token taken to the last output token taken,
//! plus the cycles Dynamatic's testbench adds around the kernel, against `RESULTS.tsv`.
//! `docs/timing-model.md` ("Cycles beside Dynamatic's") has the table and explains the offset.
//! The suite test skips, saying so, when the suite is not there.

mod common;

use std::path::Path;

use common::{dynamatic_suite, run_parallel, simulate, Generated};
use hsir_backend::rtl::TestbenchOptions;

/// Cycles Dynamatic's testbench counts beyond the kernel's: its reset releases on the third
/// clock edge and the start token is taken on the fourth, then the end token's arrival is
/// noticed three edges later and "simulation done" printed three more edges after that.
const DYNAMATIC_TESTBENCH_CYCLES: i64 = 9;

/// How far hsir may be from Dynamatic, as a fraction of Dynamatic's cycles.
const TOLERANCE: f64 = 0.03;

/// Inputs for kernels whose running time depends on them (the values of the C `main()`).
const INPUTS: &[(&str, &str)] = &[("gcd", "a=7966496 b=314080416")];

/// `(kernel, flow) -> cycles` from `RESULTS.tsv`.
fn dynamatic_cycles(dir: &Path) -> Vec<(String, String, i64)> {
    let text = std::fs::read_to_string(dir.join("RESULTS.tsv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (k, f, c) = (column("kernel"), column("flow"), column("cycles"));
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cells: Vec<&str> = l.split('\t').collect();
            (cells[k].to_string(), cells[f].to_string(), cells[c].parse().unwrap())
        })
        .collect()
}

/// The testbench with its random stalls removed and a line per token taken on a port of the
/// design (`hsir-cycles: i0 x 12`: the testbench's name, the port's, the cycle).
fn without_stalls(tb: &str) -> Result<String, String> {
    const STALL: &str = "(($random(seed) & 3) != 0)";
    if !tb.contains(STALL) {
        return Err(format!("the testbench no longer decides stalls with `{STALL}`"));
    }
    let mut text = tb.replace(STALL, "1'b1");
    // The design's ports as the testbench connects them: `.x_valid(i0_valid)`.
    let mut probes = String::new();
    for piece in tb.split("_valid(").skip(1) {
        let Some((tb_name, _)) = piece.split_once("_valid)") else { continue };
        let numbered = tb_name.len() > 1 && tb_name.as_bytes()[1..].iter().all(u8::is_ascii_digit);
        if !(numbered && (tb_name.starts_with('i') || tb_name.starts_with('o'))) {
            continue;
        }
        let connect = format!("_valid({tb_name}_valid)");
        let Some(at) = tb.find(&connect) else { continue };
        let start = tb[..at].rfind('.').map_or(at, |d| d + 1);
        let port = &tb[start..at];
        if probes.contains(&format!("hsir-cycles: {tb_name} ")) {
            continue;
        }
        probes.push_str(&format!(
            "  always @(posedge clk) if (!rst && {tb_name}_valid && {tb_name}_ready) $display(\"hsir-cycles: {tb_name} {port} %0d\", cycle);\n"
        ));
    }
    if probes.is_empty() {
        return Err("no ports of the design found in the testbench".into());
    }
    let Some(end) = text.rfind("endmodule") else {
        return Err("the testbench has no `endmodule`".into());
    };
    text.insert_str(end, &probes);
    Ok(text)
}

/// One token taken on a port of the design: whether it is an input, the port, the cycle.
struct Taken {
    input: bool,
    port: String,
    cycle: i64,
}

/// Simulates `function` of `path` without stalls; the tokens its ports took, in order.
fn run_without_stalls(path: &Path, function: &str) -> Result<Vec<Taken>, String> {
    let options = TestbenchOptions { tokens: Some(1), seed: 1, probe_leftovers: false };
    let generated = Generated::with(path, function, options)?;
    let tb = generated
        .files
        .iter()
        .find(|f| f.to_string_lossy().ends_with("_tb.v"))
        .ok_or("no testbench was written")?;
    let text = std::fs::read_to_string(tb).map_err(|e| e.to_string())?;
    std::fs::write(tb, without_stalls(&text)?).map_err(|e| e.to_string())?;
    let out = simulate(&generated)?;
    if !out.contains("hsir-tb: PASS") {
        return Err(format!("the testbench did not pass:\n{out}"));
    }
    let mut taken = Vec::new();
    for line in out.lines() {
        let Some(rest) = line.strip_prefix("hsir-cycles: ") else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let [tb_name, port, cycle] = fields[..] else {
            return Err(format!("a malformed probe line `{line}`"));
        };
        let cycle = cycle.parse().map_err(|_| format!("a malformed cycle in `{line}`"))?;
        taken.push(Taken { input: tb_name.starts_with('i'), port: port.to_string(), cycle });
    }
    if !taken.iter().any(|t| t.input) || !taken.iter().any(|t| !t.input) {
        return Err(format!("no tokens were seen on the ports:\n{out}"));
    }
    Ok(taken)
}

/// The kernel's cycles in hsir's RTL: first input token taken to last output token taken.
fn hsir_cycles(path: &Path, function: &str) -> Result<i64, String> {
    let taken = run_without_stalls(path, function)?;
    let first_in = taken.iter().filter(|t| t.input).map(|t| t.cycle).min().unwrap_or(0);
    let last_out = taken.iter().filter(|t| !t.input).map(|t| t.cycle).max().unwrap_or(0);
    Ok(last_out - first_in)
}

/// `raw_war` (test_data/designs/lsq.mlir) stores `d` and loads the same address back in one
/// group: the load takes the store's data by bypass, two cycles after the store's address and
/// data arrive (they come together: the cycle `d` is taken), as Dynamatic's LSQ does. A queue
/// running its accesses in order takes four (the store writes, then the load reads memory).
#[test]
fn a_load_takes_an_older_stores_data_two_cycles_after_it_arrives() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/designs/lsq.mlir");
    let taken = run_without_stalls(&path, "raw_war").unwrap();
    let at = |port: &str| {
        taken
            .iter()
            .find(|t| t.port == port)
            .map(|t| t.cycle)
            .unwrap_or_else(|| panic!("no token on `{port}`"))
    };
    assert_eq!(at("y") - at("d"), 2, "d taken at {}, y at {}", at("d"), at("y"));
}

#[test]
fn legacy_kernels_run_within_three_percent_of_dynamatics_cycles() {
    let Some(dir) = dynamatic_suite() else { return };
    // Dynamatic's measured cycles are not in its repository: they come with the shared folder.
    if common::shared::path("dynamatic-suite/RESULTS.tsv").is_none() {
        return;
    }
    let jobs: Vec<(String, i64)> = dynamatic_cycles(&dir)
        .into_iter()
        .filter(|(_, flow, _)| flow == "LEGACY")
        .map(|(kernel, _, cycles)| (kernel, cycles))
        .collect();
    assert_eq!(jobs.len(), 7, "RESULTS.tsv should list the suite's seven LEGACY kernels");
    let scratch = std::env::temp_dir().join(format!("hsir-suite-cycles-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let results = std::sync::Mutex::new(Vec::new());
    let failures = run_parallel(jobs, |(kernel, dynamatic)| {
        let source = dir.join("ir").join(format!("{kernel}_LEGACY__handshake_export.mlir"));
        let mut text = std::fs::read_to_string(&source).map_err(|e| format!("{kernel}: {e}"))?;
        if let Some((_, inputs)) = INPUTS.iter().find(|(k, _)| *k == kernel) {
            let at = text.find("handshake.func").ok_or(format!("{kernel}: no function"))?;
            text.insert_str(at, &format!("// hsir-sim: {inputs}\n"));
        }
        let path = scratch.join(format!("{kernel}.mlir"));
        std::fs::write(&path, text).unwrap();
        let hsir = hsir_cycles(&path, &kernel).map_err(|e| format!("{kernel}: {e}"))?;
        let ours = hsir + DYNAMATIC_TESTBENCH_CYCLES;
        let gap = (ours - dynamatic) as f64 / dynamatic as f64;
        results.lock().unwrap().push(format!(
            "{kernel}: hsir {hsir} (+{DYNAMATIC_TESTBENCH_CYCLES} = {ours}), Dynamatic {dynamatic}, {:+.1}%",
            100.0 * gap
        ));
        if gap.abs() > TOLERANCE {
            return Err(format!(
                "{kernel}: hsir {ours} cycles, Dynamatic {dynamatic} ({:+.1}%)",
                100.0 * gap
            ));
        }
        Ok(())
    });
    let _ = std::fs::remove_dir_all(&scratch);
    for line in results.lock().unwrap().iter() {
        eprintln!("{line}");
    }
    assert!(failures.is_empty(), "{} kernels off:\n{}", failures.len(), failures.join("\n"));
}
