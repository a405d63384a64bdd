//! Co-simulation's IO, shared by `hsir cosim` and the `hsir.cosim` command: writes the
//! `Integration.h` stand-in, compiles and runs the C program, runs the interpreter, writes the
//! RTL and its testbench, runs the simulator, and compares (`hsir_backend::cosim`). Every
//! outside program runs under a time limit and can be cancelled.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hsir_analysis::Diagnostic;
use hsir_backend::cosim::{self, CRun, Side};
use hsir_backend::rtl::{self, Options};
use hsir_backend::{sim, Program};
use serde_json::{json, Value};

use crate::cli::rtl::{write_all, write_plain};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Simulator {
    #[default]
    Iverilog,
    Verilator,
}

impl Simulator {
    pub fn parse(text: &str) -> Option<Simulator> {
        match text {
            "iverilog" | "icarus" => Some(Simulator::Iverilog),
            "verilator" => Some(Simulator::Verilator),
            _ => None,
        }
    }
}

/// What to co-simulate.
#[derive(Debug, Clone)]
pub struct Request {
    /// The IR file's name, for messages, and its bytes (the editor's text, unsaved edits too).
    pub ir_name: String,
    pub ir: Vec<u8>,
    pub c_file: PathBuf,
    pub top: Option<String>,
    pub simulator: Simulator,
    /// The C compiler: `--cc`, else `$CC`, else `cc`.
    pub cc: String,
    /// Keep the files here (never replacing files hsir did not write); else a temporary folder
    /// removed at the end.
    pub out: Option<PathBuf>,
    pub limits: Limits,
    /// The interpreter gives up after this many firings.
    pub max_firings: u64,
}

/// The interpreter's default limit: hundreds of times what the suite's kernels need.
pub const MAX_FIRINGS: u64 = 20_000_000;

/// Time limits of the outside programs.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub compile: Duration,
    pub run_c: Duration,
    pub simulate: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            compile: Duration::from_secs(300),
            run_c: Duration::from_secs(60),
            simulate: Duration::from_secs(600),
        }
    }
}

/// The steps, as progress reports name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    CompileC,
    RunC,
    Interpreter,
    CompileRtl,
    SimulateRtl,
}

impl Stage {
    pub fn describe(self) -> &'static str {
        match self {
            Stage::CompileC => "compiling the C program",
            Stage::RunC => "running the C program",
            Stage::Interpreter => "running the interpreter",
            Stage::CompileRtl => "compiling the RTL",
            Stage::SimulateRtl => "simulating the RTL",
        }
    }
}

/// Why there is no verdict.
#[derive(Debug)]
pub enum Error {
    /// A usage or IO problem, a missing compiler or simulator, a C program that fails.
    Usage(String),
    /// The IR has errors that stop the RTL (the message names the file; the diagnostics say
    /// where).
    Ir {
        message: String,
        diagnostics: Vec<Diagnostic>,
        text: String,
    },
    Cancelled,
}

impl Error {
    pub fn message(&self) -> String {
        match self {
            Error::Usage(m) => m.clone(),
            Error::Ir { message, diagnostics, .. } => {
                let first = diagnostics
                    .iter()
                    .find(|d| d.severity == hsir_analysis::Severity::Error)
                    .or(diagnostics.first());
                match first {
                    Some(d) => format!("{message}: {}: {}", d.code.code(), d.message),
                    None => message.clone(),
                }
            }
            Error::Cancelled => "cancelled".into(),
        }
    }
}

/// The verdict.
#[derive(Debug, Clone)]
pub struct Report {
    pub func: String,
    pub interpreter: Side,
    pub rtl: Side,
    /// The RTL's cycles from the first input token accepted to the last output token.
    pub cycles: Option<u64>,
    /// The RTL's cycles to the last write before `end` that changed a word.
    pub last_change: Option<u64>,
    /// The cycle-level model's verdict on the same inputs (`hsir_backend::capacity`), before
    /// any Verilog: `None` when the interpreter failed.
    pub model: Option<hsir_backend::capacity::Verdict>,
    /// Where the files were kept (`-o`).
    pub folder: Option<PathBuf>,
    /// The outputs compared, for the report: `return` and each array.
    pub notes: Vec<String>,
}

impl Report {
    /// Cycles until every array holds its final values: `end`, or the last write after it that
    /// changed an element (a circuit whose `end` comes before its memory is final).
    pub fn memory_final(&self) -> Option<u64> {
        cosim::memory_final(self.cycles?, self.last_change, &self.rtl.late_writes)
    }

