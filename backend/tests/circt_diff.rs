//! The differential test against CIRCT: every design of `test_data/circt/` is lowered by CIRCT's
//! Python wheel (`pip install circt`, the pass pipeline in `circt_lower.py`) and by hsir, and
//! the same testbench (hsir's, with the interpreter's expected tokens, random valid and ready
//! stalls) runs on both in iverilog. Both must pass, so both give the interpreter's tokens.
//!
//! A design whose first lines say `// circt-known-bug: <what>` records a bug of the wheel the
//! test found: hsir must pass and CIRCT's RTL must fail there, so that a wheel that fixes it
//! shows up here.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{mlir_files, run_parallel, simulate, Generated};
use hsir_backend::rtl::TestbenchOptions;
use hsir_backend::{netlist, Program};

/// CIRCT's Verilog for `path`, its top module renamed `circt_<top>`.
fn circt_verilog(path: &Path, top: &str, dir: &Path) -> Result<PathBuf, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/circt_lower.py");
    let out = dir.join("circt.sv");
    let run = Command::new("python3")
        .arg(&script)
        .arg(path)
        .arg(&out)
        .output()
        .map_err(|e| format!("cannot run python3: {e}"))?;
    let stderr = String::from_utf8_lossy(&run.stderr);
    match run.status.code() {
        Some(0) => {}
        Some(2) => panic!("{stderr}(the differential test needs CIRCT's wheel: pip install circt)"),
        _ => return Err(format!("CIRCT's lowering failed:\n{stderr}")),
    }
    let text = std::fs::read_to_string(&out).unwrap();
    let renamed = text.replacen(&format!("module {top}("), &format!("module circt_{top}("), 1);
    assert_ne!(text, renamed, "CIRCT's output has no module `{top}`");
    std::fs::write(&out, renamed).unwrap();
    Ok(out)
}

/// A module with hsir's ports (`x_data`, `clk`, `rst`) around CIRCT's (`x`, `clock`, `reset`).
fn wrapper(module: &netlist::Module) -> String {
    let mut ports = vec!["input clk".to_string(), "input rst".to_string()];
    let mut conns = vec![".clock(clk)".to_string(), ".reset(rst)".to_string()];
    for p in &module.inputs {
        if !p.shape.control {
            ports.push(format!("input [{}:0] {}_data", p.shape.bits() - 1, p.name));
            conns.push(format!(".{0}({0}_data)", p.name));
        }
        ports.push(format!("input {}_valid", p.name));
        ports.push(format!("output {}_ready", p.name));
        conns.push(format!(".{0}_valid({0}_valid)", p.name));
        conns.push(format!(".{0}_ready({0}_ready)", p.name));
    }
    for p in &module.outputs {
        if !p.shape.control {
            ports.push(format!("output [{}:0] {}_data", p.shape.bits() - 1, p.name));
            conns.push(format!(".{0}({0}_data)", p.name));
        }
        ports.push(format!("output {}_valid", p.name));
        ports.push(format!("input {}_ready", p.name));
        conns.push(format!(".{0}_valid({0}_valid)", p.name));
        conns.push(format!(".{0}_ready({0}_ready)", p.name));
    }
    let mut out = String::new();
    let _ = writeln!(out, "module {} (\n  {}\n);", module.name, ports.join(",\n  "));
    let _ = writeln!(out, "  circt_{} inner (\n    {}\n  );", module.name, conns.join(",\n    "));
    let _ = writeln!(out, "endmodule");
    out
}

#[test]
fn circt_and_hsir_give_the_interpreters_tokens() {
    let designs = mlir_files("test_data/circt");
    let agreeing = designs
        .iter()
        .filter(|p| !std::fs::read_to_string(p).unwrap().contains("// circt-known-bug:"))
        .count();
    assert!(
        agreeing >= 3,
        "the differential test needs at least three designs both tools get right"
    );
    let mut jobs = Vec::new();
    for path in designs {
        for seed in [1, 2] {
            jobs.push((path.clone(), seed));
        }
    }
    let failures = run_parallel(jobs, |(path, seed)| {
        let name = format!("{} (seed {seed})", path.display());
        let text = std::fs::read(&path).unwrap();
        let (parse, _) = hsir_analysis::parse_bytes(&text);
        let program = Program::new(&parse).map_err(|e| format!("{name}: {e:?}"))?;
        let top = program.default_top().expect("a function").name.clone();
        // hsir's RTL, with its full testbench.
        let ours = Generated::with(
            &path,
            &top,
            TestbenchOptions { tokens: None, seed, probe_leftovers: true },
        )
        .map_err(|e| format!("{name}: {e}"))?;
        let out = simulate(&ours).map_err(|e| format!("{name}: hsir: {e}"))?;
        if !out.contains("hsir-tb: PASS") {
            return Err(format!("{name}: hsir's RTL failed:\n{out}"));
        }
        // CIRCT's RTL under the same testbench, without the probes of hsir's internal wires.
        let theirs = Generated::with(
            &path,
            &top,
            TestbenchOptions { tokens: None, seed, probe_leftovers: false },
        )
        .map_err(|e| format!("{name}: {e}"))?;
        let source = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let known_bug = source
            .lines()
            .take_while(|l| l.starts_with("//"))
            .any(|l| l.starts_with("// circt-known-bug:"));
        let circt = match circt_verilog(&path, &top, &theirs.dir) {
            Ok(circt) => circt,
            // The bug may be that CIRCT's lowering fails.
            Err(_) if known_bug => return Ok(()),
            Err(e) => return Err(format!("{name}: {e}")),
        };
        let lowered = netlist::lower(&program, &top);
        let module = lowered.netlist.as_ref().expect("hsir lowered it above").top().clone();
        let wrap = theirs.dir.join("wrapper.v");
        std::fs::write(&wrap, wrapper(&module)).unwrap();
        let tb =
            theirs.files.iter().find(|f| f.to_string_lossy().ends_with("_tb.v")).unwrap().clone();
        let sim = theirs.dir.join("circt.vvp");
        let compile = Command::new("iverilog")
            .args(["-g2012", "-o"])
            .arg(&sim)
            .args([&circt, &wrap, &tb])
            .output()
            .map_err(|e| format!("{name}: iverilog: {e}"))?;
        if !compile.status.success() {
            return Err(format!(
                "{name}: iverilog on CIRCT's RTL:\n{}",
                String::from_utf8_lossy(&compile.stderr)
            ));
        }
        let run = Command::new("vvp").arg("-n").arg(&sim).output().map_err(|e| e.to_string())?;
        let text = String::from_utf8_lossy(&run.stdout);
        match (text.contains("hsir-tb: PASS"), known_bug) {
            (true, false) | (false, true) => Ok(()),
            (false, false) => Err(format!("{name}: CIRCT's RTL failed hsir's testbench:\n{text}")),
            (true, true) => Err(format!("{name}: CIRCT's RTL now passes: the wheel fixed the bug this design records; drop its `circt-known-bug` line")),
        }
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
