//! The dataflow graph of a `handshake.func` as a picture: a layered drawing (SVG) and the same
//! graph in Graphviz's DOT, for the editors' "Show Dataflow Graph".
//!
//! Nodes are the function's arguments, its ops and its results; edges are its channels.
//! Buffers are drawn as their own shape, with their type; channels and ops on a cycle are
//! marked. Each node carries the byte range of what it stands for, so a client can reveal it.
//!
//! Layout: a loop's ways back (the channels on a cycle into its merges, then the back edges of
//! a depth-first walk for any cycle left) are set aside, the rest is layered by longest path, nodes are ordered in their layer by the mean position of their predecessors (two
//! sweeps), and back edges are drawn as dashed curves.

use std::fmt::Write as _;

use hsir_parser::TextRange;

use crate::dataflow::{self, FuncGraph, Node};
use crate::db::ItemView;
use crate::ir::{group_len, Def, OpId};
use crate::ops::{Dialect, OpKind};

/// What a node stands for, which decides how it is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    /// A function argument.
    Arg,
    Op,
    /// A buffer op of any spelling, drawn with its type and slots.
    Buffer,
    /// The function's terminator.
    Result,
}

impl NodeKind {
    /// The node's class in the SVG (`<g class="node buffer">`).
    pub fn class(self) -> &'static str {
        match self {
            NodeKind::Arg => "arg",
            NodeKind::Op => "op",
            NodeKind::Buffer => "buffer",
            NodeKind::Result => "result",
        }
    }
}

