//! Every op and design of `test_data/{ops,designs}`, generated to Verilog with a testbench,
//! simulated in iverilog with random valid and ready stalls, and compared with the
//! interpreter; the generated Verilog linted by verilator.

mod common;

use std::path::Path;

use common::{lint, mlir_files, run_parallel, simulate, Generated};
use hsir_backend::rtl::TestbenchOptions;

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

/// The placement fixtures with the buffers placement wrote (`tests/buffers.rs` keeps these
/// snapshots): the buffered designs behave as the interpreter says, under random stalls.
#[test]
fn every_placed_design_simulates_like_the_interpreter() {
    check_dir("test_data/placement/placed");
}

/// Every module of the component library is instantiated by some design the tests simulate
/// (so every module is checked against the interpreter under random stalls).
#[test]
fn every_library_module_is_simulated() {
    use std::collections::BTreeSet;
    let mut used = BTreeSet::new();
    for dir in ["test_data/ops", "test_data/designs", "test_data/circt"] {
        for path in mlir_files(dir) {
            let text = std::fs::read(&path).unwrap();
            let (parse, _) = hsir_analysis::parse_bytes(&text);
            let program = hsir_backend::Program::analyse(&parse);
            for func in program.funcs.iter().filter(|f| !f.external) {
                if let Some(netlist) = hsir_backend::netlist::lower(&program, &func.name).netlist {
                    used.extend(netlist.library_modules().into_iter().map(str::to_string));
                }
            }
        }
    }
    let missing: Vec<&str> = hsir_backend::verilog::LIBRARY
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| !used.contains(*name))
        .collect();
    assert!(missing.is_empty(), "library modules no simulated design uses: {missing:?}");
}

/// Units are named by their port types: two joins that differ only in operand order get two
/// modules (CIRCT 1.62 gives them one name and fails).
#[test]
fn typed_module_names_encode_port_types() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/circt/join_types.mlir");
    let text = std::fs::read(&path).unwrap();
    let (parse, _) = hsir_analysis::parse_bytes(&text);
    let output = hsir_backend::rtl::generate(&parse, &Default::default()).unwrap();
    let design = &output.files.iter().find(|f| f.name == "join_orders.v").unwrap().text;
    for name in ["hsir_join__ctrl_i32_to_ctrl", "hsir_join__i32_ctrl_to_ctrl"] {
        assert_eq!(design.matches(&format!("module {name} (")).count(), 1, "{name} in:\n{design}");
    }
}

/// The raw_will_continue bug, in hardware: the RTL leaves the extra ctrl token on the store's
/// ctrl, where the interpreter does (`hsir-tb: left`), and the correct kernel leaves nothing.
#[test]
fn the_raw_will_continue_kernel_shows_its_extra_token_in_rtl() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/designs/raw_bug.mlir");
    let run = |function: &str| {
        let generated = Generated::new(&path, function, 1).unwrap();
        simulate(&generated).unwrap()
    };
    let buggy = run("fill_raw_bug");
    assert!(buggy.contains("hsir-tb: left %tick") && buggy.contains("hsir-tb: PASS"), "{buggy}");
    let carry = run("kernel_raw_bug");
    assert!(carry.contains("hsir-tb: left %wcb") && carry.contains("hsir-tb: PASS"), "{carry}");
    let correct = run("kernel");
    assert!(!correct.contains("hsir-tb: left") && correct.contains("hsir-tb: PASS"), "{correct}");
}

