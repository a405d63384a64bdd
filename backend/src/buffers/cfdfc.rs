//! Choice-free dataflow circuits (CFDFCs): the loops whose throughput the MILPs maximise.
//!
//! A depth-first search from the function's inputs splits the bufferable channels into forward
//! edges, which form a DAG, and back edges. Every cycle holds a back edge, and a back edge
//! `u → h` closes the loop made of `h` and every unit on a forward path from `h` to `u`. Back
//! edges whose loops overlap without either holding the other's target are the loop-carried
//! channels of one loop (Dynamatic's muxes and control merge of a loop header each receive one);
//! together they make one CFDFC: its units, the forward channels among them and its own back
//! edges, each holding one token. An inner loop's back edges are not in the outer CFDFC: the outer
//! loop passes through the inner one once per iteration.
//!
//! Regions are the connected groups of overlapping CFDFCs (nested loops share units): one MILP
//! each.
//!
//! Weights: with a profile (Dynamatic's basic-block transition counts) a CFDFC weighs the count
//! of its back edges' block transition; without one, each nesting level is assumed to iterate
//! `ASSUMED_TRIPS` times.

use std::collections::BTreeSet;

use hsir_analysis::ops::OpKind;

use super::graph::Graph;

/// Iterations assumed per loop level when no profile is given.
pub const ASSUMED_TRIPS: f64 = 10.0;

#[derive(Debug, Clone)]
pub struct Cfdfc {
    pub units: Vec<usize>,
    /// Forward channels among the units, and the CFDFC's own back edges.
    pub channels: Vec<usize>,
    pub back_edges: Vec<usize>,
    /// Loop nesting depth, from 1.
    pub depth: u32,
    /// Relative execution count (not normalised).
    pub weight: f64,
    /// Where the weight comes from: `profile` or `assumed`.
    pub weight_source: &'static str,
}

#[derive(Debug, Clone)]
pub struct Loops {
    pub back_edge: Vec<bool>,
    pub cfdfcs: Vec<Cfdfc>,
    /// Each region: the CFDFCs it holds, and its units.
    pub regions: Vec<(Vec<usize>, Vec<usize>)>,
    /// The region of each unit, if it is in one.
    pub region_of_unit: Vec<Option<usize>>,
}

/// Dynamatic's profile: lines `srcBB,dstBB,transitions,isBackedge` (a header line is allowed).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Profile {
    pub transitions: Vec<(u32, u32, f64, bool)>,
}

impl Profile {
    /// Reads the CSV text. Errors name the line.
    pub fn parse(text: &str) -> Result<Profile, String> {
        let mut transitions = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            if n == 0 && fields.first().is_some_and(|f| f.parse::<u32>().is_err()) {
                continue; // header
            }
            if fields.len() != 4 {
                return Err(format!(
                    "line {}: expected `srcBB,dstBB,transitions,isBackedge`, found `{line}`",
                    n + 1
                ));
            }
            let block = |s: &str| {
                s.parse::<u32>().map_err(|_| format!("line {}: `{s}` is not a block number", n + 1))
            };
            let count =
                fields[2].parse::<f64>().ok().filter(|c| c.is_finite() && *c >= 0.0).ok_or_else(
                    || format!("line {}: `{}` is not a transition count", n + 1, fields[2]),
                )?;
            let back = match fields[3] {
                "1" | "true" => true,
                "0" | "false" => false,
                other => {
                    return Err(format!("line {}: isBackedge is `{other}`, expected 0 or 1", n + 1))
                }
            };
            transitions.push((block(fields[0])?, block(fields[1])?, count, back));
        }
        Ok(Profile { transitions })
    }

    fn count(&self, from: u32, to: u32) -> Option<f64> {
        self.transitions.iter().find(|t| t.0 == from && t.1 == to).map(|t| t.2)
    }
}