/// One node of the drawing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphNode {
    pub label: String,
    pub kind: NodeKind,
    /// What it stands for, in the file.
    pub range: TextRange,
    pub on_cycle: bool,
    pub layer: usize,
    pub order: usize,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphEdge {
    pub from: usize,
    pub to: usize,
    /// The channel: `%x#1`.
    pub label: String,
    pub on_cycle: bool,
    /// Drawn against the layering (a loop's way back).
    pub back: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Graph {
    pub function: String,
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
}

/// The graph of the `handshake.func` `item` is; `None` for other items.
pub fn graph(item: &ItemView<'_>) -> Option<Graph> {
    let lowered = &item.lowered.item;
    let top = lowered.ops.first()?;
    if OpKind::of(top) != Some(OpKind::Func) {
        return None;
    }
    let function = top
        .signature
        .as_ref()
        .and_then(|s| s.name.as_ref())
        .map(|(n, _)| n.trim_start_matches('@').to_string())
        .unwrap_or_default();
    let fg = FuncGraph::build(lowered);
    let buffers = dataflow::buffers(lowered);
    let mut out = Graph { function, ..Graph::default() };
    let mut index_of = vec![usize::MAX; fg.node_count()];
    for n in fg.node_indices() {
        let (label, kind, range) = match fg.node(n) {
            Node::Arg { value, .. } => {
                let v = &lowered.values[value as usize];
                (lowered.str(v.name()).to_string(), NodeKind::Arg, v.range)
            }
            Node::Op(op) => {
                let data = &lowered.ops[op as usize];
                if OpKind::of(data).is_some_and(OpKind::is_terminator) {
                    (data.short_name().to_string(), NodeKind::Result, data.name_range)
                } else if let Some(info) = buffers.get(op as usize).and_then(|b| b.as_ref()) {
                    let kind = info.kind.name().map_or(String::new(), |k| format!(" {k}"));
                    let slots = info.slot_count().map_or(String::new(), |s| format!(" ×{s}"));
                    (format!("buffer{kind}{slots}"), NodeKind::Buffer, data.name_range)
                } else {
                    (op_label(lowered, op), NodeKind::Op, data.name_range)
                }
            }
        };
        index_of[n.index()] = out.nodes.len();
        out.nodes.push(GraphNode {
            label,
            kind,
            range: item.abs(range),
            on_cycle: fg.on_cycle(n),
            layer: 0,
            order: 0,
        });
    }
    for &dataflow::Link { from: a, to: b, edge } in fg.links() {
        let value = &lowered.values[edge.value as usize];
        let same_scc = fg.same_component(a, b);
        let on_cycle = same_scc && (a != b || fg.on_cycle(a));
        // A loop is drawn from its merge down to its way back: the channels on the cycle that
        // enter a merge-like op (not a mux's select) are its ways back.
        let into_merge = match fg.node(b) {
            Node::Op(op) => match OpKind::of(&lowered.ops[op as usize]) {
                Some(OpKind::Mux) => edge.operand > 0,
                Some(kind) => kind.is_merge_like(),
                None => false,
            },
            Node::Arg { .. } => false,
        };
        out.edges.push(GraphEdge {
            from: index_of[a.index()],
            to: index_of[b.index()],
            label: value.display(&item.lowered.item, group_len(lowered, edge.value)),
            on_cycle,
            back: on_cycle && into_merge,
        });
    }
    layout(&mut out);
    Some(out)
}

/// The op's short name, with its first result when it has one: `fork %x`.
fn op_label(item: &crate::ir::Item, op: OpId) -> String {
    let data = &item.ops[op as usize];
    let name = data.short_name().trim_start_matches(Dialect::Arith.prefix());
    match item.results(data).first() {
        Some(&v) => {
            let value = &item.values[v as usize];
            match value.def {
                Def::Result { .. } => format!("{name} {}", item.str(value.name())),
                Def::Arg { .. } => name.to_string(),
            }
        }
        None => name.to_string(),
    }
}

/// Layers by longest path over the edges that are not back edges of a depth-first walk from
/// the arguments, then orders each layer by the mean order of each node's predecessors.
fn layout(g: &mut Graph) {
    let n = g.nodes.len();
    let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in g.edges.iter().enumerate() {
        out_edges[e.from].push(i);
    }
    // Back edges: those marked already (into a loop's merges), and then any edge into a node
    // still on the walk's stack, so that what is left has no cycle.
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let starts: Vec<usize> =
        (0..n).filter(|&i| g.nodes[i].kind == NodeKind::Arg).chain(0..n).collect();
    for start in starts {
        if state[start] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        state[start] = 1;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            if let Some(&e) = out_edges[node].get(*next) {
                *next += 1;
                if g.edges[e].back {
                    continue;
                }
                let to = g.edges[e].to;
                match state[to] {
                    0 => {
                        state[to] = 1;
                        stack.push((to, 0));
                    }
                    1 => g.edges[e].back = true,
                    _ => {}
                }
            } else {
                state[node] = 2;
                stack.pop();
            }
        }
    }
    // Longest path over forward edges, in a topological order (Kahn).
    let mut indegree = vec![0usize; n];
    for e in g.edges.iter().filter(|e| !e.back) {
        indegree[e.to] += 1;
    }
    let mut queue: std::collections::VecDeque<usize> =
        (0..n).filter(|&i| indegree[i] == 0).collect();
    let mut layer = vec![0usize; n];
    while let Some(node) = queue.pop_front() {
        for &e in &out_edges[node] {
            let edge = &g.edges[e];
            if edge.back {
                continue;
            }
            layer[edge.to] = layer[edge.to].max(layer[node] + 1);
            indegree[edge.to] -= 1;
            if indegree[edge.to] == 0 {
                queue.push_back(edge.to);
            }
        }
    }
    let layers = layer.iter().copied().max().map_or(0, |m| m + 1);
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); layers];
    for (i, &l) in layer.iter().enumerate() {
        rows[l].push(i);
    }
    let mut order = vec![0usize; n];
    for row in &rows {
        for (k, &i) in row.iter().enumerate() {
            order[i] = k;
        }
    }
    // Two sweeps of barycentres, down then down again, from the predecessors' order.
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in g.edges.iter().filter(|e| !e.back) {
        preds[e.to].push(e.from);
    }
    for _ in 0..2 {
        for row in rows.iter_mut().skip(1) {
            let key = |i: &usize| {
                let p = &preds[*i];
                if p.is_empty() {
                    order[*i] as f64
                } else {
                    p.iter().map(|&q| order[q] as f64).sum::<f64>() / p.len() as f64
                }
            };
            row.sort_by(|a, b| key(a).total_cmp(&key(b)).then(a.cmp(b)));
            for (k, &i) in row.iter().enumerate() {
                order[i] = k;
            }
        }
    }
    for (i, node) in g.nodes.iter_mut().enumerate() {
        node.layer = layer[i];
        node.order = order[i];
    }
}

const NODE_W: usize = 150;
const NODE_H: usize = 30;
const GAP_X: usize = 30;
const GAP_Y: usize = 50;
const MARGIN: usize = 20;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

impl Graph {
    fn position(&self, i: usize) -> (usize, usize) {
        let node = &self.nodes[i];
        (MARGIN + node.order * (NODE_W + GAP_X), MARGIN + node.layer * (NODE_H + GAP_Y))
    }

