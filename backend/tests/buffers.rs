//! Buffer placement on the fixtures of `test_data/placement`.
//!
//! Each fixture names its runs with `// hsir-place: ALGORITHM [period=NS] [strip]
//! [timing=FILE] [overhead=NS] [profile=FILE] [time_limit_ms=N] [nodes=N] [repair=ROUNDS]
//! [func=NAME]` lines; a run is timed by the plain sum of delays (the built-in model, or FILE,
//! with no register-to-register overhead: what the fixtures' comments work out by hand) unless
//! it gives `overhead` (`overhead=builtin`: the built-in model's calibrated value); a run may be followed by
//! `// hsir-expect: KEY=VALUE ...` lines with what its result must be, worked out by hand
//! (`dv=` and `r=`: the channels whose buffers break data/valid or ready, each named by its
//! producer's value, `%x2`, or by `%x2>%x3` for the channel into the op defining `%x3`;
//! `slots=`: the total; `theta=`: each loop's throughput, in the report's order; `buffers=`: the
//! number of buffer ops written). Every run's text is compared with its snapshot in
//! `test_data/placement/placed/` (`UPDATE_EXPECT=1` rewrites them; the RTL tests simulate
//! them), must check without errors the input did not have, and the file's `expected-*`
//! annotations must match what its runs report (the placement diagnostics HS6001-HS6006). A
//! run whose placement deadlocks and is refused (HS6005) has no snapshot.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hsir_analysis::dataflow::BufferType;
use hsir_analysis::{fixture, Diagnostic, Severity};
use hsir_backend::buffers::{
    self, cfdfc::Profile, edit, mapping, timing::TimingModel, Algorithm, Options, Placement,
};
use hsir_backend::Program;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/placement")
}

/// One `// hsir-place:` line and the `// hsir-expect:` lines after it.
struct Run {
    line: usize,
    tag: String,
    options: Options,
    timing: TimingModel,
    func: Option<String>,
    expect: Vec<(String, String)>,
}

fn runs(path: &Path, text: &str) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("// hsir-place:") {
            let mut words = rest.split_whitespace();
            let algorithm = words.next().expect("an algorithm after `hsir-place:`");
            // A node limit, not the clock, ends a long search, so results are the same on
            // every machine.
            let mut options = Options {
                time_limit: Duration::from_secs(600),
                node_limit: Some(20_000),
                algorithm: Algorithm::from_name(algorithm)
                    .unwrap_or_else(|| panic!("{}:{}: unknown algorithm", path.display(), i + 1)),
                ..Options::default()
            };
            let mut tag = algorithm.to_string();
            let mut timing = None;
            let mut overhead = 0.0;
            let mut func = None;
            for word in words {
                let (key, value) = word.split_once('=').unwrap_or((word, ""));
                match key {
                    "period" => options.period = value.parse().unwrap(),
                    "strip" => options.strip = true,
                    "time_limit_ms" => {
                        options.time_limit = Duration::from_millis(value.parse().unwrap())
                    }
                    "timing" => {
                        let t = std::fs::read_to_string(dir().join(value)).unwrap();
                        timing = Some(TimingModel::parse(&t).unwrap());
                    }
                    "profile" => {
                        let p = std::fs::read_to_string(dir().join(value)).unwrap();
                        options.profile = Some(Profile::parse(&p).unwrap());
                    }
                    "overhead" if value == "builtin" => {
                        overhead = TimingModel::builtin().overhead();
                    }
                    "overhead" => overhead = value.parse().unwrap(),
                    "nodes" => options.node_limit = Some(value.parse().unwrap()),
                    "repair" => options.repair_rounds = value.parse().unwrap(),
                    "func" => func = Some(value.to_string()),
                    other => panic!("{}:{}: unknown option `{other}`", path.display(), i + 1),
                }
                tag.push('.');
                tag.push_str(&word.replace(['=', '/'], "-"));
            }
            let timing = timing.as_ref().unwrap_or(TimingModel::builtin()).with_overhead(overhead);
            runs.push(Run { line: i + 1, tag, options, timing, func, expect: Vec::new() });
        } else if let Some(rest) = line.strip_prefix("// hsir-expect:") {
            let run = runs.last_mut().expect("`hsir-expect:` after an `hsir-place:` line");
            for word in rest.split_whitespace() {
                let (key, value) = word.split_once('=').expect("KEY=VALUE");
                run.expect.push((key.to_string(), value.to_string()));
            }
        }
    }
    runs
}

