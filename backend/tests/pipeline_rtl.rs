//! `hw.module`s with pipelines, lowered to Verilog and run: every design in
//! `test_data/pipelines/` and every supported module of CIRCT's pipeline tests in the shared
//! corpus is simulated in Icarus Verilog against the reference evaluator (random go, stall and
//! data, reset first) and linted with `verilator --lint-only -Wall`. The evaluator itself is
//! checked on small cases computed by hand, and two lowerings are kept as snapshots.

#[path = "../../test-support/shared.rs"]
mod shared;

use std::path::{Path, PathBuf};
use std::process::Command;

use hsir_analysis::DiagnosticCode;
use hsir_backend::pipeline::{self, eval, PipelineVerilog};
use hsir_backend::{HwModule, Program};

const CYCLES: usize = 300;
const SEEDS: &[u64] = &[1, 0x5eed];

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/pipelines")
}

/// CIRCT's files of the shared corpus, or `None` (the test is skipped) without them.
fn corpus_dir() -> Option<PathBuf> {
    shared::path("corpus/circt")
}

fn program(text: &str) -> Program {
    let parse = hsir_analysis::parse_bytes(text.as_bytes()).0;
    match Program::new(&parse) {
        Ok(program) => program,
        Err(errors) => panic!("the checks reject the design: {errors:#?}"),
    }
}

fn program_of(path: &Path) -> Program {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    program(&text)
}

