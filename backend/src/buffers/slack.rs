//! Slack: transparent slots sized by running the circuit, after the MILP.
//!
//! The MILPs size each loop (CFDFC) on its own: a slot that lets one loop run ahead of
//! another, or the next outer iteration start while the last inner loop drains, is worth
//! nothing to them. Dynamatic's `on-merges` placement gets that room by giving every fork
//! output a 5-slot transparent FIFO. Here the room is measured instead: the placed function
//! runs in the cycle-level model (`crate::capacity`, one invocation on the inputs its testbench
//! would draw), once as placed and once with `ROOM` more transparent slots on every channel.
//! When that is faster, each channel gets the slots it used beyond its own (its peak
//! occupancy in that run; at least one where its own slots were all full at once, since a
//! ready-breaking slot that fills takes a new token only once empty), and one more run checks that this is as fast, within `TOLERANCE`
//! (if not, the sizes are doubled). Then, as a producer that runs ahead fills whatever room it
//! is given, every size is halved while that stays as fast, and channels are taken away chunk
//! by chunk (delta debugging); at most `MAX_RUNS` runs in all.
//!
//! Transparent slots (`FIFO_BREAK_NONE`) break no path and add no latency, so the timing the
//! MILP met stays met and the throughput it promised stays; only capacity is added. The search
//! is deterministic: a fixed stimulus (seed 1) and a fixed number of runs.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::edit::TextEdit;
use super::formulation::Algorithm;
use super::timing::TimingModel;
use super::timing_paths::Choice;
use super::{edit, mapping, repair, Options, Placed, Placement};
use crate::capacity::Verdict;
use crate::program::Func;

/// Transparent slots added on every channel in the measuring run.
pub const ROOM: u32 = 16;
/// Runs of the cycle-level model one search may take.
pub const MAX_RUNS: usize = 32;
/// The sized circuit counts as fast when its cycles are within this fraction of the measuring
/// run's.
pub const TOLERANCE: f64 = 0.005;

/// What the search did, for the report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Slack {
    /// Cycles as the MILP placed it, by the cycle-level model.
    pub cycles_before: Option<u64>,
    /// Cycles with the slots kept.
    pub cycles_after: Option<u64>,
    /// Slots added, and on how many channels.
    pub slots: u32,
    pub channels: usize,
    /// Runs of the cycle-level model.
    pub runs: usize,
    pub time: Duration,
    /// Why nothing was tried or kept, when so.
    pub note: Option<String>,
}

impl Slack {
    /// One line for the summary.
    pub fn summary(&self) -> String {
        if let Some(note) = &self.note {
            return format!("slack: {note}");
        }
        match (self.cycles_before, self.cycles_after) {
            (Some(b), Some(a)) if self.slots > 0 => format!(
                "slack: +{} transparent slots on {} channels, {b} -> {a} cycles (cycle-level model, {} runs)",
                self.slots, self.channels, self.runs
            ),
            (Some(b), _) => format!("slack: none needed ({b} cycles; {} runs)", self.runs),
            _ => "slack: not measured".to_string(),
        }
    }
}

