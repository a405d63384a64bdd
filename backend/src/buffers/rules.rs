//! Seed 000's extra buffering heuristics, as requirements on channels (the MILPs read them as
//! bounds; the heuristic placement starts from them):
//! - memref arguments and memory-interface ports are never buffered (`Graph::build`);
//! - a `merge` with several inputs needs a slot on an output that is on a cycle;
//! - loads and stores attached to an LSQ need a slot on their inputs;
//! - on an LSQ's control path, fork outputs that lead to another group allocation of the same
//!   LSQ break data/valid, and the fork's other outputs get a transparent slot;
//! - FPGA20 only: a ready-breaking buffer after a merge-like op whose output is on a cycle.

use hsir_analysis::ops::OpKind;

use super::cfdfc::Loops;
use super::formulation::Algorithm;
use super::graph::Graph;
use crate::program::Func;

pub const MERGE_SLOT: &str = "merge with several inputs on a cycle: one slot";
pub const LSQ_ACCESS_SLOT: &str = "input of an LSQ access: one slot";
pub const LSQ_OTHER_GROUP: &str = "LSQ control path to another group allocation: breaks data/valid";
pub const LSQ_CONTROL_TRANSPARENT: &str = "LSQ control path: one transparent slot";
pub const MERGE_READY: &str = "FPGA20: output of a merge-like op on a cycle: breaks ready";

pub fn apply(func: &Func, graph: &mut Graph, loops: &Loops, algorithm: Algorithm) {
    let on_cycle = |graph: &Graph, c: usize| {
        let ch = &graph.channels[c];
        ch.bufferable
            && loops.region_of_unit[ch.from].is_some()
            && loops.region_of_unit[ch.from] == loops.region_of_unit[ch.to]
            && loops.cfdfcs.iter().any(|k| k.channels.contains(&c))
    };
    for u in 0..graph.units.len() {
        let kind = graph.units[u].kind;
        let outs = graph.outs[u].clone();
        if kind == Some(OpKind::Merge) && graph.ins[u].len() > 1 {
            for &c in &outs {
                if on_cycle(graph, c) {
                    let ch = &mut graph.channels[c];
                    ch.min_slots = ch.min_slots.max(1);
                    ch.rules.push(MERGE_SLOT);
                }
            }
        }
        if algorithm == Algorithm::Fpga20 && graph.units[u].merge_like {
            for &c in &outs {
                if on_cycle(graph, c) {
                    graph.channels[c].force_r = true;
                    graph.channels[c].rules.push(MERGE_READY);
                }
            }
        }
        if kind.is_some_and(OpKind::is_access) && attached_to_lsq(func, graph, u) {
            for &c in &graph.ins[u].clone() {
                let ch = &mut graph.channels[c];
                if ch.bufferable {
                    ch.min_slots = ch.min_slots.max(1);
                    ch.rules.push(LSQ_ACCESS_SLOT);
                }
            }
        }
        if kind == Some(OpKind::Lsq) {
            lsq_control_paths(func, graph, u);
        }
    }
}

fn attached_to_lsq(func: &Func, graph: &Graph, u: usize) -> bool {
    let Some(op) = graph.units[u].op else { return false };
    let data = &func.item.ops[op as usize];
    if let Some(attr) = func.item.attr_value(data, "handshake.mem_interface") {
        return attr.contains("LSQ");
    }
    graph.outs[u].iter().chain(&graph.ins[u]).any(|&c| {
        let ch = &graph.channels[c];
        let lsq = |u: usize| graph.units[u].kind == Some(OpKind::Lsq);
        lsq(ch.to) || lsq(ch.from)
    })
}

/// The group-allocation operands of an LSQ are its control operands between the first (memory
/// start) and the last (end control), in group order.
fn lsq_control_paths(func: &Func, graph: &mut Graph, lsq: usize) {
    let control: Vec<bool> = graph
        .channels
        .iter()
        .map(|ch| func.ty(ch.value).is_some_and(hsir_analysis::dataflow::is_control))
        .collect();
    let is_control = |c: usize| control[c];
    let mut operands: Vec<usize> = graph.ins[lsq].clone();
    operands.sort_by_key(|&c| graph.channels[c].operand);
    if operands.len() < 2 {
        return;
    }
    let groups: Vec<usize> =
        operands[1..operands.len() - 1].iter().copied().filter(|&c| is_control(c)).collect();
    for (g, &alloc) in groups.iter().enumerate() {
        let fork = graph.channels[alloc].from;
        if !matches!(graph.units[fork].kind, Some(OpKind::Fork | OpKind::LazyFork)) {
            continue;
        }
        for c in graph.outs[fork].clone() {
            if c == alloc || !graph.channels[c].bufferable {
                continue;
            }
            // Follow control channels from here: does one reach another group's allocation?
            let other = reaches_group(graph, &is_control, c, &groups, g);
            let ch = &mut graph.channels[c];
            if other {
                ch.force_dv = Some(true);
                ch.rules.push(LSQ_OTHER_GROUP);
            } else {
                ch.min_transparent = ch.min_transparent.max(1);
                ch.rules.push(LSQ_CONTROL_TRANSPARENT);
            }
        }
    }
}

fn reaches_group(
    graph: &Graph,
    is_control: &dyn Fn(usize) -> bool,
    start: usize,
    groups: &[usize],
    own: usize,
) -> bool {
    let mut seen = vec![false; graph.channels.len()];
    let mut stack = vec![start];
    while let Some(c) = stack.pop() {
        if seen[c] || !is_control(c) {
            continue;
        }
        seen[c] = true;
        if let Some(g) = groups.iter().position(|&x| x == c) {
            if g != own {
                return true;
            }
            continue;
        }
        stack.extend(graph.outs[graph.channels[c].to].iter().copied());
    }
    false
}