/// How a channel of a placement is named in expectations: its producer's value, and the
/// consumer's first result when the producer's value has several uses.
fn channel_names(p: &Placement, program_text: &str, c: usize) -> [String; 2] {
    let g = &p.graph;
    let ch = &g.channels[c];
    let producer = value_name(&g.units[ch.from].label, program_text, g.units[ch.from].range);
    let consumer = value_name(&g.units[ch.to].label, program_text, g.units[ch.to].range);
    [producer.clone(), format!("{producer}>{consumer}")]
}

/// The first SSA name written at the start of a unit's text (`%x2` of `%x2 = addi ...`, `%a` of
/// an argument), else its label.
fn value_name(label: &str, text: &str, range: hsir_analysis::TextRange) -> String {
    let at = &text[usize::from(range.start())..];
    let name: String = at
        .strip_prefix('%')
        .map(|rest| {
            rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.').collect()
        })
        .unwrap_or_default();
    if name.is_empty() {
        label.to_string()
    } else {
        format!("%{name}")
    }
}

fn check_expectations(run: &Run, p: &[Placement], text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let named = |pick: &dyn Fn(&buffers::Placed) -> bool| -> BTreeSet<String> {
        let mut set = BTreeSet::new();
        for placement in p {
            for placed in placement.placed.iter().filter(|x| pick(x)) {
                let [producer, full] = channel_names(placement, text, placed.channel);
                // The short name when it is unambiguous among this placement's channels.
                let uses = placement
                    .graph
                    .channels
                    .iter()
                    .enumerate()
                    .filter(|(c, _)| channel_names(placement, text, *c)[0] == producer)
                    .count();
                set.insert(if uses == 1 { producer } else { full });
            }
        }
        set
    };
    for (key, value) in &run.expect {
        let list = |v: &str| -> BTreeSet<String> {
            v.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect()
        };
        let actual = match key.as_str() {
            "dv" => format!("{:?}", named(&|x| x.choice.dv)),
            "r" => format!(
                "{:?}",
                named(&|x| x.choice.r || x.chain.iter().any(|b| b.0 == BufferType::OneSlotBreakR))
            ),
            "slots" => p
                .iter()
                .flat_map(|pl| &pl.placed)
                .flat_map(|x| x.chain.iter().map(|b| b.1))
                .sum::<u32>()
                .to_string(),
            "buffers" => {
                p.iter().flat_map(|pl| &pl.placed).map(|x| x.chain.len()).sum::<usize>().to_string()
            }
            "theta" => p
                .iter()
                .flat_map(|pl| &pl.cfdfcs)
                .map(|k| format!("{:.3}", k.throughput))
                .collect::<Vec<_>>()
                .join(","),
            other => {
                problems.push(format!("unknown expectation `{other}`"));
                continue;
            }
        };
        let expected = match key.as_str() {
            "dv" | "r" => format!("{:?}", list(value)),
            "theta" => value
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|t| format!("{:.3}", t.parse::<f64>().unwrap()))
                .collect::<Vec<_>>()
                .join(","),
            _ => value.clone(),
        };
        if actual != expected {
            problems.push(format!("{key}: expected {expected}, got {actual}"));
        }
    }
    problems
}

fn error_codes(text: &str) -> BTreeSet<&'static str> {
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    hsir_analysis::check(&parse)
        .into_iter()
        .filter(|d| d.severity == Severity::Error || d.code.code().starts_with("HS202"))
        .map(|d| d.code.code())
        .collect()
}