pub fn find(graph: &Graph, profile: Option<&Profile>) -> Loops {
    let n = graph.units.len();
    let back_edge = back_edges(graph);
    // Forward adjacency over bufferable channels.
    let forward = |c: usize| graph.cycle_edge(c) && !back_edge[c];
    let mut loops: Vec<(usize, BTreeSet<usize>)> = Vec::new(); // (back edge, units)
    for (c, &is_back) in back_edge.iter().enumerate() {
        if !is_back {
            continue;
        }
        let (u, h) = (graph.channels[c].from, graph.channels[c].to);
        let from_h = reach(graph, h, true, &forward);
        let to_u = reach(graph, u, false, &forward);
        let mut units: BTreeSet<usize> = (0..n).filter(|&x| from_h[x] && to_u[x]).collect();
        units.insert(h);
        units.insert(u);
        loops.push((c, units));
    }
    // Group back edges of one loop level.
    let mut group: Vec<usize> = (0..loops.len()).collect();
    fn root(group: &mut [usize], mut i: usize) -> usize {
        while group[i] != i {
            group[i] = group[group[i]];
            i = group[i];
        }
        i
    }
    // A mux whose select comes from another loop's control is a recurrence of that loop (the
    // loop's other variables): one loop, one throughput. Its select's producer is on the control
    // loop; of the loops holding it, the smallest is the mux's own level.
    let mux_level: Vec<Option<usize>> = (0..loops.len())
        .map(|a| {
            let h = graph.channels[loops[a].0].to;
            if graph.units[h].kind != Some(OpKind::Mux) {
                return None;
            }
            let &select = graph.ins[h].iter().find(|&&c| graph.channels[c].operand == 0)?;
            let source = graph.channels[select].from;
            (0..loops.len())
                .filter(|&b| b != a && loops[b].1.contains(&source))
                .min_by_key(|&b| loops[b].1.len())
        })
        .collect();
    // Other loops that overlap without one holding the other's back edge are one level. A mux
    // with a level is left to its select: an inner loop's index mux whose exit value is dropped
    // (matvec's `j`) overlaps the outer control loop (which passes through the mux's select)
    // without either holding the other's back edge, yet it iterates with the inner loop.
    for a in 0..loops.len() {
        for b in a + 1..loops.len() {
            if mux_level[a].is_some() || mux_level[b].is_some() {
                continue;
            }
            let (ca, ua) = &loops[a];
            let (cb, ub) = &loops[b];
            let holds = |set: &BTreeSet<usize>, c: usize| {
                set.contains(&graph.channels[c].from) && set.contains(&graph.channels[c].to)
            };
            let nested = holds(ua, *cb) != holds(ub, *ca);
            if !nested && ua.intersection(ub).next().is_some() {
                let (ra, rb) = (root(&mut group, a), root(&mut group, b));
                group[ra] = rb;
            }
        }
    }
    for (a, level) in mux_level.iter().enumerate() {
        if let Some(b) = *level {
            let (ra, rb) = (root(&mut group, a), root(&mut group, b));
            group[ra] = rb;
        }
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); loops.len()];
    for i in 0..loops.len() {
        let r = root(&mut group, i);
        members[r].push(i);
    }
    let mut cfdfcs = Vec::new();
    for m in members.into_iter().filter(|m| !m.is_empty()) {
        let backs: Vec<usize> = m.iter().map(|&i| loops[i].0).collect();
        // The loop's units: every unit on a forward path from one of its headers to one of its
        // latches, not only those on one back edge's own cycle. A path that leaves one
        // recurrence and joins another (fir: the index `mux` → `load` → `muli` → the
        // accumulator's `addi`) carries the loop's tokens every iteration; left out, its
        // latency and the slots it needs to keep up are not seen by the throughput rows.
        let headers: Vec<usize> = backs.iter().map(|&c| graph.channels[c].to).collect();
        let latches: Vec<usize> = backs.iter().map(|&c| graph.channels[c].from).collect();
        let from_h = reach_all(graph, &headers, true, &forward);
        let to_u = reach_all(graph, &latches, false, &forward);
        let mut units: BTreeSet<usize> = (0..n).filter(|&x| from_h[x] && to_u[x]).collect();
        units.extend(m.iter().flat_map(|&i| loops[i].1.iter().copied()));
        let channels: Vec<usize> = (0..graph.channels.len())
            .filter(|&c| {
                let ch = &graph.channels[c];
                (forward(c) && units.contains(&ch.from) && units.contains(&ch.to))
                    || backs.contains(&c)
            })
            .collect();
        cfdfcs.push(Cfdfc {
            units: units.into_iter().collect(),
            channels,
            back_edges: backs,
            depth: 1,
            weight: 1.0,
            weight_source: "assumed",
        });
    }
    // Depth: the number of CFDFCs that hold one of this one's back edges without it holding one
    // of theirs. Any back edge, not the first: a recurrence whose exit value is dropped (an inner
    // index whose `cond_br` sinks its false side) is not on the outer loop's paths.
    let holds = |k: &Cfdfc, c: usize| {
        let ch = &graph.channels[c];
        k.units.binary_search(&ch.from).is_ok() && k.units.binary_search(&ch.to).is_ok()
    };
    let holds_any = |k: &Cfdfc, of: &Cfdfc| of.back_edges.iter().any(|&c| holds(k, c));
    for i in 0..cfdfcs.len() {
        let depth = (0..cfdfcs.len())
            .filter(|&j| {
                j != i && holds_any(&cfdfcs[j], &cfdfcs[i]) && !holds_any(&cfdfcs[i], &cfdfcs[j])
            })
            .count();
        cfdfcs[i].depth = depth as u32 + 1;
    }
    for cfdfc in &mut cfdfcs {
        cfdfc.weight = ASSUMED_TRIPS.powi(cfdfc.depth as i32);
        if let Some(profile) = profile {
            let counts: Vec<f64> = cfdfc
                .back_edges
                .iter()
                .filter_map(|&c| {
                    let ch = &graph.channels[c];
                    let (from, to) = (graph.units[ch.from].block?, graph.units[ch.to].block?);
                    profile.count(from, to)
                })
                .collect();
            if let Some(max) = counts.into_iter().reduce(f64::max) {
                cfdfc.weight = max;
                cfdfc.weight_source = "profile";
            }
        }
    }
    // Order: outermost first, then by first unit, for stable output.
    cfdfcs.sort_by_key(|c| (c.units[0], c.depth));
    // Regions: CFDFCs sharing units.
    let mut region_of_unit: Vec<Option<usize>> = vec![None; n];
    let mut regions: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    let mut region_of_cfdfc = vec![usize::MAX; cfdfcs.len()];
    for i in 0..cfdfcs.len() {
        let hit: BTreeSet<usize> =
            cfdfcs[i].units.iter().filter_map(|&u| region_of_unit[u]).collect();
        let target = match hit.iter().next() {
            Some(&r) => r,
            None => {
                regions.push((Vec::new(), Vec::new()));
                regions.len() - 1
            }
        };
        // Merge every other hit region into `target`.
        for &r in hit.iter().skip(1) {
            let (cs, us) = std::mem::take(&mut regions[r]);
            for &c in &cs {
                region_of_cfdfc[c] = target;
            }
            for &u in &us {
                region_of_unit[u] = Some(target);
            }
            regions[target].0.extend(cs);
            regions[target].1.extend(us);
        }
        region_of_cfdfc[i] = target;
        regions[target].0.push(i);
        for &u in &cfdfcs[i].units {
            if region_of_unit[u] != Some(target) {
                region_of_unit[u] = Some(target);
                regions[target].1.push(u);
            }
        }
    }
    // Drop emptied regions, renumbering.
    let mut renumber = vec![usize::MAX; regions.len()];
    let mut kept = Vec::new();
    for (i, (mut cs, mut us)) in regions.into_iter().enumerate() {
        if cs.is_empty() {
            continue;
        }
        cs.sort_unstable();
        us.sort_unstable();
        renumber[i] = kept.len();
        kept.push((cs, us));
    }
    for r in region_of_unit.iter_mut().flatten() {
        *r = renumber[*r];
    }
    Loops { back_edge, cfdfcs, regions: kept, region_of_unit }
}