    pub fn pass(&self) -> bool {
        self.interpreter.pass() && self.rtl.pass()
    }

    pub fn to_json(&self) -> Value {
        let side = |s: &Side| {
            json!({
                "verdict": if s.pass() { "pass" } else { "fail" },
                "reason": s.reason(),
                "outputs": s.outputs.iter().map(|o| json!({
                    "name": o.name,
                    "verdict": if o.pass { "pass" } else { "fail" },
                    "mismatches": o.mismatches,
                    "elements": o.elements,
                })).collect::<Vec<_>>(),
                "error": s.error,
            })
        };
        let mismatches: Vec<Value> = [("interpreter", &self.interpreter), ("rtl", &self.rtl)]
            .iter()
            .flat_map(|(name, s)| {
                s.mismatches.iter().map(move |m| {
                    json!({
                        "side": name,
                        "output": m.output,
                        "index": m.index,
                        "got": m.got,
                        "expected": m.expected,
                    })
                })
            })
            .collect();
        let late_writes: Vec<Value> = self
            .rtl
            .late_writes
            .iter()
            .map(|l| {
                json!({
                    "output": l.output,
                    "count": l.count,
                    "first_cycle_after_end": l.first_after,
                    "last_cycle_after_end": l.last_after,
                    "stale_at_end": l.stale,
                    "final_cycle_after_end": l.final_after,
                })
            })
            .collect();
        let reasons: Vec<&str> =
            [&self.interpreter, &self.rtl].iter().filter_map(|s| s.reason()).collect();
        json!({
            "function": self.func,
            "verdict": if self.pass() { "pass" } else { "fail" },
            "reasons": reasons,
            "cycles": self.cycles,
            "memory_final_cycles": self.memory_final(),
            "late_writes": late_writes,
            "model": self.model.as_ref().map(model_json),
            "interpreter": side(&self.interpreter),
            "rtl": side(&self.rtl),
            "mismatches": mismatches,
            "folder": self.folder.as_ref().map(|f| f.display().to_string()),
            "notes": self.notes,
        })
    }

    /// The human report.
    pub fn to_text(&self) -> String {
        let mut out = format!("@{}: {}\n", self.func, if self.pass() { "PASS" } else { "FAIL" });
        for (name, side) in [("interpreter", &self.interpreter), ("rtl", &self.rtl)] {
            let verdict = match side.reason() {
                None => "pass".to_string(),
                Some(reason @ "late writes") => {
                    format!("fail ({reason}: every value equals C once they land)")
                }
                Some(reason) => format!("fail ({reason})"),
            };
            out.push_str(&format!("  {name}: {verdict}\n"));
            if let Some(e) = &side.error {
                out.push_str(&format!("    {e}\n"));
            }
            for o in &side.outputs {
                let late = side.late_writes.iter().find(|l| l.output == o.name);
                let verdict = match (o.pass, late) {
                    (true, None) => "equals C".to_string(),
                    (true, Some(l)) if l.stale_at_end() => {
                        format!("equals C, but {}", l.describe())
                    }
                    (true, Some(l)) => format!("equals C; {}", l.describe()),
                    (false, None) => format!("{} of {} elements differ", o.mismatches, o.elements),
                    (false, Some(l)) => format!(
                        "{} of {} elements differ, and {}",
                        o.mismatches,
                        o.elements,
                        l.describe()
                    ),
                };
                out.push_str(&format!("    {}: {verdict}\n", o.name));
            }
            for m in &side.mismatches {
                out.push_str(&format!("    {}\n", m.describe()));
            }
        }
        if let Some(c) = self.cycles {
            out.push_str(&format!("  cycles: {c} (RTL, first input token to `end`)\n"));
            match self.memory_final() {
                Some(last) if last > c => out.push_str(&format!(
                    "  memory final: {last} cycles ({} after `end`: the last write that changed an element)\n",
                    last - c
                )),
                Some(last) => out.push_str(&format!(
                    "  memory final: {last} cycles (the last write that changed an element)\n"
                )),
                None => {}
            }
        }
        if let Some(model) = &self.model {
            use hsir_backend::capacity::Verdict;
            let text = match model {
                Verdict::Completed { cycles } => format!("{cycles} cycles"),
                Verdict::Deadlock(d) => format!("deadlock after {} cycles: {}", d.cycle, d.message),
                Verdict::NotModeled { why, .. } => format!("not modelled: it {why}"),
                Verdict::Limit { cycles } => format!("still running after {cycles} cycles"),
            };
            out.push_str(&format!("  model: {text} (the cycle-level model, before Verilog)\n"));
        }
        for note in &self.notes {
            out.push_str(&format!("  note: {note}\n"));
        }
        if let Some(f) = &self.folder {
            out.push_str(&format!("  files kept in {}\n", f.display()));
        }
        out
    }
}

