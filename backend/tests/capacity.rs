//! The capacity-aware, cycle-level simulation (`hsir_backend::capacity`): the DVR loop and the
//! load loop that deadlock in RTL are reported, with their channels, and confirmed in Icarus
//! Verilog; so is hsir's own fpga20 placement of Dynamatic's kernel_2mm_FTD; nothing the RTL runs
//! is reported (every op and design fixture, the placed fixtures, and Dynamatic's buffered and
//! exported kernels of the suite, which the model completes).

mod common;

use std::path::{Path, PathBuf};

use hsir_backend::capacity::{self, Verdict};
use hsir_backend::Program;

fn verdicts(path: &Path, tokens: Option<usize>) -> Vec<(String, Option<Verdict>)> {
    verdicts_seeded(path, tokens, 1)
}

fn verdicts_seeded(
    path: &Path,
    tokens: Option<usize>,
    seed: u64,
) -> Vec<(String, Option<Verdict>)> {
    let bytes = std::fs::read(path).unwrap();
    let (parse, _) = hsir_analysis::parse_bytes(&bytes);
    let text = parse.tree().text().to_string();
    let program = Program::analyse(&parse);
    program
        .funcs
        .iter()
        .filter(|f| !f.external && f.errors.is_empty())
        .map(|f| (f.name.clone(), capacity::check(&text, &program, &f.name, seed, tokens, None)))
        .collect()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(name)
}

#[test]
fn the_dvr_loop_deadlocks_and_the_fifo_loop_does_not() {
    let found = verdicts(&fixture("capacity/dvr_loop.mlir"), None);
    let Some(Verdict::Deadlock(d)) = &found[0].1 else { panic!("{found:?}") };
    assert_eq!(d.channels, ["`%m`", "`%f#0`", "`%c`", "`%t`", "`%back`"], "{d:?}");
    assert!(
        d.message.starts_with("the cycle `%m` -> `%f#0` -> `%c` -> `%t` -> `%back` -> `%m` holds 2 tokens and has 2 slots, none free"),
        "{}",
        d.message
    );
    assert!(d.message.contains("output `out0` got 0 of 2 tokens"), "{}", d.message);
    assert!(matches!(found[1].1, Some(Verdict::Completed { .. })), "{found:?}");
    // Through an instance: the callee's circuit is built in place, its channels named in it.
    let Some(Verdict::Deadlock(d)) = &found[2].1 else { panic!("{found:?}") };
    assert_eq!(d.channels[0], "`%m` in `@dvr_loop`", "{d:?}");
    assert_eq!(d.channels.len(), 5, "{d:?}");
}

/// A loop through a `mem_controller`'s load port: the word the port keeps and the token the
/// fork keeps for it fill the loop's slots with two tokens; a FIFO on the back edge frees it.
#[test]
fn the_load_loop_deadlocks_and_its_fifo_twin_does_not() {
    let found = verdicts(&fixture("capacity/load_loop.mlir"), None);
    let Some(Verdict::Deadlock(d)) = &found[0].1 else { panic!("{found:?}") };
    assert_eq!(d.channels, ["`%n`", "`%t`", "`%back`", "`%m`", "`%b`", "`%f#1`", "`%n1`"], "{d:?}");
    assert!(d.message.contains("output `out0` got 0 of 2 tokens"), "{}", d.message);
    assert!(matches!(found[1].1, Some(Verdict::Completed { .. })), "{found:?}");
    // One token: the loop completes.
    let one = verdicts(&fixture("capacity/load_loop.mlir"), Some(1));
    assert!(matches!(one[0].1, Some(Verdict::Completed { .. })), "{one:?}");
}

