//! Static timing analysis of a buffered function under the timing model: its longest
//! register-to-register combinational data path, the units it crosses, and the combinational
//! cycles left.
//!
//! Paths are timed as Dynamatic's FPGA20 times them: by each unit's `data` delay. Registers cut
//! them: a buffer that breaks data/valid (an opaque slot), a pipelined unit (latency > 0), a
//! memory interface, and the function's arguments and outputs (the environment registers them).
//! A path through units of characterized delays `d_1..d_n` costs the model's
//! `overhead + Σ max(0, d_i − overhead)` (`TimingModel::path`): every characterized delay was
//! measured between registers, so it holds one register-to-register overhead, which a path
//! pays once. With no overhead, the plain sum.

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

use super::graph::Graph;
use super::timing::{excess, TimingModel};
use super::timing_paths::{registered, topo, BufferDelays, Choice};
use crate::program::Func;

/// What the analysis found.
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    /// The clock period the path is compared with, ns.
    pub period: f64,
    /// The timing model's register-to-register overhead, ns.
    pub overhead: f64,
    /// The longest register-to-register data path; `None` when the function has no channel.
    pub longest: Option<Path>,
    /// Cycles with no register on them, each as the labels of its units in signal order
    /// (a path around one never ends: such a design has no clock period).
    pub cycles: Vec<Vec<String>>,
}

/// One register-to-register data path.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// Its cost under the model, ns: the overhead plus the delays beyond it.
    pub delay: f64,
    /// The plain sum of the characterized data delays of the units it crosses, ns.
    pub plain: f64,
    /// The register it starts at: `argument %x`, `load0` (a pipelined unit or a memory
    /// interface), `buffer mux0→addi2` (the buffer on that channel), or a source of
    /// constants.
    pub from: String,
    /// The register it ends at, in the same words (`end`: the function's outputs).
    pub to: String,
    /// The combinational units it crosses, in signal order.
    pub units: Vec<PathUnit>,
    /// Its channels, in signal order.
    pub channels: Vec<usize>,
}

/// A combinational unit on a path.
#[derive(Debug, Clone, PartialEq)]
pub struct PathUnit {
    pub label: String,
    /// Its characterized data delay, ns.
    pub delay: f64,
}

impl Timing {
    /// The slack of the longest path at the period, ns (negative: the path is too long).
    pub fn slack(&self) -> Option<f64> {
        self.longest.as_ref().map(|p| self.period - p.delay)
    }
}