/// The back edges. A merge-like unit's first data input is its entry; its other data inputs on a
/// cycle are candidates. Without the candidates the graph is normally acyclic, and a candidate
/// `u → h` is a back edge when `h` reaches `u` without them (an `if`/`else` merge inside a loop
/// is a candidate too, but its inputs do not come from below it). Cycles left (no merge-like op
/// on them, or a merge written with its entry last) get the back edges of a depth-first search.
fn back_edges(graph: &Graph) -> Vec<bool> {
    let n = graph.units.len();
    let nc = graph.channels.len();
    let scc = components(graph);
    let mut candidate = vec![false; nc];
    for (c, ch) in graph.channels.iter().enumerate() {
        let unit = &graph.units[ch.to];
        if !graph.cycle_edge(c) || !unit.merge_like || scc[ch.from] != scc[ch.to] {
            continue;
        }
        // A `mux`'s select and a `carry`'s condition come before the data inputs.
        let first_data = match unit.kind {
            Some(OpKind::Mux | OpKind::Carry) => 1,
            _ => 0,
        };
        candidate[c] = ch.operand > first_data;
    }
    let forward = |c: usize| graph.cycle_edge(c) && !candidate[c];
    let mut back = vec![false; nc];
    for c in 0..nc {
        if candidate[c] {
            let ch = &graph.channels[c];
            back[c] = reach(graph, ch.to, true, &forward)[ch.from];
        }
    }
    // Depth-first search for the cycles left.
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let first_pass = back.clone();
    let usable = |c: usize| graph.cycle_edge(c) && !first_pass[c];
    let roots: Vec<usize> =
        (0..n).filter(|&u| !graph.ins[u].iter().any(|&c| usable(c))).chain(0..n).collect();
    for root in roots {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (u, ref mut next)) = stack.last_mut() {
            let outs = &graph.outs[u];
            if *next < outs.len() {
                let c = outs[*next];
                *next += 1;
                if !usable(c) {
                    continue;
                }
                let v = graph.channels[c].to;
                match state[v] {
                    0 => {
                        state[v] = 1;
                        stack.push((v, 0));
                    }
                    1 => back[c] = true,
                    _ => {}
                }
            } else {
                state[u] = 2;
                stack.pop();
            }
        }
    }
    back
}

