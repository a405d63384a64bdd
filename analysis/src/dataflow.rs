//! The dataflow graph of one `handshake.func`, and what its buffers do to the signals that cross
//! them.
//!
//! Nodes are the function's arguments and the ops of its body; an edge is one use of a channel,
//! from the node that produces it to the op that consumes it. Buffers are ops like any other, so
//! a channel through buffers is a path; `channel_buffers` walks it. Everything here is derived
//! from a lowered `Item` and the value types the checks inferred; nothing reports diagnostics.

use std::cell::OnceCell;

use petgraph::graph::NodeIndex;

use crate::ir::{Attribute, BlockId, Def, Item, OpData, OpId, UseId, ValueId};
use crate::ops::OpKind;
use crate::types::Type;
use hsir_parser::TextRange;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Node {
    /// Argument `n` of the function (its value is the entry block's argument `n`).
    Arg {
        n: u32,
        value: ValueId,
    },
    Op(OpId),
}

/// One use of a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    pub value: ValueId,
    pub use_: UseId,
    /// The use's position among its op's operands.
    pub operand: u32,
}

/// An edge of the graph: the use `edge`, from the node that produces its channel to the node
/// that consumes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    pub from: NodeIndex,
    pub to: NodeIndex,
    pub edge: Edge,
}

/// An edge's index in `FuncGraph::links`.
pub type EdgeId = u32;

/// Adjacency of a fixed graph as flat arrays: the edges of node `n` are
/// `ids[start[n]..start[n + 1]]`.
#[derive(Debug, Clone, Default)]
struct Adjacency {
    start: Vec<u32>,
    ids: Vec<EdgeId>,
}

impl Adjacency {
    /// The edges of `links` grouped by the node `end` picks, each group newest edge first (the
    /// order in which petgraph's `Graph` lists a node's edges).
    fn of(nodes: usize, links: &[Link], end: impl Fn(&Link) -> NodeIndex) -> Adjacency {
        let mut start = vec![0u32; nodes + 1];
        for l in links {
            start[end(l).index() + 1] += 1;
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        // Filled from the newest edge, each node's group from its front.
        let mut next: Vec<u32> = start[..nodes].to_vec();
        let mut ids = vec![0; links.len()];
        for (id, l) in links.iter().enumerate().rev() {
            let slot = &mut next[end(l).index()];
            ids[*slot as usize] = id as EdgeId;
            *slot += 1;
        }
        Adjacency { start, ids }
    }

    fn of_node(&self, n: usize) -> &[EdgeId] {
        &self.ids[self.start[n] as usize..self.start[n + 1] as usize]
    }

    /// The edges of `graph` from one node on a cycle to another, grouped by the node they
    /// leave, each group newest edge first, as `of` groups them by `Link::from`. They are
    /// found among the edges entering the nodes on cycles (`on_cycles`, in index order), which
    /// lie grouped by node. Only those nodes' groups are filled in: no other is asked about.
    fn among_cycles(graph: &FuncGraph, on_cycles: &[usize]) -> Adjacency {
        let nodes = graph.node_count();
        let cyclic = &graph.cyclic;
        // First each node's edge count, then where its group starts.
        let mut next = vec![0u32; nodes];
        for &t in on_cycles {
            for l in graph.links_into(t).iter().filter(|l| cyclic[l.from.index()]) {
                next[l.from.index()] += 1;
            }
        }
        let mut start = vec![0u32; nodes + 1];
        let mut at = 0;
        for &t in on_cycles {
            start[t] = at;
            at += next[t];
            start[t + 1] = at;
            next[t] = start[t];
        }
        // Filled from the newest edge (the last node's last), each node's group from its front.
        let mut ids = vec![0; at as usize];
        for &t in on_cycles.iter().rev() {
            let first = graph.incoming[t] as usize;
            for (i, l) in graph.links_into(t).iter().enumerate().rev() {
                if cyclic[l.from.index()] {
                    let slot = &mut next[l.from.index()];
                    ids[*slot as usize] = (first + i) as EdgeId;
                    *slot += 1;
                }
            }
        }
        Adjacency { start, ids }
    }
}

/// The dataflow graph of one function: nodes are its arguments (`0..args`), then its ops in
/// `OpId` order; edges are in the order of their ops and their operands, and each node's
/// successors and predecessors are listed newest edge first.
#[derive(Debug, Clone, Default)]
pub struct FuncGraph {
    /// The value of each argument node.
    arg_values: Vec<ValueId>,
    /// The function's entry block, whose arguments are the argument nodes.
    entry: Option<BlockId>,
    /// How many ops the item has (op 0, the function itself, has no node).
    ops: usize,
    /// The edges, grouped by the node they enter (each op's operands in order).
    links: Vec<Link>,
    /// The edges leaving each node, made when first asked for (`edges_from`): the lints
    /// follow only the edges among the nodes on cycles (`cycle_edges_from`), so most
    /// functions never need them.
    outgoing: OnceCell<Adjacency>,
    /// The edges from a node on a cycle to another, leaving each node in `outgoing`'s order.
    cycle_outgoing: Adjacency,
    /// Each node on a cycle's position among them, in index order (`cycle_slot`); searches
    /// among them keep their state in arrays of `cycle_nodes` entries.
    cycle_slot: Vec<u32>,
    cycle_nodes: usize,
    /// The edges entering node `n` are `links[incoming[n]..incoming[n + 1]]`.
    incoming: Vec<u32>,
    /// The strongly connected component of each node, for those of more than one node,
    /// numbered in the order Tarjan's algorithm completes them (`mark_components`);
    /// `NO_COMPONENT` for every other node (`same_component`).
    scc_of: Vec<u32>,
    /// Whether each node lies on a cycle (`on_cycle`).
    cyclic: Vec<bool>,
    /// Whether any node does.
    has_cycle: bool,
}

/// `FuncGraph::scc_of` of a node in a component of its own.
const NO_COMPONENT: u32 = u32::MAX;

/// The op or argument that defines `value`, as a node.
pub fn producer(graph: &FuncGraph, item: &Item, value: ValueId) -> Option<NodeIndex> {
    graph.producer(item, value)
}

impl FuncGraph {
    /// Builds the graph of a `handshake.func` item (op 0 is the function).
    pub fn build(item: &Item) -> FuncGraph {
        let entry = item
            .ops
            .first()
            .and_then(|f| item.op_regions(f).first())
            .and_then(|&r| item.regions[r as usize].blocks.first().copied());
        let args: &[ValueId] = match entry {
            Some(block) => &item.blocks[block as usize].args,
            None => &[],
        };
        let mut links = Vec::with_capacity(item.uses.len());
        let mut fg = FuncGraph {
            arg_values: args.to_vec(),
            entry,
            ops: item.ops.len(),
            ..FuncGraph::default()
        };
        let nodes = fg.node_count();
        let mut cyclic = vec![false; nodes];
        // Whether every edge entering each node comes from a node of a lower index.
        let mut from_above = vec![true; nodes];
        // The edges are made grouped by the node they enter (the argument nodes, first, have
        // none), so where each node's group ends is known as they are made.
        let mut incoming = vec![0u32; nodes + 1];
        for (id, op) in item.ops.iter().enumerate().skip(1) {
            let to = fg.node_of_op(id);
            for (i, &u) in item.operands(op).iter().enumerate() {
                let Some(value) = item.uses[u as usize].value else { continue };
                let Some(from) = fg.producer(item, value) else { continue };
                if from >= to {
                    from_above[to.index()] = false;
                    cyclic[to.index()] |= from == to;
                }
                links.push(Link { from, to, edge: Edge { value, use_: u, operand: i as u32 } });
            }
            incoming[to.index() + 1] = links.len() as u32;
        }
        fg.incoming = incoming;
        fg.links = links;
        fg.cyclic = cyclic;
        fg.mark_components(&from_above);
        fg
    }

