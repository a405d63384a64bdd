//! What limits a loop after placement: its critical recurrence.
//!
//! In a CFDFC every channel carries registers (a data/valid break, and the latency of the unit it
//! leaves) and its back edges carry one token each. A cycle with `R` registers and `T` tokens
//! cannot start iterations more often than one every `R / T` cycles, so the cycle with the
//! largest ratio bounds the loop's initiation interval (slots can lower the throughput further,
//! which the MILP's throughput accounts for; this is the recurrence bound). Found as a maximum
//! ratio cycle: a bisection on the ratio with a longest-path Bellman-Ford that looks for a
//! positive cycle.

use super::cfdfc::Cfdfc;
use super::graph::Graph;
use super::timing_paths::{registered, Choice};

#[derive(Debug, Clone)]
pub struct Recurrence {
    /// Cycles per iteration the cycle forces: its registers over its tokens.
    pub ii: f64,
    /// The cycle's units, by label, in order.
    pub units: Vec<String>,
    /// The cycle's channels, in order.
    pub channels: Vec<usize>,
    /// Registers on the cycle: data/valid breaks plus unit latencies.
    pub registers: u32,
    /// Tokens on the cycle (its back edges).
    pub tokens: u32,
    /// Combinational delay around the cycle, ns, as one register-to-register path would
    /// cost it: the timing model's overhead plus the data/valid delays of its combinational
    /// units beyond it (with no overhead, the plain sum of their delays).
    pub delay: f64,
    /// Registers that delay needs at the period: `ceil((delay − overhead) / (period −
    /// overhead))`, at least 1 (each register starts a path that pays the overhead again).
    pub registers_needed: u32,
    /// The unit with the longest latency on the cycle, else the one with the longest delay.
    pub slowest: String,
}

impl Recurrence {
    /// One line: `II 2: mux0 → addi2 → cmpi0 → cond_br1 → mux0, 2 registers and 1 token; 4.53
    /// ns of logic, which needs 2 registers at 4 ns; slowest unit addi2`.
    pub fn describe(&self, period: f64) -> String {
        let mut cycle = self.units.join(" → ");
        if let Some(first) = self.units.first() {
            cycle.push_str(" → ");
            cycle.push_str(first);
        }
        let plural = |n: u32, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        format!(
            "II {}: {cycle}, {} and {}; {:.2} ns of logic, which needs {} at {period} ns; slowest \
             unit {}",
            trim(self.ii),
            plural(self.registers, "register"),
            plural(self.tokens, "token"),
            self.delay,
            plural(self.registers_needed, "register"),
            self.slowest
        )
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The critical recurrence of `cfdfc` under `choices`, or `None` when it has no cycle with a
/// register (a loop without a register is a combinational cycle, which placement never leaves).
pub fn recurrence(
    graph: &Graph,
    cfdfc: &Cfdfc,
    choices: &[Choice],
    period: f64,
) -> Option<Recurrence> {
    let index = |u: usize| cfdfc.units.binary_search(&u).ok();
    // Edges: (from, to, registers, tokens, channel).
    let edges: Vec<(usize, usize, f64, f64, usize)> = cfdfc
        .channels
        .iter()
        .filter_map(|&c| {
            let ch = &graph.channels[c];
            let (a, b) = (index(ch.from)?, index(ch.to)?);
            let registers = choices[c].dv as u32 + graph.units[ch.from].timing.latency;
            let tokens = cfdfc.back_edges.contains(&c) as u32;
            Some((a, b, registers as f64, tokens as f64, c))
        })
        .collect();
    let n = cfdfc.units.len();
    let total: f64 = edges.iter().map(|e| e.2).sum();
    positive_cycle(n, &edges, 1e-6)?;
    let (mut lo, mut hi) = (1e-6, total + 1.0);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if positive_cycle(n, &edges, mid).is_some() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let cycle = positive_cycle(n, &edges, lo)?;
    let registers: f64 = cycle.iter().map(|&e| edges[e].2).sum();
    let tokens: f64 = cycle.iter().map(|&e| edges[e].3).sum();
    if tokens == 0.0 {
        return None;
    }
    let units: Vec<usize> = cycle.iter().map(|&e| cfdfc.units[edges[e].0]).collect();
    // The delays beyond the overhead: `k` registers split the cycle into `k` paths, each
    // paying the overhead once, so `k` must hold the excess in `k` path budgets.
    let excess: f64 =
        units.iter().filter(|&&u| !registered(graph, u)).map(|&u| graph.units[u].dv_delay()).sum();
    let delay = graph.path_cost(excess);
    let slowest = units
        .iter()
        .copied()
        .max_by(|&a, &b| {
            let (ua, ub) = (&graph.units[a], &graph.units[b]);
            (ua.timing.latency, ua.dv_delay())
                .partial_cmp(&(ub.timing.latency, ub.dv_delay()))
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .map(|u| graph.units[u].label.clone())
        .unwrap_or_default();
    Some(Recurrence {
        ii: registers / tokens,
        units: units.iter().map(|&u| graph.units[u].label.clone()).collect(),
        channels: cycle.iter().map(|&e| edges[e].4).collect(),
        registers: registers as u32,
        tokens: tokens as u32,
        delay,
        registers_needed: ((excess / graph.path_budget(period) - 1e-9).ceil() as u32).max(1),
        slowest,
    })
}

/// A cycle whose `registers − ratio · tokens` is positive, as edge indices in order, if any.
fn positive_cycle(
    n: usize,
    edges: &[(usize, usize, f64, f64, usize)],
    ratio: f64,
) -> Option<Vec<usize>> {
    let mut dist = vec![0.0f64; n];
    let mut pred: Vec<Option<usize>> = vec![None; n];
    let mut last = None;
    for _ in 0..=n {
        last = None;
        for (e, &(a, b, r, t, _)) in edges.iter().enumerate() {
            let w = r - ratio * t;
            if dist[a] + w > dist[b] + 1e-12 {
                dist[b] = dist[a] + w;
                pred[b] = Some(e);
                last = Some(b);
            }
        }
        last?;
    }
    // Still relaxing after n rounds: walk back n steps to land on the cycle, then collect it.
    let mut v = last?;
    for _ in 0..n {
        v = edges[pred[v]?].0;
    }
    let start = v;
    let mut cycle = Vec::new();
    loop {
        let e = pred[v]?;
        cycle.push(e);
        v = edges[e].0;
        if v == start {
            break;
        }
        if cycle.len() > n {
            return None;
        }
    }
    cycle.reverse();
    Some(cycle)
}
