//! `hsir buffers FILE --algorithm fpga20|fpl22 [--period NS] [--profile F] [-o OUT | --in-place]
//! [--emit-model M.lp] [--report R.json] [--timing T]`: buffer placement, written into the
//! file's own text.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hsir_analysis::{Diagnostic, Severity};
use hsir_backend::buffers::{self, cfdfc::Profile, Algorithm, Options, Solver};
use serde_json::{json, Value};

use super::{LoadedFile, EXIT_USAGE_OR_IO};

pub struct BuffersArgs {
    pub file: PathBuf,
    pub algorithm: String,
    pub period: f64,
    pub profile: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub in_place: bool,
    pub emit_model: Option<PathBuf>,
    pub report: Option<PathBuf>,
    pub func: Option<String>,
    pub strip: bool,
    pub time_limit: f64,
    pub node_limit: Option<u64>,
    pub solver: String,
    pub timing: Option<PathBuf>,
    pub slack: bool,
    pub inputs: Option<PathBuf>,
}

pub fn run(args: &BuffersArgs) -> u8 {
    let options = match options(args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_USAGE_OR_IO;
        }
    };
    let Ok(timing) = super::timing::load_model(args.timing.as_deref()) else {
        return EXIT_USAGE_OR_IO;
    };
    if let Err(message) = super::timing::check_period(options.period, &timing) {
        eprintln!("error: {message}");
        return EXIT_USAGE_OR_IO;
    }
    let timing = &timing;
    let Ok(loaded) = super::load(&args.file) else { return EXIT_USAGE_OR_IO };
    let text = loaded.parse.tree().text();
    // The functions asked for, and what they instantiate, must be free of errors; the rest
    // of the file need not be.
    let program = hsir_backend::Program::analyse(&loaded.parse);
    let asked = program
        .funcs
        .iter()
        .filter(|f| !f.external && args.func.as_ref().is_none_or(|n| *n == f.name));
    if let Err(errors) = program.check_all(asked.map(|f| f.name.as_str())) {
        print(&loaded, &errors);
        eprintln!("error: no buffers placed: `{}` has the errors above", loaded.name);
        return 1;
    }
    if let Some(path) = &args.emit_model {
        let mut lp = String::new();
        for func in program.funcs.iter().filter(|f| !f.external) {
            if args.func.as_ref().is_some_and(|n| *n != func.name) {
                continue;
            }
            let model = buffers::whole_model(func, &options, timing);
            lp = model.to_lp(&format!(
                "hsir {} buffer placement model of @{} ({} ns period), undecomposed: {} variables, {} constraints",
                options.algorithm.name(),
                func.name,
                options.period,
                model.vars.len(),
                model.rows.len()
            ));
            break;
        }
        if lp.is_empty() {
            eprintln!("error: `{}` has no function to build a model for", loaded.name);
            return EXIT_USAGE_OR_IO;
        }
        if let Err(e) = write_atomic(path, &lp) {
            eprintln!("error: {e}");
            return EXIT_USAGE_OR_IO;
        }
        eprintln!("wrote {}", path.display());
    }
    let output = match buffers::place_program(
        &program,
        text,
        &options,
        timing,
        args.func.as_deref(),
        None,
    ) {
        Ok(output) => output,
        Err(errors) => {
            print(&loaded, &errors);
            return EXIT_USAGE_OR_IO;
        }
    };
    print(&loaded, &output.diagnostics);
    let lines = crate::position::LineIndex::new(text);
    let report = report_json(&output, text, &lines);
    for p in &output.placements {
        eprintln!("{}", summary(p));
    }
    if let Some(path) = &args.report {
        let text = serde_json::to_string_pretty(&report).unwrap_or_default() + "\n";
        if let Err(e) = write_atomic(path, &text) {
            eprintln!("error: {e}");
            return EXIT_USAGE_OR_IO;
        }
    }
    let deadlocked: Vec<&str> = output
        .placements
        .iter()
        .filter(|p| matches!(p.capacity, buffers::Capacity::Deadlocks { .. }))
        .map(|p| p.func.as_str())
        .collect();
    if !deadlocked.is_empty() {
        eprintln!(
            "error: nothing written: the placement of `@{}` deadlocks in hardware (HS6005 above)",
            deadlocked.join("`, `@")
        );
        return 1;
    }
    let buffered = buffers::edit::apply(text, &output.edits);
    let target = if args.in_place { Some(args.file.clone()) } else { args.out.clone() };
    match target {
        Some(path) => {
            if let Err(e) = write_atomic(&path, &buffered) {
                eprintln!("error: {e}");
                return EXIT_USAGE_OR_IO;
            }
            eprintln!("wrote {}", path.display());
        }
        None => {
            let status = super::sim::write_stdout(&buffered);
            if status != 0 {
                return status;
            }
        }
    }
    let errors = output.diagnostics.iter().any(|d| d.severity == Severity::Error);
    u8::from(errors)
}