/// The folder the work happens in: removed at the end when temporary.
struct Work {
    dir: PathBuf,
    temporary: bool,
}

impl Drop for Work {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

static WORK_FOLDERS: AtomicU64 = AtomicU64::new(0);

fn temporary_folder() -> Result<Work, Error> {
    let n = WORK_FOLDERS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("hsir-cosim-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| {
        Error::Usage(format!("cannot create the work folder `{}`: {e}", dir.display()))
    })?;
    Ok(Work { dir, temporary: true })
}

/// What an outside program did.
struct Ran {
    status: ExitStatus,
    stdout: String,
    stderr: String,
}

/// Runs `command` with its output in files of `scratch`, killing it (and what it started) past
/// `limit` or when `cancel` is set.
fn run_program(
    what: &str,
    command: &mut Command,
    scratch: &Path,
    limit: Duration,
    cancel: &AtomicBool,
    missing_hint: &str,
) -> Result<Ran, Error> {
    use std::os::unix::process::CommandExt;
    let program = command.get_program().to_string_lossy().into_owned();
    let n = WORK_FOLDERS.fetch_add(1, Ordering::Relaxed);
    let out_path = scratch.join(format!("stdout-{n}.txt"));
    let err_path = scratch.join(format!("stderr-{n}.txt"));
    let io = |e: std::io::Error| Error::Usage(format!("cannot run {what}: {e}"));
    let stdout = std::fs::File::create(&out_path).map_err(io)?;
    let stderr = std::fs::File::create(&err_path).map_err(io)?;
    command.stdin(Stdio::null()).stdout(stdout).stderr(stderr).process_group(0);
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::Usage(format!("{what}: `{program}` was not found; {missing_hint}")));
        }
        Err(e) => return Err(Error::Usage(format!("cannot run `{program}` ({what}): {e}"))),
    };
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => {}
            Err(e) => return Err(Error::Usage(format!("waiting for `{program}`: {e}"))),
        }
        let cancelled = cancel.load(Ordering::Relaxed);
        if cancelled || start.elapsed() > limit {
            // The whole group: a compiler's or Verilator's make's children too.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .stderr(Stdio::null())
                .status();
            let _ = child.kill();
            let _ = child.wait();
            if cancelled {
                return Err(Error::Cancelled);
            }
            return Err(Error::Usage(format!(
                "{what} took longer than {} s and was stopped",
                limit.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(if start.elapsed().as_secs() < 2 {
            5
        } else {
            50
        }));
    };
    let read = |p: &Path| std::fs::read(p).map(|b| String::from_utf8_lossy(&b).into_owned());
    Ok(Ran {
        status,
        stdout: read(&out_path).unwrap_or_default(),
        stderr: read(&err_path).unwrap_or_default(),
    })
}

/// The last lines of a program's messages, to quote.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(15);
    lines[start..].join("\n")
}

