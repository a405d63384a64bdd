//! Cycle lints (HS2020-HS2022): combinational loops, ready-path loops, and merges whose output
//! circulates without a buffer slot before the fork below them.
//!
//! HS2020-HS2022 apply to functions whose buffers have been placed (see `Context::placed`): an
//! unplaced function is the input of buffer placement, which is there to break its cycles, so
//! reporting each would be noise. A placed function claims its cycles are broken, and one left
//! open is a real defect. A function with no buffers yet gets one HS2023 instead, at
//! Information level (it is a legitimate state of the flow), saying how many cycles placement
//! must break and showing one; RTL generation refuses it (`Program::lint_errors`).
//!
//! What breaks a path: a buffer whose type registers it (`BufferInfo::breaks_dv` /
//! `breaks_r`); a memory interface, whose ports are sequential on both paths; and in
//! Dynamatic's IR, the pipelined units of its timing model (floating-point ops, integer
//! multiplication and division, conversions), which register data and valid but pass ready
//! through, and its `merge` and `control_merge`, whose RTL ends in a slot that registers ready.

use petgraph::graph::NodeIndex;

use super::Context;
use crate::dataflow::{self, Node};
use crate::diagnostics::{Diagnostic, DiagnosticCode as Code};
use crate::ir::{OpId, ValueId};
use crate::ops::OpKind;
use crate::signatures::Style;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Path {
    /// Data and valid.
    Dv,
    /// Ready.
    R,
}

/// Which paths an op other than a buffer registers by itself (a buffer's type says what it
/// breaks), in Dynamatic's RTL when `dynamatic`, else in CIRCT's.
fn registers(kind: OpKind, path: Path, dynamatic: bool) -> bool {
    use OpKind::*;
    match kind {
        // Memories and their interfaces: their ports are sequential, no combinational path
        // runs through them.
        MemController | Lsq | Memory | ExtMemory => true,
        // Dynamatic's pipelined units: a token spends at least a cycle inside, ready is
        // combinational.
        AddF | SubF | MulF | DivF | CmpF | MulI | DivSI | DivUI | RemSI | RemUI | SIToFP
        | UIToFP | FPToSI | FPToUI | ExtF | TruncF => path == Path::Dv && dynamatic,
        // Dynamatic units whose RTL ends in a ready-breaking slot (a TEHB after the merge
        // logic).
        Merge | ControlMerge => path == Path::R && dynamatic,
        // Combinational in both paths (buffers are read from their type before this).
        Func
        | End
        | Return
        | Instance
        | EsiInstance
        | Fork
        | LazyFork
        | Join
        | Mux
        | Br
        | CondBr
        | Sink
        | Source
        | Constant
        | Sync
        | Init
        | Not
        | Select
        | Buffer
        | Oehb
        | Tehb
        | Tfifo
        | Load
        | Store
        | McLoad
        | McStore
        | LsqLoad
        | LsqStore
        | Pack
        | Unpack
        | Bundle
        | Unbundle
        | Compose
        | Decompose
        | Reshape
        | Wait
        | SpecCommit
        | Speculator
        | SpecSave
        | SpecSaveCommit
        | SpeculatingBranch
        | NonSpec
        | Blocker
        | ReadyRemover
        | ValidMerger
        | AddI
        | SubI
        | AndI
        | OrI
        | XOrI
        | ShLI
        | ShRSI
        | ShRUI
        | RemF
        | MaxSI
        | MaxUI
        | MinSI
        | MinUI
        | MaximumF
        | MinimumF
        | MaxNumF
        | MinNumF
        | CeilDivSI
        | CeilDivUI
        | FloorDivSI
        | CmpI
        | NegF
        | AbsF
        | ExtSI
        | ExtUI
        | TruncI
        | IndexCast
        | IndexCastUI
        | Bitcast
        | ArithConstant
        | ArithSelect
        | Stream
        | Gate
        | Carry
        | Invariant
        | PipelineScheduled
        | PipelineUnscheduled
        | PipelineStage
        | PipelineReturn
        | PipelineLatency
        | PipelineLatencyReturn
        | PipelineSrc => false,
    }
}

