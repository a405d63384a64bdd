//! `hsir rtl` and `hsir sim`, run as a user runs them: the real binary, real files, and the
//! generated Verilog compiled and run in Icarus Verilog.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use expect_test::{expect, expect_file};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap()
}

/// A design of the backend's test data, as an absolute path.
fn design(name: &str) -> String {
    workspace().join("backend/test_data").join(name).display().to_string()
}

/// A fresh, empty folder of this test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hsir-cli-rtl-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `hsir` in `cwd`.
fn hsir_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hsir"))
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("the hsir binary runs")
}

/// Runs `hsir` in the workspace, so that relative paths name repository files.
fn hsir(args: &[&str]) -> Output {
    hsir_in(&workspace(), args)
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Every run must end in an answer, never in a panic.
fn no_panic(output: &Output) {
    assert!(!stderr(output).contains("panicked"), "hsir panicked:\n{}", stderr(output));
}

/// The names of the files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every file of `dir` with its contents, to compare a folder before and after.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    listing(dir).into_iter().map(|n| (n.clone(), std::fs::read(dir.join(&n)).unwrap())).collect()
}

/// The files `files.f` lists, in order (its comment lines skipped).
fn file_list(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_to_string(dir.join("files.f"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("//"))
        .map(PathBuf::from)
        .collect()
}

/// Runs exactly `iverilog -g2012 -o sim -c DIR/files.f && vvp sim` in `cwd`; returns what vvp
/// printed.
fn simulate(cwd: &Path, out: &Path) -> String {
    let list = out.join("files.f");
    let compile = Command::new("iverilog")
        .args(["-g2012", "-o", "sim", "-c"])
        .arg(&list)
        .current_dir(cwd)
        .output()
        .expect("iverilog is installed");
    assert!(
        compile.status.success(),
        "iverilog failed on {}:\n{}",
        list.display(),
        String::from_utf8_lossy(&compile.stderr)
    );
    let run = Command::new("vvp").arg("sim").current_dir(cwd).output().expect("vvp is installed");
    assert!(run.status.success(), "vvp failed:\n{}", String::from_utf8_lossy(&run.stderr));
    String::from_utf8(run.stdout).unwrap()
}

/// `hsir rtl FILE --top TOP -o out --testbench` run in one folder, the simulation in another;
/// returns the output folder and what hsir printed.
fn generate_and_simulate(test: &str, file: &str, top: Option<&str>, expected: &[&str]) {
    let root = scratch(test);
    let (run_in, elsewhere) = (root.join("run"), root.join("elsewhere"));
    std::fs::create_dir_all(&run_in).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    let mut args = vec!["rtl", file, "-o", "out", "--testbench"];
    if let Some(top) = top {
        args.extend(["--top", top]);
    }
    let output = hsir_in(&run_in, &args);
    no_panic(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let out = run_in.join("out").canonicalize().unwrap();
    // Exactly the files hsir says it wrote, no temporary files beside them.
    let mut names: Vec<&str> = expected.to_vec();
    names.push("files.f");
    // And hsir's record of what it wrote there.
    names.push(".hsir-written");
    names.sort();
    assert_eq!(listing(&out), names);
    let said: Vec<String> = stdout(&output).lines().map(str::to_string).collect();
    let wrote: Vec<String> = expected
        .iter()
        .chain(&["files.f"])
        .map(|n| format!("wrote {}", out.join(n).display()))
        .collect();
    assert_eq!(said, wrote);
    // `files.f` names every other file, absolutely, in compile order: the testbench last.
    let listed = file_list(&out);
    let in_order: Vec<PathBuf> = expected.iter().map(|n| out.join(n)).collect();
    assert_eq!(listed, in_order);
    assert!(listed.iter().all(|p| p.is_absolute()));
    assert!(listed.last().unwrap().to_string_lossy().ends_with("_tb.v"));
    let printed = simulate(&elsewhere, &out);
    assert!(printed.contains("hsir-tb: PASS"), "the testbench did not pass:\n{printed}");
    assert!(!printed.contains("FAIL"), "{printed}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_handshake_design_and_its_testbench_pass_in_icarus() {
    generate_and_simulate(
        "loop",
        &design("designs/loop_kernel.mlir"),
        Some("sum_loop"),
        &["hsir_lib.v", "sum_loop.v", "sum_loop_tb.v"],
    );
    // A design with memories, driven through the BRAM ports.
    generate_and_simulate(
        "memory",
        &design("designs/extmemory.mlir"),
        None,
        &["hsir_lib.v", "vadd.v", "vadd_tb.v"],
    );
}

#[test]
fn a_pipeline_module_and_its_testbench_pass_in_icarus() {
    // A pipeline is plain Verilog with no library modules.
    generate_and_simulate(
        "pipeline",
        &design("pipelines/ops.mlir"),
        Some("ops"),
        &["ops.v", "ops_tb.v"],
    );
}

#[test]
fn seeds_and_token_counts_change_the_testbench_and_nothing_else() {
    let root = scratch("seeds");
    let file = design("designs/wait.mlir");
    let run = |name: &str, extra: &[&str]| -> PathBuf {
        let out = root.join(name);
        let mut args = vec!["rtl", file.as_str(), "--top", "pop_and_wait", "-o"];
        let out_text = out.display().to_string();
        args.push(&out_text);
        args.push("--testbench");
        args.extend(extra);
        let output = hsir(&args);
        no_panic(&output);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        out
    };
    let read = |out: &Path, name: &str| std::fs::read_to_string(out.join(name)).unwrap();
    let seed1 = run("seed1", &["--seed", "1"]);
    let seed1_again = run("seed1_again", &["--seed", "1"]);
    let seed2 = run("seed2", &["--seed", "2"]);
    let tokens5 = run("tokens5", &["--seed", "1", "--tokens", "5"]);
    let tb = "pop_and_wait_tb.v";
    // The same seed gives the same bytes, in every file but the list of paths.
    for name in ["hsir_lib.v", "pop_and_wait.v", tb] {
        assert_eq!(
            std::fs::read(seed1.join(name)).unwrap(),
            std::fs::read(seed1_again.join(name)).unwrap(),
            "{name}"
        );
    }
    // Another seed changes the testbench's stimuli, not the design.
    assert_eq!(read(&seed1, "pop_and_wait.v"), read(&seed2, "pop_and_wait.v"));
    assert_ne!(read(&seed1, tb), read(&seed2, tb));
    let tokens = |text: &str| -> Vec<String> {
        text.lines().filter(|l| l.contains("_tokens[")).map(|l| l.trim().to_string()).collect()
    };
    assert_ne!(tokens(&read(&seed1, tb)), tokens(&read(&seed2, tb)));
    // The default is 3 tokens per argument (the file says nothing); `--tokens 5` gives 5.
    let first_input =
        |text: &str| tokens(text).iter().filter(|l| l.starts_with("i0_tokens[")).count();
    assert_eq!(first_input(&read(&seed1, tb)), 3);
    assert_eq!(first_input(&read(&tokens5, tb)), 5);
    // Each still passes.
    for out in [&seed2, &tokens5] {
        let printed = simulate(&root, out);
        assert!(printed.contains("hsir-tb: PASS"), "{}: {printed}", out.display());
    }
    // `--seed` and `--tokens` are about the testbench.
    let without = hsir(&["rtl", &file, "-o", &root.join("x").display().to_string(), "--seed", "3"]);
    assert_eq!(without.status.code(), Some(2));
    assert!(stderr(&without).contains("--testbench"), "{}", stderr(&without));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn files_hsir_did_not_write_are_never_replaced_without_force() {
    let root = scratch("safe");
    let file = design("designs/loop_kernel.mlir");
    let out = root.join("nested/out");
    let out_text = out.display().to_string();
    let rtl = |extra: &[&str]| {
        let mut args = vec!["rtl", file.as_str(), "-o", out_text.as_str(), "--testbench"];
        args.extend(extra);
        let output = hsir(&args);
        no_panic(&output);
        output
    };
    // The folder is made, parents included.
    let first = rtl(&[]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    let generated = contents(&out);
    assert_eq!(
        listing(&out),
        [".hsir-written", "files.f", "hsir_lib.v", "sum_loop.v", "sum_loop_tb.v"]
    );
    // Regenerating over hsir's own files works, and gives the same files.
    let again = rtl(&[]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert_eq!(contents(&out), generated);

    // A file hsir did not write stops the run before anything is written: not even the other
    // files change. Whether hsir wrote a file is its record's to say (`.hsir-written`), not
    // the file's first line: a user's file that begins with hsir's header is still the user's.
    let record = std::fs::read_to_string(out.join(".hsir-written")).unwrap();
    for name in ["files.f", "hsir_lib.v", "sum_loop.v", "sum_loop_tb.v"] {
        assert!(record.lines().any(|l| l.ends_with(&format!(" {name}"))), "{name}: {record}");
    }
    for hand_written in ["sum_loop.v", "files.f", "hsir_lib.v"] {
        std::fs::remove_dir_all(&out).unwrap();
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join(hand_written), "// Generated by hsir.\nmodule mine; endmodule\n")
            .unwrap();
        let before = contents(&out);
        let refused = rtl(&[]);
        assert_eq!(refused.status.code(), Some(2), "{hand_written}");
        let message = stderr(&refused);
        let canonical = out.canonicalize().unwrap().join(hand_written);
        assert!(
            message
                .contains(&format!("`{}` exists and was not written by hsir", canonical.display())),
            "{message}"
        );
        assert!(message.contains("--force"), "{message}");
        assert_eq!(stdout(&refused), "");
        assert_eq!(contents(&out), before, "{hand_written}: the folder changed");

        // `--force` replaces it, and records it as hsir's.
        let forced = rtl(&["--force"]);
        assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
        assert_eq!(contents(&out), generated, "{hand_written}");
    }
    // A file hsir wrote and the user edited since is the user's now.
    let edited = out.join("sum_loop_tb.v");
    let mut text = std::fs::read_to_string(&edited).unwrap();
    text.push_str("// my note\n");
    std::fs::write(&edited, &text).unwrap();
    let refused = rtl(&[]);
    assert_eq!(refused.status.code(), Some(2));
    let message = stderr(&refused);
    assert!(
        message.contains("sum_loop_tb.v` was written by hsir but has changed since"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&edited).unwrap(), text);
    // A file of the record that the user deleted is written again.
    std::fs::remove_file(&edited).unwrap();
    let again = rtl(&[]);
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert_eq!(contents(&out), generated);

    // A folder in the way of a file is refused too.
    std::fs::remove_file(out.join("sum_loop_tb.v")).unwrap();
    std::fs::create_dir(out.join("sum_loop_tb.v")).unwrap();
    let before = listing(&out);
    let blocked = rtl(&[]);
    assert_eq!(blocked.status.code(), Some(2));
    assert!(stderr(&blocked).contains("sum_loop_tb.v` exists"), "{}", stderr(&blocked));
    assert_eq!(listing(&out), before);

    // An output path that is a file cannot be a folder.
    let not_a_folder = root.join("plain-file");
    std::fs::write(&not_a_folder, "x").unwrap();
    let output = hsir(&["rtl", &file, "-o", &not_a_folder.display().to_string()]);
    no_panic(&output);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot create the output folder"), "{}", stderr(&output));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_function_named_like_the_library_keeps_out_of_its_way() {
    // Functions never take a library module's name or `hsir_lib.v`: `@hsir_lib` becomes the
    // module `hsir_lib_fn`, written beside the library, not over it.
    let root = scratch("named");
    let file = root.join("named.mlir");
    std::fs::write(
        &file,
        "handshake.func @hsir_lib(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {\n  %c = arith.addi %a, %b : i32\n  return %c, %ctrl : i32, none\n}\n",
    )
    .unwrap();
    let out = root.join("out");
    let output = hsir(&["rtl", &file.display().to_string(), "-o", &out.display().to_string()]);
    no_panic(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(listing(&out), vec![".hsir-written", "files.f", "hsir_lib.v", "hsir_lib_fn.v"]);
    let design = std::fs::read_to_string(out.join("hsir_lib_fn.v")).unwrap();
    assert!(design.contains("module hsir_lib_fn ("), "{design}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn errors_write_nothing_and_name_the_problem() {
    let root = scratch("errors");
    let out = root.join("out");
    let out_text = out.display().to_string();
    let write = |name: &str, text: &str| -> String {
        let path = root.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let run = |file: &str, extra: &[&str]| -> (Option<i32>, String) {
        let mut args = vec!["rtl", file, "-o", out_text.as_str()];
        args.extend(extra);
        let output = hsir_in(&root, &args);
        no_panic(&output);
        assert_eq!(stdout(&output), "");
        assert!(!out.exists(), "{file}: something was written");
        (output.status.code(), stderr(&output).replace(&root.display().to_string(), "$DIR"))
    };

    let type_error = write(
        "type_error.mlir",
        "handshake.func @f(%a: i32, %b: i64, %ctrl: none) -> (i32, none) {\n  %c = arith.addi %a, %b : i32\n  return %c, %ctrl : i32, none\n}\n",
    );
    let (status, message) = run(&type_error, &[]);
    assert_eq!(status, Some(1));
    expect![[r#"
        $DIR/type_error.mlir:2:23: error[HS1105]: `%b` is used as `i32` here, but its type is `i64`
        error: no RTL written: `$DIR/type_error.mlir` has the errors above
    "#]]
    .assert_eq(&message);

    let float = write(
        "float.mlir",
        "handshake.func @f(%a: f32, %b: f32, %ctrl: none) -> (f32, none) {\n  %c = arith.remf %a, %b : f32\n  return %c, %ctrl : f32, none\n}\n",
    );
    let (status, message) = run(&float, &[]);
    assert_eq!(status, Some(1));
    expect![[r#"
        $DIR/float.mlir:2:8: error[HS5001]: the backend has no RTL for `arith.remf`
        error: no RTL written: `$DIR/float.mlir` has the errors above
    "#]]
    .assert_eq(&message);

    // Naming a function that is not there is a usage problem, as in `hsir sim`.
    let (status, message) = run(&design("designs/raw_bug.mlir"), &["--top", "nosuch"]);
    assert_eq!(status, Some(2));
    assert!(message.contains("error[HS5005]: no function or module `@nosuch` in this file; it has @kernel_raw_bug, @fill_raw_bug, @kernel"), "{message}");

    let (status, message) = run(&root.join("missing.mlir").display().to_string(), &[]);
    assert_eq!(status, Some(2));
    assert!(message.starts_with("error: cannot read `$DIR/missing.mlir`"), "{message}");
    let (status, message) = run(&root.display().to_string(), &[]);
    assert_eq!(status, Some(2));
    assert!(message.starts_with("error: cannot read `$DIR`"), "{message}");

    // A file that does not parse.
    let broken = write("broken.mlir", "handshake.func @f(%a: i32 -> {\n");
    let (status, message) = run(&broken, &[]);
    assert_eq!(status, Some(1));
    assert!(message.contains("error[HS0"), "{message}");
    // Usage: no output folder.
    let output = hsir(&["rtl", &broken]);
    assert_eq!(output.status.code(), Some(2));
    no_panic(&output);
    std::fs::remove_dir_all(&root).unwrap();
}

/// A function with a type error, one that instantiates it, and one that has nothing to do with
/// either.
const TWO_FUNCTIONS: &str = "\
handshake.func @good(%a: i32, %ctrl: none) -> (i32, none) {
  return %a, %ctrl : i32, none
}
handshake.func @bad(%a: i32, %b: i64, %ctrl: none) -> (i32, none) {
  %c = arith.addi %a, %b : i32
  return %c, %ctrl : i32, none
}
handshake.func @calls_bad(%a: i32, %b: i64, %ctrl: none) -> (i32, none) {
  %0:2 = instance @bad(%a, %b, %ctrl) : (i32, i64, none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}
";

#[test]
fn an_error_stops_only_the_functions_that_reach_it() {
    let root = scratch("reach");
    let file = root.join("two.mlir");
    std::fs::write(&file, TWO_FUNCTIONS).unwrap();
    let file = file.display().to_string();

    // `@good` instantiates nothing broken: generated, with a testbench that passes.
    let output = hsir_in(&root, &["rtl", &file, "--top", "good", "-o", "good", "--testbench"]);
    no_panic(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        listing(&root.join("good")),
        [".hsir-written", "files.f", "good.v", "good_tb.v", "hsir_lib.v"]
    );
    let printed = simulate(&root, &root.join("good"));
    assert!(printed.contains("hsir-tb: PASS"), "{printed}");
    // So does `hsir sim`.
    let sim = hsir_in(&root, &["sim", &file, "--top", "good", "--args", "7", "--args", "0"]);
    assert_eq!(sim.status.code(), Some(0), "{}", stderr(&sim));
    assert!(stdout(&sim).contains("out 0: [7]"), "{}", stdout(&sim));

    // `@calls_bad` instantiates the broken function: refused, naming it, nothing written.
    let output = hsir_in(&root, &["rtl", &file, "--top", "calls_bad", "-o", "calls_bad"]);
    no_panic(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(!root.join("calls_bad").exists());
    expect![[r#"
        $DIR/two.mlir:9:10: error[HS5009]: `@calls_bad` instantiates `@bad`, which has errors
        $DIR/two.mlir:5:23: error[HS1105]: `%b` is used as `i32` here, but its type is `i64`
        error: no RTL written: `$DIR/two.mlir` has the errors above
    "#]]
    .assert_eq(&stderr(&output).replace(&root.display().to_string(), "$DIR"));
    let sim = hsir_in(&root, &["sim", &file, "--top", "calls_bad"]);
    assert_eq!(sim.status.code(), Some(1));
    assert!(stderr(&sim).contains("error[HS5009]: `@calls_bad` instantiates `@bad`"));
    std::fs::remove_dir_all(&root).unwrap();
}

/// `hsir check` reports CIRCT's pipeline rules as errors (HS4005, HS4006); `hsir rtl` refuses
/// what it reports, as for any other error.
#[test]
fn pipelines_that_break_circts_rules_are_refused() {
    let root = scratch("pipeline-rules");
    let file = root.join("pipelines.mlir");
    std::fs::write(
        &file,
        "\
hw.module @not_carried(in %a : i32, in %b : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %a, %a1 : i32 = %b) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    %0 = comb.add %a0, %a1 : i32
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    pipeline.stage ^bb2 regs(%0 : i32)
  ^bb2(%s2_s0 : i32, %s2_enable : i1):
    pipeline.return %s2_s0 : i32
  }
  hw.output %p#0 : i32
}
hw.module @src_when_materialized(in %a : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %a) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    pipeline.stage ^bb1 regs(%a0 : i32)
  ^bb1(%r : i32, %s1_enable : i1):
    %a0_bb1 = pipeline.src %a0 : i32
    %s = comb.add %r, %a0_bb1 : i32
    pipeline.return %s : i32
  }
  hw.output %p#0 : i32
}
",
    )
    .unwrap();
    let file = file.display().to_string();
    let check = hsir_in(&root, &["check", &file]);
    assert_eq!(check.status.code(), Some(1));
    for (top, code) in [("not_carried", "HS4006"), ("src_when_materialized", "HS4005")] {
        assert!(stdout(&check).contains(&format!("[{code}] Error")), "{}", stdout(&check));
        let output = hsir_in(&root, &["rtl", &file, "--top", top, "-o", top]);
        no_panic(&output);
        assert_eq!(output.status.code(), Some(1), "{top}: {}", stderr(&output));
        assert!(stderr(&output).contains(&format!("error[{code}]")), "{}", stderr(&output));
        assert!(!root.join(top).exists(), "{top}: something was written");
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn sim_prints_the_tokens_of_given_inputs() {
    let pop = hsir(&[
        "sim",
        &design("designs/wait.mlir"),
        "--top",
        "pop",
        "--args",
        "1,2,0x10",
        "--args",
        "0,0,0",
    ]);
    no_panic(&pop);
    assert_eq!(pop.status.code(), Some(0), "{}", stderr(&pop));
    // `q * q + 1`.
    expect![[r#"
        @pop
          in  %q: [1, 2, 16]
          in  %start: [0, 0, 0]
          out 0: [2, 5, 257]
          out 1: [0, 0, 0]
          firings: 24
    "#]]
    .assert_eq(&stdout(&pop));

    // Names from `resNames` as written (`end` is a Verilog keyword, not a problem here);
    // negative inputs are two's complement at the argument's width.
    let sum = hsir(&[
        "sim",
        &design("designs/loop_kernel.mlir"),
        "--args",
        "5",
        "--args",
        "-3",
        "--args",
        "0",
    ]);
    no_panic(&sum);
    assert_eq!(sum.status.code(), Some(0), "{}", stderr(&sum));
    expect![[r#"
        @sum_loop
          in  %n: [5]
          in  %k: [4294967293]
          in  %start: [0]
          out sum: [4294967266]
          out end: [0]
          firings: 182
    "#]]
    .assert_eq(&stdout(&sum));

    // Memories: the words given, the rest from the seed; the changed memory after.
    let vadd = hsir(&[
        "sim",
        &design("designs/extmemory.mlir"),
        "--args",
        "3",
        "--args",
        "0",
        "--mem",
        "a=1,2,3,4,5,6,7,8",
        "--mem",
        "b=10,20,-30,40,50,60,70,80",
        "--mem",
        "c=0,0,0,0,0,0,0,0",
    ]);
    no_panic(&vadd);
    assert_eq!(vadd.status.code(), Some(0), "{}", stderr(&vadd));
    expect![[r#"
        @vadd
          in  %n: [3]
          in  %start: [0]
          mem a before: [1, 2, 3, 4, 5, 6, 7, 8]
          mem b before: [10, 20, 4294967266, 40, 50, 60, 70, 80]
          mem c before: [0, 0, 0, 0, 0, 0, 0, 0]
          out done: [0]
          mem c after:  [11, 22, 4294967269, 0, 0, 0, 0, 0]
          firings: 91
    "#]]
    .assert_eq(&stdout(&vadd));
}

#[test]
fn sim_refuses_inputs_that_do_not_fit() {
    let file = design("designs/loop_kernel.mlir");
    let mut messages = String::new();
    for args in [
        &["--args", "5", "--args", "3"][..],
        &["--args", "5", "--args", "3", "--args", "0", "--args", "0"],
        &["--args", "0x100000000", "--args", "3", "--args", "0"],
        &["--args", "1,two", "--args", "3", "--args", "0"],
    ] {
        let mut all = vec!["sim", file.as_str()];
        all.extend(args);
        let output = hsir(&all);
        no_panic(&output);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert_eq!(stdout(&output), "");
        messages.push_str(&stderr(&output));
    }
    let vadd = design("designs/extmemory.mlir");
    for mem in ["z=1", "a=1,2,3,4,5,6,7,8,9", "a", "a=0x100000000"] {
        let output = hsir(&["sim", &vadd, "--mem", mem]);
        no_panic(&output);
        assert_eq!(output.status.code(), Some(2), "{mem}");
        messages.push_str(&stderr(&output));
    }
    let output = hsir(&["sim", &file, "--top", "nosuch"]);
    assert_eq!(output.status.code(), Some(2));
    messages.push_str(&stderr(&output));
    expect![[r#"
        error: `@sum_loop` takes 3 channel arguments (%n, %k, %start); --args was given 2 times
        error: `@sum_loop` takes 3 channel arguments (%n, %k, %start); --args was given 4 times
        error: --args for `%n`: `0x100000000` does not fit in 32 bits
        error: --args for `%n`: `two` is not an integer
        error: `--mem z=1`: `@vadd` has no memory `z` (it has ["a", "b", "c"])
        error: --mem a: 9 words given; it has 8
        error: `--mem a` must be NAME=1,2,3
        error: --mem a: `0x100000000` does not fit in 32 bits
        error[HS5005]: no function to run named `nosuch`; the file has @sum_loop
    "#]]
    .assert_eq(&messages);
}

#[test]
fn sim_shows_the_token_the_raw_will_continue_bug_leaves() {
    let output = hsir(&["sim", "backend/test_data/designs/raw_bug.mlir", "--top", "fill_raw_bug"]);
    no_panic(&output);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.lines().any(|l| l == "  left: 1 token left on the control of `store` (`%tick`)"),
        "{text}"
    );
    expect_file!["snapshots/sim_fill_raw_bug.txt"].assert_eq(&text);
    // The correct kernel leaves nothing.
    let fixed = hsir(&["sim", "backend/test_data/designs/raw_bug.mlir", "--top", "kernel"]);
    assert_eq!(fixed.status.code(), Some(0));
    assert!(!stdout(&fixed).contains("left:"), "{}", stdout(&fixed));
}

#[test]
fn a_reader_that_goes_away_is_not_a_panic() {
    // `hsir sim ... | head -1`: the pipe closes before (or while) the report is written.
    for args in [
        vec!["sim", "examples/kernel.mlir"],
        vec!["sim", "backend/test_data/designs/extmemory.mlir"],
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hsir"))
            .args(&args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(output.status.code(), Some(0), "{stderr}");
    }
}

/// `hsir rtl` refuses what `hsir check` reports as an error in the design, dataflow lint errors
/// included (HS5010, with the lint errors after it), unless `--allow-lint-errors` asks for the
/// hardware anyway; functions the top does not reach do not stop it.
#[test]
fn lint_errors_stop_rtl_unless_allowed() {
    let out = scratch("lint-errors");
    let out_arg = out.display().to_string();
    let refused = hsir(&[
        "rtl",
        "backend/test_data/designs/raw_bug.mlir",
        "--top",
        "fill_raw_bug",
        "-o",
        &out_arg,
    ]);
    assert_eq!(refused.status.code(), Some(1), "{}", stderr(&refused));
    let message = stderr(&refused);
    assert!(
        message.contains("error[HS5010]: `@fill_raw_bug` has 2 dataflow lint errors"),
        "{message}"
    );
    assert!(message.contains("error[HS3003]"), "{message}");
    assert!(!out.join("fill_raw_bug.v").exists());

    let allowed = hsir(&[
        "rtl",
        "backend/test_data/designs/raw_bug.mlir",
        "--top",
        "fill_raw_bug",
        "-o",
        &out_arg,
        "--allow-lint-errors",
    ]);
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr(&allowed));
    assert!(out.join("fill_raw_bug.v").exists());

    // The correct kernel of the same file has no lint error of its own.
    let correct =
        hsir(&["rtl", "backend/test_data/designs/raw_bug.mlir", "--top", "kernel", "-o", &out_arg]);
    assert_eq!(correct.status.code(), Some(0), "{}", stderr(&correct));
}

/// `hsir sim --cycles`: the cycle-level run after the untimed one. The DVR loop, which the
/// untimed interpreter completes, deadlocks (HS5011, exit status 1); with a FIFO on its back
/// edge it completes, with a cycle count.
#[test]
fn sim_cycles_reports_the_deadlock_the_interpreter_cannot_see() {
    let file = "backend/test_data/capacity/dvr_loop.mlir";
    let dvr = hsir(&["sim", file, "--top", "dvr_loop", "--cycles"]);
    no_panic(&dvr);
    assert_eq!(dvr.status.code(), Some(1), "{}", stderr(&dvr));
    let text = stdout(&dvr);
    assert!(text.contains("  out out0: ["), "{text}");
    assert!(
        text.contains("  deadlock: error[HS5011] at 22:8: after 2 cycles, the cycle `%m` -> `%f#0` -> `%c` -> `%t` -> `%back` -> `%m` holds 2 tokens and has 2 slots"),
        "{text}"
    );
    let fifo = hsir(&["sim", file, "--top", "fifo_loop", "--cycles"]);
    assert_eq!(fifo.status.code(), Some(0), "{}", stderr(&fifo));
    let text = stdout(&fifo);
    let cycles = text.lines().find_map(|l| l.strip_prefix("  cycles: ")).unwrap_or_default();
    assert!(cycles.split(' ').next().unwrap().parse::<u64>().is_ok_and(|n| n > 10), "{text}");
    // Outside the model (a memory): said, not judged.
    let memory = hsir(&["sim", "backend/test_data/designs/extmemory.mlir", "--cycles"]);
    assert_eq!(memory.status.code(), Some(0), "{}", stderr(&memory));
    assert!(stdout(&memory).contains("  cycles: not modelled: "), "{}", stdout(&memory));
}

/// A function with no buffers and open cycles: `hsir check` gives a remark and succeeds,
/// `hsir rtl` refuses it (HS5010 with HS2023) and says how to place buffers.
#[test]
fn rtl_refuses_a_function_before_buffer_placement() {
    let file = "backend/test_data/placement/sum_loop.mlir";
    let check = hsir(&["check", file]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    assert!(stdout(&check).contains("HS2023"), "{}", stdout(&check));
    let out = std::env::temp_dir().join(format!("hsir-unplaced-{}", std::process::id()));
    let out_arg = out.display().to_string();
    let rtl = hsir(&["rtl", file, "-o", &out_arg]);
    no_panic(&rtl);
    assert_eq!(rtl.status.code(), Some(1));
    let message = stderr(&rtl);
    assert!(message.contains("error[HS5010]") && message.contains("error[HS2023]"), "{message}");
    assert!(message.contains("`hsir buffers FILE --in-place`"), "{message}");
    assert!(!out.exists(), "nothing is written");
    let allowed = hsir(&["rtl", file, "-o", &out_arg, "--allow-lint-errors"]);
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr(&allowed));
    let _ = std::fs::remove_dir_all(&out);
}
