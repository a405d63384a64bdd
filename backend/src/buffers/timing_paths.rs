//! Static timing of a placement: combinational arrival times on the data/valid paths (forwards)
//! and the ready paths (backwards), the longest path, combinational cycles, and the greedy
//! repair that breaks every path longer than the clock period.
//!
//! Conventions, per channel `c`: `dv_in[c]` is when data/valid leave the producer, `dv_out[c]`
//! when they reach the consumer (the same unless a buffer breaks D/V there); `r_in[c]` is when
//! the consumer's ready is settled, `r_out[c]` when it reaches the producer. A pipelined unit
//! (latency > 0) and a memory interface register their data/valid outputs.

use hsir_analysis::dataflow::BufferType;
use hsir_analysis::ops::OpKind;

use super::graph::Graph;
use super::timing::TimingModel;

/// What a placement puts on one channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Choice {
    pub dv: bool,
    pub r: bool,
    /// Slots of the chain (for FPGA20, without the extra ready-breaking buffer).
    pub slots: u32,
}

/// Delays a buffer adds at its ends when it breaks a path.
#[derive(Debug, Clone, Copy)]
pub struct BufferDelays {
    /// Input port to register, data/valid.
    pub dv_in: f64,
    /// Register to output port, data/valid.
    pub dv_out: f64,
    /// Register to output (upstream) port on the ready path.
    pub r_out: f64,
    pub r_in: f64,
}

impl BufferDelays {
    /// The model's delays beyond its overhead (`TimingModel::excess`), as paths add them.
    pub fn from_model(model: &TimingModel, width: u32) -> BufferDelays {
        let dv = model.buffer(BufferType::OneSlotBreakDv, width);
        let r = model.buffer(BufferType::OneSlotBreakR, width);
        BufferDelays {
            dv_in: model.excess(dv.in_port.data.max(dv.in_port.valid)),
            dv_out: model.excess(dv.out_port.data.max(dv.out_port.valid)),
            r_out: model.excess(r.out_port.ready),
            r_in: model.excess(r.in_port.ready),
        }
    }
}

/// Whether a unit registers its data/valid outputs. The function's terminator counts as
/// registered: its outputs leave the circuit, whose environment registers them.
pub fn registered(graph: &Graph, u: usize) -> bool {
    let unit = &graph.units[u];
    unit.timing.latency > 0
        || unit.memory_interface
        || unit.op.is_none()
        || unit.kind.is_some_and(OpKind::is_terminator)
}

/// Whether a unit's ready outputs are computed combinationally from its inputs.
pub fn ready_combinational(graph: &Graph, u: usize) -> bool {
    let unit = &graph.units[u];
    !unit.memory_interface && unit.op.is_some()
}

#[derive(Debug, Clone)]
pub struct Arrivals {
    pub dv_in: Vec<f64>,
    pub dv_out: Vec<f64>,
    /// Valid arrivals alone (at the consumer end), which FPL22's valid-to-ready paths start
    /// from.
    pub v_out: Vec<f64>,
    pub r_in: Vec<f64>,
    pub r_out: Vec<f64>,
    /// A cycle of channels with no data/valid break, when there is one.
    pub dv_cycle: Option<Vec<usize>>,
    pub r_cycle: Option<Vec<usize>>,
}

/// A path longer than the period, for messages.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The channels of the path, in signal order.
    pub channels: Vec<usize>,
    /// The units it crosses, in signal order.
    pub units: Vec<usize>,
    pub delay: f64,
    pub ready: bool,
}

