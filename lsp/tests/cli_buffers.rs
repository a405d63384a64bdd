//! `hsir buffers`, run as a user runs it: the real binary on the placement fixtures of the
//! backend, whose placed texts (`backend/test_data/placement/placed/`) the backend's tests keep.

use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

fn fixture(name: &str) -> PathBuf {
    workspace().join("backend/test_data/placement").join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hsir-cli-buffers-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn hsir(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_hsir"))
        .args(args)
        .current_dir(workspace())
        .output()
        .expect("the hsir binary runs");
    assert!(!stderr(&out).contains("panicked"), "hsir panicked:\n{}", stderr(&out));
    out
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn writes_the_placed_text_to_a_file_or_stdout() {
    let dir = scratch("out");
    let out = dir.join("chain.mlir");
    let input = fixture("long_chain.mlir");
    // The command line places with the built-in model, overhead included.
    let expected = read(&fixture("placed/long_chain.fpga20.overhead-builtin.mlir"));
    let run = hsir(&["buffers", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(read(&out), expected);
    assert!(
        stderr(&run).contains("@chain: fpga20 1 buffers (1 slots) on 1 channels"),
        "{}",
        stderr(&run)
    );
    let run = hsir(&["buffers", input.to_str().unwrap(), "--algorithm", "fpl22"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(
        String::from_utf8(run.stdout).unwrap(),
        read(&fixture("placed/long_chain.fpl22.overhead-builtin.mlir"))
    );
}

#[test]
fn in_place_rewrites_the_file_and_a_second_run_keeps_it() {
    let dir = scratch("in-place");
    let file = dir.join("count.mlir");
    std::fs::copy(fixture("counter_circt.mlir"), &file).unwrap();
    let run = hsir(&["buffers", file.to_str().unwrap(), "--in-place"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let placed = read(&file);
    assert_eq!(placed, read(&fixture("placed/counter_circt.fpga20.mlir")));
    // The buffers written are lower bounds of the next run, which has nothing to add.
    let run = hsir(&["buffers", file.to_str().unwrap(), "--in-place"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert_eq!(read(&file), placed);
}

/// Placing again what placement wrote changes nothing, in Dynamatic's syntax of every era too
/// (FPGA20's extra ready break is not read back as a slot to keep; 2024's `oehb` / `tehb` and
/// 2025's `NUM_SLOTS` + `TIMING` are read back as the chain they were written for).
#[test]
fn a_second_run_on_dynamatic_syntax_changes_nothing() {
    let dir = scratch("again");
    let file = dir.join("sum.mlir");
    let runs = [
        ("sum_loop.mlir", "fpga20"),
        ("sum_loop.mlir", "fpl22"),
        ("sum_loop_2025.mlir", "fpga20"),
        ("sum_loop_2025.mlir", "fpl22"),
        ("sum_loop_2024.mlir", "fpga20"),
        ("sum_loop_2024.mlir", "fpl22"),
    ];
    for (input, algorithm) in runs {
        std::fs::copy(fixture(input), &file).unwrap();
        let args = ["buffers", file.to_str().unwrap(), "--in-place", "--algorithm", algorithm];
        let run = hsir(&[&args[..], &["--node-limit", "300"]].concat());
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        let placed = read(&file);
        let run = hsir(&[&args[..], &["--node-limit", "300"]].concat());
        assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
        assert_eq!(read(&file), placed, "{input} {algorithm}");
        assert!(stderr(&run).contains("0 buffers (0 slots)"), "{input}: {}", stderr(&run));
    }
}

#[test]
fn report_and_model_files() {
    let dir = scratch("report");
    let report = dir.join("r.json");
    let model = dir.join("m.lp");
    let run = hsir(&[
        "buffers",
        fixture("sum_loop.mlir").to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
        "--emit-model",
        model.to_str().unwrap(),
        "-o",
        dir.join("out.mlir").to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let json: serde_json::Value = serde_json::from_str(&read(&report)).unwrap();
    let f = &json["functions"][0];
    assert_eq!(f["function"], "sum_loop");
    assert_eq!(f["algorithm"], "fpga20");
    let models = f["models"].as_array().unwrap();
    assert!(!models.is_empty());
    for m in models {
        for key in ["variables", "constraints", "binaryVariables", "timeMs", "status", "kept"] {
            assert!(!m[key].is_null(), "a model lacks `{key}`: {m}");
        }
    }
    // The `i` recurrence (mux 1.117, cmpi 1.544, addi 1.869 ns) costs 0.722 + 0.395 + 0.822 +
    // 1.147 = 3.086 ns under the built-in overhead: one register, one iteration a cycle (the
    // plain sum, 4.53 ns, needed two).
    let theta = f["cfdfcs"][0]["throughput"].as_f64().unwrap();
    assert!((theta - 1.0).abs() < 1e-6, "{theta}");
    // What limits the loop: a cycle with 1 register per token.
    let recurrence = &f["cfdfcs"][0]["recurrence"];
    assert_eq!(recurrence["ii"].as_f64(), Some(1.0), "{recurrence}");
    assert!(recurrence["limit"].as_str().unwrap().starts_with("II 1: "), "{recurrence}");
    // The static timing analysis of the result.
    let timing = &f["timing"];
    assert_eq!(timing["overheadNs"].as_f64(), Some(0.722), "{timing}");
    assert_eq!(timing["periodNs"].as_f64(), Some(4.0), "{timing}");
    let longest = timing["longestPath"]["delayNs"].as_f64().unwrap();
    assert!(longest <= 4.0 && longest > 0.722, "{timing}");
    assert!((timing["slackNs"].as_f64().unwrap() - (4.0 - longest)).abs() < 1e-9, "{timing}");
    assert_eq!(timing["combinationalCycles"], serde_json::json!([]), "{timing}");
    assert_eq!(f["buffers"].as_array().unwrap().len(), 13);
    let channels = f["channels"].as_u64().unwrap() as usize;
    assert_eq!(f["channelList"].as_array().unwrap().len(), channels);
    for b in f["buffers"].as_array().unwrap() {
        let c = b["channel"].as_u64().unwrap() as usize;
        assert_eq!(f["channelList"][c]["from"], b["from"], "{b}");
    }
    let lp = read(&model);
    for part in ["Maximize", "Subject To", "Bounds", "Binaries", "End"] {
        assert!(lp.contains(part), "the model lacks `{part}`");
    }
    assert!(lp.contains("th_k0"), "the model has no throughput variable");
}

#[test]
fn bad_input_gets_a_message_naming_the_problem() {
    let file = fixture("long_chain.mlir");
    let file = file.to_str().unwrap();
    for (args, message) in [
        (vec!["--algorithm", "fpga21"], "unknown algorithm `fpga21`; expected `fpga20` or `fpl22`"),
        (vec!["--period", "0"], "the period must be a positive number of ns, not `0`"),
        (
            vec!["--period", "0.7"],
            "the period (0.7 ns) must be more than the timing model's overhead (0.722 ns)",
        ),
        (vec!["--time-limit=-1"], "the time limit must be a positive number of seconds"),
        (vec!["--time-limit", "1e308"], "at most 86400 (a day), not `1e308`"),
        (vec!["--solver", "cplex"], "unknown solver `cplex`; expected `microlp` or `highs`"),
    ]
    .into_iter()
    .chain((!cfg!(feature = "highs")).then(|| {
        (vec!["--solver", "highs"], "this hsir was built without HiGHS; rebuild with `cargo build --release --features highs`")
    })) {
        let mut all = vec!["buffers", file];
        all.extend(args);
        let run = hsir(&all);
        assert_eq!(run.status.code(), Some(2), "{all:?}: {}", stderr(&run));
        assert!(stderr(&run).contains(message), "{all:?}: {}", stderr(&run));
    }
    let run = hsir(&["buffers", "no/such/file.mlir"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(stderr(&run).contains("no/such/file.mlir"), "{}", stderr(&run));
    // A file that does not check places nothing and says why.
    let dir = scratch("bad");
    let broken = dir.join("broken.mlir");
    std::fs::write(&broken, "handshake.func @f(%a: i32) -> (i32) {\n  return %b : i32\n}\n")
        .unwrap();
    let run =
        hsir(&["buffers", broken.to_str().unwrap(), "-o", dir.join("x.mlir").to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    assert!(stderr(&run).contains("no buffers placed"), "{}", stderr(&run));
    assert!(!dir.join("x.mlir").exists());
}

/// A function with a type error, and one that instantiates it.
const BROKEN_FUNCTIONS: &str = "
handshake.func @bad(%a: i32, %b: i64, %ctrl: none) -> (i32, none) {
  %c = arith.addi %a, %b : i32
  return %c, %ctrl : i32, none
}
handshake.func @calls_bad(%a: i32, %b: i64, %ctrl: none) -> (i32, none) {
  %0:2 = instance @bad(%a, %b, %ctrl) : (i32, i64, none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}
";

/// An error in one function stops placement only in the functions that reach it.
#[test]
fn errors_in_other_functions_do_not_stop_placement() {
    let dir = scratch("others");
    let input = dir.join("mixed.mlir");
    std::fs::write(&input, read(&fixture("long_chain.mlir")) + BROKEN_FUNCTIONS).unwrap();
    let (input, out) = (input.to_str().unwrap(), dir.join("placed.mlir"));
    let run = hsir(&["buffers", input, "--func", "chain", "-o", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let placed = read(&fixture("placed/long_chain.fpga20.mlir")) + BROKEN_FUNCTIONS;
    assert_eq!(read(&out), placed, "`@chain` placed, the rest as it was");

    // A function that instantiates the broken one, or every function: refused, naming it.
    std::fs::remove_file(&out).unwrap();
    for func in [&["--func", "calls_bad"][..], &[]] {
        let mut args = vec!["buffers", input, "-o", out.to_str().unwrap()];
        args.extend(func);
        let run = hsir(&args);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {}", stderr(&run));
        let message = stderr(&run);
        assert!(message.contains("error[HS1105]"), "{message}");
        assert!(message.contains("no buffers placed"), "{message}");
        assert!(!out.exists());
    }
    let run = hsir(&["buffers", input, "--func", "calls_bad"]);
    assert!(
        stderr(&run).contains("error[HS5009]: `@calls_bad` instantiates `@bad`, which has errors"),
        "{}",
        stderr(&run)
    );
}

/// Writing is atomic for files, and never replaces a device or a link with a plain file.
#[test]
fn output_to_a_device_or_through_a_link() {
    let input = fixture("long_chain.mlir");
    let run = hsir(&["buffers", input.to_str().unwrap(), "-o", "/dev/null"]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let meta = std::fs::symlink_metadata("/dev/null").unwrap();
    assert!(meta.file_type().is_char_device(), "/dev/null is no longer a device");
    let dir = scratch("link");
    let target = dir.join("target.mlir");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.mlir");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let run = hsir(&["buffers", input.to_str().unwrap(), "-o", link.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(read(&target), read(&fixture("placed/long_chain.fpga20.mlir")));
}

/// `hsir timing` on a placed file: the longest path, worked out in `test_data/timing/sta/`'s
/// fixture; the same under the plain sum; a combinational cycle named and exit status 1; usage
/// problems with status 2.
#[test]
fn timing_reports_the_longest_path_and_the_cycles() {
    let sta =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../backend/test_data/timing/sta/chain.mlir");
    let run = hsir(&["timing", sta.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let out = String::from_utf8(run.stdout).unwrap();
    assert_eq!(
        out,
        "@chain: longest data path 3.016 ns at a 4 ns period (slack +0.984 ns; overhead 0.722 ns, plain sum 3.738 ns):\n  \
         argument %b → addi %x1 (1.869) → addi %x2 (1.869) → buffer addi %x2→fork %rf\n  \
         longest under the plain sum (overhead 0): 3.738 ns:\n  \
         argument %b → addi %x1 (1.869) → addi %x2 (1.869) → buffer addi %x2→fork %rf\n"
    );
    // At 3 ns the path is too long: status 1, a negative slack.
    let run = hsir(&["timing", sta.to_str().unwrap(), "--period", "3", "--format", "json"]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let f = &json["functions"][0];
    assert!((f["slackNs"].as_f64().unwrap() + 0.016).abs() < 1e-9, "{f}");
    assert!((f["plainSumPath"]["delayNs"].as_f64().unwrap() - 3.738).abs() < 1e-9, "{f}");
    // A loop nothing breaks: its cycles are named.
    let run = hsir(&["timing", fixture("sum_loop.mlir").to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let out = String::from_utf8(run.stdout).unwrap();
    assert!(
        out.contains("combinational cycle (no register): mux %sum → cond_br %sum_t → addi %sum_next → mux %sum"),
        "{out}"
    );
    for (args, message) in [
        (vec!["--period", "0.5"], "must be more than the timing model's overhead (0.722 ns)"),
        (vec!["--func", "nope"], "has no function `nope` with a body"),
    ] {
        let mut all = vec!["timing", sta.to_str().unwrap()];
        all.extend(args);
        let run = hsir(&all);
        assert_eq!(run.status.code(), Some(2), "{all:?}: {}", stderr(&run));
        assert!(stderr(&run).contains(message), "{all:?}: {}", stderr(&run));
    }
}