    /// Numbers the strongly connected components of more than one node (`scc_of`) and marks
    /// their nodes as on a cycle (`cyclic`, which already holds the nodes that feed
    /// themselves); then gathers the edges among the nodes on cycles. Tarjan's algorithm runs
    /// on the edges reversed, which have the same components, so that it reads each node's
    /// entering edges where they lie. Roots are taken in index order, and most edges run from
    /// a lower index to a higher one (an op uses values defined above it), so a root whose
    /// predecessors were all visited (and are finished: no search is under way) is a
    /// component of its own, decided without a search; `from_above` says, by node, that all
    /// its predecessors have lower indices, and so were visited, without reading its edges.
    fn mark_components(&mut self, from_above: &[bool]) {
        let n = self.node_count();
        let mut scc_of = vec![NO_COMPONENT; n];
        let mut cyclic = std::mem::take(&mut self.cyclic);
        let mut components = 0;
        let (incoming, links) = (&self.incoming, &self.links);
        tarjan(
            n,
            |v| v,
            0..n,
            |_| true,
            Some(|root: usize| from_above[root]),
            |v| incoming[v] as usize..incoming[v + 1] as usize,
            |position| links[position].from.index(),
            |scc| {
                if scc.len() > 1 {
                    for x in scc {
                        scc_of[x.index()] = components;
                        cyclic[x.index()] = true;
                    }
                    components += 1;
                }
            },
        );
        self.cyclic = cyclic;
        self.scc_of = scc_of;
        self.has_cycle = self.cyclic.contains(&true);
        if self.has_cycle {
            let on_cycles: Vec<usize> = (0..n).filter(|&t| self.cyclic[t]).collect();
            let mut slot = vec![0u32; n];
            for (i, &t) in on_cycles.iter().enumerate() {
                slot[t] = i as u32;
            }
            self.cycle_outgoing = Adjacency::among_cycles(self, &on_cycles);
            self.cycle_slot = slot;
            self.cycle_nodes = on_cycles.len();
        }
    }

    /// The edges entering `n`, oldest first.
    fn links_into(&self, n: usize) -> &[Link] {
        &self.links[self.incoming[n] as usize..self.incoming[n + 1] as usize]
    }

    /// A graph of `nodes` op nodes (op `i + 1` at node `i`) and the given edges, in order and
    /// grouped by the node they enter, with its components, as `build` makes them.
    #[cfg(test)]
    fn from_links(nodes: usize, links: Vec<Link>) -> FuncGraph {
        assert!(links.windows(2).all(|w| w[0].to <= w[1].to));
        let mut incoming = vec![0u32; nodes + 1];
        let mut cyclic = vec![false; nodes];
        let mut from_above = vec![true; nodes];
        for l in &links {
            incoming[l.to.index() + 1] += 1;
            if l.from >= l.to {
                from_above[l.to.index()] = false;
                cyclic[l.to.index()] |= l.from == l.to;
            }
        }
        for i in 0..nodes {
            incoming[i + 1] += incoming[i];
        }
        let mut fg = FuncGraph { ops: nodes + 1, links, incoming, cyclic, ..FuncGraph::default() };
        fg.mark_components(&from_above);
        fg
    }

    /// The edges leaving each node, made on first use.
    fn outgoing(&self) -> &Adjacency {
        self.outgoing.get_or_init(|| Adjacency::of(self.node_count(), &self.links, |l| l.from))
    }

    fn node_of_op(&self, op: usize) -> NodeIndex {
        NodeIndex::new(self.arg_values.len() + op - 1)
    }

    /// The op or argument that defines `value`, as a node.
    pub fn producer(&self, item: &Item, value: ValueId) -> Option<NodeIndex> {
        match item.values[value as usize].def {
            Def::Result { op, .. } => self.op_node(op),
            Def::Arg { block, n } => (Some(block) == self.entry
                && (n as usize) < self.arg_values.len())
            .then(|| NodeIndex::new(n as usize)),
        }
    }

    pub fn node_count(&self) -> usize {
        self.arg_values.len() + self.ops.saturating_sub(1)
    }

    /// Every node, in index order.
    pub fn node_indices(&self) -> impl Iterator<Item = NodeIndex> + Clone {
        (0..self.node_count()).map(NodeIndex::new)
    }

    /// What node `n` stands for.
    pub fn node(&self, n: NodeIndex) -> Node {
        let i = n.index();
        match self.arg_values.get(i) {
            Some(&value) => Node::Arg { n: i as u32, value },
            None => Node::Op((i - self.arg_values.len() + 1) as OpId),
        }
    }

    /// Every edge, in the order of their ops and operands; an `EdgeId` indexes it.
    pub fn links(&self) -> &[Link] {
        &self.links
    }

    /// The edges leaving `n`, newest first.
    pub fn edges_from(&self, n: NodeIndex) -> impl Iterator<Item = (EdgeId, &Link)> + '_ {
        self.outgoing().of_node(n.index()).iter().map(|&e| (e, &self.links[e as usize]))
    }

