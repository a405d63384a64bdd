//! Timing repair under throughput targets: the search that places data/valid breaks so that every
//! loop keeps a chosen throughput.
//!
//! A loop's throughput in the FPGA20 model is set by its cycles: a cycle holding `B` tokens (its
//! back edges), `L` cycles of unit latency and `X` data/valid breaks runs at most at `B / (L + X)`
//! tokens per cycle, and the loop runs at the minimum over its cycles. So a target `θ` for a loop
//! is a budget on every cycle, `θ·(L + X) ≤ B`, which holds exactly when the loop's graph with
//! channel weights `w = θ·(L_src + x) − back` has no cycle of positive weight. A new break on
//! channel `u → v` keeps the budget when the longest `v ⇝ u` path plus `w + θ` stays at most
//! zero; what is left, over `θ`, is that channel's slack in breaks.
//!
//! The greedy repair (`timing_paths::repair_dv`) breaks each late path at its last channel. Here
//! each late path may be broken at any channel along it whose break makes it fit, and a channel is
//! only taken when every loop through it keeps its budget: off the loops first, or where the
//! loops have the most room. Several targets are tried by the caller; a target that cannot be
//! met fails instead of overspending, except in `negotiate`, which overspends and then makes
//! the breaks on the cycles over budget dearer for its next round.

use super::cfdfc::Loops;
use super::graph::Graph;
use super::timing_paths::{
    analyse, input_budget, registered, topo, Arrivals, BufferDelays, Choice,
};

/// What timing repair reads: the graph, the buffers' delays, the period, and the channels a
/// break may go on.
#[derive(Clone, Copy)]
pub struct Timing<'a> {
    pub graph: &'a Graph,
    pub buf: &'a [BufferDelays],
    /// What one path's delays may add up to: the clock period less the timing model's
    /// overhead (`Graph::path_budget`).
    pub period: f64,
    pub allowed: &'a dyn Fn(usize) -> bool,
}

/// How a late path picks its break among the channels that would fix it and keep the budgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// The channel nearest the path's end (the fewest breaks, as the greedy repair).
    Latest,
    /// The channel whose loops keep the most room; the latest among equals.
    MostSlack,
    /// The latest channel that leaves its loops room for this many more breaks, else the one
    /// with the most room.
    Reserve(u32),
    /// The channel whose break leaves the fewest late inputs in the whole function (one break
    /// before a fork rather than one per branch); the most room among equals.
    MostFixed,
    /// The channel with the least history cost (`negotiate`), among those that keep the
    /// budgets if any does: never fails, may overspend.
    Negotiated,
}

/// The loops' cycle budgets for one set of targets.
pub struct Budgets<'a> {
    graph: &'a Graph,
    loops: &'a Loops,
    /// Target throughput of each CFDFC.
    targets: Vec<f64>,
    /// Per CFDFC, per unit (graph index), the CFDFC's channels leaving it.
    outs: Vec<Vec<Vec<usize>>>,
    /// The CFDFCs each channel belongs to.
    member: Vec<Vec<usize>>,
}

const EPS: f64 = 1e-9;