/// The deadlocks are the RTL's: the testbench of the DVR loop and of the load loop reports the
/// deadlock (nothing moves) with the loop's channels holding tokens, and their FIFO twins pass.
#[test]
fn the_rtl_agrees() {
    let run = |file: &str, function: &str| {
        let generated = common::Generated::new(&fixture(file), function, 1).unwrap();
        common::simulate(&generated).unwrap()
    };
    let dvr = run("capacity/dvr_loop.mlir", "dvr_loop");
    assert!(dvr.contains("hsir-tb: FAIL deadlock") && dvr.contains("waits on %back"), "{dvr}");
    let fifo = run("capacity/dvr_loop.mlir", "fifo_loop");
    assert!(fifo.contains("hsir-tb: PASS"), "{fifo}");
    let load = run("capacity/load_loop.mlir", "load_loop");
    assert!(load.contains("hsir-tb: FAIL deadlock") && load.contains("waits on %b"), "{load}");
    let fifo = run("capacity/load_loop.mlir", "load_loop_fifo");
    assert!(fifo.contains("hsir-tb: PASS"), "{fifo}");
}

/// The memory and instance designs take the RTL's cycles: the figures are Icarus Verilog's for the
/// testbench of seed 1 without stalls (`hsir rtl FILE --top F --testbench`, every
/// `(($random(seed) & 3) != 0)` of the testbench made `1'b1`, `hsir-tb: cycles N`), covering
/// `lsq`, `lsq [MC]`, `mem_controller` and their 2024 forms (whose results wait for the done
/// tokens), and instances.
#[test]
fn memory_and_instance_designs_take_the_rtls_cycles() {
    let rtl = [
        ("designs/lsq_mc", "prefix_mc", 14),
        ("designs/lsq", "raw_war", 13),
        ("designs/lsq", "histogram_int", 23),
        ("designs/lsq_mc_2024", "prefix_mc_2024", 16),
        ("designs/mc_2025", "increment_2025", 6),
        ("designs/mc_2024", "increment_2024", 6),
        // Instances: the callee's circuit in place of the instance.
        ("ops/instance", "twice", 18),
        ("designs/wait", "pop_and_wait", 18),
    ];
    for (file, function, cycles) in rtl {
        let found = verdicts(&fixture(&format!("{file}.mlir")), None);
        let verdict = found.iter().find(|(f, _)| f == function).and_then(|(_, v)| v.clone());
        assert_eq!(verdict, Some(Verdict::Completed { cycles }), "{file}@{function}");
    }
}

/// `hsir rtl` refuses the deadlocking design (HS5011), unless lint errors are allowed.
#[test]
fn rtl_generation_refuses_the_deadlock() {
    let bytes = std::fs::read(fixture("capacity/dvr_loop.mlir")).unwrap();
    let (parse, _) = hsir_analysis::parse_bytes(&bytes);
    // With a testbench: on its inputs, the directive's two tokens.
    let mut options = hsir_backend::rtl::Options {
        top: Some("dvr_loop".into()),
        testbench: Some(Default::default()),
        ..Default::default()
    };
    let errors = hsir_backend::rtl::generate(&parse, &options).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].code.code(), "HS5011");
    assert!(
        errors[0]
            .message
            .contains("deadlocks in hardware with 2 tokens per argument, after 2 cycles"),
        "{}",
        errors[0].message
    );
    options.allow_lint_errors = true;
    assert!(hsir_backend::rtl::generate(&parse, &options).is_ok());
    // Without a testbench, one invocation: the loop holds one token and completes.
    options.allow_lint_errors = false;
    options.testbench = None;
    assert!(hsir_backend::rtl::generate(&parse, &options).is_ok());
    options.top = Some("fifo_loop".into());
    options.testbench = Some(Default::default());
    assert!(hsir_backend::rtl::generate(&parse, &options).is_ok());
}

/// No false deadlock: every function the RTL tests simulate (they pass in Icarus Verilog, on
/// the inputs of seeds 1 and 2) completes or is outside the model.
#[test]
fn nothing_the_rtl_runs_is_reported() {
    let mut paths = Vec::new();
    for dir in
        ["test_data/ops", "test_data/designs", "test_data/placement/placed", "test_data/circt"]
    {
        paths.extend(common::mlir_files(dir));
    }
    let mut completed = 0;
    let mut others = 0;
    let mut failures = Vec::new();
    for path in &paths {
        let runs = [verdicts_seeded(path, None, 1), verdicts_seeded(path, None, 2)];
        for (function, verdict) in runs.into_iter().flatten() {
            match verdict {
                Some(Verdict::Deadlock(d)) => {
                    failures.push(format!("{}@{function}: {}", path.display(), d.message))
                }
                Some(Verdict::Completed { .. }) => completed += 1,
                other => {
                    eprintln!("not judged: {}@{function}: {other:?}", path.display());
                    others += 1
                }
            }
        }
    }
    assert!(failures.is_empty(), "false deadlocks:\n{}", failures.join("\n"));
    eprintln!("{completed} functions completed in the cycle-level model, {others} not judged");
    assert!(completed >= 2 * 90, "{completed}");
}

