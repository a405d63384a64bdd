//! HS3029: a Dynamatic memory interface told at the start that its requests are over.
//!
//! A `mem_controller` or `lsq` (2025 and later) takes a last operand, `ctrlEnd`
//! (`OpKind::ctrl_end_operand`): the control token meaning "no more requests will come". Its
//! done token, `memEnd`, is offered once `ctrlEnd` has arrived and every request it knows of is
//! done (an LSQ: its queues empty; a controller: the stores its counts announced written), and
//! `end` waits for the done tokens. Dynamatic's CfToHandshake makes `ctrlEnd` the control of the
//! function's return block, which comes after every access. When it is the function's start
//! token instead (through forks and buffers), the interface may say it is done while a loop or
//! a later block is still to send it stores: an LSQ between two groups has empty queues, a
//! controller whose counts came early has none pending. `end` can then fire before the last
//! stores land, and a caller reading memory at `end` sees stale values (Dynamatic's FTD
//! exports do this; `hsir cosim` reports the late writes).
//!
//! The lint fires on an interface whose `ctrlEnd` comes from the start token through `fork`,
//! `lazy_fork` and buffers only, and which serves a store outside the entry block: a
//! `handshake.bb` other than the entry's (0, or the smallest the function uses: a test snippet
//! may start at 1), or, for a store without one, a store some loop feeds (a dataflow cycle
//! upstream of it). A store of the entry block is sent once with the start
//! token, and in a function of one block the start token is the return block's control, which
//! is what Dynamatic intends; so is a store of an LSQ group whose allocation token is the
//! start token itself. Loads are not judged: a load still in flight at `end` changes no
//! memory, and what it reads reaches `end` only through a result (which `end` waits for) or a
//! store (judged at that store's interface).

use std::collections::HashSet;

use petgraph::graph::NodeIndex;

use super::Context;
use crate::dataflow::{self, is_control, Node};
use crate::diagnostics::DiagnosticCode as Code;
use crate::ir::{self, Container, Def, OpId, ValueId};
use crate::ops::OpKind;
use crate::Diagnostic;

pub(crate) fn check(cx: &Context<'_>, acc: &mut Vec<Diagnostic>) {
    if !cx.era.is_dynamatic_style() {
        return;
    }
    let item = cx.item;
    let Some(entry) = item
        .ops
        .first()
        .and_then(|f| cx.item.op_regions(f).first())
        .and_then(|&r| item.regions[r as usize].blocks.first().copied())
    else {
        return;
    };
    let args = &item.blocks[entry as usize].args;
    // The start token: the last control argument (Dynamatic's `start`).
    let Some((start_n, &start)) =
        args.iter().enumerate().rev().find(|(_, &v)| cx.ty(v).is_some_and(is_control))
    else {
        return;
    };
    let start_name = start_label(cx, start_n, start);
    for (id, op) in item.ops.iter().enumerate().skip(1) {
        if op.broken {
            continue;
        }
        let Some(i) = OpKind::ctrl_end_operand(item, op, cx.era) else { continue };
        let use_ = &item.uses[cx.item.operands(op)[i] as usize];
        let Some(ctrl_end) = use_.value else { continue };
        let Some(through) = from_start(cx, ctrl_end, start) else { continue };
        let Some(store) = late_store(cx, id as OpId, start) else { continue };
        let iface = iface_label(cx, id as OpId);
        let store_op = &item.ops[store.op as usize];
        let store_name = match cx.item.results(store_op).first() {
            Some(&v) => format!("`{}` `{}`", store_op.short_name(), name(cx, v)),
            None => format!("`{}`", store_op.short_name()),
        };
        let route = if through.is_empty() {
            String::new()
        } else {
            format!(" through {}", through.join(", "))
        };
        let message = format!(
            "the end control `{}` of {iface} is {start_name}{route}: the interface may report itself done before its {store_name} {} has landed, so `end` may fire before memory is final; Dynamatic's rule makes it the control of the function's return block",
            cx.item.str(use_.text()), store.place
        );
        acc.push(
            Diagnostic::new(Code::CtrlEndFromStart, use_.range, message)
                .with_related(item.values[start as usize].range, "the start token")
                .with_related(store_op.range, "a store that may land after `end`"),
        );
    }
}

/// "the start token `%arg10` (`start`)".
fn start_label(cx: &Context<'_>, n: usize, start: ValueId) -> String {
    let named = cx.item.attr_value(&cx.item.ops[0], "argNames").and_then(|a| {
        crate::attrs::strings(a).and_then(|names| names.get(n).map(|s| s.to_string()))
    });
    match named {
        Some(arg) => format!("the start token `{}` (`{arg}`)", name(cx, start)),
        None => format!("the start token `{}`", name(cx, start)),
    }
}

fn name(cx: &Context<'_>, v: ValueId) -> String {
    cx.item.values[v as usize].display(cx.item, ir::group_len(cx.item, v))
}

/// "`lsq` of `%arg2` (`lsq2`)".
fn iface_label(cx: &Context<'_>, id: OpId) -> String {
    let op = &cx.item.ops[id as usize];
    let mut label = format!("`{}`", op.short_name());
    if let Some(&u) = cx
        .item
        .operands(op)
        .iter()
        .find(|&&u| cx.item.uses[u as usize].container == Container::Bracket)
    {
        label.push_str(&format!(" of `{}`", cx.item.str(cx.item.uses[u as usize].text())));
    }
    if let Some(n) = cx.item.attr_value(op, "handshake.name") {
        label.push_str(&format!(" (`{}`)", n.trim().trim_matches('"')));
    }
    label
}