fn options(args: &BuffersArgs) -> Result<Options, String> {
    let algorithm = Algorithm::from_name(&args.algorithm).ok_or_else(|| {
        format!("unknown algorithm `{}`; expected `fpga20` or `fpl22`", args.algorithm)
    })?;
    let most = hsir_backend::buffers::MAX_TIME_LIMIT_SECS;
    if !(args.time_limit > 0.0 && args.time_limit <= most) {
        // Huge numbers as the user likely wrote them (`1e308`), not 309 digits.
        let given = if args.time_limit.abs() >= 1e9 {
            format!("{:e}", args.time_limit)
        } else {
            args.time_limit.to_string()
        };
        return Err(format!(
            "the time limit must be a positive number of seconds, at most {most} (a day), not `{given}`"
        ));
    }
    if args.in_place && args.out.is_some() {
        return Err("give either -o or --in-place, not both".into());
    }
    let solver = match args.solver.as_str() {
        "microlp" => Solver::Microlp,
        "highs" if Solver::Highs.available() => Solver::Highs,
        "highs" => {
            return Err("this hsir was built without HiGHS; rebuild with `cargo build --release --features highs` (needs `apt-get install cmake libclang-dev`)".into())
        }
        other => return Err(format!("unknown solver `{other}`; expected `microlp` or `highs`")),
    };
    let profile = match &args.profile {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read the profile `{}`: {e}", path.display()))?;
            Some(Profile::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?)
        }
    };
    Ok(Options {
        algorithm,
        period: args.period,
        profile,
        strip: args.strip,
        time_limit: Duration::from_secs_f64(args.time_limit),
        node_limit: args.node_limit,
        solver,
        slack: args.slack,
        inputs: match &args.inputs {
            None => None,
            Some(path) => Some(
                std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read the inputs file {}: {e}", path.display()))?,
            ),
        },
        ..Options::default()
    })
}

/// One line per function, for people.
pub fn summary(p: &buffers::Placement) -> String {
    let buffers: usize = p.placed.iter().map(|x| x.chain.len()).sum();
    let slots: u32 = p.placed.iter().flat_map(|x| &x.chain).map(|&(_, s)| s).sum();
    let loops: Vec<String> = p
        .cfdfcs
        .iter()
        .map(|c| format!("{:.3} (was {:.3})", c.throughput, c.throughput_heuristic))
        .collect();
    let slack = p.slack.as_ref().map(|s| format!("; {}", s.summary())).unwrap_or_default();
    format!(
        "@{}: {} {} buffers ({} slots) on {} channels; loop throughput {}; critical path {:.2} ns (period {} ns); capacity model: {}{slack}; {} ms",
        p.func,
        p.algorithm.name(),
        buffers,
        slots,
        p.placed.len(),
        if loops.is_empty() { "-".to_string() } else { loops.join(", ") },
        p.critical_dv.max(p.critical_r),
        p.period,
        p.capacity.describe(&p.graph),
        p.time.as_millis()
    )
}