pub(crate) fn check(cx: &Context<'_>, acc: &mut Vec<Diagnostic>) {
    let breaks = |node: NodeIndex, path: Path| -> bool {
        let Node::Op(op) = cx.graph.node(node) else { return false };
        if let Some(buffer) = &cx.buffers[op as usize] {
            return match path {
                Path::Dv => buffer.breaks_dv(),
                Path::R => buffer.breaks_r(),
            };
        }
        let dynamatic = cx.style == Style::Dynamatic;
        OpKind::of(&cx.item.ops[op as usize]).is_some_and(|k| registers(k, path, dynamatic))
    };
    // A cycle of a subgraph is a cycle of the whole graph: an acyclic function has none, and
    // the searches below stay inside the nodes on the graph's own cycles.
    if !cx.graph.has_cycle() {
        return;
    }
    let graph = &cx.graph;
    // What each node breaks, decided once: the searches below ask for every edge. Only nodes
    // on a cycle are ever asked about.
    let mut breaks_dv = vec![false; graph.node_count()];
    let mut breaks_r = vec![false; graph.node_count()];
    // The nodes on a cycle, in index order: the searches below start only from them.
    let on_cycle: Vec<usize> =
        graph.node_indices().filter(|&n| graph.on_cycle(n)).map(|n| n.index()).collect();
    for &n in &on_cycle {
        breaks_dv[n] = breaks(NodeIndex::new(n), Path::Dv);
        breaks_r[n] = breaks(NodeIndex::new(n), Path::R);
    }
    let open_dv = |n: NodeIndex| !breaks_dv[n.index()];
    let open_r = |n: NodeIndex| !breaks_r[n.index()];
    let cyclic = |n: usize| graph.on_cycle(NodeIndex::new(n));
    // A component of one node is a cycle only if the node feeds itself (`cycle_through` finds
    // none otherwise). The searches stay among the nodes on cycles and the edges between them.
    let trivial =
        |scc: &[NodeIndex]| scc.len() == 1 && !graph.cycle_successors(scc[0]).any(|t| t == scc[0]);

    // Combinational loops: cycles among the ops that do not break data/valid.
    let inside_dv = |n: usize| cyclic(n) && !breaks_dv[n];
    if !cx.placed() {
        let mut components = Vec::new();
        dataflow::strongly_connected_on_cycles(graph, on_cycle.iter().copied(), inside_dv, |scc| {
            if !trivial(scc) {
                components.push(scc.to_vec());
            }
        });
        unplaced(cx, components, &open_dv, acc);
        return;
    }
    dataflow::strongly_connected_on_cycles(graph, on_cycle.iter().copied(), inside_dv, |scc| {
        if trivial(scc) {
            return;
        }
        if let Some(cycle) = cycle_through(cx, scc, scc_start(cx, scc), &open_dv) {
            acc.push(report(cx, Code::CombinationalLoop, &cycle, "data and valid"));
        }
    });

    // Ready loops: cycles among the ops that do not break ready, which some op does break
    // data/valid on (otherwise the cycle is a combinational loop, reported above).
    let inside_r = |n: usize| cyclic(n) && !breaks_r[n];
    dataflow::strongly_connected_on_cycles(graph, on_cycle.iter().copied(), inside_r, |scc| {
        if trivial(scc) {
            return;
        }
        let Some(&registered) = scc.iter().filter(|&&n| breaks_dv[n.index()]).min() else {
            return;
        };
        if let Some(cycle) = cycle_through(cx, scc, registered, &open_r) {
            acc.push(report(cx, Code::ReadyLoop, &cycle, "ready"));
        }
    });

    merges_in_cycles(cx, &on_cycle, acc);
}

/// At most this many simple cycles are counted for HS2023; more are reported as "at least".
const MAX_COUNTED_CYCLES: usize = 1000;
/// The steps of the depth-first search that counts them, at most (bounded work on any graph).
const MAX_COUNT_STEPS: usize = 200_000;