/// Arrival times for `choices`.
pub fn analyse(graph: &Graph, choices: &[Choice], buf: &[BufferDelays]) -> Arrivals {
    let nc = graph.channels.len();
    let mut a = Arrivals {
        dv_in: vec![0.0; nc],
        dv_out: vec![0.0; nc],
        v_out: vec![0.0; nc],
        r_in: vec![0.0; nc],
        r_out: vec![0.0; nc],
        dv_cycle: None,
        r_cycle: None,
    };
    // Data/valid: unit order where a combinational unit comes after its unbroken inputs.
    let dv_edge = |c: usize| !choices[c].dv && !registered(graph, graph.channels[c].to);
    let (order, cycle) = topo(graph, &dv_edge, true);
    a.dv_cycle = cycle;
    for &u in &order {
        let unit = &graph.units[u];
        let (start, valid) = if registered(graph, u) {
            if unit.timing.latency > 0 {
                (unit.out_port_dv(), unit.out_port_v())
            } else {
                (0.0, 0.0)
            }
        } else {
            let inputs = graph.ins[u].iter().map(|&c| a.dv_out[c]).fold(0.0, f64::max);
            let valids = graph.ins[u].iter().map(|&c| a.v_out[c]).fold(0.0, f64::max);
            let valid = (valids + unit.v_delay())
                .max(inputs + unit.cond_to_v_delay())
                .min(inputs + unit.dv_delay());
            (inputs + unit.dv_delay(), valid)
        };
        for &c in &graph.outs[u] {
            a.dv_in[c] = start;
            a.dv_out[c] = if choices[c].dv { buf[c].dv_out } else { start };
            a.v_out[c] = if choices[c].dv { buf[c].dv_out } else { valid };
        }
    }
    // Ready: backwards; a unit's input readies follow its output readies and its inputs' valids.
    let r_edge = |c: usize| !choices[c].r && ready_combinational(graph, graph.channels[c].from);
    let (order, cycle) = topo(graph, &r_edge, false);
    a.r_cycle = cycle;
    for &u in &order {
        let unit = &graph.units[u];
        let value = if ready_combinational(graph, u) {
            let outs = graph.outs[u].iter().map(|&c| a.r_out[c]).fold(0.0, f64::max);
            (outs + unit.r_delay()).max(input_to_ready(graph, u, &a))
        } else {
            0.0
        };
        for &c in &graph.ins[u] {
            a.r_in[c] = value;
            a.r_out[c] = if choices[c].r { buf[c].r_out } else { value };
        }
    }
    a
}

/// When unit `u`'s input readies can settle because of its inputs' valids (VR) and data (CR).
fn input_to_ready(graph: &Graph, u: usize, a: &Arrivals) -> f64 {
    let unit = &graph.units[u];
    let valids = graph.ins[u].iter().map(|&c| a.v_out[c]).fold(0.0, f64::max);
    let data = graph.ins[u].iter().map(|&c| a.dv_out[c]).fold(0.0, f64::max);
    let vr = if unit.v_to_r_delay() > 0.0 { valids + unit.v_to_r_delay() } else { 0.0 };
    let cr = if unit.cond_to_r_delay() > 0.0 { data + unit.cond_to_r_delay() } else { 0.0 };
    vr.max(cr)
}