/// Runs the co-simulation; `progress` hears each stage as it starts.
pub fn run(
    request: &Request,
    progress: &dyn Fn(Stage),
    cancel: &AtomicBool,
) -> Result<Report, Error> {
    let check = || if cancel.load(Ordering::Relaxed) { Err(Error::Cancelled) } else { Ok(()) };
    let c_source = std::fs::canonicalize(&request.c_file).map_err(|e| {
        Error::Usage(format!("cannot read the C file `{}`: {e}", request.c_file.display()))
    })?;
    // The IR: the function, what C passes it, the RTL.
    let (parse, _) = hsir_analysis::parse_bytes(&request.ir);
    let text = parse.tree().text().to_string();
    let program = Program::from_parse(parse);
    let func = match &request.top {
        Some(top) => program.func(top.trim_start_matches('@')),
        None => program.default_top(),
    };
    let Some(func) = func.filter(|f| !f.external) else {
        let known: Vec<String> =
            program.funcs.iter().filter(|f| !f.external).map(|f| format!("@{}", f.name)).collect();
        return Err(Error::Usage(format!(
            "no function to co-simulate{} in `{}`; it has {}",
            request.top.as_deref().map_or(String::new(), |t| format!(" named `{t}`")),
            request.ir_name,
            if known.is_empty() { "none".to_string() } else { known.join(", ") }
        )));
    };
    let plan = cosim::plan(func).map_err(|e| Error::Usage(e.to_string()))?;
    // The capacity model runs below on the C program's inputs, and its verdict is reported
    // beside the RTL's rather than stopping it.
    let options =
        Options { top: Some(func.name.clone()), skip_capacity_check: true, ..Options::default() };
    let generated =
        rtl::generate_program(&text, &program, &options).map_err(|diagnostics| Error::Ir {
            message: format!("no RTL: `{}` has errors that stop it", request.ir_name),
            diagnostics,
            text: text.clone(),
        })?;
    let netlist = generated.netlist.as_ref().expect("a handshake.func has a netlist");

    // The folders: scratch (binaries, the record) is always temporary.
    let scratch = temporary_folder()?;
    let keep = request.out.as_ref().map(|dir| Work { dir: dir.clone(), temporary: false });
    let folder = keep.as_ref().unwrap_or(&scratch).dir.clone();
    let header = cosim::header(&plan);
    write_plain(
        &folder.join("dynamatic"),
        &[rtl::File { name: "Integration.h".into(), text: header }],
        false,
    )
    .map_err(|e| Error::Usage(e.to_string()))?;
    let folder = folder
        .canonicalize()
        .map_err(|e| Error::Usage(format!("cannot resolve `{}`: {e}", folder.display())))?;

    // C.
    check()?;
    progress(Stage::CompileC);
    let binary = scratch.dir.join("kernel");
    let mut cc = Command::new(&request.cc);
    cc.args(["-std=gnu11", "-O0", "-ffp-contract=off", "-w"])
        .arg("-I")
        .arg(&folder)
        .arg("-I")
        .arg(c_source.parent().unwrap_or(Path::new(".")))
        .arg(&c_source)
        .arg("-o")
        .arg(&binary)
        .arg("-lm");
    let compiled = run_program(
        "the C compiler",
        &mut cc,
        &scratch.dir,
        request.limits.compile,
        cancel,
        "install gcc or clang, or name one with --cc (or $CC)",
    )?;
    if !compiled.status.success() {
        return Err(Error::Usage(format!(
            "the C compiler `{}` failed on `{}`:\n{}",
            request.cc,
            c_source.display(),
            tail(&compiled.stderr)
        )));
    }
    check()?;
    progress(Stage::RunC);
    let record = scratch.dir.join(cosim::RECORD_FILE);
    let mut kernel = Command::new(&binary);
    kernel.env("HSIR_COSIM_OUT", &record).current_dir(&scratch.dir);
    let ran =
        run_program("the C program", &mut kernel, &scratch.dir, request.limits.run_c, cancel, "")?;
    if !ran.status.success() {
        return Err(Error::Usage(format!(
            "the C program exited with {}:\n{}",
            ran.status,
            tail(&ran.stderr)
        )));
    }
    let recorded = std::fs::read_to_string(&record).map_err(|_| {
        Error::Usage(format!(
            "the C program wrote no record: does `main` in `{}` call CALL_KERNEL({}, ...)?",
            c_source.display(),
            plan.func
        ))
    })?;
    let c_run: CRun =
        cosim::read_record(&plan, &recorded).map_err(|e| Error::Usage(e.to_string()))?;

    // The interpreter.
    check()?;
    progress(Stage::Interpreter);
    let mut notes = Vec::new();
    let mut model = None;
    let interpreter = match sim::run(&program, &func.name, &c_run.inputs, request.max_firings) {
        Ok(outcome) => {
            // The cycle-level model on the same inputs, for its verdict and cycles beside the RTL's.
            let expected: Vec<usize> = outcome.results.iter().map(Vec::len).collect();
            let limit = 10_000 + 64 * outcome.firings;
            model = Some(hsir_backend::capacity::simulate(
                &program,
                &func.name,
                &c_run.inputs,
                &expected,
                limit,
            ));
            if !outcome.races.is_empty() {
                notes.push(format!(
                    "the interpreter's run depends on timing ({} races); the RTL is judged against C alone",
                    outcome.races.len()
                ));
            }
            let results: Vec<Vec<Option<u64>>> =
                outcome.results.iter().map(|r| r.iter().copied().map(Some).collect()).collect();
            let memories = outcome
                .memories
                .iter()
                .map(|(k, v)| (k.clone(), v.iter().copied().map(Some).collect()))
                .collect();
            cosim::compare(&plan, &c_run, &results, &memories)
        }
        Err(e) => Side::failed(format!("the interpreter cannot run `@{}`: {e}", func.name)),
    };

    // The RTL.
    check()?;
    progress(Stage::CompileRtl);
    let stimulus = cosim::stimulus(func, netlist, &c_run.inputs, 50_000_000);
    let mut files = generated.files.clone();
    files.push(rtl::File {
        name: format!("{}_tb.v", generated.top),
        text: hsir_backend::testbench::testbench(netlist, &stimulus),
    });
    let inputs_text = sim::stimulus::write_inputs_file(
        func,
        &c_run.inputs,
        &format!(
            "Generated by hsir cosim: the inputs `{}` gave `@{}`.\nRerun: hsir sim {} --top {} --inputs inputs.txt",
            c_source.display(),
            func.name,
            request.ir_name,
            func.name
        ),
    );
    write_all(&folder, &files, false).map_err(|e| Error::Usage(e.to_string()))?;
    let kept = vec![
        rtl::File { name: "inputs.txt".into(), text: inputs_text },
        rtl::File { name: "c_run.txt".into(), text: recorded.clone() },
    ];
    write_plain(&folder, &kept, false).map_err(|e| Error::Usage(e.to_string()))?;
    let list = folder.join("files.f");
    let sim_output = match request.simulator {
        Simulator::Iverilog => {
            let vvp = scratch.dir.join("sim.vvp");
            let mut compile = Command::new("iverilog");
            compile.args(["-g2012", "-s", "hsir_tb", "-o"]).arg(&vvp).arg("-c").arg(&list);
            let built = run_program(
                "Icarus Verilog",
                &mut compile,
                &scratch.dir,
                request.limits.compile,
                cancel,
                "install iverilog, or choose --simulator verilator",
            )?;
            if !built.status.success() {
                return Err(Error::Usage(format!("iverilog failed:\n{}", tail(&built.stderr))));
            }
            check()?;
            progress(Stage::SimulateRtl);
            let mut vvp_run = Command::new("vvp");
            vvp_run.arg("-n").arg(&vvp).current_dir(&scratch.dir);
            run_program(
                "the RTL simulation (vvp)",
                &mut vvp_run,
                &scratch.dir,
                request.limits.simulate,
                cancel,
                "install iverilog (vvp comes with it)",
            )?
        }
        Simulator::Verilator => {
            let obj = scratch.dir.join("obj_dir");
            let mut compile = Command::new("verilator");
            compile
                .args([
                    "--binary",
                    "--timing",
                    "-Wno-fatal",
                    "-Wno-lint",
                    "-Wno-style",
                    "--top-module",
                    "hsir_tb",
                ])
                .arg("--Mdir")
                .arg(&obj)
                .arg("-f")
                .arg(&list);
            let built = run_program(
                "Verilator",
                &mut compile,
                &scratch.dir,
                request.limits.compile,
                cancel,
                "install verilator (5 or later), or choose --simulator iverilog",
            )?;
            if !built.status.success() {
                return Err(Error::Usage(format!("verilator failed:\n{}", tail(&built.stderr))));
            }
            check()?;
            progress(Stage::SimulateRtl);
            let mut exe = Command::new(obj.join("Vhsir_tb"));
            exe.current_dir(&scratch.dir);
            run_program(
                "the RTL simulation (Verilator)",
                &mut exe,
                &scratch.dir,
                request.limits.simulate,
                cancel,
                "",
            )?
        }
    };
    let log = format!("{}{}", sim_output.stdout, sim_output.stderr);
    write_plain(&folder, &[rtl::File { name: "rtl_sim.log".into(), text: log.clone() }], false)
        .map_err(|e| Error::Usage(e.to_string()))?;
    let rtl_run = cosim::read_rtl_output(netlist.top().outputs.len(), &sim_output.stdout);
    // Memories are compared once every write has landed; writes after `end` are reported.
    let mut rtl_side = cosim::compare(&plan, &c_run, &rtl_run.outputs, rtl_run.final_memories());
    rtl_side.late_writes = cosim::late_writes(&plan, &rtl_run);
    match &rtl_run.drain {
        Some(d) if d.how == "cap" => notes.push(format!(
            "the RTL still wrote memory {} cycles after `end`; its memories are compared as they were then",
            d.cycles
        )),
        None if rtl_run.failures.is_empty() && rtl_run.passed => notes.push(
            "the RTL's memories were not drained after `end`; they are compared as they were at `end`"
                .to_string(),
        ),
        _ => {}
    }
    if !rtl_run.failures.is_empty() {
        rtl_side.error = Some(rtl_run.failures.join("; "));
    } else if !rtl_run.passed {
        rtl_side.error = Some(format!("the simulation ended without a verdict:\n{}", tail(&log)));
    }
    Ok(Report {
        func: func.name.clone(),
        interpreter,
        rtl: rtl_side,
        cycles: rtl_run.cycles,
        last_change: rtl_run.last_change,
        model,
        folder: keep.map(|k| k.dir.clone()).map(|d| d.canonicalize().unwrap_or(d)),
        notes,
    })
}