    /// The edges from `n`, a node on a cycle, to nodes on cycles, newest first: those of
    /// `edges_from` that a search inside the graph's cycles follows.
    pub fn cycle_edges_from(&self, n: NodeIndex) -> impl Iterator<Item = (EdgeId, &Link)> + '_ {
        debug_assert!(self.cyclic[n.index()]);
        self.cycle_outgoing.of_node(n.index()).iter().map(|&e| (e, &self.links[e as usize]))
    }

    /// The edges entering `n`, newest first.
    pub fn edges_into(&self, n: NodeIndex) -> impl Iterator<Item = &Link> + '_ {
        self.links_into(n.index()).iter().rev()
    }

    /// The nodes `n` feeds, once per edge, newest edge first.
    pub fn successors(&self, n: NodeIndex) -> impl Iterator<Item = NodeIndex> + '_ {
        self.outgoing().of_node(n.index()).iter().map(|&e| self.links[e as usize].to)
    }

    /// The nodes on cycles that `n`, a node on a cycle, feeds, once per edge, newest edge
    /// first.
    pub fn cycle_successors(&self, n: NodeIndex) -> impl Iterator<Item = NodeIndex> + '_ {
        self.cycle_edges_from(n).map(|(_, l)| l.to)
    }

    /// How many nodes lie on cycles.
    pub fn cycle_node_count(&self) -> usize {
        self.cycle_nodes
    }

    /// The position of `n`, a node on a cycle, among the nodes on cycles in index order
    /// (`0..cycle_node_count()`): a search among them indexes its state by it.
    pub fn cycle_slot(&self, n: NodeIndex) -> usize {
        debug_assert!(self.cyclic[n.index()]);
        self.cycle_slot[n.index()] as usize
    }

    /// The nodes that feed `n`, once per edge, newest edge first.
    pub fn predecessors(&self, n: NodeIndex) -> impl Iterator<Item = NodeIndex> + '_ {
        self.links_into(n.index()).iter().rev().map(|l| l.from)
    }

    pub fn op_node(&self, op: OpId) -> Option<NodeIndex> {
        let op = op as usize;
        (op >= 1 && op < self.ops).then(|| self.node_of_op(op))
    }

    /// Whether `node` lies on a cycle: its component has other nodes, or it feeds itself.
    pub fn on_cycle(&self, node: NodeIndex) -> bool {
        self.cyclic[node.index()]
    }

    /// Whether the function has a cycle at all.
    pub fn has_cycle(&self) -> bool {
        self.has_cycle
    }

    /// Whether the channel `value` lies on a cycle: its producer and a consumer share a
    /// component.
    pub fn value_on_cycle(&self, item: &Item, value: ValueId) -> bool {
        let Some(from) = self.producer(item, value) else { return false };
        if !self.cyclic[from.index()] {
            return false;
        }
        // A consumer in `from`'s component is on a cycle too.
        self.cycle_edges_from(from)
            .filter(|(_, l)| l.edge.value == value)
            .any(|(_, l)| self.same_component(from, l.to))
    }

    /// Whether `a` and `b` are in the same strongly connected component.
    pub fn same_component(&self, a: NodeIndex, b: NodeIndex) -> bool {
        let scc = self.scc_of[a.index()];
        a == b || (scc != NO_COMPONENT && scc == self.scc_of[b.index()])
    }

    /// The ops that consume `value`, with the operand position of each use.
    pub fn consumers<'a>(
        &'a self,
        item: &'a Item,
        value: ValueId,
    ) -> impl Iterator<Item = (OpId, u32)> + 'a {
        item.value_uses(&item.values[value as usize]).iter().filter_map(move |&u| {
            let use_ = &item.uses[u as usize];
            let op = &item.ops[use_.op as usize];
            let operand = item.operands(op).iter().position(|&x| x == u)?;
            Some((use_.op, operand as u32))
        })
    }
}

/// Tarjan's strongly connected components of the subgraph of the nodes `inside` admits (by
/// index; edges to other nodes are left out), each passed to `found` as it is completed.
/// `roots` lists, in index order, nodes among which are all those `inside` admits (every node,
/// or fewer known to hold them, so that the others are not visited one by one). Roots are
/// taken in index order and successors newest edge first, as `petgraph::algo::TarjanScc` does
/// on a petgraph `Graph` built edge by edge in the same order; iterative, so deep graphs do not
/// grow the call stack.
pub fn strongly_connected(
    graph: &FuncGraph,
    roots: impl IntoIterator<Item = usize>,
    inside: impl Fn(usize) -> bool,
    found: impl FnMut(&[NodeIndex]),
) {
    let out = graph.outgoing();
    let (n, links) = (graph.node_count(), &graph.links);
    let successors = |v: usize| out.start[v] as usize..out.start[v + 1] as usize;
    let successor = |position: usize| links[out.ids[position] as usize].to.index();
    tarjan(n, |v| v, roots, inside, NO_SHORTCUT, successors, successor, found);
}

/// `strongly_connected` when `inside` admits only nodes on cycles (`FuncGraph::on_cycle`): it
/// follows only the edges among them, which the graph keeps apart, and keeps its state in
/// arrays of their size.
pub fn strongly_connected_on_cycles(
    graph: &FuncGraph,
    roots: impl IntoIterator<Item = usize>,
    inside: impl Fn(usize) -> bool,
    found: impl FnMut(&[NodeIndex]),
) {
    let inside = |n: usize| graph.cyclic[n] && inside(n);
    let slot = |v: usize| graph.cycle_slot[v] as usize;
    let (out, links) = (&graph.cycle_outgoing, &graph.links);
    let successors = |v: usize| out.start[v] as usize..out.start[v + 1] as usize;
    let successor = |position: usize| links[out.ids[position] as usize].to.index();
    tarjan(graph.cycle_nodes, slot, roots, inside, NO_SHORTCUT, successors, successor, found);
}

/// `tarjan` without a way to settle a root before its search.
const NO_SHORTCUT: Option<fn(usize) -> bool> = None;