#[test]
fn placements_match_their_expectations_and_snapshots() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
        let program = Program::analyse(&parse);
        let before = error_codes(&text);
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let runs = runs(path, &text);
        assert!(!runs.is_empty(), "{} has no `// hsir-place:` line", path.display());
        for run in &runs {
            count += 1;
            let timing = &run.timing;
            let name = format!("{}:{} ({})", path.display(), run.line, run.tag);
            let output = match buffers::place_program(
                &program,
                &text,
                &run.options,
                timing,
                run.func.as_deref(),
                None,
            ) {
                Ok(output) => output,
                Err(errors) => {
                    failures.push(format!("{name}: placement refused: {errors:?}"));
                    continue;
                }
            };
            for d in &output.diagnostics {
                if !diagnostics
                    .iter()
                    .any(|e| e.code == d.code && e.range == d.range && e.message == d.message)
                {
                    diagnostics.push(d.clone());
                }
            }
            for problem in check_expectations(run, &output.placements, &text) {
                failures.push(format!("{name}: {problem}"));
            }
            let placed = edit::apply(&text, &output.edits);
            let after = error_codes(&placed);
            let new: Vec<_> = after.difference(&before).collect();
            if !new.is_empty() {
                failures.push(format!("{name}: the placed text has new errors {new:?}"));
            }
            // A placement that deadlocks is refused (HS6005): it is no design to keep, and the
            // RTL tests would find the deadlock in it.
            let refused = output.placements.iter().any(|p| {
                matches!(p.capacity, buffers::Capacity::Deadlocks { .. })
                    && p.diagnostics.iter().any(|d| d.code.code() == "HS6005")
            });
            if !refused {
                let snapshot = dir().join("placed").join(format!("{stem}.{}.mlir", run.tag));
                expect_test::expect_file![snapshot].assert_eq(&placed);
            }
        }
        let observed = fixture::observe(&text, &diagnostics);
        if let Err(report) = fixture::verify(&text, &observed) {
            failures.push(format!("{}:\n{report}", path.display()));
        }
    }
    assert!(count >= 6, "only {count} placement runs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every mapping of seed 000, "Mapping MILP Results to Buffer Types".
#[test]
fn mapping_follows_seed_000() {
    use BufferType::*;
    let show = |chain: mapping::Chain| -> String {
        chain.iter().map(|(t, n)| format!("{}x{n}", t.name())).collect::<Vec<_>>().join(" + ")
    };
    // (algorithm, breaks D/V, breaks R, slots, merge-like output on a cycle, expected chain)
    type Case = (Algorithm, bool, bool, u32, bool, &'static [(BufferType, u32)]);
    let cases: &[Case] = &[
        // FPGA20 1: breaking DV → ONE_SLOT_BREAK_DV + (n − 1) × FIFO_BREAK_NONE.
        (Algorithm::Fpga20, true, false, 1, false, &[(OneSlotBreakDv, 1)]),
        (Algorithm::Fpga20, true, false, 3, false, &[(OneSlotBreakDv, 1), (FifoBreakNone, 2)]),
        // FPGA20 2: breaking none → n × FIFO_BREAK_NONE (one module with n slots).
        (Algorithm::Fpga20, false, false, 2, false, &[(FifoBreakNone, 2)]),
        (Algorithm::Fpga20, false, false, 0, false, &[]),
        // FPGA20's ready break after a merge-like op on a cycle comes last.
        (
            Algorithm::Fpga20,
            true,
            false,
            2,
            true,
            &[(OneSlotBreakDv, 1), (FifoBreakNone, 1), (OneSlotBreakR, 1)],
        ),
        (Algorithm::Fpga20, false, false, 0, true, &[(OneSlotBreakR, 1)]),
        // FPGA20 models no ready break: a requested one is not written.
        (Algorithm::Fpga20, false, true, 1, false, &[(FifoBreakNone, 1)]),
        // FPL22 1: DV and R, one slot → ONE_SLOT_BREAK_DVR.
        (Algorithm::Fpl22, true, true, 1, false, &[(OneSlotBreakDvr, 1)]),
        // FPL22 1: DV and R, n > 1 → ONE_SLOT_BREAK_DV + (n − 2) × NONE + ONE_SLOT_BREAK_R.
        (Algorithm::Fpl22, true, true, 2, false, &[(OneSlotBreakDv, 1), (OneSlotBreakR, 1)]),
        (
            Algorithm::Fpl22,
            true,
            true,
            4,
            false,
            &[(OneSlotBreakDv, 1), (FifoBreakNone, 2), (OneSlotBreakR, 1)],
        ),
        // FPL22 2: only DV → ONE_SLOT_BREAK_DV + (n − 1) × NONE.
        (Algorithm::Fpl22, true, false, 1, false, &[(OneSlotBreakDv, 1)]),
        (Algorithm::Fpl22, true, false, 3, false, &[(OneSlotBreakDv, 1), (FifoBreakNone, 2)]),
        // FPL22 3: only R → ONE_SLOT_BREAK_R + (n − 1) × NONE.
        (Algorithm::Fpl22, false, true, 1, false, &[(OneSlotBreakR, 1)]),
        (Algorithm::Fpl22, false, true, 3, false, &[(OneSlotBreakR, 1), (FifoBreakNone, 2)]),
        // FPL22 4: nothing → n × NONE.
        (Algorithm::Fpl22, false, false, 2, false, &[(FifoBreakNone, 2)]),
        // FPL22 models ready itself: no extra buffer after merge-like ops.
        (Algorithm::Fpl22, true, false, 1, true, &[(OneSlotBreakDv, 1)]),
    ];
    let mut failures = Vec::new();
    for &(algorithm, dv, r, slots, merge, expected) in cases {
        let actual = mapping::map(algorithm, dv, r, slots, merge);
        if actual != expected {
            failures.push(format!(
                "{algorithm:?} dv={dv} r={r} n={slots} merge={merge}: expected {}, got {}",
                show(expected.to_vec()),
                show(actual)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `budget.rs` on `sum_loop`, counted by hand: the `i` cycle (`mux %i → fork %if → cond_br →
/// addi %i_next → mux`) holds one token and no unit latency, so with `x` breaks on it the loop
/// runs at `1/x` at best.
#[test]
fn cycle_budgets_count_breaks_against_tokens() {
    use hsir_backend::buffers::budget::Budgets;
    use hsir_backend::buffers::{cfdfc, graph::Graph, timing_paths::Choice};
    let text = std::fs::read_to_string(dir().join("sum_loop.mlir")).unwrap();
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    let program = Program::analyse(&parse);
    let func = &program.funcs[0];
    let (graph, _) = Graph::build(func, TimingModel::builtin(), false, 4.0);
    let loops = cfdfc::find(&graph, None);
    assert_eq!(loops.cfdfcs.len(), 1);
    let name = |u: usize| value_name(&graph.units[u].label, &text, graph.units[u].range);
    let channel = |from: &str, to: &str| {
        (0..graph.channels.len())
            .find(|&c| name(graph.channels[c].from) == from && name(graph.channels[c].to) == to)
            .unwrap_or_else(|| panic!("no channel {from} → {to}"))
    };
    let mut choices = vec![Choice::default(); graph.channels.len()];
    let at = |targets: f64| Budgets::new(&graph, &loops, vec![targets]);
    // Every back edge broken: one break per cycle.
    for &b in &loops.cfdfcs[0].back_edges {
        choices[b].dv = true;
    }
    let achieved = at(1.0).achieved(&choices)[0];
    assert!((achieved - 1.0).abs() < 1e-6, "{achieved}");
    // A second break on the `i` cycle halves it.
    let i_fork = channel("%i", "%if");
    choices[i_fork].dv = true;
    let achieved = at(1.0).achieved(&choices)[0];
    assert!((achieved - 0.5).abs() < 1e-6, "{achieved}");
    assert!(at(0.5).met(&choices) && !at(0.6).met(&choices));
    // At 1/2 the `i` cycle has no room left; at 1/3 room for one break; off the loop, no limit.
    let i_branch = channel("%if", "%i_t");
    assert!(at(0.5).slack(&choices, i_branch) < 0.0);
    assert!((at(1.0 / 3.0).slack(&choices, i_branch) - 0.0).abs() < 1e-6);
    assert_eq!(at(0.5).slack(&choices, channel("%n", "%nn")), f64::INFINITY);
    // The `i` cycle is critical at what the loop achieves; the `k` cycle is not.
    assert!(at(0.5).critical(&choices, i_branch));
    assert!(!at(0.5).critical(&choices, channel("%kk", "%k_t")));
}