/// The model's verdict in the JSON report.
fn model_json(verdict: &hsir_backend::capacity::Verdict) -> Value {
    use hsir_backend::capacity::Verdict;
    match verdict {
        Verdict::Completed { cycles } => json!({ "verdict": "completed", "cycles": cycles }),
        Verdict::Deadlock(d) => json!({
            "verdict": "deadlock",
            "cycle": d.cycle,
            "message": d.message,
            "channels": d.channels,
        }),
        Verdict::NotModeled { why, .. } => json!({ "verdict": "not modelled", "message": why }),
        Verdict::Limit { cycles } => json!({ "verdict": "limit", "cycles": cycles }),
    }
}

/// The C compiler to use: the option, else `$CC`, else `cc`.
pub fn default_cc(option: Option<&str>) -> String {
    option
        .map(str::to_string)
        .or_else(|| std::env::var("CC").ok().filter(|c| !c.trim().is_empty()))
        .unwrap_or_else(|| "cc".to_string())
}

/// The kernel's C file for `mlir`: `NAME.c` beside it or in a sibling `c/` folder, where NAME
/// is the function if given, else the file name's longest `_`-separated prefix that has one
/// (`fir_LEGACY__handshake_export.mlir` finds `fir.c`).
pub fn find_c_file(mlir: &Path, function: Option<&str>) -> Option<PathBuf> {
    let stem = mlir.file_stem()?.to_string_lossy().into_owned();
    let mut names: Vec<String> =
        function.map(|f| f.trim_start_matches('@').to_string()).into_iter().collect();
    let parts: Vec<&str> = stem.split('_').collect();
    for n in (1..=parts.len()).rev() {
        let name = parts[..n].join("_");
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    let dir = mlir.parent().unwrap_or(Path::new("."));
    let folders = [dir.to_path_buf(), dir.join("c"), dir.join("..").join("c")];
    names
        .iter()
        .find_map(|name| folders.iter().map(|f| f.join(format!("{name}.c"))).find(|p| p.is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_c_file_is_found_beside_or_in_a_sibling_c_folder() {
        let dir = std::env::temp_dir().join(format!("hsir-find-c-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("ir")).unwrap();
        std::fs::create_dir_all(dir.join("c")).unwrap();
        std::fs::write(dir.join("c/atax_float.c"), "").unwrap();
        std::fs::write(dir.join("c/atax.c"), "").unwrap();
        std::fs::write(dir.join("ir/gcd.c"), "").unwrap();
        let ir = |name: &str| dir.join("ir").join(name);
        let found = |p: Option<PathBuf>| p.map(|p| p.canonicalize().unwrap());
        assert_eq!(
            found(find_c_file(&ir("atax_float_FTD__handshake.mlir"), None)),
            Some(dir.join("c/atax_float.c").canonicalize().unwrap())
        );
        assert_eq!(
            found(find_c_file(&ir("atax_LEGACY__handshake.mlir"), None)),
            Some(dir.join("c/atax.c").canonicalize().unwrap())
        );
        assert_eq!(
            found(find_c_file(&ir("x.mlir"), Some("gcd"))),
            Some(dir.join("ir/gcd.c").canonicalize().unwrap())
        );
        assert_eq!(find_c_file(&ir("nothing.mlir"), None), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