/// The JSON report: per function, its loops and models.
pub fn report_json(
    output: &buffers::Output,
    text: &str,
    lines: &crate::position::LineIndex,
) -> Value {
    let view = lines.view(text);
    let functions: Vec<Value> = output
        .placements
        .iter()
        .map(|p| {
            let models: Vec<Value> = p
                .models
                .iter()
                .map(|m| {
                    json!({
                        "name": m.name,
                        "variables": m.variables,
                        "integerVariables": m.integer_variables,
                        "binaryVariables": m.binary_variables,
                        "constraints": m.constraints,
                        "status": m.status.name(),
                        "timeMs": m.time.as_secs_f64() * 1000.0,
                        "timeLimitMs": m.time_limit.as_secs_f64() * 1000.0,
                        "objective": m.objective,
                        "heuristicObjective": m.heuristic_objective,
                        "lpBound": m.lp_bound,
                        "gap": m.gap,
                        "kept": m.kept,
                    })
                })
                .collect();
            let cfdfcs: Vec<Value> = p
                .cfdfcs
                .iter()
                .map(|c| {
                    json!({
                        "headers": c.headers,
                        "units": c.units,
                        "channels": c.channels,
                        "backEdges": c.back_edges,
                        "depth": c.depth,
                        "weight": c.weight,
                        "weightSource": c.weight_source,
                        "throughput": c.throughput,
                        "throughputHeuristic": c.throughput_heuristic,
                        "recurrence": c.recurrence.as_ref().map(|r| json!({
                            "ii": r.ii,
                            "cycle": r.units,
                            "registers": r.registers,
                            "tokens": r.tokens,
                            "delayNs": r.delay,
                            "registersNeeded": r.registers_needed,
                            "slowestUnit": r.slowest,
                            "limit": r.describe(p.period),
                        })),
                    })
                })
                .collect();
            let placed: Vec<Value> = p
                .placed
                .iter()
                .map(|x| {
                    let ch = &p.graph.channels[x.channel];
                    let consumer = &p.graph.units[ch.to];
                    let pos = view.pos(
                        consumer_range_start(p, x.channel),
                        crate::position::Encoding::Utf8,
                    );
                    json!({
                        "channel": x.channel,
                        "from": p.graph.units[ch.from].label,
                        "to": consumer.label,
                        "operand": ch.operand,
                        "line": pos.line + 1,
                        "breaksDV": x.choice.dv,
                        "breaksR": x.choice.r,
                        "slots": x.choice.slots,
                        "buffers": x.chain.iter().map(|&(t, s)| json!({"type": t.name(), "slots": s})).collect::<Vec<_>>(),
                        "rules": ch.rules,
                    })
                })
                .collect();
            json!({
                "function": p.func,
                "algorithm": p.algorithm.name(),
                "periodNs": p.period,
                "units": p.graph.units.len(),
                "channels": p.graph.channels.len(),
                "criticalPathNs": p.critical_dv,
                "criticalReadyPathNs": p.critical_r,
                "objective": p.objective,
                "timeMs": p.time.as_secs_f64() * 1000.0,
                "cancelled": p.cancelled,
                // The static timing analysis of the result: its longest register-to-register
                // data path (`hsir timing` on the buffered file says the same).
                "timing": super::timing::timing_json(&p.timing),
                "searchMoves": p.search_moves,
                "capacity": capacity_json(p),
                "slack": p.slack.as_ref().map(|s| json!({
                    "cyclesBefore": s.cycles_before,
                    "cyclesAfter": s.cycles_after,
                    "slots": s.slots,
                    "channels": s.channels,
                    "runs": s.runs,
                    "timeMs": s.time.as_secs_f64() * 1000.0,
                    "note": s.note,
                })),
                "removedBuffers": p.removed.len(),
                "cfdfcs": cfdfcs,
                "models": models,
                "buffers": placed,
                // The channels by index, as `--emit-model` names their variables (`x_c12`).
                "channelList": p.graph.channels.iter().map(|ch| json!({
                    "from": p.graph.units[ch.from].label,
                    "to": p.graph.units[ch.to].label,
                    "operand": ch.operand,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "functions": functions })
}

/// What the cycle-level model said about the placement, and the slots a deadlock needed.
fn capacity_json(p: &buffers::Placement) -> Value {
    use buffers::Capacity;
    let added: Vec<Value> = p
        .capacity
        .added()
        .iter()
        .map(|a| {
            let ch = &p.graph.channels[a.channel];
            json!({
                "channel": a.channel,
                "from": p.graph.units[ch.from].label,
                "to": p.graph.units[ch.to].label,
                "operand": ch.operand,
                "slots": a.slots,
            })
        })
        .collect();
    let (verdict, cycles, deadlock) = match &p.capacity {
        Capacity::Runs { cycles, deadlock, .. } => ("runs", Some(*cycles), deadlock.clone()),
        Capacity::Deadlocks { message, .. } => ("deadlocks", None, Some(message.clone())),
        Capacity::Unchecked(_) => ("unchecked", None, None),
    };
    json!({
        "verdict": verdict,
        "cycles": cycles,
        "deadlock": deadlock,
        "added": added,
        "summary": p.capacity.describe(&p.graph),
    })
}

fn consumer_range_start(p: &buffers::Placement, channel: usize) -> hsir_analysis::TextSize {
    let ch = &p.graph.channels[channel];
    p.graph.units[ch.to].range.start()
}

/// Writes `text` to `path` through a temporary file in the same folder and a rename, so that a
/// failure leaves the old file whole. A path that is not a regular file (`/dev/null`, a pipe)
/// is written in place, and a symbolic link is followed: the rename must never replace a
/// device or a link with a plain file.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write `{}`: {e}", path.display());
    if let Ok(meta) = std::fs::metadata(path) {
        if !meta.is_file() {
            return std::fs::write(path, text).map_err(fail);
        }
    }
    let resolved;
    let path = if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        resolved = std::fs::canonicalize(path).map_err(fail)?;
        resolved.as_path()
    } else {
        path
    };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    let temp = dir.join(format!(".{name}.{}.hsir-tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        format!("cannot write `{}`: {e}", path.display())
    })
}

fn print(loaded: &LoadedFile, diagnostics: &[Diagnostic]) {
    super::rtl::print_diagnostics(&loaded.name, loaded.parse.tree().text(), diagnostics);
}