/// Tarjan's strongly connected components, iterative (deep graphs do not grow the call
/// stack): the one implementation behind `strongly_connected` and `FuncGraph::mark_components`.
/// It searches the nodes `inside` admits (edges to others are left out), keeping each one's
/// state at `slot(node)` among `0..slots`, from `roots` in the order given; the successors of
/// `v` are `successor(p)` for the positions `p` in `successors(v)`, taken in that order. Each
/// component is passed to `found` as it is completed. With `settled`, a root whose successors
/// were all visited already (and so are finished: between roots no search is under way) is
/// found as a component of its own without a search, as the search would find it;
/// `settled(root)` may say so without reading its edges.
#[allow(clippy::too_many_arguments)]
fn tarjan(
    slots: usize,
    slot: impl Fn(usize) -> usize,
    roots: impl IntoIterator<Item = usize>,
    inside: impl Fn(usize) -> bool,
    settled: Option<impl Fn(usize) -> bool>,
    successors: impl Fn(usize) -> std::ops::Range<usize>,
    successor: impl Fn(usize) -> usize,
    mut found: impl FnMut(&[NodeIndex]),
) {
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; slots];
    let mut low = vec![0u32; slots];
    let mut on_stack = vec![false; slots];
    // Both hold at most every node once.
    let mut stack: Vec<NodeIndex> = Vec::with_capacity(slots);
    // Each call: its node and the position of its next successor.
    let mut calls: Vec<(usize, usize)> = Vec::with_capacity(slots);
    let mut next = 0u32;
    for root in roots {
        if !inside(root) || index[slot(root)] != UNSEEN {
            continue;
        }
        let r = slot(root);
        index[r] = next;
        low[r] = next;
        next += 1;
        if let Some(settled) = &settled {
            let visited = |w: usize| !inside(w) || index[slot(w)] != UNSEEN;
            if settled(root) || successors(root).all(|p| visited(successor(p))) {
                found(&[NodeIndex::new(root)]);
                continue;
            }
        }
        stack.push(NodeIndex::new(root));
        on_stack[r] = true;
        calls.push((root, successors(root).start));
        while let Some((v, position)) = calls.last_mut() {
            let v = *v;
            if *position < successors(v).end {
                let w = successor(*position);
                *position += 1;
                if !inside(w) {
                    continue;
                }
                let (sv, sw) = (slot(v), slot(w));
                if index[sw] == UNSEEN {
                    index[sw] = next;
                    low[sw] = next;
                    next += 1;
                    stack.push(NodeIndex::new(w));
                    on_stack[sw] = true;
                    calls.push((w, successors(w).start));
                } else if on_stack[sw] {
                    low[sv] = low[sv].min(index[sw]);
                }
                continue;
            }
            calls.pop();
            let sv = slot(v);
            if let Some(&(u, _)) = calls.last() {
                let su = slot(u);
                low[su] = low[su].min(low[sv]);
            }
            if low[sv] == index[sv] {
                let at = stack.iter().rposition(|&x| x.index() == v).unwrap_or(0);
                for x in &stack[at..] {
                    on_stack[slot(x.index())] = false;
                }
                found(&stack[at..]);
                stack.truncate(at);
            }
        }
    }
}

/// The six buffer implementations of Dynamatic (seed 000).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BufferType {
    OneSlotBreakDv,
    OneSlotBreakR,
    OneSlotBreakDvr,
    FifoBreakDv,
    FifoBreakNone,
    ShiftRegBreakDv,
}

/// Cycles of latency on the data, valid and ready paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Timing {
    pub d: u32,
    pub v: u32,
    pub r: u32,
}

/// Latencies add up along a channel.
impl std::ops::Add for Timing {
    type Output = Timing;

    fn add(self, other: Timing) -> Timing {
        Timing { d: self.d + other.d, v: self.v + other.v, r: self.r + other.r }
    }
}

/// `D: 1, V: 1, R: 0`, the body of Dynamatic's `#handshake<timing {...}>`.
impl std::fmt::Display for Timing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "D: {}, V: {}, R: {}", self.d, self.v, self.r)
    }
}

/// A `TIMING` attribute as written. Dynamatic prints only the latencies it knows
/// (`{R: 1}`), so each one may be left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct WrittenTiming {
    pub d: Option<u32>,
    pub v: Option<u32>,
    pub r: Option<u32>,
}

impl WrittenTiming {
    /// The latencies, with those left out taken as 0.
    pub fn or_zero(self) -> Timing {
        Timing { d: self.d.unwrap_or(0), v: self.v.unwrap_or(0), r: self.r.unwrap_or(0) }
    }

    /// Whether every latency written equals `timing`'s.
    pub fn agrees_with(self, timing: Timing) -> bool {
        [(self.d, timing.d), (self.v, timing.v), (self.r, timing.r)]
            .iter()
            .all(|(written, expected)| written.is_none_or(|w| w == *expected))
    }
}

impl BufferType {
    pub const ALL: [BufferType; 6] = [
        BufferType::OneSlotBreakDv,
        BufferType::OneSlotBreakR,
        BufferType::OneSlotBreakDvr,
        BufferType::FifoBreakDv,
        BufferType::FifoBreakNone,
        BufferType::ShiftRegBreakDv,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BufferType::OneSlotBreakDv => "ONE_SLOT_BREAK_DV",
            BufferType::OneSlotBreakR => "ONE_SLOT_BREAK_R",
            BufferType::OneSlotBreakDvr => "ONE_SLOT_BREAK_DVR",
            BufferType::FifoBreakDv => "FIFO_BREAK_DV",
            BufferType::FifoBreakNone => "FIFO_BREAK_NONE",
            BufferType::ShiftRegBreakDv => "SHIFT_REG_BREAK_DV",
        }
    }

    /// The name the type had before the standard names (seed 000's table).
    pub fn legacy_name(self) -> Option<&'static str> {
        match self {
            BufferType::OneSlotBreakDv => Some("OEHB"),
            BufferType::OneSlotBreakR => Some("TEHB"),
            BufferType::FifoBreakDv => Some("elastic_fifo_inner"),
            BufferType::FifoBreakNone => Some("TFIFO"),
            BufferType::OneSlotBreakDvr | BufferType::ShiftRegBreakDv => None,
        }
    }

    pub fn from_name(name: &str) -> Option<BufferType> {
        BufferType::ALL.into_iter().find(|t| t.name() == name)
    }

    pub fn from_legacy_name(name: &str) -> Option<BufferType> {
        BufferType::ALL.into_iter().find(|t| t.legacy_name() == Some(name))
    }

    /// The type of a case number of Dynamatic's `BufferType` enum, as the generic form writes
    /// it (`bufferType = 0 : i64`).
    pub fn from_enum_case(case: i64) -> Option<BufferType> {
        match case {
            0 => Some(BufferType::OneSlotBreakDv),
            1 => Some(BufferType::OneSlotBreakR),
            2 => Some(BufferType::FifoBreakNone),
            3 => Some(BufferType::FifoBreakDv),
            4 => Some(BufferType::OneSlotBreakDvr),
            5 => Some(BufferType::ShiftRegBreakDv),
            _ => None,
        }
    }

    /// The latencies the type's `TIMING` must state.
    pub fn timing(self) -> Timing {
        match self {
            BufferType::OneSlotBreakDv | BufferType::FifoBreakDv | BufferType::ShiftRegBreakDv => {
                Timing { d: 1, v: 1, r: 0 }
            }
            BufferType::OneSlotBreakR => Timing { d: 0, v: 0, r: 1 },
            BufferType::OneSlotBreakDvr => Timing { d: 1, v: 1, r: 1 },
            BufferType::FifoBreakNone => Timing { d: 0, v: 0, r: 0 },
        }
    }

    /// Whether the type holds exactly one slot.
    pub fn one_slot(self) -> bool {
        matches!(
            self,
            BufferType::OneSlotBreakDv | BufferType::OneSlotBreakR | BufferType::OneSlotBreakDvr
        )
    }
}

