//! The placement run clock by clock before it is handed out, and repaired when it deadlocks.
//!
//! The MILPs reason about loops (CFDFCs) one throughput at a time; they do not see every way
//! the library's slots and eager forks couple channels (docs/timing-model.md, "Placements that
//! deadlock"). So the placed text is checked as `hsir rtl` checks it (`capacity::check`: the
//! function's `// hsir-sim:` stimulus, one token per argument, the untimed run for the tokens
//! each output is owed, then the cycle-level model). On a deadlock, one slot is added to every
//! channel of the reported circular wait on which a token waits, offered and not taken (a
//! transparent slot: the break choices stay, so no path gets longer), and the result is checked
//! again, for at most `Options::repair_rounds` rounds. The slots added are then taken back one
//! at a time where the run completes without them. What was added and why is in
//! `Placement::capacity`; a deadlock left is an error naming the cycle (HS6005), never a silent
//! file.

use hsir_analysis::diagnostics::{Diagnostic, DiagnosticCode};
use hsir_analysis::ir::{Def, OpId, ValueId};

use super::edit::{self, TextEdit};
use super::graph::Graph;
use super::timing::TimingModel;
use super::{mapped, Options, Placement};
use crate::capacity::{self, Verdict, Wait};
use crate::program::{Func, Program};

/// What the capacity model said about a placement.
#[derive(Debug, Clone, PartialEq)]
pub enum Capacity {
    /// It runs the stimulus to the end in this many cycles; `added` is empty unless a deadlock
    /// was repaired.
    Runs { cycles: u64, added: Vec<Added>, deadlock: Option<String> },
    /// It deadlocks and the repair could not help; the message names the cycle.
    Deadlocks { message: String, added: Vec<Added> },
    /// The model could not judge it (an op it does not model, no stimulus, a run past its
    /// cycle limit): the placement is as the MILPs left it.
    Unchecked(String),
}

/// Slots added to one channel for a deadlock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Added {
    pub channel: usize,
    pub slots: u32,
}

impl Capacity {
    pub fn added(&self) -> &[Added] {
        match self {
            Capacity::Runs { added, .. } | Capacity::Deadlocks { added, .. } => added,
            Capacity::Unchecked(_) => &[],
        }
    }

