//! `hsir timing FILE [--func F] [--period NS] [--timing T] [--format human|json]`: static
//! timing analysis of an already-buffered file under the timing model (`buffers::sta`): per
//! function, its longest register-to-register data path, the units it crosses and its slack,
//! and any combinational cycle left.

use std::path::{Path, PathBuf};

use hsir_backend::buffers::{sta, timing::TimingModel};
use serde_json::{json, Value};

use super::EXIT_USAGE_OR_IO;

pub struct TimingArgs {
    pub file: PathBuf,
    pub func: Option<String>,
    pub period: f64,
    pub timing: Option<PathBuf>,
    pub json: bool,
}

/// The timing model of `--timing FILE`, or the built-in one; `Err` after saying on stderr why
/// the file cannot be used.
pub fn load_model(path: Option<&Path>) -> Result<TimingModel, ()> {
    let Some(path) = path else { return Ok(TimingModel::builtin().clone()) };
    let text = std::fs::read_to_string(path).map_err(|e| {
        eprintln!("error: cannot read the timing model `{}`: {e}", path.display());
    })?;
    TimingModel::parse(&text).map_err(|errors| {
        for e in errors {
            eprintln!("{}:{}: error: {}", path.display(), e.line, e.message);
        }
    })
}

/// Why `period` cannot be used with `model`, if it cannot.
pub fn check_period(period: f64, model: &TimingModel) -> Result<(), String> {
    if !(period.is_finite() && period > 0.0) {
        return Err(format!("the period must be a positive number of ns, not `{period}`"));
    }
    if period <= model.overhead() {
        return Err(format!(
            "the period ({period} ns) must be more than the timing model's overhead ({} ns), which every register-to-register path pays",
            model.overhead()
        ));
    }
    Ok(())
}

pub fn run(args: &TimingArgs) -> u8 {
    let Ok(model) = load_model(args.timing.as_deref()) else { return EXIT_USAGE_OR_IO };
    if let Err(message) = check_period(args.period, &model) {
        eprintln!("error: {message}");
        return EXIT_USAGE_OR_IO;
    }
    let Ok(loaded) = super::load(&args.file) else { return EXIT_USAGE_OR_IO };
    let program = hsir_backend::Program::analyse(&loaded.parse);
    let funcs: Vec<_> = program
        .funcs
        .iter()
        .filter(|f| !f.external && args.func.as_ref().is_none_or(|n| *n == f.name))
        .collect();
    if funcs.is_empty() {
        match &args.func {
            Some(name) => {
                eprintln!("error: `{}` has no function `{name}` with a body", loaded.name)
            }
            None => eprintln!("error: `{}` has no function with a body", loaded.name),
        }
        return EXIT_USAGE_OR_IO;
    }
    if let Err(errors) = program.check_all(funcs.iter().map(|f| f.name.as_str())) {
        super::rtl::print_diagnostics(&loaded.name, loaded.parse.tree().text(), &errors);
        eprintln!("error: no timing analysis: `{}` has the errors above", loaded.name);
        return 1;
    }
    let plain = model.with_overhead(0.0);
    let mut failed = false;
    let mut reports = Vec::new();
    for func in funcs {
        let result = sta::analyse_func(func, &model, args.period);
        let baseline = (model.overhead() > 0.0)
            .then(|| sta::analyse_func(func, &plain, args.period))
            .and_then(|t| t.longest);
        failed |= result.slack().is_some_and(|s| s < -1e-9) || !result.cycles.is_empty();
        if args.json {
            let mut value = timing_json(&result);
            value["function"] = json!(func.name);
            value["plainSumPath"] = baseline.as_ref().map_or(Value::Null, path_json);
            reports.push(value);
        } else {
            println!("{}", human(&func.name, &result, baseline.as_ref()));
        }
    }
    if args.json {
        let text =
            serde_json::to_string_pretty(&json!({ "functions": reports })).unwrap_or_default();
        let status = super::sim::write_stdout(&(text + "\n"));
        if status != 0 {
            return status;
        }
    }
    u8::from(failed)
}

/// For people: the longest path, its slack, the same under the plain sum, and the cycles.
fn human(func: &str, t: &sta::Timing, plain: Option<&sta::Path>) -> String {
    let mut out = match &t.longest {
        None => format!("@{func}: no channel, no path"),
        Some(p) => format!(
            "@{func}: longest data path {:.3} ns at a {} ns period (slack {:+.3} ns; overhead {} ns, plain sum {:.3} ns):\n  {}",
            p.delay,
            t.period,
            t.period - p.delay,
            t.overhead,
            p.plain,
            p.describe()
        ),
    };
    if let Some(p) = plain {
        out.push_str(&format!(
            "\n  longest under the plain sum (overhead 0): {:.3} ns:\n  {}",
            p.delay,
            p.describe()
        ));
    }
    for cycle in &t.cycles {
        let mut names = cycle.clone();
        names.extend(cycle.first().cloned());
        out.push_str(&format!("\n  combinational cycle (no register): {}", names.join(" → ")));
    }
    out
}

/// One path as JSON.
pub fn path_json(p: &sta::Path) -> Value {
    json!({
        "delayNs": p.delay,
        "plainSumNs": p.plain,
        "from": p.from,
        "to": p.to,
        "units": p.units.iter().map(|u| json!({ "unit": u.label, "delayNs": u.delay })).collect::<Vec<_>>(),
        "path": p.describe(),
    })
}

/// The analysis as JSON (the `timing` of `hsir buffers --report`, and `hsir timing --format
/// json`).
pub fn timing_json(t: &sta::Timing) -> Value {
    json!({
        "periodNs": t.period,
        "overheadNs": t.overhead,
        "longestPath": t.longest.as_ref().map_or(Value::Null, path_json),
        "slackNs": t.slack(),
        "combinationalCycles": t.cycles,
    })
}