impl Path {
    /// `buffer mux0→fork2 → addi2 (1.653) → cmpi0 (1.456) → merge0 (1.125) → buffer
    /// merge0→end0`: its ends and the units with a delay it crosses (not those of none, such
    /// as forks and extensions).
    pub fn describe(&self) -> String {
        let mut parts = vec![self.from.clone()];
        parts.extend(
            self.units
                .iter()
                .filter(|u| u.delay > 0.0)
                .map(|u| format!("{} ({})", u.label, trim(u.delay))),
        );
        parts.push(self.to.clone());
        parts.join(" → ")
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The analysis of `func` as written: its buffers where they are, each unit at its widths.
pub fn analyse_func(func: &Func, timing: &TimingModel, period: f64) -> Timing {
    // Data delays are read from each unit's timing (`data_delay`), whatever its `data_only`.
    let (graph, _) = Graph::build(func, timing, false, period);
    let choices: Vec<Choice> = graph
        .channels
        .iter()
        .map(|ch| Choice { dv: ch.old_dv, r: ch.old_r, slots: ch.old_slots })
        .collect();
    let buf: Vec<BufferDelays> =
        graph.channels.iter().map(|c| BufferDelays::from_model(timing, c.width.max(1))).collect();
    analyse(&graph, &choices, &buf, period)
}

/// The characterized data delay of a combinational unit (0 for a registered one: a pipelined
/// unit, a memory interface, an argument, the terminator).
fn data_delay(graph: &Graph, u: usize) -> f64 {
    if registered(graph, u) {
        0.0
    } else {
        graph.units[u].timing.data
    }
}

/// The analysis of `choices` on `graph` (data delays, whatever the graph's algorithm; `buf`
/// holds the buffers' port delays beyond the overhead, as `BufferDelays::from_model` gives).
pub fn analyse(graph: &Graph, choices: &[Choice], buf: &[BufferDelays], period: f64) -> Timing {
    let overhead = graph.overhead;
    let more = |d: f64| excess(d, overhead);
    let nc = graph.channels.len();
    let through = |c: usize| !choices[c].dv && !registered(graph, graph.channels[c].to);
    let (order, _) = topo(graph, &through, true);
    // Per channel: when data leaves its producer (`start`) and reaches its consumer
    // (`arrive`), in delays beyond the overhead since the path's first register.
    let mut start = vec![0.0f64; nc];
    let mut arrive = vec![0.0f64; nc];
    // Per combinational unit: its latest input.
    let mut latest: Vec<Option<usize>> = vec![None; graph.units.len()];
    let mut done = vec![false; graph.units.len()];
    // Per channel: whether its data comes from a constant (a unit with no inputs) through
    // combinational units only.
    let mut constant = vec![false; nc];
    for &u in &order {
        done[u] = true;
        let unit = &graph.units[u];
        let mut rooted = false;
        let leave = if registered(graph, u) {
            if unit.timing.latency > 0 {
                unit.out_port_dv()
            } else {
                0.0
            }
        } else {
            // The latest input; among equals, one from a register rather than one that leads
            // back to a constant (a unit with no inputs), which no register launches.
            let best = graph.ins[u]
                .iter()
                .copied()
                .filter(|&c| done[graph.channels[c].from] || choices[c].dv)
                .max_by(|&x, &y| {
                    arrive[x].total_cmp(&arrive[y]).then(constant[y].cmp(&constant[x]))
                });
            latest[u] = best;
            rooted = graph.ins[u].is_empty() || best.is_some_and(|c| constant[c]);
            best.map_or(0.0, |c| arrive[c]) + more(data_delay(graph, u))
        };
        for &c in &graph.outs[u] {
            start[c] = leave;
            arrive[c] = if choices[c].dv { buf[c].dv_out } else { leave };
            constant[c] = rooted && !choices[c].dv;
        }
    }
    // Path ends: at a buffer that breaks data/valid, at a registered consumer's inputs, at a
    // combinational unit with no outputs.
    let mut best: Option<(f64, End)> = None;
    let mut consider = |d: f64, end: End| {
        if best.as_ref().is_none_or(|(b, _)| d > *b + 1e-12) {
            best = Some((d, end));
        }
    };
    for (c, ch) in graph.channels.iter().enumerate() {
        if choices[c].dv {
            consider(start[c] + buf[c].dv_in, End::Buffer(c));
        } else if registered(graph, ch.to) {
            let unit = &graph.units[ch.to];
            consider(arrive[c] + unit.in_port_dv(), End::Consumer(c));
        }
    }
    for u in 0..graph.units.len() {
        if !registered(graph, u) && graph.outs[u].is_empty() && !graph.ins[u].is_empty() {
            let d = graph.ins[u].iter().map(|&c| arrive[c]).fold(0.0, f64::max);
            consider(d + more(data_delay(graph, u)), End::Unit(u));
        }
    }
    let longest = best.map(|(d, end)| trace(graph, choices, &latest, d, end));
    Timing { period, overhead, longest, cycles: cycles(graph, &through) }
}

/// Where a path ends.
enum End {
    /// At the buffer on this channel.
    Buffer(usize),
    /// At the registered consumer of this channel.
    Consumer(usize),
    /// At this combinational unit, which has no outputs.
    Unit(usize),
}

fn trace(graph: &Graph, choices: &[Choice], latest: &[Option<usize>], d: f64, end: End) -> Path {
    let label = |u: usize| graph.units[u].label.clone();
    let buffer = |c: usize| {
        format!("buffer {}→{}", label(graph.channels[c].from), label(graph.channels[c].to))
    };
    let register = |u: usize| {
        let unit = &graph.units[u];
        if unit.kind.is_some_and(hsir_analysis::ops::OpKind::is_terminator) {
            format!("{} (the function's outputs)", unit.label)
        } else {
            unit.label.clone()
        }
    };
    let (to, mut unit, mut channels) = match end {
        End::Buffer(c) => (buffer(c), Some(graph.channels[c].from), vec![c]),
        End::Consumer(c) => (register(graph.channels[c].to), Some(graph.channels[c].from), vec![c]),
        End::Unit(u) => (register(u), Some(u), Vec::new()),
    };
    let mut units = Vec::new();
    let from = loop {
        let Some(u) = unit else { break String::new() };
        if registered(graph, u) {
            break register(u);
        }
        if graph.ins[u].is_empty() && data_delay(graph, u) == 0.0 {
            break label(u); // a source: a constant start
        }
        units.push(PathUnit { label: label(u), delay: data_delay(graph, u) });
        let Some(c) = latest[u] else { break format!("{} (no input)", label(u)) };
        if choices[c].dv {
            channels.push(c);
            break buffer(c);
        }
        if channels.contains(&c) {
            break format!("{} (a combinational cycle)", label(u));
        }
        channels.push(c);
        unit = Some(graph.channels[c].from);
    };
    units.reverse();
    channels.reverse();
    let plain = units.iter().map(|u| u.delay).sum();
    Path { delay: graph.path_cost(d), plain, from, to, units, channels }
}

/// One cycle per strongly connected component of the channels no register cuts.
fn cycles(graph: &Graph, through: &dyn Fn(usize) -> bool) -> Vec<Vec<String>> {
    let mut g: DiGraph<usize, usize> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..graph.units.len()).map(|u| g.add_node(u)).collect();
    for (c, ch) in graph.channels.iter().enumerate() {
        if through(c) && !registered(graph, ch.from) {
            g.add_edge(nodes[ch.from], nodes[ch.to], c);
        }
    }
    let mut out = Vec::new();
    for scc in tarjan_scc(&g) {
        let inside = |n: NodeIndex| scc.contains(&n);
        let looped = scc.len() > 1 || g.find_edge(scc[0], scc[0]).is_some();
        if !looped {
            continue;
        }
        // Walk successors inside the component until a unit repeats.
        let mut path = vec![scc[0]];
        let cycle = loop {
            let Some(&last) = path.last() else { break Vec::new() };
            let Some(next) = g.neighbors(last).find(|&n| inside(n)) else { break Vec::new() };
            if let Some(at) = path.iter().position(|&n| n == next) {
                break path[at..].to_vec();
            }
            path.push(next);
        };
        if !cycle.is_empty() {
            out.push(cycle.iter().map(|&n| graph.units[g[n]].label.clone()).collect());
        }
    }
    out
}