    /// The drawing. Each node is `<g class="node ..." data-start="B" data-end="E">` with the
    /// byte range it stands for; `line_col` turns a byte offset into the client's (line,
    /// character), written as `data-line` / `data-character`.
    pub fn to_svg(&self, line_col: &dyn Fn(u32) -> (u32, u32)) -> String {
        let columns = self.nodes.iter().map(|n| n.order + 1).max().unwrap_or(1);
        let rows = self.nodes.iter().map(|n| n.layer + 1).max().unwrap_or(1);
        let width = 2 * MARGIN + columns * (NODE_W + GAP_X);
        let height = 2 * MARGIN + rows * (NODE_H + GAP_Y);
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="monospace" font-size="11">"#
        );
        let _ = writeln!(s, "<title>@{} dataflow graph</title>", escape(&self.function));
        s.push_str(r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>"##);
        s.push('\n');
        for e in &self.edges {
            let (x1, y1) = self.position(e.from);
            let (x2, y2) = self.position(e.to);
            let (sx, sy) = (x1 + NODE_W / 2, y1 + NODE_H);
            let (tx, ty) = (x2 + NODE_W / 2, y2);
            let class = match (e.back, e.on_cycle) {
                (true, _) => "edge back cycle",
                (false, true) => "edge cycle",
                _ => "edge",
            };
            let colour = if e.on_cycle { "#c0392b" } else { "#555" };
            let path = if e.back {
                // Out of the source's right side and into the target's, around the layers.
                let bend = (NODE_W / 2 + GAP_X) as f64;
                format!(
                    "M {} {} C {} {}, {} {}, {} {}",
                    x1 + NODE_W,
                    y1 + NODE_H / 2,
                    (x1 + NODE_W) as f64 + bend,
                    y1 + NODE_H / 2,
                    (x2 + NODE_W) as f64 + bend,
                    y2 + NODE_H / 2,
                    x2 + NODE_W,
                    y2 + NODE_H / 2
                )
            } else {
                let mid = (sy + ty) / 2;
                format!("M {sx} {sy} C {sx} {mid}, {tx} {mid}, {tx} {ty}")
            };
            let dash = if e.back { r#" stroke-dasharray="5,3""# } else { "" };
            let _ = writeln!(
                s,
                r#"<path class="{class}" d="{path}" fill="none" stroke="{colour}"{dash} marker-end="url(#arrow)"><title>{}</title></path>"#,
                escape(&e.label)
            );
        }
        for (i, node) in self.nodes.iter().enumerate() {
            let (x, y) = self.position(i);
            let (line, character) = line_col(node.range.start().into());
            let cycle = if node.on_cycle { " cycle" } else { "" };
            let (fill, shape) = match node.kind {
                NodeKind::Arg | NodeKind::Result => (
                    "#eaf2f8",
                    format!(
                        r#"<ellipse cx="{}" cy="{}" rx="{}" ry="{}""#,
                        x + NODE_W / 2,
                        y + NODE_H / 2,
                        NODE_W / 2,
                        NODE_H / 2
                    ),
                ),
                NodeKind::Buffer => (
                    "#fdebd0",
                    format!(r#"<rect x="{x}" y="{y}" width="{NODE_W}" height="{NODE_H}" rx="0""#),
                ),
                NodeKind::Op => (
                    "#ffffff",
                    format!(r#"<rect x="{x}" y="{y}" width="{NODE_W}" height="{NODE_H}" rx="6""#),
                ),
            };
            let stroke = if node.on_cycle { "#c0392b" } else { "#333" };
            let label = if node.label.chars().count() > 22 {
                format!("{}…", node.label.chars().take(21).collect::<String>())
            } else {
                node.label.clone()
            };
            let _ = writeln!(
                s,
                r#"<g class="node {}{cycle}" data-start="{}" data-end="{}" data-line="{line}" data-character="{character}" style="cursor:pointer"><title>{}</title>{shape} fill="{fill}" stroke="{stroke}"/><text x="{}" y="{}" text-anchor="middle" dominant-baseline="middle">{}</text></g>"#,
                node.kind.class(),
                u32::from(node.range.start()),
                u32::from(node.range.end()),
                escape(&node.label),
                x + NODE_W / 2,
                y + NODE_H / 2,
                escape(&label)
            );
        }
        s.push_str("</svg>\n");
        s
    }

    /// The graph in Graphviz's DOT.
    pub fn to_dot(&self) -> String {
        let mut s = format!(
            "digraph \"{}\" {{\n  node [fontname=\"monospace\"];\n",
            self.function.replace('"', "'")
        );
        for (i, node) in self.nodes.iter().enumerate() {
            let shape = match node.kind {
                NodeKind::Arg | NodeKind::Result => "ellipse",
                NodeKind::Buffer => "box3d",
                NodeKind::Op => "box",
            };
            let colour = if node.on_cycle { ", color=red" } else { "" };
            let _ = writeln!(
                s,
                "  n{i} [label=\"{}\", shape={shape}{colour}];",
                node.label.replace('"', "'")
            );
        }
        for e in &self.edges {
            let style = if e.back { ", style=dashed" } else { "" };
            let colour = if e.on_cycle { ", color=red" } else { "" };
            let _ = writeln!(
                s,
                "  n{} -> n{} [label=\"{}\"{style}{colour}];",
                e.from,
                e.to,
                e.label.replace('"', "'")
            );
        }
        s.push_str("}\n");
        s
    }
}