/// HS2023: a function with no buffers placed yet and cycles that nothing breaks: one
/// diagnostic for the function, with the number of such cycles and one of them. `components`
/// are the function's components that hold a cycle, in the order Tarjan's algorithm found them.
fn unplaced(
    cx: &Context<'_>,
    mut components: Vec<Vec<NodeIndex>>,
    open: &dyn Fn(NodeIndex) -> bool,
    acc: &mut Vec<Diagnostic>,
) {
    // An op whose syntax is broken may be wired anyhow; its syntax error says what is wrong.
    if cx.item.ops.iter().any(|op| op.broken) {
        return;
    }
    if components.is_empty() {
        return;
    }
    components.sort_by_key(|scc| {
        let start = scc_start(cx, scc);
        match cx.graph.node(start) {
            Node::Op(op) => cx.item.ops[op as usize].range.start(),
            Node::Arg { .. } => 0.into(),
        }
    });
    let mut count = 0;
    let mut capped = false;
    let mut steps = 0;
    for scc in &components {
        let (n, done) = count_cycles(cx, scc, open, MAX_COUNTED_CYCLES - count, &mut steps);
        count += n;
        if !done || count >= MAX_COUNTED_CYCLES {
            capped = true;
            break;
        }
    }
    let first = &components[0];
    let Some(cycle) = cycle_through(cx, first, scc_start(cx, first), open) else { return };
    let func = &cx.item.ops[0];
    let (name, range) = match func.signature.as_ref().and_then(|s| s.name.as_ref()) {
        Some((name, range)) => (format!("`@{}`", name.trim_start_matches('@')), *range),
        None => ("this function".to_string(), func.name_range),
    };
    let names: Vec<String> =
        cycle.iter().map(|h| format!("`{}`", value_name(cx, h.value))).collect();
    let how_many = match (capped, count) {
        (true, n) => format!("at least {n} cycles"),
        (false, 1) => "1 cycle".to_string(),
        (false, n) => format!("{n} cycles"),
    };
    let loops = match components.len() {
        1 => String::new(),
        n => format!(" in {n} separate loops"),
    };
    // The channels are named in the message rather than as notes: this is one remark for the
    // whole function, and its example is one of possibly many cycles.
    acc.push(Diagnostic::new(
        Code::UnbufferedCycles,
        range,
        format!(
            "{name} has no buffers yet and {how_many}{loops} that no buffer breaks, e.g. {} -> back; its RTL would hold combinational loops, so place buffers first (`hsir buffers`, or the quick fix)",
            names.join(" -> ")
        ),
    ));
}

/// The simple cycles of the component `scc` among the nodes `open` admits, counted up to
/// `limit` and within the shared step budget: each cycle once, from its smallest node (a
/// depth-first search per start node over the larger ones). Returns the count and whether the
/// count is complete.
fn count_cycles(
    cx: &Context<'_>,
    scc: &[NodeIndex],
    open: &dyn Fn(NodeIndex) -> bool,
    limit: usize,
    steps: &mut usize,
) -> (usize, bool) {
    let graph = &cx.graph;
    let mut members: Vec<NodeIndex> = scc.iter().copied().filter(|&n| open(n)).collect();
    members.sort();
    let member = |n: NodeIndex| members.binary_search(&n).is_ok();
    let mut count = 0;
    for (i, &start) in members.iter().enumerate() {
        // Iterative DFS over simple paths from `start` through members greater than it.
        let mut on_path = vec![start];
        let mut stack: Vec<Vec<NodeIndex>> = vec![successors(graph, start)];
        while let Some(top) = stack.last_mut() {
            *steps += 1;
            if *steps > MAX_COUNT_STEPS {
                return (count, false);
            }
            let Some(next) = top.pop() else {
                stack.pop();
                on_path.pop();
                continue;
            };
            if next == start {
                count += 1;
                if count >= limit {
                    return (count, false);
                }
            } else if member(next) && next > members[i] && !on_path.contains(&next) {
                on_path.push(next);
                stack.push(successors(graph, next));
            }
        }
    }
    (count, true)
}

/// The distinct successors of `n`. (All of them, not only those on cycles: each is a step of
/// the count's budget.)
fn successors(graph: &dataflow::FuncGraph, n: NodeIndex) -> Vec<NodeIndex> {
    let mut out: Vec<NodeIndex> = graph.successors(n).collect();
    out.sort();
    out.dedup();
    out
}

