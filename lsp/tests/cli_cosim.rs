//! `hsir cosim` on Dynamatic's kernels: the real binary, the system C compiler and Icarus
//! Verilog. The kernels are read from `../shared/dynamatic-suite`; without it these tests say
//! so and pass. The C compiler and iverilog are required (CI installs them).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::dynamatic_suite as suite;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hsir-cli-cosim-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn hsir(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hsir")).args(args).output().expect("the hsir binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `hsir cosim` on `kernel`'s LEGACY export.
fn cosim(suite: &Path, kernel: &str, extra: &[&str]) -> Output {
    cosim_flow(suite, kernel, "LEGACY", extra)
}

/// `hsir cosim` on `kernel`'s export of `flow` (`LEGACY` or `FTD`).
fn cosim_flow(suite: &Path, kernel: &str, flow: &str, extra: &[&str]) -> Output {
    let ir = suite.join(format!("ir/{kernel}_{flow}__handshake_export.mlir"));
    let c = suite.join(format!("c/{kernel}.c"));
    let mut args = vec!["cosim", ir.to_str().unwrap(), "--c", c.to_str().unwrap()];
    args.extend(extra);
    let output = hsir(&args);
    assert!(!text(&output.stderr).contains("panicked"), "{}", text(&output.stderr));
    output
}