/// How a buffer op names its implementation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BufferKind {
    /// One of the six types, by its current name.
    Known(BufferType),
    /// One of the six types, by its legacy name (the text as written).
    Legacy(BufferType, String),
    /// CIRCT's `buffer [N] seq`: a chain of registers that breaks data, valid and ready.
    CirctSeq,
    /// CIRCT's `buffer [N] fifo`: a FIFO with registered outputs; ready passes through.
    CirctFifo,
    /// A type no name was written for, implied by an older era's syntax: Dynamatic 2025's
    /// `{NUM_SLOTS, TIMING}` without `BUFFER_TYPE` (the RTL component its backend chose from
    /// them), or Dynamatic 2024's `oehb [N]` / `tehb [N]` / `tfifo [N]` ops.
    Implied(BufferType),
    /// A name hsir does not know (as written, quotes stripped).
    Unknown(String),
    /// No type written.
    Missing,
}

impl BufferKind {
    /// The type's name as hsir reads it: one of the six (also when written by its legacy name),
    /// CIRCT's `seq` / `fifo`, or an unknown name as written.
    pub fn name(&self) -> Option<&str> {
        match self {
            BufferKind::Known(t) | BufferKind::Legacy(t, _) | BufferKind::Implied(t) => {
                Some(t.name())
            }
            BufferKind::CirctSeq => Some("seq"),
            BufferKind::CirctFifo => Some("fifo"),
            BufferKind::Unknown(name) => Some(name),
            BufferKind::Missing => None,
        }
    }
}

/// Which of the three buffer syntaxes an op uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferSyntax {
    /// `{hw.parameters = {BUFFER_TYPE = "...", NUM_SLOTS = N : ui32, TIMING = #handshake<timing
    /// {D: 1, V: 1, R: 0}>}}`.
    HwParameters,
    /// `buffer %x, bufferType = T, numSlots = N[, dvLatency = L]`.
    Inline,
    /// CIRCT's `buffer [N] seq|fifo %x`.
    Circt,
}

/// A written value with where it was written (relative to the item).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenValue<T> {
    pub value: T,
    pub range: TextRange,
}

/// What a buffer op (or an op configured like one, such as Dynamatic's `init`) says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BufferInfo {
    pub op: OpId,
    pub syntax: BufferSyntax,
    pub kind: BufferKind,
    /// Where the type name was written (the attribute entry, or the `seq` / `fifo` word).
    pub kind_range: Option<TextRange>,
    /// The slot count as written: `Ok(n)` for an integer, `Err(text)` otherwise.
    pub slots: Option<WrittenValue<Result<i64, String>>>,
    /// `TIMING = #handshake<timing {D: d, V: v, R: r}>`, when written; `Err(why)` when not in
    /// that form (see `parse_timing`).
    pub timing: Option<WrittenValue<Result<WrittenTiming, String>>>,
    /// `dvLatency = L`, when written.
    pub dv_latency: Option<WrittenValue<Result<i64, String>>>,
}

impl BufferInfo {
    /// The buffer type the op names, if it names one of the six.
    pub fn buffer_type(&self) -> Option<BufferType> {
        match &self.kind {
            BufferKind::Known(t) | BufferKind::Legacy(t, _) | BufferKind::Implied(t) => Some(*t),
            _ => None,
        }
    }

    /// Slots as a count, when written as a positive integer.
    pub fn slot_count(&self) -> Option<u32> {
        match &self.slots {
            Some(WrittenValue { value: Ok(n), .. }) if *n > 0 => u32::try_from(*n).ok(),
            _ => None,
        }
    }

    /// The latencies of one pass through the buffer: the type's own, or for CIRCT's buffers, one
    /// cycle per slot on the paths they break. A buffer without a known type (Dynamatic's IR
    /// before the type names, `{NUM_SLOTS = 2, TIMING = #handshake<timing {R: 1}>}`) has the
    /// latencies its `TIMING` states.
    pub fn latency(&self) -> Timing {
        let slots = self.slot_count().unwrap_or(1);
        match &self.kind {
            BufferKind::Known(t) | BufferKind::Legacy(t, _) | BufferKind::Implied(t) => match t {
                BufferType::ShiftRegBreakDv => Timing { d: slots, v: slots, r: 0 },
                t => t.timing(),
            },
            BufferKind::CirctSeq => Timing { d: slots, v: slots, r: slots },
            BufferKind::CirctFifo => Timing { d: 1, v: 1, r: 0 },
            BufferKind::Unknown(_) | BufferKind::Missing => match &self.timing {
                Some(WrittenValue { value: Ok(written), .. }) => written.or_zero(),
                _ => Timing::default(),
            },
        }
    }

    /// Whether a token waits at least a cycle here: the data and valid paths are registered.
    pub fn breaks_dv(&self) -> bool {
        let t = self.latency();
        t.d > 0 && t.v > 0
    }

    /// Whether the ready path is registered.
    pub fn breaks_r(&self) -> bool {
        self.latency().r > 0
    }
}

/// Strips surrounding quotes and a `: type` suffix from an attribute value's text.
pub fn attribute_scalar(value: &str) -> &str {
    let value = value.trim();
    let value = match value.rfind(':') {
        // `4 : ui32`, but not `#handshake<timing {D: 1, ...}>`.
        Some(colon) if !value.starts_with('#') && !value.starts_with('{') => value[..colon].trim(),
        _ => value,
    };
    value.trim_matches('"')
}

/// A dictionary entry: key, value text, and the entry's byte range in the dictionary's text.
pub type DictEntry<'t> = (&'t str, &'t str, std::ops::Range<usize>);