/// Units in an order where every `edge` channel goes from an earlier to a later unit
/// (`forwards`) or from a later to an earlier one; units on a cycle of such channels are
/// appended at the end, and one such cycle is returned.
pub(crate) fn topo(
    graph: &Graph,
    edge: &dyn Fn(usize) -> bool,
    forwards: bool,
) -> (Vec<usize>, Option<Vec<usize>>) {
    let n = graph.units.len();
    let mut pending = vec![0usize; n];
    for (c, ch) in graph.channels.iter().enumerate() {
        if edge(c) {
            pending[if forwards { ch.to } else { ch.from }] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|&u| pending[u] == 0).collect();
    ready.reverse();
    let mut order = Vec::with_capacity(n);
    while let Some(u) = ready.pop() {
        order.push(u);
        let next = if forwards { &graph.outs[u] } else { &graph.ins[u] };
        for &c in next {
            if !edge(c) {
                continue;
            }
            let ch = &graph.channels[c];
            let v = if forwards { ch.to } else { ch.from };
            pending[v] -= 1;
            if pending[v] == 0 {
                ready.push(v);
            }
        }
    }
    if order.len() == n {
        return (order, None);
    }
    // A cycle among the units left: walk `edge` channels between them until a unit repeats.
    let left: Vec<bool> = (0..n).map(|u| pending[u] > 0).collect();
    let start = (0..n).find(|&u| left[u]).unwrap_or(0);
    let mut path: Vec<usize> = Vec::new();
    let mut seen_at = vec![usize::MAX; n];
    let mut u = start;
    let cycle = loop {
        seen_at[u] = path.len();
        let prev = if forwards { &graph.ins[u] } else { &graph.outs[u] };
        let Some(&c) = prev.iter().find(|&&c| {
            let ch = &graph.channels[c];
            edge(c) && left[if forwards { ch.from } else { ch.to }]
        }) else {
            break Vec::new();
        };
        path.push(c);
        let ch = &graph.channels[c];
        u = if forwards { ch.from } else { ch.to };
        if seen_at[u] != usize::MAX {
            let mut cycle = path[seen_at[u]..].to_vec();
            if forwards {
                cycle.reverse();
            }
            break cycle;
        }
    };
    order.extend((0..n).filter(|&u| left[u]));
    (order, Some(cycle))
}

/// The longest data/valid path ending at the worst point, traced back through the unbroken
/// channels, when it is longer than `period`.
pub fn worst_dv_path(
    graph: &Graph,
    choices: &[Choice],
    a: &Arrivals,
    period: f64,
) -> Option<Violation> {
    // The worst requirement: a combinational unit's outputs, or a registered unit's inputs.
    let mut worst: Option<(f64, usize)> = None; // (delay, channel where the path ends)
    for (c, ch) in graph.channels.iter().enumerate() {
        let end = if registered(graph, ch.to) {
            a.dv_out[c] + graph.units[ch.to].in_port_dv()
        } else {
            a.dv_out[c] + graph.units[ch.to].dv_delay()
        };
        if end > period + 1e-9 && worst.is_none_or(|(d, _)| end > d) {
            worst = Some((end, c));
        }
    }
    let (delay, mut c) = worst?;
    let mut channels = vec![c];
    let mut units = vec![graph.channels[c].to];
    loop {
        let u = graph.channels[c].from;
        units.push(u);
        if choices[c].dv || registered(graph, u) {
            break;
        }
        let Some(&prev) =
            graph.ins[u].iter().max_by(|&&x, &&y| a.dv_out[x].total_cmp(&a.dv_out[y]))
        else {
            break;
        };
        if channels.contains(&prev) {
            break;
        }
        channels.push(prev);
        c = prev;
    }
    channels.reverse();
    units.reverse();
    Some(Violation { channels, units, delay, ready: false })
}

/// The longest ready path, when it is longer than `period`.
pub fn worst_r_path(
    graph: &Graph,
    choices: &[Choice],
    a: &Arrivals,
    period: f64,
) -> Option<Violation> {
    let (c, &delay) = a
        .r_in
        .iter()
        .enumerate()
        .filter(|&(_, &d)| d > period + 1e-9)
        .max_by(|x, y| x.1.total_cmp(y.1))?;
    let mut channels = vec![c];
    let mut units = vec![graph.channels[c].to];
    let mut c = c;
    loop {
        let u = graph.channels[c].to;
        let Some(&next) = graph.outs[u]
            .iter()
            .filter(|&&o| !choices[o].r)
            .max_by(|&&x, &&y| a.r_out[x].total_cmp(&a.r_out[y]))
        else {
            break;
        };
        if channels.contains(&next) || !ready_combinational(graph, u) {
            break;
        }
        channels.push(next);
        units.push(graph.channels[next].to);
        c = next;
    }
    channels.reverse();
    units.reverse();
    Some(Violation { channels, units, delay, ready: true })
}

/// What a unit needs of the period after its inputs arrive: its input ports' setup when it
/// registers them, else its own combinational delay.
pub(crate) fn input_need(graph: &Graph, u: usize) -> f64 {
    let unit = &graph.units[u];
    if registered(graph, u) {
        unit.in_port_dv()
    } else {
        unit.dv_delay()
    }
}

/// The latest a unit's unbroken inputs may arrive: the period less what the unit needs of it,
/// and for a combinational unit less its consumer's need where an output cannot be buffered
/// (channels that cannot be broken carry the consumer's requirement back).
pub(crate) fn input_budget(
    graph: &Graph,
    choices: &[Choice],
    period: f64,
    allowed: &dyn Fn(usize) -> bool,
    u: usize,
) -> f64 {
    let mut limit = period;
    if !registered(graph, u) {
        for &o in &graph.outs[u] {
            if !choices[o].dv && !allowed(o) {
                limit = limit.min(period - input_need(graph, graph.channels[o].to));
            }
        }
    }
    limit - input_need(graph, u)
}

/// Breaks data/valid paths longer than `period` greedily, in signal order: where a unit's
/// inputs arrive too late for its own delay and what follows it, the late inputs get a
/// D/V-breaking buffer. What follows a unit counts when its output cannot be buffered (a memory
/// port): then the unit's inputs must leave room for the consumer's input delay too. Returns
/// the violations no buffer can fix (a unit slower than the period, or late memory ports).
pub fn repair_dv(
    graph: &Graph,
    choices: &mut [Choice],
    buf: &[BufferDelays],
    period: f64,
    allowed: &dyn Fn(usize) -> bool,
) -> Vec<Violation> {
    let eps = 1e-9;
    let mut unfixable = Vec::new();
    let need_at = |u: usize| input_need(graph, u);
    for _round in 0..4 {
        let a = analyse(graph, choices, buf);
        if a.dv_cycle.is_some() {
            return unfixable;
        }
        let dv_edge = |c: usize| !choices[c].dv && !registered(graph, graph.channels[c].to);
        let (order, _) = topo(graph, &dv_edge, true);
        let mut arrival_out = a.dv_out.clone();
        let mut changed = false;
        unfixable.clear();
        for &u in &order {
            let comb = !registered(graph, u);
            let own = need_at(u);
            let budget = input_budget(graph, choices, period, allowed, u);
            for &c in &graph.ins[u] {
                if arrival_out[c] > budget + eps && allowed(c) && !choices[c].dv {
                    choices[c].dv = true;
                    choices[c].slots = choices[c].slots.max(1);
                    arrival_out[c] = buf[c].dv_out;
                    changed = true;
                }
            }
            for &c in &graph.ins[u] {
                let total = arrival_out[c] + need_at(u);
                if total > period + eps {
                    let v = Violation {
                        channels: vec![c],
                        units: vec![graph.channels[c].from, u],
                        delay: total,
                        ready: false,
                    };
                    if !unfixable.contains(&v) {
                        unfixable.push(v);
                    }
                }
            }
            if comb {
                let start = graph.ins[u].iter().map(|&c| arrival_out[c]).fold(0.0, f64::max) + own;
                for &c in &graph.outs[u] {
                    if !choices[c].dv {
                        arrival_out[c] = start;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    unfixable
}

/// Breaks ready paths longer than `period` greedily, against the signal: where a unit's ready
/// outputs (towards its producers) would be too late, the late output channels' readies are
/// broken. Returns the violations no buffer can fix.
pub fn repair_r(
    graph: &Graph,
    choices: &mut [Choice],
    buf: &[BufferDelays],
    period: f64,
    allowed: &dyn Fn(usize) -> bool,
) -> Vec<Violation> {
    let mut unfixable = Vec::new();
    for _round in 0..(graph.channels.len() + 1) {
        let a = analyse(graph, choices, buf);
        if a.r_cycle.is_some() {
            return unfixable;
        }
        // The latest ready input over the period: break the latest of the unit's output readies
        // feeding it, or record it.
        let Some(v) = worst_r_path(graph, choices, &a, period) else { break };
        // The path's own last channel is where the late ready arrives; breaking the ones downstream
        // of it (nearest first) shortens it.
        let breakable =
            v.channels.iter().rev().skip(1).copied().find(|&c| allowed(c) && !choices[c].r);
        if let Some(c) = breakable {
            choices[c].r = true;
            choices[c].slots = choices[c].slots.max(1);
            continue;
        }
        // No ready break helps: the ready is late because the unit's input valids are
        // (FPL22's VR path). Breaking those inputs' data/valid paths makes them early.
        let last = *v.channels.last().unwrap_or(&0);
        let u = graph.channels[last].to;
        let late: Vec<usize> = graph.ins[u]
            .iter()
            .copied()
            .filter(|&i| {
                allowed(i)
                    && !choices[i].dv
                    && (a.v_out[i] + graph.units[u].v_to_r_delay())
                        .max(a.dv_out[i] + graph.units[u].cond_to_r_delay())
                        > period + 1e-9
            })
            .collect();
        if late.is_empty() {
            unfixable.push(v);
            break;
        }
        for i in late {
            choices[i].dv = true;
            choices[i].slots = choices[i].slots.max(1);
        }
    }
    unfixable
}

/// Channels on a data/valid path longer than `period` when only the channels `broken` break
/// paths: the only ones where a new break can help timing. (Arrival from the registers before
/// the channel, plus the longest combinational continuation after it.)
pub fn on_long_paths(
    graph: &Graph,
    choices: &[Choice],
    buf: &[BufferDelays],
    period: f64,
) -> Vec<bool> {
    let a = analyse(graph, choices, buf);
    let nc = graph.channels.len();
    if a.dv_cycle.is_some() {
        return vec![true; nc];
    }
    // Longest continuation: from the consumer's input to the next register, backwards.
    let dv_edge = |c: usize| !choices[c].dv && !registered(graph, graph.channels[c].to);
    let (order, _) = topo(graph, &dv_edge, true);
    let mut after = vec![0.0f64; nc];
    for &u in order.iter().rev() {
        let unit = &graph.units[u];
        let through = if registered(graph, u) {
            unit.in_port_dv()
        } else {
            let outs = graph.outs[u]
                .iter()
                .map(|&o| if choices[o].dv { buf[o].dv_in } else { after[o] })
                .fold(0.0, f64::max);
            unit.dv_delay() + outs
        };
        for &c in &graph.ins[u] {
            after[c] = through;
        }
    }
    (0..nc).map(|c| a.dv_in[c] + after[c] > period + 1e-9).collect()
}
