//! `hsir sim FILE [--top F] [--args 1,2,3]... [--mem NAME=1,2]... [--tokens N] [--seed S]`:
//! runs hsir's token interpreter on a `handshake.func` and prints what comes out, what is left
//! in channels, and where the result depends on timing.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use hsir_analysis::DiagnosticCode;
use hsir_backend::sim::{self, stimulus};
use hsir_backend::Program;

use super::EXIT_USAGE_OR_IO;

pub struct SimArgs {
    pub file: PathBuf,
    pub top: Option<String>,
    /// One list per argument that is a channel, in order.
    pub args: Vec<String>,
    pub mems: Vec<String>,
    pub inputs: Option<PathBuf>,
    pub tokens: Option<usize>,
    pub seed: u64,
    pub max_firings: u64,
    /// Also run the capacity-aware, cycle-level simulation (`hsir_backend::capacity`).
    pub cycles: bool,
}

pub fn run(args: &SimArgs) -> u8 {
    let Ok(loaded) = super::load(&args.file) else { return EXIT_USAGE_OR_IO };
    let program = Program::analyse(&loaded.parse);
    let func = match &args.top {
        Some(top) => program.func(top.trim_start_matches('@')),
        None => program.default_top(),
    };
    let Some(func) = func.filter(|f| !f.external) else {
        let known: Vec<String> =
            program.funcs.iter().filter(|f| !f.external).map(|f| format!("@{}", f.name)).collect();
        eprintln!(
            "error[{}]: no function to run{}; the file has {}",
            DiagnosticCode::BackendNoTop.code(),
            args.top.as_deref().map_or(String::new(), |t| format!(" named `{t}`")),
            if known.is_empty() { "none".to_string() } else { known.join(", ") }
        );
        return EXIT_USAGE_OR_IO;
    };
    // Errors in functions `func` does not reach do not stop it.
    if let Err(errors) = program.check(&func.name) {
        for d in &errors {
            eprintln!("error[{}]: {}", d.code.code(), d.message);
        }
        eprintln!(
            "error: `{}` has the errors above; `hsir check` shows them in context",
            loaded.name
        );
        return 1;
    }
    let mut directives = match stimulus::directives(loaded.parse.tree().text(), &program, func) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: a `// hsir-sim:` directive of `@{}`: {e}", func.name);
            return EXIT_USAGE_OR_IO;
        }
    };
    if let Some(tokens) = args.tokens {
        directives.tokens = tokens;
    }
    if let Some(path) = &args.inputs {
        let read = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read it: {e}"))
            .and_then(|text| stimulus::read_inputs_file(func, &text, &mut directives));
        if let Err(e) = read {
            eprintln!("error: the inputs file `{}`: {e}", path.display());
            return EXIT_USAGE_OR_IO;
        }
    }
    let mut inputs = stimulus::inputs(func, &directives, args.seed);
    // Arguments by their SSA names, as the text and the `.sim` files write them.
    let names: Vec<String> = func
        .args()
        .iter()
        .map(|&a| func.item.str(func.item.values[a as usize].name()).to_string())
        .collect();
    let channel_args: Vec<usize> = func
        .args()
        .iter()
        .enumerate()
        .filter(|(_, &a)| func.ty(a).and_then(hsir_backend::program::memref_shape).is_none())
        .map(|(i, _)| i)
        .collect();
    if !args.args.is_empty() {
        if args.args.len() != channel_args.len() {
            let list: Vec<&str> = channel_args.iter().map(|&i| names[i].as_str()).collect();
            eprintln!(
                "error: `@{}` takes {} channel arguments ({}); --args was given {} times",
                func.name,
                channel_args.len(),
                list.join(", "),
                args.args.len()
            );
            return EXIT_USAGE_OR_IO;
        }
        for (&i, text) in channel_args.iter().zip(&args.args) {
            // The interpreter takes data masked to the argument's width, and control tokens
            // as 0 (`sim::Inputs`).
            match stimulus::parse_list(func, i, text) {
                Ok(tokens) => inputs.args[i] = tokens,
                Err(e) => {
                    eprintln!("error: --args for `{}`: {e}", names[i]);
                    return EXIT_USAGE_OR_IO;
                }
            }
        }
    }
    let specs = hsir_backend::memories::memories(func);
    for entry in &args.mems {
        let Some((name, list)) = entry.split_once('=') else {
            eprintln!("error: `--mem {entry}` must be NAME=1,2,3");
            return EXIT_USAGE_OR_IO;
        };
        let Some(current) = inputs.memories.get_mut(name.trim()) else {
            let known: Vec<&String> = inputs.memories.keys().collect();
            eprintln!(
                "error: `--mem {entry}`: `@{}` has no memory `{name}` (it has {known:?})",
                func.name
            );
            return EXIT_USAGE_OR_IO;
        };
        let arg = specs.iter().find(|m| m.name == name.trim()).and_then(|m| match m.kind {
            hsir_backend::memories::MemoryKind::Argument(i) => Some(i),
            _ => None,
        });
        let words = match arg {
            Some(i) => stimulus::parse_list(func, i, list),
            None => Err("not an argument memory".to_string()),
        }
        .and_then(|list| {
            if list.len() > current.len() {
                return Err(format!("{} words given; it has {}", list.len(), current.len()));
            }
            Ok(list)
        });
        match words {
            Ok(words) => {
                for (slot, w) in current.iter_mut().zip(words) {
                    *slot = w;
                }
            }
            Err(e) => {
                eprintln!("error: --mem {name}: {e}");
                return EXIT_USAGE_OR_IO;
            }
        }
    }
    let before: BTreeMap<String, Vec<u64>> = inputs.memories.clone();
    let outcome = match sim::run(&program, &func.name, &inputs, args.max_firings) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
    // The report is written at once; a reader that goes away (`| head`) is not an error.
    let mut out = String::new();
    let _ = writeln!(out, "@{}", func.name);
    for (i, tokens) in inputs.args.iter().enumerate() {
        if channel_args.contains(&i) {
            let _ = writeln!(out, "  in  {}: [{}]", names[i], list(tokens));
        }
    }
    for (name, words) in &before {
        let _ = writeln!(out, "  mem {name} before: [{}]", list(words));
    }
    let results = hsir_backend::program::written_names(&func.item, func.op(), "resNames");
    for (j, tokens) in outcome.results.iter().enumerate() {
        let name = results.get(j).filter(|n| !n.is_empty()).cloned().unwrap_or(j.to_string());
        let _ = writeln!(out, "  out {name}: [{}]", list(tokens));
    }
    for (name, words) in &outcome.memories {
        if before.get(name) != Some(words) {
            let _ = writeln!(out, "  mem {name} after:  [{}]", list(words));
        }
    }
    for left in &outcome.leftovers {
        let _ = writeln!(out, "  left: {}", left.message);
    }
    for held in &outcome.held {
        let _ = writeln!(out, "  held: {}", held.message);
    }
    for race in &outcome.races {
        let _ = writeln!(out, "  race: {}", race.message);
    }
    if outcome.ending == sim::Ending::End {
        let _ = writeln!(
            out,
            "  ended: `end` sent its results; stopped where the circuit would start again"
        );
    }
    let _ = writeln!(out, "  firings: {}", outcome.firings);
    let mut deadlocked = false;
    if args.cycles {
        use hsir_backend::capacity::{self, Verdict};
        let expected: Vec<usize> = outcome.results.iter().map(Vec::len).collect();
        let limit = 10_000 + 64 * outcome.firings;
        let _ = match capacity::simulate(&program, &func.name, &inputs, &expected, limit) {
            Verdict::Completed { cycles } => writeln!(
                out,
                "  cycles: {cycles} (the library's slots and timing; inputs offered every cycle, outputs always ready)"
            ),
            Verdict::Deadlock(d) => {
                deadlocked = true;
                let text = loaded.parse.tree().text();
                let index = crate::position::LineIndex::new(text);
                let at = index.view(text).pos(d.range.start(), crate::position::Encoding::Utf8);
                writeln!(
                    out,
                    "  deadlock: error[{}] at {}:{}: after {} cycles, {}",
                    DiagnosticCode::CapacityDeadlock.code(),
                    at.line + 1,
                    at.character + 1,
                    d.cycle,
                    d.message
                )
            }
            Verdict::NotModeled { why, .. } => {
                writeln!(out, "  cycles: not modelled: the cycle-level simulation {why}")
            }
            Verdict::Limit { cycles } => writeln!(out, "  cycles: still running after {cycles}"),
        };
    }
    let status = write_stdout(&out);
    if deadlocked && status == 0 {
        1
    } else {
        status
    }
}

/// Writes `text` to stdout: 0, or 2 when it cannot be written (a closed pipe is not an error:
/// the reader has what it wanted).
pub fn write_stdout(text: &str) -> u8 {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("error: cannot write the output: {e}");
            EXIT_USAGE_OR_IO
        }
    }
}
