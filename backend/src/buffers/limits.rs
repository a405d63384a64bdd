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
    /// The fewest registers the cycle can hold at the period: its units' latencies, and the
    /// data/valid breaks its combinational units need so that every path between two registers
    /// fits the period (each path pays the overhead once). Breaks go between units, so this
    /// can be more than `ceil((delay − overhead) / (period − overhead))`. At least 1.
    pub registers_needed: u32,
    /// The unit with the longest latency on the cycle, else the one with the longest delay.
    pub slowest: String,
}

impl Recurrence {
    /// One line: `II 2: mux0 → addi2 → cmpi0 → cond_br1 → mux0, 2 registers and 1 token; 4.53
    /// ns of logic, which needs at least 2 registers at 4 ns; slowest unit addi2`. A cycle
    /// with more registers than that has them for paths that join it from outside, or for the
    /// loop's other cycles.
    pub fn describe(&self, period: f64) -> String {
        let mut cycle = self.units.join(" → ");
        if let Some(first) = self.units.first() {
            cycle.push_str(" → ");
            cycle.push_str(first);
        }
        let plural = |n: u32, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        format!(
            "II {}: {cycle}, {} and {}; {:.2} ns of logic, which needs at least {} at {period} \
             ns; slowest unit {}",
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
    // The delays beyond the overhead, as one path would pay them.
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
        registers_needed: fewest_registers(
            &units
                .iter()
                .map(|&u| match registered(graph, u) {
                    true => Stage::Register(graph.units[u].timing.latency),
                    false => Stage::Logic(graph.units[u].dv_delay()),
                })
                .collect::<Vec<_>>(),
            graph.path_budget(period),
        ),
        slowest,
    })
}

/// One unit of a cycle, for `fewest_registers`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stage {
    /// A registered unit, with its latency: it ends one path and starts the next.
    Register(u32),
    /// A combinational unit, with its delay beyond the overhead.
    Logic(f64),
}

/// The fewest registers a cycle of `stages` (in order, the last feeding the first) can hold
/// with every path between two registers at most `budget`: the latencies of its registered
/// units, and breaks on the channels between units. Between two registered units the path is
/// cut greedily, as late as it fits, which is optimal on a line; a cycle with no registered
/// unit tries each channel for its first break. A unit longer than the budget alone gets a path
/// of its own (placement reports that path as unfixable). At least 1.
fn fewest_registers(stages: &[Stage], budget: f64) -> u32 {
    let m = stages.len();
    let line = |start: usize| -> u32 {
        let (mut count, mut used) = (0u32, 0.0f64);
        for k in 0..m {
            match stages[(start + k) % m] {
                Stage::Register(latency) => {
                    count += latency;
                    used = 0.0;
                }
                Stage::Logic(d) => {
                    if used > 0.0 && used + d > budget + 1e-9 {
                        count += 1;
                        used = 0.0;
                    }
                    used += d;
                }
            }
        }
        count
    };
    let fewest = match stages.iter().position(|s| matches!(s, Stage::Register(_))) {
        // Start right after a registered unit: it cuts the cycle into lines.
        Some(r) => line(r + 1),
        // A break on the channel into `start`, then the line from there.
        None => (0..m).map(|start| 1 + line(start)).min().unwrap_or(1),
    };
    fewest.max(1)
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

#[cfg(test)]
mod tests {
    use super::{fewest_registers, Stage};

    #[test]
    fn breaks_fall_between_units() {
        use Stage::Logic;
        // 5.8 ns of logic in a 3.3 ns budget: two paths would hold it if it could be cut
        // anywhere, but at unit boundaries one of two paths is always longer than 3.3.
        let cycle = [Logic(1.9), Logic(1.9), Logic(2.0)];
        assert_eq!(fewest_registers(&cycle, 3.3), 3);
        // Where the units allow it, two.
        let cycle = [Logic(1.0), Logic(2.0), Logic(1.5), Logic(1.3)];
        assert_eq!(fewest_registers(&cycle, 3.3), 2);
        // Within the budget: one.
        assert_eq!(fewest_registers(&[Logic(1.0), Logic(2.0)], 3.3), 1);
        assert_eq!(fewest_registers(&[Logic(0.0)], 3.3), 1);
    }

    #[test]
    fn registered_units_count_their_latency_and_cut_the_path() {
        use Stage::{Logic, Register};
        // A 9-cycle adder alone on its cycle: 9 registers, no break.
        assert_eq!(fewest_registers(&[Register(9), Logic(0.4)], 3.3), 9);
        // The adder ends and starts the path: 2.0 + 2.0 after it is one line that needs a
        // break.
        assert_eq!(fewest_registers(&[Register(2), Logic(2.0), Logic(2.0)], 3.3), 3);
    }
}