/// Adds the transparent slots that make `placement` faster on one invocation of its function.
/// `text` is the file the placement's edits apply to, with `others` (the functions placed
/// before); past `deadline` only the three runs a
/// result needs start (as placed, roomy, sized).
#[allow(clippy::too_many_arguments)]
pub fn tune(
    func: &Func,
    text: &str,
    others: &[TextEdit],
    placement: &mut Placement,
    options: &Options,
    timing: &TimingModel,
    circt: bool,
    deadline: Instant,
) -> Slack {
    let algorithm = options.algorithm;
    let cx = Measure { func, text, others, options, timing };
    let started = Instant::now();
    let mut slack = Slack::default();
    if circt {
        slack.note = Some("not tried: CIRCT's buffers all break data and valid".into());
        return slack;
    }
    let every = candidates(placement);
    if every.is_empty() {
        slack.note = Some("no channel to add slots to".into());
        return slack;
    }
    let run = |extra: &[(usize, u32)], slack: &mut Slack| {
        slack.runs += 1;
        measure(&cx, &with_slots(placement, extra, algorithm))
    };
    let Some((before, _)) = run(&[], &mut slack) else {
        slack.note =
            Some("not measured: the cycle-level model does not complete one invocation".into());
        return slack;
    };
    slack.cycles_before = Some(before);
    slack.cycles_after = Some(before);
    let roomy: Vec<(usize, u32)> = every.iter().map(|&c| (c, ROOM)).collect();
    let faster = |c: u64| (c as f64) < before as f64 * (1.0 - TOLERANCE);
    let (fast, used) = match run(&roomy, &mut slack) {
        Some((c, used)) if faster(c) => (c, used),
        _ => {
            slack.time = started.elapsed();
            return slack;
        }
    };
    let bound = (fast as f64 * (1.0 + TOLERANCE)).floor() as u64;
    // What each channel used beyond its own slots.
    let mut sizes: Vec<(usize, u32)> = every
        .iter()
        .filter_map(|&c| {
            let own = own_slots(placement, c);
            let peak = used.get(&c).copied().unwrap_or(0);
            // A channel whose own slots were all full at once in the roomy run: its producer
            // met back-pressure there (a ready-breaking slot that fills takes a new token only
            // once empty, a bubble each time), so one more slot at least.
            let full = own > 0 && peak >= own;
            (peak > own || full).then(|| (c, (peak.saturating_sub(own).max(1) as u32).min(ROOM)))
        })
        .collect();
    // Check the sizes, doubling them while they are not as fast.
    let mut kept: Option<(u64, Vec<(usize, u32)>)> = None;
    // The first check runs even past the deadline: three runs are the least a result takes.
    let mut first = true;
    while slack.runs < MAX_RUNS && (first || Instant::now() < deadline) && !sizes.is_empty() {
        first = false;
        let Some((cycles, _)) = run(&sizes, &mut slack) else { break };
        if faster(cycles) && kept.as_ref().is_none_or(|(best, _)| cycles < *best) {
            kept = Some((cycles, sizes.clone()));
        }
        if cycles <= bound {
            break;
        }
        for (_, n) in &mut sizes {
            *n = (*n * 2).min(ROOM);
        }
    }
    // A producer that runs ahead fills whatever room it is given: halve every size while that
    // stays as fast, then take channels away, chunk by chunk (delta debugging).
    if let Some((cycles, sizes)) = kept.clone().filter(|(c, _)| *c <= bound) {
        let mut best = (cycles, sizes);
        while slack.runs < MAX_RUNS && Instant::now() < deadline {
            let halved: Vec<(usize, u32)> = best.1.iter().map(|&(c, n)| (c, n / 2)).collect();
            let halved: Vec<(usize, u32)> = halved.into_iter().filter(|&(_, n)| n > 0).collect();
            if halved.len() == best.1.len() && halved == best.1 {
                break;
            }
            match run(&halved, &mut slack) {
                Some((c, _)) if c <= bound && !halved.is_empty() => best = (c, halved),
                _ => break,
            }
        }
        let mut chunks = 2usize;
        while best.1.len() > 1 && slack.runs < MAX_RUNS && Instant::now() < deadline {
            let size = best.1.len().div_ceil(chunks);
            let mut removed_any = false;
            let mut start = 0;
            while start < best.1.len() && slack.runs < MAX_RUNS && Instant::now() < deadline {
                let end = (start + size).min(best.1.len());
                let rest: Vec<(usize, u32)> =
                    best.1[..start].iter().chain(&best.1[end..]).copied().collect();
                match run(&rest, &mut slack) {
                    Some((c, _)) if c <= bound => {
                        best = (c, rest);
                        removed_any = true;
                    }
                    _ => start = end,
                }
            }
            if size == 1 {
                break;
            }
            if !removed_any {
                chunks = (chunks * 2).min(best.1.len());
            }
        }
        kept = Some(best);
    }
    if let Some((cycles, sizes)) = kept {
        *placement = with_slots(placement, &sizes, algorithm);
        slack.cycles_after = Some(cycles);
        slack.slots = sizes.iter().map(|&(_, n)| n).sum();
        slack.channels = sizes.len();
    }
    slack.time = started.elapsed();
    slack
}