/// The node of a component to start its reported cycle from: the first op in text order.
fn scc_start(cx: &Context<'_>, scc: &[NodeIndex]) -> NodeIndex {
    scc.iter()
        .copied()
        .min_by_key(|&n| match cx.graph.node(n) {
            Node::Op(op) => cx.item.ops[op as usize].range.start(),
            Node::Arg { .. } => 0.into(),
        })
        .unwrap_or(scc[0])
}

/// One channel of a reported cycle: the value and the op that consumes it there.
struct Hop {
    value: ValueId,
    use_: u32,
    to: OpId,
}

/// A simple cycle through `start` inside the component `scc`, walking only nodes `open` admits:
/// the channels along it, in order. `None` when the component has no cycle (a single node that
/// does not feed itself).
fn cycle_through(
    cx: &Context<'_>,
    scc: &[NodeIndex],
    start: NodeIndex,
    open: &dyn Fn(NodeIndex) -> bool,
) -> Option<Vec<Hop>> {
    let graph = &cx.graph;
    // By node on a cycle (`cycle_slot`; the search follows only the edges among them): whether
    // the node is in `scc`, and the edge the search reached it by.
    const NONE: dataflow::EdgeId = dataflow::EdgeId::MAX;
    let mut member = vec![false; graph.cycle_node_count()];
    for &n in scc {
        member[graph.cycle_slot(n)] = true;
    }
    let inside = |n: NodeIndex| member[graph.cycle_slot(n)] && open(n);
    // Breadth-first search from `start` back to itself, remembering each node's parent edge.
    let mut parent = vec![NONE; graph.cycle_node_count()];
    // Each node enters it once at most.
    let mut queue = std::collections::VecDeque::with_capacity(graph.cycle_node_count());
    queue.push_back(start);
    let mut closing = None;
    'search: while let Some(n) = queue.pop_front() {
        for (id, link) in graph.cycle_edges_from(n) {
            let t = link.to;
            if !inside(t) {
                continue;
            }
            if t == start {
                closing = Some(id);
                break 'search;
            }
            if parent[graph.cycle_slot(t)] == NONE {
                parent[graph.cycle_slot(t)] = id;
                queue.push_back(t);
            }
        }
    }
    let mut edge = closing?;
    // A hop per node of the cycle, all in `scc`.
    let mut hops = Vec::with_capacity(scc.len());
    loop {
        let &dataflow::Link { from, to, edge: weight } = graph.links().get(edge as usize)?;
        let Node::Op(to) = graph.node(to) else { return None };
        hops.push(Hop { value: weight.value, use_: weight.use_, to });
        if from == start {
            break;
        }
        edge = parent[graph.cycle_slot(from)];
        if edge == NONE {
            return None;
        }
    }
    hops.reverse();
    Some(hops)
}

fn value_name(cx: &Context<'_>, value: ValueId) -> String {
    cx.item.values[value as usize].display(cx.item, crate::ir::group_len(cx.item, value))
}