/// The ops `value` passes through from the start token (`fork`, `lazy_fork`, buffers), when it
/// comes from it through those only.
fn from_start(cx: &Context<'_>, mut value: ValueId, start: ValueId) -> Option<Vec<String>> {
    let item = cx.item;
    let mut through: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    loop {
        if value == start {
            return Some(through);
        }
        if !seen.insert(value) {
            return None;
        }
        let Def::Result { op, .. } = item.values[value as usize].def else { return None };
        let data = &item.ops[op as usize];
        let kind = OpKind::of(data)?;
        let passes = matches!(kind, OpKind::Fork | OpKind::LazyFork)
            || dataflow::is_channel_buffer(item, &cx.buffers, op);
        if !passes || data.operands.len() != 1 {
            return None;
        }
        let key = format!("`{}`", kind.key());
        if !through.contains(&key) {
            through.push(key);
        }
        value = item.uses[cx.item.operands(data)[0] as usize].value?;
    }
}

/// A store the interface serves that may come after the interface said it is done.
struct LateStore {
    op: OpId,
    /// "in block 3", "fed by a loop".
    place: String,
}

/// The first store interface `iface` serves outside the entry block (directly, through
/// buffers, or through an `lsq [MC]` in front of it).
fn late_store(cx: &Context<'_>, iface: OpId, start: ValueId) -> Option<LateStore> {
    let item = cx.item;
    let mut stores: Vec<OpId> = Vec::new();
    // Stores of an LSQ group whose allocation token is the start token: sent with it.
    let mut with_start: Vec<OpId> = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![iface];
    while let Some(op) = stack.pop() {
        if !seen.insert(op) {
            continue;
        }
        let data = &item.ops[op as usize];
        let lsq = OpKind::of(data) == Some(OpKind::Lsq);
        for (j, &u) in cx.item.operands(data).iter().enumerate() {
            let Some(mut v) = item.uses[u as usize].value else { continue };
            // Through buffers.
            let producer = loop {
                let Def::Result { op: p, .. } = item.values[v as usize].def else { break None };
                if dataflow::is_channel_buffer(item, &cx.buffers, p) {
                    match item.uses[item.operands(&item.ops[p as usize])[0] as usize].value {
                        Some(next) => v = next,
                        None => break None,
                    }
                } else {
                    break Some(p);
                }
            };
            let Some(p) = producer else { continue };
            match OpKind::of(&item.ops[p as usize]) {
                Some(k) if k.is_store() && !stores.contains(&p) => {
                    stores.push(p);
                    // An LSQ's group: its allocation token, the last control before the access.
                    let alloc = cx.item.operands(data)[..j]
                        .iter()
                        .rev()
                        .filter(|&&a| item.uses[a as usize].container == Container::Paren)
                        .filter_map(|&a| item.uses[a as usize].value)
                        .find(|&a| cx.ty(a).is_some_and(is_control));
                    if lsq && alloc.is_some_and(|a| from_start(cx, a, start).is_some()) {
                        with_start.push(p);
                    }
                }
                Some(OpKind::Lsq) if p != iface => stack.push(p),
                _ => {}
            }
        }
    }
    stores.retain(|s| !with_start.contains(s));
    stores.sort_unstable();
    // The entry block: Dynamatic's bb 0, or the first block a snippet without one uses.
    let entry = item.ops.iter().skip(1).filter_map(|op| block(item, op)).min();
    stores.into_iter().find_map(|s| {
        let op = &item.ops[s as usize];
        match block(item, op) {
            Some(bb) => {
                (Some(bb) != entry).then(|| LateStore { op: s, place: format!("in block {bb}") })
            }
            None => in_loop(cx, s).then(|| LateStore { op: s, place: "fed by a loop".to_string() }),
        }
    })
}

/// The basic block an op came from (`handshake.bb`).
fn block(item: &crate::ir::Item, op: &crate::ir::OpData) -> Option<u64> {
    dataflow::attribute_scalar(item.attr_value(op, "handshake.bb")?).trim().parse().ok()
}

/// Whether a loop feeds op `op`: a dataflow cycle upstream of it that does not pass through a
/// memory interface (a store of a value loaded from its own memory closes a cycle through the
/// interface without any loop).
fn in_loop(cx: &Context<'_>, op: OpId) -> bool {
    let graph = &cx.graph;
    let Some(node) = graph.op_node(op) else { return false };
    let memory = |n: NodeIndex| match graph.node(n) {
        Node::Op(o) => {
            OpKind::of(&cx.item.ops[o as usize]).is_some_and(|k| k.is_interface() || k.is_memory())
        }
        Node::Arg { .. } => false,
    };
    let mut looping = vec![false; graph.node_count()];
    let without_memories = |n: usize| !memory(NodeIndex::new(n));
    dataflow::strongly_connected(
        graph,
        graph.node_indices().map(|n| n.index()),
        without_memories,
        |scc| {
            let cycle = scc.len() > 1 || graph.successors(scc[0]).any(|t| t == scc[0]);
            for n in scc {
                looping[n.index()] = cycle;
            }
        },
    );
    let mut seen = HashSet::new();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if !seen.insert(n) {
            continue;
        }
        if looping[n.index()] {
            return true;
        }
        stack.extend(graph.predecessors(n).filter(|&m| !memory(m)));
    }
    false
}