/// Fails (never skips) when a simulator is missing.
fn require(tool: &str, version_flag: &str) {
    let ok = Command::new(tool).arg(version_flag).output().is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{tool}` is not installed or does not run; these tests need Icarus Verilog and \
         Verilator: apt-get install iverilog verilator"
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hsir-pipeline-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create a scratch directory");
    dir
}

fn run(command: &mut Command) -> (bool, String) {
    let output = command.output().unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

/// Lints the module and simulates it with every seed; panics with the tools' output on any
/// warning or mismatch.
fn check_in_simulators(module: &HwModule, lowered: &PipelineVerilog) {
    require("iverilog", "-V");
    require("verilator", "--version");
    let dir = scratch(&lowered.name);
    let source = dir.join(format!("{}.v", lowered.name));
    std::fs::write(&source, &lowered.verilog).expect("write the module");

    let (ok, text) = run(Command::new("verilator").arg("--lint-only").arg("-Wall").arg(&source));
    assert!(
        ok && text.trim().is_empty(),
        "verilator --lint-only -Wall on {}:\n{text}\n{}",
        lowered.name,
        lowered.verilog
    );

    // The module alone is Verilog-2005.
    let (ok, text) = run(Command::new("iverilog")
        .arg("-g2005")
        .arg("-o")
        .arg(dir.join("module_only"))
        .arg(&source));
    assert!(ok && text.trim().is_empty(), "iverilog -g2005 on {}:\n{text}", lowered.name);

    for &seed in SEEDS {
        let bench = dir.join(format!("tb_{seed}.v"));
        std::fs::write(&bench, pipeline::testbench(module, lowered, CYCLES, seed))
            .expect("write the testbench");
        let binary = dir.join(format!("sim_{seed}"));
        let (ok, text) = run(Command::new("iverilog")
            .arg("-g2012")
            .arg("-o")
            .arg(&binary)
            .arg(&bench)
            .arg(&source));
        assert!(ok && text.trim().is_empty(), "iverilog on {}:\n{text}", lowered.name);
        let (_, text) = run(Command::new("vvp").arg("-n").arg(&binary));
        assert!(
            text.lines().any(|l| l.trim() == "hsir-tb: PASS"),
            "simulation of {} (seed {seed}) did not pass:\n{text}\n{}",
            lowered.name,
            lowered.verilog
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Lowers and checks every module of a design file; returns how many there were.
fn check_design(file: &str) -> usize {
    let program = program_of(&data_dir().join(file));
    assert!(!program.modules.is_empty(), "{file} has no hw.module");
    for module in &program.modules {
        let lowered = pipeline::lower(module)
            .unwrap_or_else(|d| panic!("{} does not lower: {d:#?}", module.name));
        check_in_simulators(module, &lowered);
    }
    program.modules.len()
}

#[test]
fn stall_nonstallable_and_runoff_stages() {
    assert_eq!(check_design("nonstallable.mlir"), 3);
}

#[test]
fn multi_cycle_latency() {
    assert_eq!(check_design("latency.mlir"), 2);
}

#[test]
fn explicit_regs_and_pass() {
    assert_eq!(check_design("explicit.mlir"), 1);
}

#[test]
fn unmaterialized_pipelines_get_registers() {
    assert_eq!(check_design("unmaterialized.mlir"), 2);
}

#[test]
fn every_supported_op() {
    assert_eq!(check_design("ops.mlir"), 2);
}

#[test]
fn two_pipelines_in_one_module() {
    assert_eq!(check_design("two_pipelines.mlir"), 1);
}

/// CIRCT's own pipeline tests: every module is simulated, except those named here with the
/// diagnostic that explains why not.
#[test]
fn corpus_pipelines() {
    let files = [
        "Conversion-PipelineToHW__test_basic.mlir",
        "Conversion-PipelineToHW__test_ce.mlir",
        "Conversion-PipelineToHW__test_poweron.mlir",
        "Dialect-Pipeline-Transforms__explicit-regs.mlir",
        "integration-Dialect-Pipeline-nonstallable-test1__nonstallable_test1.mlir",
        "integration-Dialect-Pipeline-simple__simple.mlir",
        "integration-Dialect-Pipeline-stall__stallTest.mlir",
        "Dialect-Pipeline__round-trip.mlir",
        "Dialect-Pipeline__canonicalization.mlir",
    ];
    // Modules the backend rejects, and the code it gives.
    let rejected: &[(&str, DiagnosticCode)] = &[
        // `sv.wire` / `sv.read_inout` / `sv.assign` inside the stages.
        ("testControlUsage", DiagnosticCode::BackendUnsupportedOp),
        // Unregistered `foo.*` ops with regions.
        ("test_arbitrary_nesting", DiagnosticCode::BackendUnsupportedOp),
        // An `i128` output (and `dummy.op`s).
        ("pipelineLatencyCrashRepro", DiagnosticCode::BackendUnsupportedType),
        // `pipeline.unscheduled` has no stages to lower yet.
        ("unscheduled1", DiagnosticCode::BackendUnsupportedOp),
        ("withoutReset", DiagnosticCode::BackendUnsupportedOp),
    ];
    let Some(dir) = corpus_dir() else { return };
    let mut simulated = Vec::new();
    let mut refused = Vec::new();
    for file in files {
        let path = dir.join(file);
        assert!(path.exists(), "the shared corpus is missing {}", path.display());
        let program = program_of(&path);
        for module in &program.modules {
            match pipeline::lower(module) {
                Ok(lowered) => {
                    check_in_simulators(module, &lowered);
                    simulated.push(format!("{file}: {}", module.name));
                }
                Err(diagnostics) => {
                    let expected = rejected.iter().find(|(name, _)| *name == module.name);
                    let Some((_, code)) = expected else {
                        panic!("{file}: {} does not lower: {diagnostics:#?}", module.name)
                    };
                    assert!(
                        diagnostics.iter().any(|d| d.code == *code),
                        "{}: expected {}, got {diagnostics:#?}",
                        module.name,
                        code.code()
                    );
                    refused.push(module.name.clone());
                }
            }
        }
    }
    assert_eq!(refused.len(), rejected.len(), "rejected: {refused:?}");
    assert_eq!(simulated.len(), 31, "simulated: {simulated:#?}");
}

// ---- the evaluator, by hand ---------------------------------------------------------------

/// The one module of `text`, with the errors the analysis found in it.
fn analysed_module(text: &str) -> HwModule {
    let program = Program::analyse(&hsir_analysis::parse_bytes(text.as_bytes()).0);
    assert_eq!(program.modules.len(), 1);
    program.modules[0].clone()
}

fn only_module(text: &str) -> HwModule {
    let program = program(text);
    assert_eq!(program.modules.len(), 1);
    program.modules[0].clone()
}

/// Inputs `a, go, stall, rst` (the clock is implicit); outputs `out, done`.
#[test]
fn evaluator_on_a_stallable_pipeline() {
    let module = only_module(
        "hw.module @tiny(in %a : i8, in %go : i1, in %stall : i1, in %clk : !seq.clock, in %rst : i1, out out : i8, out done : i1) {
          %out, %done = pipeline.scheduled(%a0 : i8 = %a) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out : i8) {
            %c = hw.constant 1 : i8
            %s = comb.add %a0, %c : i8
            pipeline.stage ^bb1 regs(%s : i8)
          ^bb1(%s1 : i8, %s1_enable : i1):
            %d = comb.add %s1, %s1 : i8
            pipeline.stage ^bb2 regs(%d : i8)
          ^bb2(%d2 : i8, %s2_enable : i1):
            pipeline.return %d2 : i8
          }
          hw.output %out, %done : i8, i1
        }",
    );
    let inputs = [
        [0, 0, 0, 1],  // reset
        [5, 1, 0, 0],  // a = 5 enters: stage 1 gets 6
        [10, 1, 1, 0], // stalled: nothing moves, a = 10 is not taken
        [20, 0, 0, 0], // stage 1 (6) moves on: stage 2 gets 12
        [0, 0, 1, 0],  // stage 2 holds 12, but a stall keeps `done` low
        [0, 0, 0, 0],  // done
        [0, 0, 0, 0],  // empty again; the data register keeps 12
    ];
    let inputs: Vec<Vec<u64>> = inputs.iter().map(|c| c.to_vec()).collect();
    let outputs = eval::simulate(&module, &inputs).expect("the evaluator runs");
    let expected: Vec<Vec<u64>> = [[0, 0], [0, 0], [0, 0], [0, 0], [12, 0], [12, 1], [12, 0]]
        .iter()
        .map(|c| c.to_vec())
        .collect();
    assert_eq!(outputs, expected);
}

/// A non-stallable stage 1 and runoff stages 2 and 3: after a token passes the non-stallable
/// stage, a held stall keeps it in stage 2 once stage 1 is empty; it leaves when the stall
/// drops.
#[test]
fn evaluator_on_runoff_stages() {
    let module = only_module(
        "hw.module @runoff(in %a : i8, in %go : i1, in %stall : i1, in %clk : !seq.clock, in %rst : i1, out out : i8, out done : i1) {
          %out, %done = pipeline.scheduled(%a0 : i8 = %a) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable)
              {stallability = [true, false, true]} -> (out : i8) {
            pipeline.stage ^bb1
          ^bb1(%s1_enable : i1):
            pipeline.stage ^bb2
          ^bb2(%s2_enable : i1):
            pipeline.stage ^bb3
          ^bb3(%s3_enable : i1):
            %a3 = pipeline.src %a0 : i8
            pipeline.return %a3 : i8
          }
          hw.output %out, %done : i8, i1
        }",
    );
    let inputs = [
        [0, 0, 0, 1], // reset
        [7, 1, 0, 0], // 7 enters stage 1 (non-stallable)
        [0, 0, 1, 0], // stall, but stage 1 is enabled: 7 runs off into stage 2
        [0, 0, 1, 0], // stage 1 is empty now: stage 2 stalls
        [0, 0, 1, 0],
        [0, 0, 0, 0], // stall drops: 7 moves to stage 3
        [0, 0, 0, 0], // done, out = 7
        [0, 0, 0, 0],
    ];
    let inputs: Vec<Vec<u64>> = inputs.iter().map(|c| c.to_vec()).collect();
    let outputs = eval::simulate(&module, &inputs).expect("the evaluator runs");
    let expected: Vec<Vec<u64>> = [[0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [7, 1], [7, 0]]
        .iter()
        .map(|c| c.to_vec())
        .collect();
    assert_eq!(outputs, expected);
}

/// `pipeline.latency 2` in a continuous pipeline: the value read in stage 2 is the one its
/// body computed for the same token, two cycles earlier.
#[test]
fn evaluator_on_a_latency() {
    let module = only_module(
        "hw.module @lat(in %a : i8, in %go : i1, in %clk : !seq.clock, out out : i8, out done : i1) {
          %out, %done = pipeline.scheduled(%a0 : i8 = %a) clock(%clk) go(%go) entryEn(%s0_enable) -> (out : i8) {
            %l = pipeline.latency 2 -> (i8) {
              %d = comb.add %a0, %a0 : i8
              pipeline.latency.return %d : i8
            }
            pipeline.stage ^bb1
          ^bb1(%s1_enable : i1):
            pipeline.stage ^bb2
          ^bb2(%s2_enable : i1):
            %l2 = pipeline.src %l : i8
            pipeline.return %l2 : i8
          }
          hw.output %out, %done : i8, i1
        }",
    );
    let inputs: Vec<Vec<u64>> =
        [[1, 1], [2, 0], [3, 1], [4, 1], [5, 1]].iter().map(|c| c.to_vec()).collect();
    let outputs = eval::simulate(&module, &inputs).expect("the evaluator runs");
    let expected: Vec<Vec<u64>> =
        [[0, 0], [0, 0], [2, 1], [4, 0], [6, 1]].iter().map(|c| c.to_vec()).collect();
    assert_eq!(outputs, expected);
}

// ---- diagnostics --------------------------------------------------------------------------

#[test]
fn unsupported_ops_are_diagnostics() {
    let module = only_module(
        "hw.module @bad(in %a : i8, in %go : i1, in %clk : !seq.clock, out out : i8) {
          %out, %done = pipeline.scheduled(%a0 : i8 = %a) clock(%clk) go(%go) entryEn(%s0_enable) -> (out : i8) {
            %w = sv.wire : !hw.inout<i8>
            %x = comb.add %a0, %a0 : i8
            pipeline.return %x : i8
          }
          %i = hw.instance \"sub\" @sub(x: %a : i8) -> (y: i8)
          hw.output %out : i8
        }",
    );
    let diagnostics = pipeline::lower(&module).expect_err("sv.wire is not supported");
    let messages: Vec<String> = diagnostics.iter().map(|d| d.message.clone()).collect();
    assert!(
        diagnostics.iter().all(|d| d.code == DiagnosticCode::BackendUnsupportedOp),
        "{messages:?}"
    );
    assert!(messages.iter().any(|m| m.contains("`sv.wire`")), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("`hw.instance`")), "{messages:?}");
}

/// CIRCT's rules are the analysis's: the backend refuses a module the analysis found breaking
/// them, with the analysis's diagnostic, and reads nothing of it.
#[test]
fn early_latency_use_is_a_diagnostic() {
    let module = analysed_module(
        "hw.module @early(in %a : i8, in %go : i1, in %clk : !seq.clock, out out : i8) {
          %out, %done = pipeline.scheduled(%a0 : i8 = %a) clock(%clk) go(%go) entryEn(%s0_enable) -> (out : i8) {
            %l = pipeline.latency 2 -> (i8) {
              %d = comb.add %a0, %a0 : i8
              pipeline.latency.return %d : i8
            }
            pipeline.stage ^bb1
          ^bb1(%s1_enable : i1):
            %l1 = pipeline.src %l : i8
            pipeline.return %l1 : i8
          }
          hw.output %out : i8
        }",
    );
    let diagnostics = pipeline::lower(&module).expect_err("%l is read a stage early");
    assert!(
        diagnostics.iter().any(|d| d.code == DiagnosticCode::PipelineLatencyEarlyUse),
        "{diagnostics:#?}"
    );
}

#[test]
fn unsupported_types_and_widths_are_diagnostics() {
    let program = program(
        "hw.module @wide(in %w : i128, out out : i8) {
          %x = comb.extract %w from 0 : (i128) -> i8
          hw.output %x : i8
        }
        hw.module @widths(in %a : i8, in %b : i16, out out : i16, out bit : i1) {
          %c = comb.concat %a, %b : i8, i8
          %x = comb.extract %a from 6 : (i8) -> i4
          %p = comb.parity %x : i4
          hw.output %c, %p : i16, i1
        }",
    );
    let messages = |name: &str| -> Vec<String> {
        let module = program.modules.iter().find(|m| m.name == name).expect("the module");
        let diagnostics = pipeline::lower(module).expect_err("it does not fit");
        assert!(
            diagnostics.iter().all(|d| d.code == DiagnosticCode::BackendUnsupportedType),
            "{diagnostics:#?}"
        );
        diagnostics.iter().map(|d| d.message.clone()).collect()
    };
    let wide = messages("wide");
    assert!(wide.iter().any(|m| m.contains("`w`") && m.contains("`i128`")), "{wide:#?}");
    let widths = messages("widths");
    assert!(
        widths.iter().any(|m| m.contains("`comb.concat` of 24 bits declares 16")),
        "{widths:#?}"
    );
    assert!(widths.iter().any(|m| m.contains("reads bits 6..10 of a 8-bit value")), "{widths:#?}");
}

// ---- snapshots ----------------------------------------------------------------------------

fn lowered(file: &str, name: &str) -> String {
    let program = program_of(&data_dir().join(file));
    let module = program.modules.iter().find(|m| m.name == name).expect("the module");
    pipeline::lower(module).expect("it lowers").verilog
}

#[test]
fn snapshot_nonstallable() {
    expect_test::expect_file!["../test_data/pipelines/nonstallable.v"]
        .assert_eq(&lowered("nonstallable.mlir", "nonstallable"));
}

#[test]
fn snapshot_unmaterialized_and_latency() {
    expect_test::expect_file!["../test_data/pipelines/latency.v"]
        .assert_eq(&lowered("latency.mlir", "latency"));
}

#[test]
fn lowering_is_deterministic() {
    for file in ["ops.mlir", "two_pipelines.mlir", "explicit.mlir"] {
        let program = program_of(&data_dir().join(file));
        for module in &program.modules {
            let first = pipeline::lower(module).expect("it lowers");
            let second = pipeline::lower(module).expect("it lowers");
            assert_eq!(first, second);
            let bench = |seed| pipeline::testbench(module, &first, 50, seed);
            assert_eq!(bench(3), bench(3));
            assert_ne!(bench(3), bench(4));
        }
    }
}

// ---- CIRCT's lowering -----------------------------------------------------------------------

/// The registers, enables and valids CIRCT's `lower-pipeline-to-hw` CHECK lines show for
/// `Conversion-PipelineToHW__test_basic.mlir`, in this lowering's Verilog.
#[test]
fn stage_control_follows_circt_check_lines() {
    let Some(dir) = corpus_dir() else { return };
    let program = program_of(&dir.join("Conversion-PipelineToHW__test_basic.mlir"));
    let verilog = |name: &str| {
        let module = program.modules.iter().find(|m| m.name == name).expect("the module");
        pipeline::lower(module).expect("it lowers").verilog
    };
    let expect_lines = |name: &str, lines: &[&str]| {
        let text = verilog(name);
        for line in lines {
            assert!(text.contains(line), "{name}: missing `{line}` in\n{text}");
        }
    };
    // `seq.compreg sym @p0_stage0_reg0 %sub, %clk`, `@p0_stage1_enable %go ... reset %rst, false`.
    expect_lines(
        "testSingle",
        &[
            "always @(posedge clk) p0_stage0_reg0 <= _1;",
            "always @(posedge clk) p0_stage0_reg1 <= arg0;",
            "if (rst) p0_stage1_enable <= 1'b0;\n    else p0_stage1_enable <= go;",
            "assign out1 = p0_stage1_enable;",
        ],
    );
    // `seq.compreg.ce sym @p0_stage0_reg0 %arg0, %clk, (go & !stall)`; the enable register is
    // clock-enabled by `!stall`; `done` is `stage1_enable & !stall`.
    expect_lines(
        "testWithStall",
        &[
            "assign p0_stage0_valid = go & ~stall;",
            "if (p0_stage0_valid) p0_stage0_reg0 <= arg0;",
            "else if (~stall) p0_stage1_enable <= p0_stage0_valid;",
            "assign p0_stage1_valid = p0_stage1_enable & ~stall;",
            "assign out1 = p0_stage1_valid;",
        ],
    );
    // `stallability = [true, false, true]`: stage 1 non-stallable (plain enable register, data
    // clock-enabled by its enable), stages 2 and 3 runoff (`lnsEn | !stall`).
    expect_lines(
        "testStallability",
        &[
            "if (MyPipeline_stage0_valid) MyPipeline_a0_s1 <= arg0;",
            "else MyPipeline_stage1_enable <= MyPipeline_stage0_valid;",
            "if (MyPipeline_stage1_enable) MyPipeline_a0_s2 <= MyPipeline_a0_s1;",
            "else if (MyPipeline_stage1_enable | ~stall) MyPipeline_stage2_enable <= \
             MyPipeline_stage1_enable;",
            "assign MyPipeline_stage2_valid = MyPipeline_stage2_enable & \
             (MyPipeline_stage1_enable | ~stall);",
            "if (MyPipeline_stage2_valid) MyPipeline_a0_s3 <= MyPipeline_a0_s2;",
            "else if (MyPipeline_stage1_enable | ~stall) MyPipeline_stage3_enable <= \
             MyPipeline_stage2_valid;",
        ],
    );
    // An empty pipeline name: no prefix.
    expect_lines(
        "testAnonymous",
        &["always @(posedge clk) stage0_reg0 <= arg0;", "else stage1_enable <= arg0;"],
    );
    // Two pipelines: `p0` and `p1`, the second reading the first's output.
    expect_lines("testMultiple", &["p1_stage0_reg0", "p1_stage2_enable <= p1_stage1_enable;"]);
}

/// Every `hw.module` of the corpus either lowers (and then evaluates and gets a testbench) or
/// comes back as diagnostics; nothing panics.
#[test]
fn every_corpus_module_lowers_or_is_refused() {
    let mut lowered_count = 0;
    let mut refused_count = 0;
    let Some(dir) = corpus_dir() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the shared corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read");
        let parse = hsir_analysis::parse_bytes(text.as_bytes()).0;
        let program = Program::analyse(&parse);
        for module in &program.modules {
            match pipeline::lower(module) {
                Ok(lowered) => {
                    lowered_count += 1;
                    let bench = pipeline::testbench(module, &lowered, 8, 7);
                    assert!(bench.contains("hsir-tb: PASS"), "{}", module.name);
                }
                Err(diagnostics) => {
                    refused_count += 1;
                    assert!(!diagnostics.is_empty());
                    for d in &diagnostics {
                        assert!(usize::from(d.range.end()) <= text.len(), "{d:?}");
                    }
                }
            }
        }
    }
    assert!(lowered_count >= 31 && refused_count > 0, "{lowered_count} {refused_count}");
}

/// Every design with one line dropped, and with one operand or type dropped: whatever is left
/// lowers or is refused, without a panic.
#[test]
fn malformed_designs_never_panic() {
    let mut variants = 0;
    for file in [
        "nonstallable.mlir",
        "latency.mlir",
        "explicit.mlir",
        "unmaterialized.mlir",
        "ops.mlir",
        "two_pipelines.mlir",
    ] {
        let text = std::fs::read_to_string(data_dir().join(file)).expect("read");
        let lines: Vec<&str> = text.lines().collect();
        let mut texts = Vec::new();
        for i in 0..lines.len() {
            let mut without = lines.clone();
            without.remove(i);
            texts.push(without.join("\n"));
            // The line with its first operand (or type) taken out.
            for cut in [", %", ": i"] {
                if let Some(at) = lines[i].find(cut) {
                    let end = lines[i][at + 2..]
                        .find([',', ' ', ')'])
                        .map_or(lines[i].len(), |e| at + 2 + e);
                    let mut edited = lines.clone();
                    let line = format!("{}{}", &lines[i][..at], &lines[i][end..]);
                    edited[i] = &line;
                    texts.push(edited.join("\n"));
                }
            }
        }
        for variant in texts {
            variants += 1;
            let parse = hsir_analysis::parse_bytes(variant.as_bytes()).0;
            let program = Program::analyse(&parse);
            for module in &program.modules {
                if let Ok(lowered) = pipeline::lower(module) {
                    let _ = pipeline::testbench(module, &lowered, 4, 1);
                }
            }
        }
    }
    assert!(variants > 300, "{variants}");
}