    /// One sentence for people, naming channels by `graph`'s labels.
    pub fn describe(&self, graph: &Graph) -> String {
        let list = |added: &[Added]| {
            added
                .iter()
                .map(|a| {
                    let ch = &graph.channels[a.channel];
                    format!(
                        "{} on {} → {}",
                        if a.slots == 1 {
                            "1 slot".to_string()
                        } else {
                            format!("{} slots", a.slots)
                        },
                        graph.units[ch.from].label,
                        graph.units[ch.to].label
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Capacity::Runs { cycles, added, deadlock: None } if added.is_empty() => {
                format!("runs its stimulus in {cycles} cycles")
            }
            Capacity::Runs { cycles, added, deadlock } => format!(
                "deadlocked ({}); added {} (transparent), then it runs its stimulus in {cycles} cycles",
                deadlock.as_deref().unwrap_or("a circular wait"),
                list(added)
            ),
            Capacity::Deadlocks { message, added } if added.is_empty() => {
                format!("deadlocks: {message}")
            }
            Capacity::Deadlocks { message, added } => {
                format!("deadlocks even with {} added: {message}", list(added))
            }
            Capacity::Unchecked(why) => format!("not checked: {why}"),
        }
    }
}

/// Checks `placement` of `func` (written into `text` with the other functions' `edits`) and
/// repairs a deadlock. Returns the function's edits, rewritten when slots were added.
pub fn check_and_repair(
    func: &Func,
    placement: &mut Placement,
    text: &str,
    others: &[TextEdit],
    options: &Options,
    timing: &TimingModel,
) -> Vec<TextEdit> {
    let circt =
        edit::form(func) == edit::Form::Syntax(hsir_analysis::dataflow::BufferSyntax::Circt);
    let rebuild = |placement: &mut Placement| {
        let (placed, removed) = mapped(func, &placement.graph, options, circt, &placement.choices);
        placement.placed = placed;
        placement.removed = removed;
        edit::edits(func, placement, text)
    };
    let graph = placement.graph.clone();
    let run = |own: &[TextEdit]| -> Outcome {
        let placed = match placed_run(func, text, others, own, options.inputs.as_deref()) {
            Ok(placed) => placed,
            Err(why) => return Outcome::Unchecked(why),
        };
        match placed.run.verdict {
            Verdict::Completed { cycles } => Outcome::Runs(cycles),
            Verdict::NotModeled { why, .. } => {
                Outcome::Unchecked(format!("the capacity model does not model it: {why}"))
            }
            Verdict::Limit { cycles } => {
                Outcome::Unchecked(format!("still running after {cycles} cycles"))
            }
            Verdict::Deadlock(d) => {
                let Some(placed_func) = placed.program.func(&func.name) else {
                    return Outcome::Unchecked("the placed function is gone".into());
                };
                let channels = channels_of(&d.waits, placed_func, &graph, timing, options);
                Outcome::Deadlock { message: d.message, after: d.cycle, channels }
            }
        }
    };
    let mut own = edit::edits(func, placement, text);
    let mut added: Vec<Added> = Vec::new();
    let mut first: Option<String> = None;
    let mut rounds = 0;
    let cycles = loop {
        match run(&own) {
            Outcome::Runs(cycles) => break cycles,
            Outcome::Unchecked(why) => {
                placement.capacity = Capacity::Unchecked(why);
                return own;
            }
            Outcome::Deadlock { message, after, channels } => {
                let message = format!("after {after} cycles, {message}");
                first.get_or_insert_with(|| message.clone());
                let targets: Vec<usize> = channels
                    .into_iter()
                    .filter(|&c| placement.graph.channels[c].bufferable)
                    .collect();
                if rounds >= options.repair_rounds || targets.is_empty() {
                    let d = Diagnostic::new(
                        DiagnosticCode::PlacementDeadlock,
                        func.absolute(func.op().name_range),
                        format!(
                            "the placement of `@{}` deadlocks in hardware ({message}){}; it is not written as a working circuit",
                            func.name,
                            if added.is_empty() {
                                String::new()
                            } else {
                                format!(
                                    " even with the {} slots added to the cycles found",
                                    added.iter().map(|a| a.slots).sum::<u32>()
                                )
                            }
                        ),
                    );
                    placement.diagnostics.push(d);
                    placement.capacity = Capacity::Deadlocks { message, added };
                    return own;
                }
                rounds += 1;
                for c in targets {
                    placement.choices[c].slots += 1;
                    match added.iter_mut().find(|a| a.channel == c) {
                        Some(a) => a.slots += 1,
                        None => added.push(Added { channel: c, slots: 1 }),
                    }
                }
                own = rebuild(placement);
            }
        }
    };
    // The slots added, taken back one at a time where the run completes without them.
    let mut cycles = cycles;
    let mut k = 0;
    while k < added.len() {
        let c = added[k].channel;
        placement.choices[c].slots -= 1;
        let trial = rebuild(placement);
        match run(&trial) {
            Outcome::Runs(n) => {
                cycles = n;
                added[k].slots -= 1;
                if added[k].slots == 0 {
                    added.remove(k);
                }
            }
            _ => {
                placement.choices[c].slots += 1;
                k += 1;
            }
        }
    }
    if let Some(why) = &first {
        own = rebuild(placement);
        let list: Vec<String> = added
            .iter()
            .map(|a| {
                let ch = &placement.graph.channels[a.channel];
                format!(
                    "`{}` → `{}`",
                    placement.graph.units[ch.from].label, placement.graph.units[ch.to].label
                )
            })
            .collect();
        placement.diagnostics.push(Diagnostic::new(
            DiagnosticCode::PlacementDeadlockRepaired,
            func.absolute(func.op().name_range),
            format!(
                "the MILPs' placement of `@{}` deadlocked in hardware ({why}); placement added {} transparent slot{} on {}",
                func.name,
                added.iter().map(|a| a.slots).sum::<u32>(),
                if added.iter().map(|a| a.slots).sum::<u32>() == 1 { "" } else { "s" },
                list.join(", ")
            ),
        ));
    }
    placement.capacity = Capacity::Runs { cycles, added, deadlock: first };
    own
}

enum Outcome {
    Runs(u64),
    Deadlock { message: String, after: u64, channels: Vec<usize> },
    Unchecked(String),
}

/// The channels of `graph` (the function as placement saw it) that the deadlock's waits name
/// in the placed function: each wait is a wire from its producer to its consumer; in the placed
/// function's own graph, whose channels hold the buffers placed on them, the channel with the
/// wire's ends among its ops, and from it the channel of `graph` into the same operand of the
/// same unit (placement adds and removes buffers only, so the units are the same, in order).
/// Offered channels first (a slot lets their producer go on); the awaited ones only when none
/// is offered.
fn channels_of(
    waits: &[Wait],
    placed: &Func,
    graph: &Graph,
    timing: &TimingModel,
    options: &Options,
) -> Vec<usize> {
    let Some(after) = placed_graph(placed, graph, timing, options) else { return Vec::new() };
    let item = &placed.item;
    let def_op = |v: ValueId| match item.values[v as usize].def {
        Def::Result { op, .. } => Some(op),
        Def::Arg { .. } => None,
    };
    let find = |w: &Wait| -> Option<usize> {
        let from = w.producer.or_else(|| def_op(w.value));
        let to = w.consumer?;
        let c = after.channels.iter().position(|ch| {
            let mut ops: Vec<Option<OpId>> = vec![after.units[ch.from].op];
            ops.extend(ch.old.iter().map(|&b| Some(b)));
            ops.push(after.units[ch.to].op);
            let at = |op: Option<OpId>| ops.iter().position(|&o| o == op && o.is_some());
            let arg = from.is_none() && after.units[ch.from].op.is_none() && ch.value == w.value;
            let start = if arg { Some(0) } else { at(from) };
            matches!((start, at(Some(to))), (Some(a), Some(b)) if a < b)
        })?;
        let ch = &after.channels[c];
        graph.channels.iter().position(|g| g.to == ch.to && g.operand == ch.operand)
    };
    let mut out = Vec::new();
    for offered in [true, false] {
        for w in waits.iter().filter(|w| w.offered == offered) {
            if let Some(c) = find(w) {
                if !out.contains(&c) {
                    out.push(c);
                }
            }
        }
        if !out.is_empty() {
            break;
        }
    }
    out
}

/// The placed file and its run in the capacity model.
pub(super) struct PlacedRun {
    pub program: Program,
    pub run: capacity::Run,
}

/// `text` with `own` (the function's placement) and `others` (the functions placed before)
/// written in, analysed, and run clock by clock on one invocation (`inputs`, an inputs file's
/// text, or the testbench's draw for seed 1): what the capacity check and the slack search
/// measure. `Err` says why nothing could be run.
pub(super) fn placed_run(
    func: &Func,
    text: &str,
    others: &[TextEdit],
    own: &[TextEdit],
    inputs: Option<&str>,
) -> Result<PlacedRun, String> {
    let all: Vec<TextEdit> = others.iter().chain(own).cloned().collect();
    let placed_text = edit::apply(text, &all);
    let parse = hsir_parser::parse(placed_text.clone());
    let program = Program::analyse(&parse);
    if program.check(&func.name).is_err() {
        return Err("the placed text does not check".into());
    }
    let run = capacity::check_run(&placed_text, &program, &func.name, 1, Some(1), inputs)
        .ok_or("the function's stimulus cannot be read or its untimed run fails")?;
    Ok(PlacedRun { program, run })
}

/// The placed function's own graph, whose channels hold the buffers placed on them (`old`),
/// when its units are those of `graph` (the function as placement saw it), in order:
/// placement adds and removes buffers only, so channel `c` of `graph` is the one of the result
/// into the same operand of the same unit.
pub(super) fn placed_graph(
    placed: &Func,
    graph: &Graph,
    timing: &TimingModel,
    options: &Options,
) -> Option<Graph> {
    let (after, _) = Graph::build(placed, timing, false, options.period);
    let same = after.units.len() == graph.units.len()
        && after.units.iter().zip(&graph.units).all(|(a, b)| a.label == b.label);
    same.then_some(after)
}