/// Candidate channels: every channel (Dynamatic's `on-merges` gives every fork output room; in
/// FTD's circuits the values between loops pass through branches and muxes as well), but those
/// with buffers the placement keeps as they are, and memory ports. A channel whose buffers the
/// placement removes (`--strip`) is a candidate like one that never had any.
fn candidates(placement: &Placement) -> Vec<usize> {
    let graph = &placement.graph;
    let mut placed = vec![false; graph.channels.len()];
    for p in &placement.placed {
        placed[p.channel] = true;
    }
    (0..graph.channels.len())
        .filter(|&c| {
            let ch = &graph.channels[c];
            let gone = ch.old.iter().all(|b| placement.removed.contains(b));
            ch.bufferable && (gone || placed[c])
        })
        .collect()
}

/// The slots the placement gives channel `c`.
fn own_slots(placement: &Placement, c: usize) -> usize {
    placement
        .placed
        .iter()
        .find(|p| p.channel == c)
        .map_or(0, |p| p.chain.iter().map(|&(_, n)| n as usize).sum())
}

/// `placement` with more transparent slots on some channels: `(channel, slots)`.
fn with_slots(placement: &Placement, extra: &[(usize, u32)], algorithm: Algorithm) -> Placement {
    let mut out = placement.clone();
    for &(c, step) in extra {
        match out.placed.iter_mut().find(|p| p.channel == c) {
            Some(p) => {
                p.choice.slots += step;
                // As `place` maps it: FPGA20's ready break is the extra buffer of a channel
                // that breaks ready.
                let Choice { dv, r, slots } = p.choice;
                p.chain = mapping::map(algorithm, dv, r, slots, r);
            }
            None => {
                let choice = Choice { dv: false, r: false, slots: step };
                let chain = mapping::map(algorithm, false, false, step, false);
                out.placed.push(Placed { channel: c, choice, chain });
            }
        }
    }
    out.placed.sort_by_key(|p| p.channel);
    out
}

/// The function's cycles with `placement` written into `text` (with `others`), by the
/// cycle-level model on one invocation (`repair::placed_run`), and the most tokens each
/// channel's buffers held at once; `None` when the model cannot tell (not modelled, a deadlock,
/// the limit).
fn measure(cx: &Measure, placement: &Placement) -> Option<(u64, HashMap<usize, usize>)> {
    let own = edit::edits(cx.func, placement, cx.text);
    let placed =
        repair::placed_run(cx.func, cx.text, cx.others, &own, cx.options.inputs.as_deref()).ok()?;
    let Verdict::Completed { cycles } = placed.run.verdict else { return None };
    let mut used: HashMap<usize, usize> = HashMap::new();
    let after = placed
        .program
        .func(&cx.func.name)
        .and_then(|f| repair::placed_graph(f, &placement.graph, cx.timing, cx.options));
    let Some(after) = after else { return Some((cycles, used)) };
    let graph = &placement.graph;
    for ch in &after.channels {
        let peak: usize =
            (placed.run.peaks.iter()).filter(|(op, _)| ch.old.contains(op)).map(|&(_, p)| p).sum();
        let same = graph.channels.iter().position(|g| g.to == ch.to && g.operand == ch.operand);
        if let (Some(g), true) = (same, peak > 0) {
            *used.entry(g).or_default() += peak;
        }
    }
    Some((cycles, used))
}

/// What every run of one search shares.
struct Measure<'a> {
    func: &'a Func,
    text: &'a str,
    others: &'a [TextEdit],
    options: &'a Options,
    timing: &'a TimingModel,
}