/// Dynamatic's suite, `../shared/dynamatic-suite/ir` from the workspace root; `None` (with a
/// message) when it is missing.
/// The suite's `ir/` folder.
fn suite() -> Option<PathBuf> {
    common::dynamatic_suite().map(|dir| dir.join("ir"))
}

/// Dynamatic's buffered and exported kernels of the suite, one start token each (they are not
/// re-entrant: with three, `gcd`'s FTD export really deadlocks, in this model as in Icarus
/// Verilog, after 2 of 3 results): none deadlocks, and every one the untimed run finishes on
/// the directives' inputs (all but `gcd`, whose random inputs never end) completes.
#[test]
fn no_suite_kernel_is_reported() {
    let Some(dir) = suite() else { return };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with("_export.mlir") || name.ends_with("_buffered.mlir")
        })
        .collect();
    paths.sort();
    assert_eq!(paths.len(), 28);
    let mut failures = Vec::new();
    let mut completed = 0;
    for path in &paths {
        for (function, verdict) in verdicts(path, Some(1)) {
            eprintln!("{}@{function}: {verdict:?}", path.file_name().unwrap().to_string_lossy());
            match verdict {
                Some(Verdict::Completed { .. }) => completed += 1,
                Some(other) => failures.push(format!("{}@{function}: {other:?}", path.display())),
                None => {}
            }
        }
    }
    assert!(failures.is_empty(), "not completed:\n{}", failures.join("\n"));
    assert!(completed >= 24, "{completed}");
}

/// The MILPs' fpga20 placement of kernel_2mm_FTD (with a node limit, so that it is the same on
/// every machine, and without placement's own repair, which adds the slots it lacks) under the
/// plain sum of delays (the timing model without its overhead, as placement timed before the
/// calibration; with the overhead it places fewer breaks and this placement does not arise)
/// deadlocks in RTL (the testbench's deadlock watch sees it); placement says so (HS6005), and
/// `hsir rtl` refuses it before any Verilog is written, naming the channels of the circular
/// wait.
#[test]
fn the_kernel_2mm_ftd_placement_is_refused_before_verilog() {
    use hsir_backend::buffers::{self, timing::TimingModel, Algorithm, Options};
    let Some(dir) = suite() else { return };
    let text = std::fs::read_to_string(dir.join("kernel_2mm_FTD__handshake.mlir")).unwrap();
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    let program = Program::analyse(&parse);
    let options = Options {
        algorithm: Algorithm::Fpga20,
        node_limit: Some(200),
        time_limit: std::time::Duration::from_secs(3600),
        repair_rounds: 0,
        ..Options::default()
    };
    let plain = TimingModel::builtin().with_overhead(0.0);
    let output = buffers::place_program(&program, &text, &options, &plain, None, None).unwrap();
    assert!(
        output.diagnostics.iter().any(|d| d.code.code() == "HS6005"),
        "{:?}",
        output.diagnostics
    );
    let placed = buffers::edit::apply(&text, &output.edits);
    let (parse, _) = hsir_analysis::parse_bytes(placed.as_bytes());
    let options =
        hsir_backend::rtl::Options { top: Some("kernel_2mm".into()), ..Default::default() };
    let errors = hsir_backend::rtl::generate(&parse, &options).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].code.code(), "HS5011");
    let message = &errors[0].message;
    assert!(message.contains("deadlocks in hardware with 1 token per argument"), "{message}");
    assert!(message.contains("a circular wait") && message.contains("`%trueResult`"), "{message}");
    assert!(message.contains("output `out0` got 0 of 1 tokens"), "{message}");
}