impl<'a> Budgets<'a> {
    pub fn new(graph: &'a Graph, loops: &'a Loops, targets: Vec<f64>) -> Budgets<'a> {
        let mut member = vec![Vec::new(); graph.channels.len()];
        let mut outs = Vec::new();
        for (k, cfdfc) in loops.cfdfcs.iter().enumerate() {
            let mut o = vec![Vec::new(); graph.units.len()];
            for &c in &cfdfc.channels {
                o[graph.channels[c].from].push(c);
                member[c].push(k);
            }
            outs.push(o);
        }
        Budgets { graph, loops, targets, outs, member }
    }

    /// Weight of channel `c` in CFDFC `k`: the source's latency and the break, at the target
    /// throughput, less a back edge's token.
    fn weight(&self, k: usize, theta: f64, choices: &[Choice], c: usize) -> f64 {
        let ch = &self.graph.channels[c];
        let back = self.loops.cfdfcs[k].back_edges.contains(&c);
        let cost = self.graph.units[ch.from].timing.latency as f64 + choices[c].dv as u8 as f64;
        theta * cost - if back { 1.0 } else { 0.0 }
    }

    /// Longest path from `from` to every unit of CFDFC `k` at throughput `theta`; `None` when a
    /// cycle of positive weight is reachable (the budget is already broken).
    fn longest(&self, k: usize, theta: f64, choices: &[Choice], from: usize) -> Option<Vec<f64>> {
        let n = self.graph.units.len();
        let mut dist = vec![f64::NEG_INFINITY; n];
        dist[from] = 0.0;
        let mut queue = std::collections::VecDeque::from([from]);
        let mut queued = vec![false; n];
        queued[from] = true;
        let mut relaxed = vec![0usize; n];
        let limit = self.loops.cfdfcs[k].units.len() + 1;
        while let Some(u) = queue.pop_front() {
            queued[u] = false;
            for &c in &self.outs[k][u] {
                let v = self.graph.channels[c].to;
                let d = dist[u] + self.weight(k, theta, choices, c);
                if d > dist[v] + EPS {
                    dist[v] = d;
                    relaxed[v] += 1;
                    if relaxed[v] > limit {
                        return None;
                    }
                    if !queued[v] {
                        queued[v] = true;
                        queue.push_back(v);
                    }
                }
            }
        }
        Some(dist)
    }

    /// Whether every loop meets its target with `choices`.
    pub fn met(&self, choices: &[Choice]) -> bool {
        // Every cycle of a CFDFC passes through one of its back edges' targets.
        (0..self.loops.cfdfcs.len()).all(|k| self.met_at(k, self.targets[k], choices))
    }

    /// The throughput each loop reaches with `choices` (its worst cycle's tokens over latency
    /// and breaks), by bisection.
    pub fn achieved(&self, choices: &[Choice]) -> Vec<f64> {
        (0..self.loops.cfdfcs.len())
            .map(|k| {
                let (mut lo, mut hi) = (0.0f64, 1.0f64);
                for _ in 0..40 {
                    let mid = (lo + hi) / 2.0;
                    if self.met_at(k, mid, choices) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                lo
            })
            .collect()
    }

    /// Whether CFDFC `k` reaches throughput `theta` with `choices`.
    fn met_at(&self, k: usize, theta: f64, choices: &[Choice]) -> bool {
        self.loops.cfdfcs[k].back_edges.iter().all(|&b| {
            let h = self.graph.channels[b].to;
            self.longest(k, theta, choices, h).is_some_and(|d| d[h] <= EPS)
        })
    }

    /// Whether channel `c` lies on a cycle that meets its loop's target with no room left.
    pub fn critical(&self, choices: &[Choice], c: usize) -> bool {
        let ch = &self.graph.channels[c];
        self.member[c].iter().any(|&k| {
            let theta = self.targets[k];
            self.longest(k, theta, choices, ch.to).is_some_and(|dist| {
                dist[ch.from] > f64::NEG_INFINITY
                    && dist[ch.from] + self.weight(k, theta, choices, c) >= -1e-6
            })
        })
    }

    /// Breaks channel `c` could still take before a loop through it misses its target
    /// (`f64::INFINITY` off the loops; negative when one more break is over budget).
    pub fn slack(&self, choices: &[Choice], c: usize) -> f64 {
        let ch = &self.graph.channels[c];
        let mut slack = f64::INFINITY;
        for &k in &self.member[c] {
            let theta = self.targets[k].max(EPS);
            let Some(dist) = self.longest(k, theta, choices, ch.to) else {
                return f64::NEG_INFINITY;
            };
            if dist[ch.from] == f64::NEG_INFINITY {
                continue;
            }
            let after = dist[ch.from] + self.weight(k, theta, choices, c) + theta;
            slack = slack.min(-after / theta);
        }
        slack
    }
}

/// What `Pick::Negotiated` adds to a channel's cost when its break overspends a budget.
const OVERSPEND: f64 = 8.0;

/// Negotiated repair (after PathFinder's negotiated congestion): repairs from `start` with the
/// cheapest breaks, and while some loop misses its target, makes the channels on its critical
/// cycles dearer and repairs again, at most `rounds` times. Returns the first placement that
/// meets every target.
pub fn negotiate(
    t: &Timing,
    start: &[Choice],
    budgets: &Budgets,
    rounds: usize,
) -> Option<Vec<Choice>> {
    let graph = t.graph;
    let mut history = vec![0.0; graph.channels.len()];
    for _ in 0..rounds {
        let mut trial = start.to_vec();
        if !repair(t, &mut trial, budgets, Pick::Negotiated, &history) {
            return None;
        }
        if budgets.met(&trial) {
            return Some(trial);
        }
        let achieved = budgets.achieved(&trial);
        let at = Budgets::new(graph, budgets.loops, achieved);
        for (c, h) in history.iter_mut().enumerate() {
            if trial[c].dv && !start[c].dv && at.critical(&trial, c) {
                *h += 1.0;
            }
        }
    }
    None
}