#[test]
fn kernels_the_interpreter_handles_equal_their_c() {
    let Some(suite) = suite() else { return };
    // fir: a return value; bicg: an LSQ; atax_float: float arrays (and a float-to-int return).
    for kernel in ["fir", "bicg", "atax_float"] {
        let output = cosim(&suite, kernel, &[]);
        let out = text(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{kernel}:\n{out}\n{}", text(&output.stderr));
        assert!(out.starts_with(&format!("@{kernel}: PASS\n")), "{out}");
        assert!(out.contains("  interpreter: pass\n") && out.contains("  rtl: pass\n"), "{out}");
        assert!(out.contains("    return: equals C\n"), "{out}");
        let cycles = out.lines().find_map(|l| l.trim().strip_prefix("cycles: ")).unwrap();
        let n: u64 = cycles.split(' ').next().unwrap().parse().unwrap();
        assert!(n > 100, "{kernel}: {n} cycles");
    }
}

/// FTD circuits (loops started from `source` constants, merges keyed by the control-dependence
/// graph) end at `end` and equal C: fir (a return value), matvec (a `mem_controller` whose
/// store count is announced once), kernel_2mm (scalar arguments and five arrays).
#[test]
fn ftd_kernels_equal_their_c() {
    let Some(suite) = suite() else { return };
    for kernel in ["fir", "matvec", "kernel_2mm"] {
        let output = cosim_flow(&suite, kernel, "FTD", &["--format", "json"]);
        assert_eq!(output.status.code(), Some(0), "{kernel}: {}", text(&output.stdout));
        let v: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(v["interpreter"]["verdict"], "pass", "{kernel}: {v}");
        assert_eq!(v["rtl"]["verdict"], "pass", "{kernel}: {v}");
        // matvec's circuit runs on after `end` and writes `out` again, with the values it
        // already had: reported, and no reason to fail.
        for late in v["late_writes"].as_array().unwrap() {
            assert_eq!(late["stale_at_end"], serde_json::json!([]), "{kernel}: {v}");
        }
        // The cycle-level model, before any Verilog, counts the RTL's cycles exactly
        // (memories, mem_controller and the LSQ of kernel_2mm included).
        assert_eq!(v["model"]["verdict"], "completed", "{kernel}: {v}");
        assert_eq!(v["model"]["cycles"], v["cycles"], "{kernel}: {v}");
    }
}

/// Dynamatic's FTD flow gives an LSQ the start token as its end control (HS3029), so the LSQ
/// may say it is done between two groups, and `end` fires before the last stores reach memory.
/// The testbench drains the memories after `end`: the RTL's `s` then equals C, and the writes
/// that landed after `end` are reported, with the elements a caller reading memory at `end`
/// sees stale. The verdict is a failure for "late writes", not "wrong values".
#[test]
fn ftd_lsq_kernels_end_before_their_last_stores() {
    let Some(suite) = suite() else { return };
    let output = cosim_flow(&suite, "bicg", "FTD", &["--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stdout));
    let v: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(v["verdict"], "fail", "{v}");
    assert_eq!(v["reasons"], serde_json::json!(["late writes"]), "{v}");
    assert_eq!(v["interpreter"]["verdict"], "pass", "{v}");
    assert_eq!(v["rtl"]["verdict"], "fail", "{v}");
    assert_eq!(v["rtl"]["reason"], "late writes", "{v}");
    // Every value equals C once the writes landed.
    assert_eq!(v["mismatches"], serde_json::json!([]), "{v}");
    for o in v["rtl"]["outputs"].as_array().unwrap() {
        assert_eq!(o["verdict"], "pass", "{v}");
    }
    let late = v["late_writes"].as_array().unwrap();
    assert_eq!(late.len(), 1, "only `s` is written after `end`: {v}");
    let s = &late[0];
    assert_eq!(s["output"], "s", "{v}");
    let count = s["count"].as_u64().unwrap();
    let first = s["first_cycle_after_end"].as_u64().unwrap();
    let last = s["last_cycle_after_end"].as_u64().unwrap();
    assert!(count >= 1 && first >= 1 && last >= first && last < 100, "{v}");
    // The last rows of the outer loop: s[j] for the final i's updates.
    let stale: Vec<u64> =
        s["stale_at_end"].as_array().unwrap().iter().map(|i| i.as_u64().unwrap()).collect();
    assert!(!stale.is_empty() && stale.iter().all(|&i| (5..10).contains(&i)), "{v}");
    // Memory is final at the last write that changed a stale element, after `end`: the
    // cycles a caller would wait for a correct result.
    let final_after = s["final_cycle_after_end"].as_u64().unwrap();
    assert!(first <= final_after && final_after <= last, "{v}");
    let cycles = v["cycles"].as_u64().unwrap();
    assert_eq!(v["memory_final_cycles"].as_u64(), Some(cycles + final_after), "{v}");
    // The human report says both: equal to C, and which elements were stale at `end`.
    let human = cosim_flow(&suite, "bicg", "FTD", &[]);
    assert_eq!(human.status.code(), Some(1));
    let out = text(&human.stdout);
    assert!(out.starts_with("@bicg: FAIL\n"), "{out}");
    assert!(
        out.contains("  rtl: fail (late writes: every value equals C once they land)\n"),
        "{out}"
    );
    // The interpreter's `s` line comes first; the RTL's is the last.
    let line = out.lines().rfind(|l| l.trim_start().starts_with("s: ")).unwrap();
    assert!(
        line.contains("s: equals C, but ")
            && line.contains(" after `end` (a caller reading memory when `end` fires sees s["),
        "{line}"
    );
    let memory = format!(
        "  memory final: {} cycles ({final_after} after `end`: the last write that changed an element)\n",
        cycles + final_after
    );
    assert!(out.contains(&memory), "{out}");
}

/// A kernel whose memories are final when `end` fires reports no late writes.
#[test]
fn a_kernel_final_at_end_reports_no_late_writes() {
    let Some(suite) = suite() else { return };
    let output = cosim(&suite, "bicg", &["--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    let v: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(v["late_writes"], serde_json::json!([]), "{v}");
    assert_eq!(v["reasons"], serde_json::json!([]), "{v}");
    assert_eq!(v["rtl"]["reason"], serde_json::Value::Null, "{v}");
    // Its last store lands before `end`, which waits for it.
    let cycles = v["cycles"].as_u64().unwrap();
    let last = v["memory_final_cycles"].as_u64().unwrap();
    assert!(last > 0 && last <= cycles, "{v}");
    let human = text(&cosim(&suite, "fir", &[]).stdout);
    assert!(!human.contains("after `end`"), "{human}");
}

#[test]
fn json_has_the_verdict_per_side_and_the_cycles() {
    let Some(suite) = suite() else { return };
    let output = cosim(&suite, "gcd", &["--format", "json"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let v: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(v["verdict"], "pass");
    assert_eq!(v["function"], "gcd");
    assert!(v["cycles"].as_u64().unwrap() > 0);
    // The model's verdict on C's inputs (gcd's loop count depends on them), beside the RTL's.
    assert_eq!(v["model"], serde_json::json!({ "verdict": "completed", "cycles": v["cycles"] }));
    assert_eq!(v["interpreter"]["verdict"], "pass");
    assert_eq!(v["rtl"]["verdict"], "pass");
    assert_eq!(v["rtl"]["outputs"][0]["name"], "return");
    assert_eq!(v["mismatches"], serde_json::json!([]));
    // gcd writes no memory.
    assert_eq!(v["memory_final_cycles"], serde_json::Value::Null);
    // JSON mode prints nothing else on stdout, and no progress on stderr.
    assert_eq!(text(&output.stderr), "");
}

#[test]
fn an_altered_kernel_fails_naming_the_element() {
    let Some(suite) = suite() else { return };
    let dir = scratch("altered");
    // bicg's `s[j] = s[j] + r[i] * val`, made a subtraction.
    let ir = std::fs::read_to_string(suite.join("ir/bicg_LEGACY__handshake_export.mlir")).unwrap();
    let from = "= addi %dataResult_9, %81";
    assert!(ir.contains(from));
    let altered = dir.join("bicg.mlir");
    std::fs::write(&altered, ir.replace(from, "= subi %dataResult_9, %81")).unwrap();
    let c = suite.join("c/bicg.c");
    let output =
        hsir(&["cosim", altered.to_str().unwrap(), "--c", c.to_str().unwrap(), "--format", "json"]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let v: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(v["verdict"], "fail");
    for side in ["interpreter", "rtl"] {
        assert_eq!(v[side]["verdict"], "fail", "{v}");
        let s = v[side]["outputs"].as_array().unwrap().iter().find(|o| o["name"] == "s").unwrap();
        assert_eq!(s["verdict"], "fail");
        assert_eq!(s["elements"], 10);
        let q = v[side]["outputs"].as_array().unwrap().iter().find(|o| o["name"] == "a").unwrap();
        assert_eq!(q["verdict"], "pass", "an input array is unchanged");
    }
    let first = &v["mismatches"][0];
    assert_eq!(
        (first["side"].as_str(), first["output"].as_str(), first["index"].as_u64()),
        (Some("interpreter"), Some("s"), Some(0))
    );
    assert_ne!(first["got"], first["expected"]);
    // The human report names the element: `s[0]: got X, C says Y`.
    let human = hsir(&["cosim", altered.to_str().unwrap(), "--c", c.to_str().unwrap()]);
    assert_eq!(human.status.code(), Some(1));
    let out = text(&human.stdout);
    assert!(out.starts_with("@bicg: FAIL\n"), "{out}");
    let line = out.lines().find(|l| l.trim_start().starts_with("s[0]: got ")).unwrap();
    assert!(line.contains(", C says "), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_compiler_is_a_usage_error_naming_it() {
    let Some(suite) = suite() else { return };
    let output = cosim(&suite, "gcd", &["--cc", "/nonexistent/cc"]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(text(&output.stdout), "");
    let err = text(&output.stderr);
    assert!(err.contains("the C compiler: `/nonexistent/cc` was not found"), "{err}");
    let simulator = cosim(&suite, "gcd", &["--simulator", "modelsim"]);
    assert_eq!(simulator.status.code(), Some(2));
    assert!(text(&simulator.stderr).contains("`iverilog` or `verilator`"));
}

#[test]
fn kept_files_rerun_with_the_inputs_file_and_are_never_replaced_if_foreign() {
    let Some(suite) = suite() else { return };
    let dir = scratch("kept");
    let out = dir.join("out");
    let output = cosim(&suite, "fir", &["-o", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    for name in [
        "dynamatic/Integration.h",
        "inputs.txt",
        "c_run.txt",
        "fir.v",
        "fir_tb.v",
        "files.f",
        "rtl_sim.log",
    ] {
        assert!(out.join(name).is_file(), "{name} kept");
    }
    // The temporary folder is gone; only `-o` keeps files.
    // The inputs file reruns the interpreter on C's inputs: `fir` returns C's value.
    let inputs = std::fs::read_to_string(out.join("inputs.txt")).unwrap();
    assert!(inputs.contains("\ntokens = 1\n") && inputs.contains("\ndi = "), "{inputs}");
    let ir = suite.join("ir/fir_LEGACY__handshake_export.mlir");
    let sim =
        hsir(&["sim", ir.to_str().unwrap(), "--inputs", out.join("inputs.txt").to_str().unwrap()]);
    assert_eq!(sim.status.code(), Some(0), "{}", text(&sim.stderr));
    let report = text(&output.stdout);
    assert!(report.contains("return: equals C"));
    // The C program's return value, from its record, is what the rerun prints.
    let record = std::fs::read_to_string(out.join("c_run.txt")).unwrap();
    let ret = record.lines().find_map(|l| l.strip_prefix("ret 0 4 ")).unwrap();
    let bytes: Vec<u8> =
        (0..4).map(|k| u8::from_str_radix(&ret[2 * k..2 * k + 2], 16).unwrap()).collect();
    let value = u32::from_le_bytes(bytes.try_into().unwrap());
    assert!(text(&sim.stdout).contains(&format!("out out0: [{value}]")), "{}", text(&sim.stdout));
    // The same inputs drive `hsir rtl --testbench` (checked against the interpreter).
    let rtl = dir.join("rtl");
    let generated = hsir(&[
        "rtl",
        ir.to_str().unwrap(),
        "-o",
        rtl.to_str().unwrap(),
        "--testbench",
        "--inputs",
        out.join("inputs.txt").to_str().unwrap(),
    ]);
    assert_eq!(generated.status.code(), Some(0), "{}", text(&generated.stderr));
    let di0: u32 = inputs
        .lines()
        .find_map(|l| l.strip_prefix("di = "))
        .and_then(|l| l.split(',').next())
        .and_then(|v| v.trim().parse().ok())
        .unwrap();
    let bench = std::fs::read_to_string(rtl.join("fir_tb.v")).unwrap();
    assert!(bench.contains(&format!("_words[0] = 32'h{di0:x};")), "C's first `di` word");
    let vvp = dir.join("sim.vvp");
    let compile = Command::new("iverilog")
        .args(["-g2012", "-o"])
        .arg(&vvp)
        .arg("-c")
        .arg(rtl.join("files.f"))
        .output()
        .expect("iverilog is installed");
    assert!(compile.status.success(), "{}", text(&compile.stderr));
    let run = Command::new("vvp").arg("-n").arg(&vvp).output().expect("vvp runs");
    assert!(text(&run.stdout).contains("hsir-tb: PASS"), "{}", text(&run.stdout));
    // A file the user changed since hsir wrote it is not replaced.
    std::fs::write(out.join("inputs.txt"), "mine\n").unwrap();
    let again = cosim(&suite, "fir", &["-o", out.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        text(&again.stderr).contains("inputs.txt` was written by hsir but has changed since"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(std::fs::read_to_string(out.join("inputs.txt")).unwrap(), "mine\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ir_errors_that_stop_the_rtl_are_a_usage_error_with_their_diagnostics() {
    // Needs no kernel of the suite: the IR is refused before any C is compiled.
    let dir = scratch("ir-errors");
    let ir = dir.join("bad.mlir");
    std::fs::write(
        &ir,
        "handshake.func @k(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = [\"a\", \"start\"], resNames = [\"out0\", \"end\"]} {\n  end %nowhere, %start : <i32>, <>\n}\n",
    )
    .unwrap();
    let c = dir.join("k.c");
    std::fs::write(&c, "int main(void) { return 0; }\n").unwrap();
    let output = hsir(&["cosim", ir.to_str().unwrap(), "--c", c.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let err = text(&output.stderr);
    assert!(err.contains("bad.mlir:2:") && err.contains("error[HS1"), "{err}");
    assert!(err.contains("no RTL: ") && err.contains("has errors that stop it"), "{err}");
    assert!(!err.contains("compiling the C program"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_deadlocked_rtl_is_reported_as_such_within_a_few_thousand_cycles() {
    // Needs no kernel of the suite: `out0` takes the false side of `a == a`, so it never comes.
    let dir = scratch("deadlock");
    let ir = dir.join("k.mlir");
    std::fs::write(
        &ir,
        "handshake.func @k(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = [\"a\", \"start\"], resNames = [\"out0\", \"end\"]} {
  %0:3 = fork [3] %a : <i32>
  %c = cmpi eq, %0#0, %0#1 : <i32>
  %t, %f = cond_br %c, %0#2 : <i1>, <i32>
  sink %t : <i32>
  end %f, %start : <i32>, <>
}
",
    )
    .unwrap();
    let c = dir.join("k.c");
    std::fs::write(
        &c,
        "#include \"dynamatic/Integration.h\"\nint k(int a) { return a; }\nint main(void) { int a = -5; CALL_KERNEL(k, a); return 0; }\n",
    )
    .unwrap();
    let output = hsir(&["cosim", ir.to_str().unwrap(), "--c", c.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let out = text(&output.stdout);
    assert!(out.contains("    return: got nothing, C says -5\n"), "{out}");
    let line = out.lines().find(|l| l.contains("deadlock: nothing moved for ")).unwrap();
    assert!(line.contains("missing: output `out0` sent 0 of 1 tokens"), "{line}");
    let cycle: u64 =
        line.split("(cycle ").nth(1).unwrap().split(')').next().unwrap().parse().unwrap();
    assert!(cycle < 3000, "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}