/// The entries of a dictionary attribute's text `{K = V, ...}`, with each entry's offset in
/// `text`: key, value text, and the byte range of the whole entry. Nested brackets and strings
/// are kept whole.
pub fn dictionary_entries(text: &str) -> Vec<DictEntry<'_>> {
    let trimmed_start = text.len() - text.trim_start().len();
    let inner_start = trimmed_start + 1;
    let body = text.trim();
    if !body.starts_with('{') || !body.ends_with('}') {
        return Vec::new();
    }
    let inner_end = trimmed_start + body.len() - 1;
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut in_string = false;
    let mut start = inner_start;
    let bytes = text.as_bytes();
    fn push<'t>(text: &'t str, from: usize, to: usize, out: &mut Vec<DictEntry<'t>>) {
        let piece = &text[from..to];
        let lead = piece.len() - piece.trim_start().len();
        let trimmed = piece.trim();
        if trimmed.is_empty() {
            return;
        }
        let range = from + lead..from + lead + trimmed.len();
        match trimmed.split_once('=') {
            Some((k, v)) => out.push((k.trim(), v.trim(), range)),
            None => out.push((trimmed, "", range)),
        }
    }
    let mut i = inner_start;
    while i < inner_end {
        let b = bytes[i];
        if in_string {
            if b == b'\\' {
                i += 1;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'{' | b'[' | b'(' | b'<' => depth += 1,
                b'}' | b']' | b')' | b'>' => depth -= 1,
                b',' if depth == 0 => {
                    push(text, start, i, &mut out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    push(text, start, inner_end, &mut out);
    out
}

/// Reads `#handshake<timing {D: 1, V: 1, R: 0}>` as Dynamatic's parser does: each of `D`, `V`
/// and `R` at most once, any of them left out. The error says what is wrong, as a message
/// fragment.
pub fn parse_timing(text: &str) -> Result<WrittenTiming, String> {
    let text = text.trim();
    let body = text
        .strip_prefix("#handshake<")
        .and_then(|t| t.strip_suffix('>'))
        .and_then(|t| t.trim().strip_prefix("timing"))
        .and_then(|t| t.trim().strip_prefix('{'))
        .and_then(|t| t.trim_end().strip_suffix('}'))
        .ok_or_else(|| {
            format!("`{text}` is not a timing attribute `#handshake<timing {{D: _, V: _, R: _}}>`")
        })?;
    let mut timing = WrittenTiming::default();
    if body.trim().is_empty() {
        return Ok(timing);
    }
    for part in body.split(',') {
        let part = part.trim();
        let Some((key, value)) = part.split_once(':') else {
            return Err(format!("`{part}` is not `KEY: latency`"));
        };
        let (key, value) = (key.trim(), value.trim());
        let slot = match key {
            "D" => &mut timing.d,
            "V" => &mut timing.v,
            "R" => &mut timing.r,
            _ => return Err(format!("`{key}` is not a signal; the keys are `D`, `V` and `R`")),
        };
        if slot.is_some() {
            return Err(format!("`{key}` is given twice"));
        }
        let latency = value
            .parse()
            .map_err(|_| format!("the latency of `{key}` is `{value}`, not a whole number"))?;
        *slot = Some(latency);
    }
    Ok(timing)
}

fn integer(text: &str) -> Result<i64, String> {
    let scalar = attribute_scalar(text);
    scalar.parse::<i64>().map_err(|_| scalar.to_string())
}

/// The buffer type Dynamatic 2025's RTL backend chose for a buffer written with `NUM_SLOTS`
/// and `TIMING` only (its `rtl-config` matches the first component whose latencies agree):
/// data and valid registered is an opaque buffer (one slot) or an opaque FIFO; ready alone is
/// a transparent buffer (one slot) or a transparent FIFO. Anything else had no component.
fn implied_by_timing(timing: &WrittenTiming, slots: u32) -> BufferKind {
    let t = timing.or_zero();
    let ready_only = timing.d.is_none() && timing.v.is_none();
    match (t.d, t.v, t.r, slots) {
        (1, 1, _, 1) => BufferKind::Implied(BufferType::OneSlotBreakDv),
        (1, 1, _, _) => BufferKind::Implied(BufferType::FifoBreakDv),
        (0, 0, 1, 1) if ready_only => BufferKind::Implied(BufferType::OneSlotBreakR),
        (0, 0, 1, _) if ready_only => BufferKind::Implied(BufferType::FifoBreakNone),
        _ => BufferKind::Missing,
    }
}

fn kind_of(name: &str) -> BufferKind {
    if let Some(t) = BufferType::from_name(name) {
        BufferKind::Known(t)
    } else if let Some(t) = BufferType::from_legacy_name(name) {
        BufferKind::Legacy(t, name.to_string())
    } else {
        BufferKind::Unknown(name.to_string())
    }
}

/// The attribute `key` of `op`'s `hw.parameters` dictionary: its value text and the entry's
/// range in the item.
fn hw_parameter<'a>(item: &'a Item, attr: &Attribute, key: &str) -> Option<(&'a str, TextRange)> {
    let value_at = attr.value.range().start();
    dictionary_entries(item.str(attr.value)).into_iter().find(|(k, _, _)| *k == key).map(
        |(_, v, r)| {
            let start = value_at + hsir_parser::TextSize::from(r.start as u32);
            let end = value_at + hsir_parser::TextSize::from(r.end as u32);
            (v, TextRange::new(start, end))
        },
    )
}

/// Whether `buffer_info` may find `op` to be a buffer: a buffer op, or an op with a
/// `hw.parameters` dictionary (which may name a buffer type). Decided without reading the
/// dictionary, so that the usual op is rejected at once.
#[inline]
fn may_be_buffer(item: &Item, op: &OpData) -> bool {
    OpKind::of(op).is_some_and(OpKind::is_buffer)
        || (!op.attrs.is_empty() && item.attr(op, "hw.parameters").is_some())
}

/// What `op` says about itself as a buffer; `None` when it is not a buffer and carries no
/// buffer configuration (an `init` with `hw.parameters = {BUFFER_TYPE = ...}` is read too).
pub fn buffer_info(item: &Item, op: &OpData, id: OpId) -> Option<BufferInfo> {
    if !may_be_buffer(item, op) {
        return None;
    }
    let kind = OpKind::of(op);
    let params = item.attr(op, "hw.parameters");
    let has_param_type = params.is_some_and(|a| hw_parameter(item, a, "BUFFER_TYPE").is_some());
    if kind.is_none_or(|k| !k.is_buffer()) && !has_param_type {
        return None;
    }
    let mut info = BufferInfo {
        op: id,
        syntax: BufferSyntax::Circt,
        kind: BufferKind::Missing,
        kind_range: None,
        slots: None,
        timing: None,
        dv_latency: None,
    };
    if let Some(params) = params {
        info.syntax = BufferSyntax::HwParameters;
        if let Some((v, range)) = hw_parameter(item, params, "BUFFER_TYPE") {
            info.kind = kind_of(attribute_scalar(v));
            info.kind_range = Some(range);
        }
        if let Some((v, range)) = hw_parameter(item, params, "NUM_SLOTS") {
            info.slots = Some(WrittenValue { value: integer(v), range });
        }
        if let Some((v, range)) = hw_parameter(item, params, "TIMING") {
            info.timing = Some(WrittenValue { value: parse_timing(v), range });
        }
        if info.kind == BufferKind::Missing {
            if let (Some(Ok(timing)), Some(slots)) =
                (info.timing.as_ref().map(|t| &t.value), info.slot_count())
            {
                info.kind = implied_by_timing(timing, slots);
            }
        }
        return Some(info);
    }
    // Dynamatic 2024: `oehb [N]`, `tehb [N]`, `tfifo [N]`.
    if let Some(old) = kind.filter(|k| *k != OpKind::Buffer) {
        let n = item.bracket_ints(op).first().copied().unwrap_or(1);
        info.syntax = BufferSyntax::Circt;
        info.slots = Some(WrittenValue {
            value: i64::try_from(n).map_err(|_| n.to_string()),
            range: op.name_range,
        });
        info.kind = BufferKind::Implied(match (old, n) {
            (OpKind::Oehb, 1) => BufferType::OneSlotBreakDv,
            (OpKind::Oehb, _) => BufferType::FifoBreakDv,
            (OpKind::Tehb, 1) => BufferType::OneSlotBreakR,
            _ => BufferType::FifoBreakNone,
        });
        return Some(info);
    }
    // CIRCT's generic form: `{bufferType = #handshake<buffer_type_enum fifo>, slots = 2}`.
    if let Some(kind) =
        item.attr(op, "bufferType").filter(|a| item.str(a.value).contains("buffer_type_enum"))
    {
        let word =
            item.str(kind.value).trim().trim_end_matches('>').rsplit(' ').next().unwrap_or("");
        info.kind = match word {
            "seq" => BufferKind::CirctSeq,
            "fifo" => BufferKind::CirctFifo,
            other => BufferKind::Unknown(other.to_string()),
        };
        info.kind_range = Some(kind.range);
        if let Some(slots) = item.attr(op, "slots") {
            info.slots =
                Some(WrittenValue { value: integer(item.str(slots.value)), range: slots.range });
        }
        return Some(info);
    }
    if let Some(kind) = item.attr(op, "bufferType") {
        info.syntax = BufferSyntax::Inline;
        let name = attribute_scalar(item.str(kind.value));
        info.kind = match name.parse::<i64>() {
            Ok(case) => BufferType::from_enum_case(case)
                .map_or_else(|| BufferKind::Unknown(name.to_string()), BufferKind::Known),
            Err(_) => kind_of(name),
        };
        info.kind_range = Some(kind.range);
        if let Some(slots) = item.attr(op, "numSlots") {
            info.slots =
                Some(WrittenValue { value: integer(item.str(slots.value)), range: slots.range });
        }
        if let Some(dv) = item.attr(op, "dvLatency") {
            info.dv_latency =
                Some(WrittenValue { value: integer(item.str(dv.value)), range: dv.range });
        }
        return Some(info);
    }
    // CIRCT: `buffer [N] seq|fifo`.
    if let Some(&n) = item.bracket_ints(op).first() {
        let range = op.name_range;
        info.slots =
            Some(WrittenValue { value: i64::try_from(n).map_err(|_| n.to_string()), range });
    }
    for &word in item.words(op) {
        let (text, range) = (item.str(word), word.range());
        if text.eq_ignore_ascii_case("seq") {
            (info.kind, info.kind_range) = (BufferKind::CirctSeq, Some(range));
        } else if text.eq_ignore_ascii_case("fifo") {
            (info.kind, info.kind_range) = (BufferKind::CirctFifo, Some(range));
        }
    }
    Some(info)
}

/// The buffers of every op of the item that is one, by `OpId`.
pub fn buffers(item: &Item) -> Vec<Option<BufferInfo>> {
    // Most ops are not buffers: fill with `None` and write only the buffers, rather than move a
    // whole `Option<BufferInfo>` (about 200 bytes) out of `buffer_info` for every op.
    let mut out = Vec::new();
    out.resize_with(item.ops.len(), || None);
    for (id, op) in item.ops.iter().enumerate() {
        if !may_be_buffer(item, op) {
            continue;
        }
        if let Some(info) = buffer_info(item, op, id as OpId) {
            out[id] = Some(info);
        }
    }
    out
}

/// Whether a value of this type carries no data: `none` or `control`.
pub fn is_control(ty: &Type) -> bool {
    matches!(ty, Type::None | Type::Control { .. })
}

/// Whether `op` is a buffer on a channel: a `buffer` op with a `BufferInfo`, one operand and one
/// result. (An `init` configured like a buffer is not one: it also emits a token of its own.)
pub fn is_channel_buffer(item: &Item, buffers: &[Option<BufferInfo>], op: OpId) -> bool {
    let data = &item.ops[op as usize];
    buffers.get(op as usize).is_some_and(|b| b.is_some())
        && OpKind::of(data).is_some_and(OpKind::is_buffer)
        && data.operands.len() == 1
        && data.results.len() == 1
}

/// Follows `value` downstream through buffers and returns the buffers crossed, in order, and
/// the first op that is not a buffer with the operand position there. A channel that forks
/// after a buffer (multiple uses) follows the first use.
pub fn channel_buffers(
    item: &Item,
    buffers: &[Option<BufferInfo>],
    value: ValueId,
) -> (Vec<OpId>, Option<(OpId, u32)>) {
    let mut crossed = Vec::new();
    let mut current = value;
    loop {
        let Some(&u) = item.value_uses(&item.values[current as usize]).first() else {
            return (crossed, None);
        };
        let op_id = item.uses[u as usize].op;
        let op = &item.ops[op_id as usize];
        let position = item.operands(op).iter().position(|&x| x == u).unwrap_or(0) as u32;
        if !is_channel_buffer(item, buffers, op_id) || crossed.contains(&op_id) {
            return (crossed, Some((op_id, position)));
        }
        crossed.push(op_id);
        current = item.results(op)[0];
    }
}

/// Follows `value` upstream through the buffers that produce it and returns the buffers
/// crossed, nearest first, and the value where the channel starts: a result of an op that is
/// not a buffer, or an argument.
pub fn upstream_buffers(
    item: &Item,
    buffers: &[Option<BufferInfo>],
    value: ValueId,
) -> (Vec<OpId>, ValueId) {
    let mut crossed = Vec::new();
    let mut current = value;
    while let Def::Result { op, .. } = item.values[current as usize].def {
        if !is_channel_buffer(item, buffers, op) || crossed.contains(&op) {
            break;
        }
        let Some(input) = item.uses[item.operands(&item.ops[op as usize])[0] as usize].value else {
            break;
        };
        crossed.push(op);
        current = input;
    }
    (crossed, current)
}

#[cfg(test)]
mod tests {
    use super::*;
    use petgraph::graph::DiGraph;
    use petgraph::visit::{EdgeRef, NodeFiltered};

    /// Pseudo-random graphs (a fixed LCG), with self-loops and parallel edges: each as a
    /// petgraph `Graph` and as a `FuncGraph` with the same edges added in the same order.
    fn graphs() -> Vec<(DiGraph<Node, Edge>, FuncGraph)> {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |bound: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % bound
        };
        let mut out = Vec::new();
        for size in [0u64, 1, 2, 5, 12, 40, 150] {
            for density in [0u64, 1, 2, 3] {
                let mut g = DiGraph::new();
                let nodes: Vec<NodeIndex> =
                    (0..size).map(|i| g.add_node(Node::Op(i as OpId + 1))).collect();
                let mut links = Vec::new();
                for k in 0..size * density {
                    let (a, b) = (next(size) as usize, next(size) as usize);
                    let edge = Edge { value: k as ValueId, use_: k as UseId, operand: 0 };
                    links.push(Link { from: nodes[a], to: nodes[b], edge });
                }
                // Grouped by the node they enter, as a function's edges are.
                links.sort_by_key(|l| l.to);
                for l in &links {
                    g.add_edge(l.from, l.to, l.edge);
                }
                out.push((g, FuncGraph::from_links(size as usize, links)));
            }
        }
        out
    }

    /// Components as sorted node lists, sorted.
    fn partition(components: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = components
            .into_iter()
            .map(|mut c| {
                c.sort_unstable();
                c
            })
            .collect();
        out.sort();
        out
    }

    /// The components in the order they are found.
    fn found(g: &FuncGraph, inside: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        strongly_connected(g, 0..g.node_count(), inside, |scc| {
            out.push(scc.iter().map(|n| n.index()).collect())
        });
        out
    }

    fn ours(g: &FuncGraph, inside: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
        partition(found(g, inside))
    }

    #[test]
    fn adjacency_lists_edges_as_petgraph_does() {
        for (g, ours) in graphs() {
            assert_eq!(ours.node_count(), g.node_count());
            for n in g.node_indices() {
                assert_eq!(ours.node(n), g[n]);
                let theirs: Vec<NodeIndex> = g.neighbors(n).collect();
                assert_eq!(ours.successors(n).collect::<Vec<_>>(), theirs);
                let theirs: Vec<Edge> = g.edges(n).map(|e| *e.weight()).collect();
                let edges: Vec<Edge> = ours.edges_from(n).map(|(_, l)| l.edge).collect();
                assert_eq!(edges, theirs);
                let theirs: Vec<NodeIndex> =
                    g.neighbors_directed(n, petgraph::Direction::Incoming).collect();
                assert_eq!(ours.predecessors(n).collect::<Vec<_>>(), theirs);
            }
            for e in g.edge_indices() {
                let (from, to) = g.edge_endpoints(e).unwrap();
                assert_eq!(ours.links()[e.index()], Link { from, to, edge: g[e] });
            }
        }
    }

    #[test]
    fn strongly_connected_agrees_with_petgraph() {
        for (g, fg) in graphs() {
            let theirs = petgraph::algo::tarjan_scc(&g);
            let sorted = |components: Vec<Vec<usize>>| -> Vec<Vec<usize>> {
                components
                    .into_iter()
                    .map(|mut c| {
                        c.sort_unstable();
                        c
                    })
                    .collect()
            };
            let theirs = theirs.into_iter().map(|c| c.iter().map(|n| n.index()).collect());
            // The same components, found in the same order.
            assert_eq!(sorted(found(&fg, |_| true)), sorted(theirs.collect()));
            // Restricted to the odd nodes, as the cycle lints restrict it to open nodes.
            let odd = NodeFiltered::from_fn(&g, |n: NodeIndex| n.index() % 2 == 1);
            let theirs = partition(
                petgraph::algo::tarjan_scc(&odd)
                    .into_iter()
                    .map(|c| c.iter().map(|n| n.index()).collect())
                    .collect(),
            );
            assert_eq!(ours(&fg, |n| n % 2 == 1), theirs);
        }
    }

    #[test]
    fn components_agree_with_petgraph() {
        for (g, fg) in graphs() {
            let self_loop = |n: NodeIndex| g.edges(n).any(|e| e.target() == n);
            let mut component = vec![usize::MAX; g.node_count()];
            for (c, scc) in petgraph::algo::tarjan_scc(&g).into_iter().enumerate() {
                let on_cycle = scc.len() > 1 || self_loop(scc[0]);
                for &n in &scc {
                    component[n.index()] = c;
                    assert_eq!(fg.on_cycle(n), on_cycle, "node {}", n.index());
                }
            }
            for a in g.node_indices() {
                for b in g.node_indices() {
                    let same = component[a.index()] == component[b.index()];
                    assert_eq!(fg.same_component(a, b), same);
                }
            }
            assert_eq!(fg.has_cycle(), g.node_indices().any(|n| fg.on_cycle(n)));
            // The nodes on cycles, numbered in index order.
            let on_cycles: Vec<NodeIndex> = g.node_indices().filter(|&n| fg.on_cycle(n)).collect();
            assert_eq!(fg.cycle_node_count(), on_cycles.len());
            for (i, &n) in on_cycles.iter().enumerate() {
                assert_eq!(fg.cycle_slot(n), i);
            }
            // The edges among nodes on cycles, in the order `edges_from` lists them.
            for n in g.node_indices().filter(|&n| fg.on_cycle(n)) {
                let all: Vec<EdgeId> =
                    fg.edges_from(n).filter(|(_, l)| fg.on_cycle(l.to)).map(|(e, _)| e).collect();
                let among: Vec<EdgeId> = fg.cycle_edges_from(n).map(|(e, _)| e).collect();
                assert_eq!(among, all);
            }
            // Restricted to nodes on cycles, the same components in the same order.
            let odd = |n: usize| n % 2 == 1 && fg.on_cycle(NodeIndex::new(n));
            let mut theirs = Vec::new();
            strongly_connected(&fg, 0..fg.node_count(), odd, |scc| theirs.push(scc.to_vec()));
            let mut ours = Vec::new();
            strongly_connected_on_cycles(
                &fg,
                0..fg.node_count(),
                |n| n % 2 == 1,
                |scc| ours.push(scc.to_vec()),
            );
            assert_eq!(ours, theirs);
        }
    }
}