fn report(cx: &Context<'_>, code: Code, cycle: &[Hop], paths: &str) -> Diagnostic {
    // The hops start at the node the cycle was searched from; the last one closes it there.
    let first = &cx.item.ops[cycle[cycle.len() - 1].to as usize];
    // Each channel's group size once: the message and the notes both name it
    // (`ValueData::push_display`, straight into them).
    let groups: Vec<u32> = cycle.iter().map(|h| crate::ir::group_len(cx.item, h.value)).collect();
    let push_name = |hop: &Hop, group: u32, out: &mut String| {
        cx.item.values[hop.value as usize].push_display(cx.item, group, out);
    };
    let (what, consequence) = match code {
        Code::CombinationalLoop => (
            "combinational loop",
            "a token can race around it within one clock cycle; place a buffer that breaks data and valid (e.g. ONE_SLOT_BREAK_DV) on one of its channels",
        ),
        _ => (
            "ready-path loop",
            "`ready` runs around it combinationally; place a buffer that breaks ready (e.g. ONE_SLOT_BREAK_R) on one of its channels",
        ),
    };
    // The messages are joined from their pieces in one allocation each rather than with
    // `format!`: a function can have hundreds of cycles, each with a note per channel.
    let mut through = String::with_capacity(cycle.len() * 16);
    for (i, (hop, &group)) in cycle.iter().zip(&groups).enumerate() {
        if i > 0 {
            through.push_str(" -> ");
        }
        through.push('`');
        push_name(hop, group, &mut through);
        through.push('`');
    }
    let message = [
        what,
        ": the cycle through ",
        through.as_str(),
        " has no buffer that breaks ",
        paths,
        "; ",
        consequence,
    ]
    .concat();
    let mut d = Diagnostic::new(code, first.name_range, message);
    d.related.reserve(cycle.len());
    for (hop, &group) in cycle.iter().zip(&groups) {
        let use_ = &cx.item.uses[hop.use_ as usize];
        let consumer = cx.item.ops[hop.to as usize].short_name();
        let mut message = String::with_capacity(48 + consumer.len());
        message.push_str("channel `");
        push_name(hop, group, &mut message);
        message.push_str("` into `");
        message.push_str(consumer);
        message.push_str("`, part of the cycle");
        d.related.push(crate::Related { range: use_.range, message });
    }
    d
}

/// HS2022: a merge with several inputs (or an `init`) whose output lies on a cycle and reaches
/// the fork below it without crossing a buffer slot. `on_cycle` lists the nodes on cycles in
/// index order (op order); the others cannot produce a value on a cycle.
fn merges_in_cycles(cx: &Context<'_>, on_cycle: &[usize], acc: &mut Vec<Diagnostic>) {
    if !cx.kinds.has(OpKind::Merge) && !cx.kinds.has(OpKind::Init) {
        return;
    }
    let ops = on_cycle.iter().filter_map(|&n| match cx.graph.node(NodeIndex::new(n)) {
        Node::Op(op) => Some(&cx.item.ops[op as usize]),
        Node::Arg { .. } => None,
    });
    for op in ops {
        let merge_like = match OpKind::of(op) {
            Some(OpKind::Merge) => op.operands.len() >= 2,
            Some(OpKind::Init) => true,
            _ => false,
        };
        if !merge_like || op.results.len() != 1 {
            continue;
        }
        let name = op.short_name();
        let output = cx.item.results(op)[0];
        if !cx.graph.value_on_cycle(cx.item, output) {
            continue;
        }
        let Some(fork) = first_fork_without_slot(cx, output) else { continue };
        let fork_op = &cx.item.ops[fork as usize];
        let mut d = Diagnostic::new(
            Code::MergeInCycle,
            op.name_range,
            format!(
                "`{name}` output `{}` circulates in a cycle and reaches the `{}` below it without a buffer slot; the fork may copy a token back into the merge while another is still waiting at its other input, and the merge can reorder them",
                value_name(cx, output),
                fork_op.short_name(),
            ),
        )
        .with_related(fork_op.name_range, "the first fork below the merge, reached without a slot");
        d.related.push(crate::Related {
            range: cx.item.values[output as usize].range,
            message: "place a buffer (at least one slot) on this channel".to_string(),
        });
        acc.push(d);
    }
}

/// Follows `value` down its first use through single-result ops until a fork; returns the
/// fork if no buffer with a slot was crossed on the way.
fn first_fork_without_slot(cx: &Context<'_>, value: ValueId) -> Option<OpId> {
    let mut current = value;
    for _ in 0..cx.item.ops.len() {
        let values = &cx.item.values[current as usize];
        let &u = cx.item.value_uses(values).first()?;
        let op_id = cx.item.uses[u as usize].op;
        let op = &cx.item.ops[op_id as usize];
        if matches!(OpKind::of(op), Some(OpKind::Fork | OpKind::LazyFork)) {
            return Some(op_id);
        }
        if cx.buffers[op_id as usize].as_ref().is_some_and(|b| b.slot_count().unwrap_or(1) > 0) {
            return None;
        }
        if op.results.len() != 1 {
            return None;
        }
        current = cx.item.results(op)[0];
        if current == value {
            // Back where it started: the walk repeats itself and meets no fork.
            return None;
        }
    }
    None
}