/// The strongly connected component of each unit, over bufferable channels.
fn components(graph: &Graph) -> Vec<usize> {
    let mut g = petgraph::graph::DiGraph::<(), ()>::new();
    let nodes: Vec<_> = (0..graph.units.len()).map(|_| g.add_node(())).collect();
    for (c, ch) in graph.channels.iter().enumerate() {
        if graph.cycle_edge(c) {
            g.add_edge(nodes[ch.from], nodes[ch.to], ());
        }
    }
    let mut out = vec![0; graph.units.len()];
    for (i, scc) in petgraph::algo::tarjan_scc(&g).into_iter().enumerate() {
        for node in scc {
            out[node.index()] = i;
        }
    }
    out
}

/// Units reachable from `start` along `edge` channels, forwards or backwards.
fn reach(graph: &Graph, start: usize, forwards: bool, edge: &dyn Fn(usize) -> bool) -> Vec<bool> {
    reach_all(graph, &[start], forwards, edge)
}

/// Units reachable from any of `starts` along `edge` channels, forwards or backwards.
fn reach_all(
    graph: &Graph,
    starts: &[usize],
    forwards: bool,
    edge: &dyn Fn(usize) -> bool,
) -> Vec<bool> {
    let mut seen = vec![false; graph.units.len()];
    let mut stack = starts.to_vec();
    for &s in starts {
        seen[s] = true;
    }
    while let Some(u) = stack.pop() {
        let list = if forwards { &graph.outs[u] } else { &graph.ins[u] };
        for &c in list {
            if !edge(c) {
                continue;
            }
            let ch = &graph.channels[c];
            let v = if forwards { ch.to } else { ch.from };
            if !seen[v] {
                seen[v] = true;
                stack.push(v);
            }
        }
    }
    seen
}