/// Breaks every data/valid path longer than `period`, and every combinational cycle, with
/// breaks that keep `budgets`. Returns `false` when some late path or cycle has no such break
/// (the target is too high); late paths no allowed channel can fix are left to the caller's
/// repair.
pub fn repair(
    t: &Timing,
    choices: &mut [Choice],
    budgets: &Budgets,
    pick: Pick,
    history: &[f64],
) -> bool {
    let Timing { graph, buf, allowed, .. } = *t;
    let nc = graph.channels.len();
    let mut skipped = vec![false; nc];
    for _ in 0..2 * nc + 1 {
        let a = analyse(graph, choices, buf);
        // Candidates: a cycle's open channels, or a late path's fixes, nearest its end first.
        let candidates: Vec<usize> = if let Some(cycle) = &a.dv_cycle {
            cycle.iter().copied().filter(|&c| allowed(c) && !choices[c].dv).collect()
        } else {
            let Some(late) = first_late(t, choices, &a, &skipped) else {
                return true;
            };
            if late.fixes.is_empty() {
                skipped[late.channel] = true;
                continue;
            }
            late.fixes
        };
        if pick == Pick::Negotiated {
            let cost = |c: usize| {
                let over = if budgets.slack(choices, c) < -EPS { OVERSPEND } else { 0.0 };
                history.get(c).copied().unwrap_or(0.0) + over
            };
            // The cheapest; among equals the one that leaves the fewest late inputs (a break
            // before a fork rather than one per branch), then the latest.
            let mut best: Option<(usize, f64, usize)> = None;
            for &c in &candidates {
                let k = cost(c);
                if best.is_some_and(|(_, b, _)| k > b + EPS) {
                    continue;
                }
                let late = late_with(t, choices, c);
                if best.is_none_or(|(_, b, l)| k < b - EPS || late < l) {
                    best = Some((c, k, late));
                }
            }
            let Some(c) = best else {
                return false;
            };
            choices[c.0].dv = true;
            choices[c.0].slots = choices[c.0].slots.max(1);
            continue;
        }
        let mut best: Option<(usize, f64, usize)> = None;
        for &c in &candidates {
            let slack = budgets.slack(choices, c);
            if slack < -EPS {
                continue;
            }
            let late = if pick == Pick::MostFixed { late_with(t, choices, c) } else { 0 };
            let better = match (pick, best) {
                (_, None) => true,
                (Pick::Latest, Some(_)) => false,
                (Pick::MostSlack, Some((_, s, _))) => slack > s + EPS,
                (Pick::Reserve(r), Some((_, s, _))) => s < r as f64 - EPS && slack > s + EPS,
                (Pick::MostFixed, Some((_, s, l))) => late < l || (late == l && slack > s + EPS),
                (Pick::Negotiated, Some(_)) => false,
            };
            if better {
                best = Some((c, slack, late));
            }
        }
        let Some((c, _, _)) = best else {
            return false;
        };
        choices[c].dv = true;
        choices[c].slots = choices[c].slots.max(1);
    }
    false
}

/// The first late input in signal order, and the channels on its path whose break would make it
/// arrive in time, nearest the end first.
struct Late {
    channel: usize,
    fixes: Vec<usize>,
}