/// Dynamatic's kernels with load-store queues from the shared corpus, generated with a
/// testbench and simulated against the interpreter, two seeds each: `gaussian` (one LSQ, a
/// group of two loads and a store), `kernel_2mm` (two LSQs of two and three groups, allocated
/// by one `lazy_fork`), and the float kernels `atax` and `get_tanh` (f32 memories behind LSQs,
/// `addf`, `mulf`, `cmpf`). One token per argument: Dynamatic's circuits are not re-entrant
/// (a second start token races the first through the loops' `control_merge`s).
#[test]
fn dynamatic_lsq_kernels_simulate_like_the_interpreter() {
    let Some(corpus) = common::shared::path("corpus/dynamatic") else { return };
    let mut jobs = Vec::new();
    for (file, function) in [
        ("gaussian-4-2__handshake_buffered", "gaussian"),
        ("kernel_2mm-8-8__handshake_export", "kernel_2mm"),
        ("atax-6-6__handshake_export", "atax"),
        ("get_tanh-2-5__handshake_export", "get_tanh"),
    ] {
        let path = corpus.join(format!("{file}.mlir"));
        assert!(path.exists(), "the shared corpus lacks {}", path.display());
        for seed in [1, 2] {
            jobs.push((path.clone(), function.to_string(), seed));
        }
    }
    let failures = run_parallel(jobs, |(path, function, seed)| {
        let name = format!("{}:@{function} (seed {seed})", path.display());
        let options = TestbenchOptions { tokens: Some(1), seed, probe_leftovers: true };
        let generated =
            Generated::with(&path, &function, options).map_err(|e| format!("{name}: {e}"))?;
        let out = simulate(&generated).map_err(|e| format!("{name}: {e}"))?;
        if !out.contains("hsir-tb: PASS") {
            return Err(format!("{name}: the testbench did not pass:\n{out}"));
        }
        if seed == 1 {
            if let Err(e) = lint(&generated) {
                // `atax` and `kernel_2mm` have a `lazy_fork` whose outputs meet again in a `mux`
                // with no buffer between (rtl/README.md's rule for the lazy modules), which
                // Verilator reports as a combinational loop (UNOPTFLAT). That loop, and only
                // that one, is accepted here: it must pass through a `lazy_fork` and not through
                // an LSQ, and no other warning may appear.
                let warnings: Vec<&str> = e
                    .lines()
                    .filter(|l| l.starts_with('%') && !l.starts_with("%Error: Exiting"))
                    .collect();
                let lazy_loop_only = !warnings.is_empty()
                    && warnings.iter().all(|l| l.starts_with("%Warning-UNOPTFLAT"))
                    && e.contains("lazy_fork")
                    && !e.contains("lsq");
                if !lazy_loop_only {
                    return Err(format!("{name}: {e}"));
                }
                eprintln!("{name}: a combinational loop through a `lazy_fork`, outside the LSQs");
            }
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{} failures:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// Cells are named by their op's `handshake.name` where it has one (Dynamatic names every op;
/// its reports and waveforms use those names), else by kind and result.
#[test]
fn instance_names_come_from_handshake_name() {
    let text = r#"handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0:2 = fork [2] %a {handshake.name = "fork7"} : <i32>
  %1 = addi %0#0, %0#1 {handshake.name = "addi3"} : <i32>
  %2 = muli %1, %1 : <i32>
  end %2, %start : <i32>, <>
}
"#;
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    let output = hsir_backend::rtl::generate(&parse, &Default::default()).unwrap();
    let design = &output.files.iter().find(|f| f.name == "f.v").unwrap().text;
    assert!(design.contains(" fork7 ("), "{design}");
    assert!(design.contains(" addi3 ("), "{design}");
    // Without a name, the kind and the result name it.
    assert!(design.contains(" muli_2 ("), "{design}");
}

/// `sync`'s outputs may meet again: at an adder, and at the join of a backedge that feeds the
/// `sync` itself. Its join drives an eager fork (`hsir_fork`), not a lazy one, whose outputs'
/// valids would wait on the joins' readies combinationally (both designs deadlocked then).
#[test]
fn sync_outputs_meet_again() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/designs/sync.mlir");
    for function in ["sync_meet", "sync_backedge"] {
        let generated = Generated::new(&path, function, 3).unwrap();
        let design = std::fs::read_to_string(generated.dir.join(format!("{function}.v"))).unwrap();
        assert!(design.contains("hsir_fork") && !design.contains("hsir_lazy_fork"), "{design}");
        let out = simulate(&generated).unwrap();
        assert!(out.contains("hsir-tb: PASS"), "@{function}:\n{out}");
    }
}