fn first_late(t: &Timing, choices: &[Choice], a: &Arrivals, skipped: &[bool]) -> Option<Late> {
    let Timing { graph, buf, period, allowed } = *t;
    let dv_edge = |c: usize| !choices[c].dv && !registered(graph, graph.channels[c].to);
    let (order, _) = topo(graph, &dv_edge, true);
    let mut found = None;
    'units: for &u in &order {
        let budget = input_budget(graph, choices, period, allowed, u);
        for &c in &graph.ins[u] {
            if a.dv_out[c] > budget + EPS && !choices[c].dv && !skipped[c] {
                found = Some((c, budget));
                break 'units;
            }
        }
    }
    let (end, budget) = found?;
    // Walk back along the latest inputs while the path stays combinational.
    let mut fixes = Vec::new();
    let mut c = end;
    for _ in 0..graph.channels.len() {
        let after = a.dv_out[end] - a.dv_in[c] + buf[c].dv_out;
        let upstream = a.dv_in[c] + buf[c].dv_in;
        if choices[c].dv {
            break;
        }
        if allowed(c) && after <= budget + EPS && upstream <= period + EPS {
            fixes.push(c);
        }
        let u = graph.channels[c].from;
        if registered(graph, u) {
            break;
        }
        let Some(&prev) =
            graph.ins[u].iter().max_by(|&&x, &&y| a.dv_out[x].total_cmp(&a.dv_out[y]))
        else {
            break;
        };
        c = prev;
    }
    Some(Late { channel: end, fixes })
}

/// How many unit inputs arrive later than their unit allows, and whether a combinational
/// data/valid cycle is left.
fn late_inputs(t: &Timing, choices: &[Choice]) -> (usize, bool) {
    let Timing { graph, buf, period, allowed } = *t;
    let a = analyse(graph, choices, buf);
    let mut late = 0;
    for u in 0..graph.units.len() {
        let budget = input_budget(graph, choices, period, allowed, u);
        late +=
            graph.ins[u].iter().filter(|&&c| !choices[c].dv && a.dv_out[c] > budget + EPS).count();
    }
    (late, a.dv_cycle.is_some())
}

/// Late inputs with one more break, on `c`.
fn late_with(t: &Timing, choices: &[Choice], c: usize) -> usize {
    let mut trial = choices.to_vec();
    trial[c].dv = true;
    late_inputs(t, &trial).0
}

/// Takes out every break of `choices` that `removable` allows and timing does not need (no more
/// late inputs, no combinational cycle without it): fewer breaks never lower a loop's
/// throughput. Returns how many it took out.
pub fn prune(t: &Timing, choices: &mut [Choice], removable: &dyn Fn(usize) -> bool) -> usize {
    let graph = t.graph;
    let (mut late, _) = late_inputs(t, choices);
    let mut removed = 0;
    for c in 0..graph.channels.len() {
        if !choices[c].dv || !removable(c) {
            continue;
        }
        choices[c].dv = false;
        let (after, cycle) = late_inputs(t, choices);
        if after <= late && !cycle {
            late = after;
            removed += 1;
        } else {
            choices[c].dv = true;
        }
    }
    removed
}

/// Merges breaks across units: where two or more outputs of a combinational unit are broken,
/// one break on its only input may replace them (one break before a fork rather than one per
/// branch), and where two or more inputs are broken, one on its only output (after a merge).
/// A move is kept when timing still holds and every loop keeps its throughput (`budgets`, at
/// what `choices` achieves). Returns the breaks saved.
pub fn hoist(
    t: &Timing,
    choices: &mut [Choice],
    removable: &dyn Fn(usize) -> bool,
    budgets: &Budgets,
) -> usize {
    let Timing { graph, allowed, .. } = *t;
    let (mut late, _) = late_inputs(t, choices);
    let mut saved = 0;
    for _pass in 0..3 {
        let before_pass = saved;
        for u in 0..graph.units.len() {
            if registered(graph, u) {
                continue;
            }
            for (single, many) in [(&graph.ins[u], &graph.outs[u]), (&graph.outs[u], &graph.ins[u])]
            {
                let [one] = single[..] else { continue };
                if choices[one].dv || !allowed(one) {
                    continue;
                }
                let broken: Vec<usize> =
                    many.iter().copied().filter(|&c| choices[c].dv && removable(c)).collect();
                if broken.len() < 2 {
                    continue;
                }
                let before = choices.to_vec();
                for &c in &broken {
                    choices[c].dv = false;
                }
                choices[one].dv = true;
                choices[one].slots = choices[one].slots.max(1);
                let (after, cycle) = late_inputs(t, choices);
                if after <= late && !cycle && budgets.met(choices) {
                    late = after;
                    saved += broken.len() - 1;
                } else {
                    choices.copy_from_slice(&before);
                }
            }
        }
        if saved == before_pass {
            break;
        }
    }
    saved
}
