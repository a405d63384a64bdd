//! Buffer placement: Dynamatic's FPGA20 and FPL22 MILPs, solved by microlp, decomposed so that
//! every model stays small.
//!
//! The pipeline, per `handshake.func` (`place`):
//! 1. `graph`: units and channels (existing buffers folded into their channels, kept as lower
//!    bounds or stripped), with the timing model's delays;
//! 2. `cfdfc`: back edges, the loops (CFDFCs) they close, their weights, and the regions of
//!    overlapping loops;
//! 3. `rules`: seed 000's extra heuristics, as requirements on channels;
//! 4. a heuristic placement: a data/valid break on every back edge, then greedy repair of
//!    every path longer than the period (`timing_paths`). It is the fallback and the warm start;
//! 5. one MILP per region (`formulation`), over its channels and loops, solved with a time
//!    limit; its answer replaces the heuristic's in the region when its objective is better;
//! 6. one model for the channels outside loops: only timing and area, with the regions'
//!    choices fixed (for FPGA20 the same model without ready timing);
//! 7. a last timing check of the whole function: what cannot be fixed is a diagnostic that
//!    names the path; the throughput each loop reaches is read from the whole-function LP
//!    with every choice fixed;
//! 8. `mapping`: results to buffer types; `edit`: the buffers written into the text.

pub mod budget;
pub mod cfdfc;
pub mod edit;
pub mod formulation;
pub mod graph;
pub mod limits;
pub mod lp;
pub mod mapping;
pub mod repair;
pub mod rules;
pub mod slack;
pub mod sta;
pub mod timing;
pub mod timing_paths;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use hsir_analysis::diagnostics::{Diagnostic, DiagnosticCode};
use hsir_analysis::ops::OpKind;

use crate::program::Func;
use cfdfc::{Loops, Profile};
pub use formulation::Algorithm;
use formulation::{Built, Inputs, Scope};
use graph::Graph;
use hsir_analysis::dataflow::{BufferSyntax, BufferType};
use lp::{Limits, Model, Solved, Status};
use mapping::Chain;
pub use repair::Capacity;
use timing::TimingModel;
use timing_paths::{BufferDelays, Choice, Violation};

/// The longest time limit a placement takes, in seconds (a day): what a user may ask for, and
/// what a `Duration` can hold with room to spare.
pub const MAX_TIME_LIMIT_SECS: f64 = 86_400.0;

/// The default time limit, s: a cap the budgets keep placements of Dynamatic's suite well
/// under on a loaded machine (kernel_2mm, the largest, takes about 5 s).
pub const DEFAULT_TIME_LIMIT_SECS: u64 = 30;

/// Branch-and-bound nodes a model may solve when no node limit is given: its integer variables,
/// within bounds. A node of the suite's largest regions (kernel_2mm, FPL22) takes 20-30 ms,
/// and past the warm start microlp rarely improves the placement; the target search before the
/// MILPs is what reaches the optima (`docs/benchmarks.md`).
pub fn node_budget(integer_vars: usize) -> u64 {
    (integer_vars as u64).clamp(50, 150)
}

/// Channel-trials the local search may spend: each trial repairs and evaluates the whole
/// function, so its cost grows with the channels; the trials are this over the channels (59 for
/// kernel_2mm's 337 channels, every move of three passes for small functions).
const SEARCH_WORK: usize = 20_000;

/// Placement settings.
#[derive(Debug, Clone)]
pub struct Options {
    pub algorithm: Algorithm,
    /// Target clock period, ns.
    pub period: f64,
    pub profile: Option<Profile>,
    /// Remove the function's buffers first (otherwise they are lower bounds).
    pub strip: bool,
    /// Time limit of the whole function's placement: a safety cap. The work is bounded by
    /// budgets that do not depend on the machine (target steps, each model's nodes, the local
    /// search's trials), so that a placement is the same on every run; when the cap stops a
    /// step first, the result says so (HS6003) and may differ between runs.
    pub time_limit: Duration,
    /// Relative gap at which a model may stop.
    pub gap: f64,
    pub solver: Solver,
    /// Slots one channel may get.
    pub max_slots: u32,
    /// Branch-and-bound nodes each model may solve (microlp); without it, `node_budget` of the
    /// model's size. A reproducible limit, where a time limit depends on the machine.
    pub node_limit: Option<u64>,
    /// Rounds of slots added to the circular wait of a deadlock the capacity model finds in the
    /// result (`repair`); 0 checks without repairing.
    pub repair_rounds: usize,
    /// After the MILP, add the transparent slots that make the circuit faster in the
    /// cycle-level model (`slack`).
    pub slack: bool,
    /// The text of a testbench inputs file (`NAME = 1, 2, 3` per line, as `hsir rtl --inputs`)
    /// the slack search runs the function on, instead of the inputs its testbench would draw.
    pub inputs: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            algorithm: Algorithm::Fpga20,
            period: 4.0,
            profile: None,
            strip: false,
            time_limit: Duration::from_secs(DEFAULT_TIME_LIMIT_SECS),
            gap: 0.0,
            solver: Solver::Microlp,
            max_slots: 4,
            node_limit: None,
            repair_rounds: 8,
            slack: true,
            inputs: None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Solver {
    Microlp,
    /// HiGHS through the `highs` cargo feature.
    Highs,
}

impl Solver {
    pub fn available(self) -> bool {
        match self {
            Solver::Microlp => true,
            Solver::Highs => cfg!(feature = "highs"),
        }
    }
}

/// What one model did.
#[derive(Debug, Clone)]
pub struct ModelReport {
    /// `region 0` (loops), `outside loops`.
    pub name: String,
    pub variables: usize,
    pub integer_variables: usize,
    pub binary_variables: usize,
    pub constraints: usize,
    pub status: Status,
    pub time: Duration,
    /// The objective of the placement kept for the model's channels.
    pub objective: Option<f64>,
    /// The model's own time limit (what was left of the function's).
    pub time_limit: Duration,
    /// Its branch-and-bound node budget.
    pub nodes: u64,
    /// The heuristic placement's objective on the same model.
    pub heuristic_objective: Option<f64>,
    /// The LP relaxation's optimum (an upper bound).
    pub lp_bound: Option<f64>,
    /// Relative gap of the kept placement to the best bound known.
    pub gap: Option<f64>,
    /// Which placement was kept: `milp` or `heuristic`.
    pub kept: &'static str,
}

#[derive(Debug, Clone)]
pub struct CfdfcReport {
    pub units: usize,
    pub channels: usize,
    pub back_edges: usize,
    pub depth: u32,
    pub weight: f64,
    pub weight_source: &'static str,
    /// Labels of the loop's header units (targets of its back edges).
    pub headers: Vec<String>,
    pub throughput_heuristic: f64,
    pub throughput: f64,
    /// What limits the loop: its critical recurrence under the result (`limits`).
    pub recurrence: Option<limits::Recurrence>,
}

/// The buffers placed on one channel.
#[derive(Debug, Clone)]
pub struct Placed {
    pub channel: usize,
    pub choice: Choice,
    pub chain: Chain,
}

#[derive(Debug, Clone)]
pub struct Placement {
    pub func: String,
    pub algorithm: Algorithm,
    pub period: f64,
    pub graph: Graph,
    pub placed: Vec<Placed>,
    pub cfdfcs: Vec<CfdfcReport>,
    pub models: Vec<ModelReport>,
    /// The longest data/valid and ready paths of the result, ns (their overhead included).
    pub critical_dv: f64,
    pub critical_r: f64,
    /// The static timing analysis of the result (`sta`): its longest register-to-register
    /// data path and any combinational cycle left.
    pub timing: sta::Timing,
    /// The whole-function objective of the result (weighted throughput minus area).
    pub objective: f64,
    pub diagnostics: Vec<Diagnostic>,
    /// The existing buffers the result replaces (all of them when stripping; else those on
    /// channels that get a new chain).
    pub removed: Vec<hsir_analysis::ir::OpId>,
    pub time: Duration,
    pub cancelled: bool,
    /// Breaks the local search moved or removed after the solvers (kept moves).
    pub search_moves: usize,
    /// The final choice of each channel (what `placed` writes, with the buffers kept).
    pub choices: Vec<Choice>,
    /// The result run clock by clock on the function's default stimulus (`repair`), and the
    /// slots a deadlock needed.
    pub capacity: Capacity,
    /// What the slack search did (`place_program`, when `Options::slack`).
    pub slack: Option<slack::Slack>,
}

struct Context<'a> {
    graph: Graph,
    loops: Loops,
    buf: Vec<BufferDelays>,
    options: &'a Options,
    cancel: Option<&'a AtomicBool>,
    /// The function writes CIRCT's buffers, which all break data and valid: a slot is a break.
    circt: bool,
    /// When the work must stop: the time limit, less a tenth kept for the capacity check.
    deadline: Instant,
    /// A step stopped at `deadline` before its budget was spent (the result depends on time).
    capped: std::cell::Cell<bool>,
}

impl Context<'_> {
    /// What the delays of one register-to-register path may add up to: the period less the
    /// timing model's overhead (`Graph::path_budget`). Every timing check reads this.
    fn budget(&self) -> f64 {
        self.graph.path_budget(self.options.period)
    }

    fn inputs<'b>(&'b self, fixed: &'b [Choice]) -> Inputs<'b> {
        let max_latency = self.graph.units.iter().map(|u| u.timing.latency).max().unwrap_or(0);
        Inputs {
            graph: &self.graph,
            loops: &self.loops,
            algorithm: self.options.algorithm,
            period: self.budget(),
            buf: &self.buf,
            fixed,
            max_slots: self.options.max_slots.max(max_latency + 1),
            relax_slots: false,
            slots_break_dv: self.circt,
        }
    }

    fn limits<'b>(&'b self, warm: Option<&'b [(lp::Var, f64)]>) -> Limits<'b> {
        Limits {
            time_limit: self.options.time_limit,
            node_limit: self.options.node_limit,
            gap: self.options.gap,
            warm_start: warm,
            cancel: self.cancel,
        }
    }

    fn solve(&self, model: &Model, limits: &Limits) -> Solved {
        match self.options.solver {
            #[cfg(feature = "highs")]
            Solver::Highs => lp::solve_highs(model, limits),
            _ => lp::solve_microlp(model, limits),
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }
}

/// Builds the whole-function model, undecomposed (what `--emit-model` writes, and what the
/// benchmark hands to HiGHS).
pub fn whole_model(func: &Func, options: &Options, timing: &TimingModel) -> Model {
    let (cx, _) = context(func, options, timing, None);
    let fixed = initial_choices(&cx.graph);
    let all = vec![true; cx.graph.channels.len()];
    let scope = Scope {
        decide: all.clone(),
        decide_x: all.clone(),
        decide_y: all.clone(),
        timed: all,
        cfdfcs: (0..cx.loops.cfdfcs.len()).collect(),
    };
    formulation::build(&cx.inputs(&fixed), &scope).model
}

fn context<'a>(
    func: &'a Func,
    options: &'a Options,
    timing: &TimingModel,
    cancel: Option<&'a AtomicBool>,
) -> (Context<'a>, graph::BuildNotes) {
    let (mut graph, notes) = Graph::build(func, timing, options.strip, options.period);
    if options.algorithm == Algorithm::Fpga20 {
        for unit in &mut graph.units {
            unit.data_only = true;
        }
    }
    let loops = cfdfc::find(&graph, options.profile.as_ref());
    rules::apply(func, &mut graph, &loops, options.algorithm);
    let circt =
        edit::form(func) == edit::Form::Syntax(hsir_analysis::dataflow::BufferSyntax::Circt);
    if options.algorithm == Algorithm::Fpga20 && !circt {
        // FPGA20's ready break is written as a buffer of its own, outside the slots the model
        // sizes: an old one is not a slot to keep (else each run would add one).
        for ch in &mut graph.channels {
            if ch.force_r && ch.old_r {
                ch.old_slots = ch.old_slots.saturating_sub(1);
            }
        }
    }
    if circt {
        // A slot a rule asks for, and FPGA20's ready break, are CIRCT buffers: breaks.
        for ch in &mut graph.channels {
            if (ch.min_slots > 0 || ch.min_transparent > 0 || ch.force_r)
                && ch.force_dv != Some(false)
            {
                ch.force_dv = Some(true);
                ch.min_slots = ch.min_slots.max(ch.min_transparent);
                ch.min_transparent = 0;
            }
        }
    }
    let buf =
        graph.channels.iter().map(|c| BufferDelays::from_model(timing, c.width.max(1))).collect();
    let deadline = Instant::now() + options.time_limit.mul_f64(0.9);
    let capped = std::cell::Cell::new(false);
    (Context { graph, loops, buf, options, cancel, circt, deadline, capped }, notes)
}

/// Choices every placement starts from: existing buffers (when kept) and forced rules.
fn initial_choices(graph: &Graph) -> Vec<Choice> {
    graph
        .channels
        .iter()
        .map(|ch| {
            let dv = ch.old_dv || ch.force_dv == Some(true);
            let r = ch.old_r;
            let slots =
                ch.old_slots.max(ch.min_slots).max(dv as u32 + ch.min_transparent).max(r as u32);
            Choice { dv, r, slots }
        })
        .collect()
}

pub fn place(
    func: &Func,
    options: &Options,
    timing: &TimingModel,
    cancel: Option<&AtomicBool>,
) -> Placement {
    let started = Instant::now();
    let (cx, notes) = context(func, options, timing, cancel);
    let graph = &cx.graph;
    let nc = graph.channels.len();
    let mut diagnostics = Vec::new();
    for (name, u) in &notes.missing_timing {
        let unit = &graph.units[*u];
        let fallback = timing.fallback();
        diagnostics.push(Diagnostic::new(
            DiagnosticCode::PlacementNoTiming,
            unit.range,
            format!(
                "the timing model has no entry for `{name}`; placement assumed latency {} and {} ns of delay",
                fallback.latency,
                fallback.data.max(fallback.valid)
            ),
        ));
    }
    if let Some(profile) = &options.profile {
        let blocks = graph.units.iter().any(|u| u.block.is_some());
        let used = cx.loops.cfdfcs.iter().any(|c| c.weight_source == "profile");
        if !cx.loops.cfdfcs.is_empty() && !used {
            let why = if blocks {
                "none of its loops' back edges is a block transition the profile lists"
            } else {
                "the function has no `handshake.bb` attributes"
            };
            diagnostics.push(Diagnostic::new(
                DiagnosticCode::PlacementProfileUnused,
                func.absolute(func.op().name_range),
                format!(
                    "the profile ({} transitions) does not weigh `{}`: {why}; loops are weighted as if each iterated {} times",
                    profile.transitions.len(),
                    func.name,
                    cfdfc::ASSUMED_TRIPS
                ),
            ));
        }
    }
    let allowed_all =
        |c: usize| graph.channels[c].bufferable && graph.channels[c].force_dv != Some(false);

    // 4. Heuristic placement.
    // Cycles get a data/valid break only where they have no register (a pipelined op, an
    // old buffer) already: on their back edge when it may be buffered.
    let mut heuristic = initial_choices(graph);
    let mut unfixable = heuristic_repair(&cx, &mut heuristic, &allowed_all);
    size_slots(&cx, &mut heuristic);
    // The whole function's LP relaxation, rounded at a few thresholds and repaired: where the
    // LP puts most of a break is usually where the MILP puts it.
    if !cx.loops.cfdfcs.is_empty() {
        let base = unfixable.len();
        let (theta_heuristic, mut best) = evaluate(&cx, &heuristic);
        let (rounded, theta_lp) = rounded_relaxation(&cx, &allowed_all);
        for candidate in rounded {
            let mut trial = candidate;
            let left = heuristic_repair(&cx, &mut trial, &allowed_all);
            if left.len() > base || timing_paths::analyse(graph, &trial, &cx.buf).dv_cycle.is_some()
            {
                continue;
            }
            size_slots(&cx, &mut trial);
            let (_, objective) = evaluate(&cx, &trial);
            if objective > best + 1e-7 {
                best = objective;
                heuristic = trial;
            }
        }
        // Throughput targets between the heuristic's and the LP's, each met by a repair that
        // keeps every loop's cycle budget.
        let found = target_search(&cx, &allowed_all, &theta_heuristic, &theta_lp, base);
        if let Some((objective, found)) = found {
            if objective > best + 1e-7 {
                heuristic = found;
            }
        }
    }

    // 5. One MILP per region.
    let mut choices = heuristic.clone();
    let long = {
        let mut cut = initial_choices(graph);
        for (c, &back) in cx.loops.back_edge.iter().enumerate() {
            cut[c].dv |= back;
        }
        timing_paths::on_long_paths(graph, &cut, &cx.buf, cx.budget())
    };
    let mut models = Vec::new();
    let in_region = |c: usize| {
        let ch = &graph.channels[c];
        cx.loops.region_of_unit[ch.from].is_some()
            && cx.loops.region_of_unit[ch.from] == cx.loops.region_of_unit[ch.to]
    };
    for (r, (cfdfcs, _units)) in cx.loops.regions.iter().enumerate() {
        if cx.cancelled() {
            break;
        }
        let region_channel =
            |c: usize| in_region(c) && cx.loops.region_of_unit[graph.channels[c].from] == Some(r);
        let decide: Vec<bool> =
            (0..nc).map(|c| region_channel(c) && graph.channels[c].bufferable).collect();
        // A data/valid break only costs throughput, so it can help only on a back edge (to cut
        // the loop) or on a path longer than the period when the loops are cut at their back
        // edges.
        let decide_x: Vec<bool> = (0..nc)
            .map(|c| {
                decide[c]
                    && (cx.loops.back_edge[c] || long[c] || heuristic[c].dv || cx.circt)
                    && graph.channels[c].force_dv.is_none()
            })
            .collect();
        let decide_y: Vec<bool> = (0..nc)
            .map(|c| {
                decide[c]
                    && (cx.loops.back_edge[c]
                        || graph.units[graph.channels[c].from].merge_like
                        || heuristic[c].r)
            })
            .collect();
        let scope = Scope {
            decide,
            decide_x,
            decide_y,
            timed: (0..nc).map(region_channel).collect(),
            cfdfcs: cfdfcs.clone(),
        };
        let report = solve_part(&cx, format!("region {r}"), &scope, &heuristic, &mut choices);
        models.push(report);
    }

    // 6. Channels outside loops: timing and area, the regions' choices fixed.
    let outside: Vec<bool> =
        (0..nc).map(|c| !in_region(c) && graph.channels[c].bufferable).collect();
    let allowed_outside = |c: usize| outside[c] && allowed_all(c);
    let _ = heuristic_repair(&cx, &mut choices, &allowed_outside);
    if outside.iter().any(|&o| o) && !cx.cancelled() {
        let start = choices.clone();
        let mut cut = choices.clone();
        for c in 0..nc {
            if outside[c] {
                cut[c].dv = cut[c].dv
                    && (graph.channels[c].old_dv || graph.channels[c].force_dv == Some(true));
            }
        }
        let long = timing_paths::on_long_paths(graph, &cut, &cx.buf, cx.budget());
        let decide_x: Vec<bool> = (0..nc)
            .map(|c| outside[c] && long[c] && graph.channels[c].force_dv.is_none())
            .collect();
        let scope = Scope {
            decide: outside.clone(),
            decide_x,
            decide_y: outside.clone(),
            timed: vec![true; nc],
            cfdfcs: Vec::new(),
        };
        let report = solve_part(&cx, "outside loops".into(), &scope, &start, &mut choices);
        models.push(report);
    }

    // 7. Last check over everything; anything left may break any channel.
    unfixable.extend(heuristic_repair(&cx, &mut choices, &allowed_all));

    // 8. Moves the solvers did not make: each loop break taken out and the timing repaired
    // around it, kept when the whole function's objective improves.
    let moves = local_search(&cx, &mut choices, &allowed_all);
    for v in dedup(unfixable) {
        diagnostics.push(path_diagnostic(&cx, &v));
    }
    let arrivals = timing_paths::analyse(graph, &choices, &cx.buf);
    let critical_dv =
        graph.path_cost(arrivals.dv_in.iter().chain(&arrivals.dv_out).copied().fold(0.0, f64::max));
    let critical_r = if options.algorithm == Algorithm::Fpl22 {
        graph.path_cost(arrivals.r_in.iter().copied().fold(0.0, f64::max))
    } else {
        0.0
    };
    let timing = sta::analyse(graph, &choices, &cx.buf, options.period);
    for m in &models {
        if matches!(
            m.status,
            Status::TimeLimit | Status::NodeLimit | Status::NoSolution | Status::Cancelled
        ) {
            let message = match m.status {
                Status::Cancelled => format!(
                    "buffer placement was cancelled while solving the {}; the {} placement is used",
                    m.name, m.kept
                ),
                Status::NoSolution => format!(
                    "the MILP of the {} found no placement within its {}; the {} placement is used",
                    m.name,
                    if m.time < m.time_limit {
                        format!("{}-node limit", m.nodes)
                    } else {
                        format!("time limit ({:.1} s)", m.time_limit.as_secs_f64())
                    },
                    m.kept
                ),
                _ => format!(
                    "the MILP of the {} stopped at its {}{}; the {} placement is used",
                    m.name,
                    if m.status == Status::NodeLimit {
                        format!("{}-node limit", m.nodes)
                    } else {
                        format!("time limit ({:.1} s)", m.time_limit.as_secs_f64())
                    },
                    m.gap.map(|g| format!(" with a gap of {:.2}%", g * 100.0)).unwrap_or_default(),
                    m.kept
                ),
            };
            diagnostics.push(Diagnostic::new(
                DiagnosticCode::PlacementTimeLimit,
                func.absolute(func.op().name_range),
                message,
            ));
        }
    }

    if cx.capped.get() && !cx.cancelled() {
        diagnostics.push(Diagnostic::new(
            DiagnosticCode::PlacementTimeLimit,
            func.absolute(func.op().name_range),
            format!(
                "buffer placement stopped at its time limit ({:.1} s) before its work budget was spent; the result depends on the machine's speed and may differ between runs (a longer `--time-limit` makes it repeatable)",
                options.time_limit.as_secs_f64()
            ),
        ));
    }

    // CIRCT's buffers all break data and valid (`fifo`; `seq` breaks ready too): a transparent
    // slot or a ready break written in CIRCT's syntax is a data/valid break, and the throughput
    // below is what the written buffers give.
    let circt = cx.circt;
    if circt {
        for choices in [&mut choices, &mut heuristic] {
            for choice in choices.iter_mut() {
                if choice.slots > 0 || choice.r {
                    choice.dv = true;
                    choice.slots = choice.slots.max(1);
                }
            }
        }
    }

    // Throughput of each loop, heuristic and final, on the whole-function LP.
    let (theta_heuristic, _) = evaluate(&cx, &heuristic);
    let (theta, objective) = evaluate(&cx, &choices);
    let cfdfcs = cx
        .loops
        .cfdfcs
        .iter()
        .enumerate()
        .map(|(k, c)| CfdfcReport {
            units: c.units.len(),
            channels: c.channels.len(),
            back_edges: c.back_edges.len(),
            depth: c.depth,
            weight: c.weight,
            weight_source: c.weight_source,
            headers: {
                let mut h: Vec<String> = c
                    .back_edges
                    .iter()
                    .map(|&b| graph.units[graph.channels[b].to].label.clone())
                    .collect();
                h.sort();
                h.dedup();
                h
            },
            throughput_heuristic: theta_heuristic.get(k).copied().unwrap_or(0.0),
            throughput: theta.get(k).copied().unwrap_or(0.0),
            recurrence: limits::recurrence(graph, c, &choices, options.period),
        })
        .collect();

    // 8. Mapping.
    let (placed, removed) = mapped(func, graph, options, circt, &choices);
    Placement {
        func: func.name.clone(),
        algorithm: options.algorithm,
        period: options.period,
        cancelled: cx.cancelled(),
        graph: cx.graph.clone(),
        placed,
        cfdfcs,
        models,
        critical_dv,
        critical_r,
        timing,
        objective,
        diagnostics,
        removed,
        search_moves: moves,
        time: started.elapsed(),
        choices,
        capacity: Capacity::Unchecked("not checked".into()),
        slack: None,
    }
}

/// The buffers `choices` write on each channel, and the existing buffers they replace.
fn mapped(
    func: &Func,
    graph: &Graph,
    options: &Options,
    circt: bool,
    choices: &[Choice],
) -> (Vec<Placed>, Vec<hsir_analysis::ir::OpId>) {
    let mut placed = Vec::new();
    let mut removed = Vec::new();
    for (c, ch) in graph.channels.iter().enumerate() {
        let choice = choices[c];
        // FPGA20's ready breaks (after merge-like ops, or on a ready cycle) are extra buffers.
        let chain = if circt {
            // One CIRCT op: `seq` breaks ready as well, so FPGA20's ready break needs no slot
            // of its own.
            let kind = if choice.r { BufferType::OneSlotBreakDvr } else { BufferType::FifoBreakDv };
            if choice.slots > 0 {
                vec![(kind, choice.slots)]
            } else {
                Vec::new()
            }
        } else {
            mapping::map(options.algorithm, choice.dv, choice.r, choice.slots, choice.r)
        };
        let unchanged = !options.strip && chain_matches_old(func, ch, &chain);
        if options.strip || !unchanged {
            removed.extend(ch.old.iter().copied());
        }
        if !chain.is_empty() && !unchanged {
            placed.push(Placed { channel: c, choice, chain });
        }
    }
    (placed, removed)
}

/// Whether the channel's existing buffers already are `chain` (then the text is left alone).
fn chain_matches_old(func: &Func, ch: &graph::Channel, chain: &Chain) -> bool {
    use hsir_analysis::dataflow::{BufferKind, BufferSyntax, BufferType};
    let infos = hsir_analysis::dataflow::buffers(&func.item);
    let form = edit::form(func);
    let written = edit::written(form, chain);
    let old_infos = ch.old.iter().filter_map(|&b| infos[b as usize].as_ref());
    if form == edit::Form::Syntax(BufferSyntax::Circt) {
        // One op, `seq` when the chain breaks ready, else `fifo`, with the chain's slots.
        let old: Vec<(bool, u32)> = old_infos
            .map(|b| (matches!(b.kind, BufferKind::CirctSeq), b.slot_count().unwrap_or(1)))
            .collect();
        let new: Vec<(bool, u32)> =
            written.iter().map(|&(t, n)| (t == BufferType::OneSlotBreakDvr, n)).collect();
        return old == new;
    }
    let old: Vec<(Option<BufferType>, u32)> =
        old_infos.map(|b| (b.buffer_type(), b.slot_count().unwrap_or(1))).collect();
    old.len() == written.len()
        && old.iter().zip(&written).all(|(o, n)| o.0 == Some(n.0) && o.1 == n.1)
}

/// Greedy timing repair (data/valid, then ready for FPL22), and cycle breaking: FPGA20's ready
/// breaks go after merge-like ops (forced by the rules), FPL22's on the cycle's back edge.
fn heuristic_repair(
    cx: &Context,
    choices: &mut [Choice],
    allowed: &dyn Fn(usize) -> bool,
) -> Vec<Violation> {
    let graph = &cx.graph;
    let period = cx.budget();
    for (choice, ch) in choices.iter_mut().zip(&graph.channels) {
        if ch.force_r && cx.options.algorithm == Algorithm::Fpga20 {
            // Mapped as an extra ready-breaking buffer; the timing sees the ready break.
            choice.r = true;
        }
    }
    let mut unfixable = Vec::new();
    // Combinational data/valid cycles left (a cycle with no back edge allowed to break).
    for _ in 0..graph.channels.len() {
        let a = timing_paths::analyse(graph, choices, &cx.buf);
        let Some(cycle) = a.dv_cycle else { break };
        let pick = cycle
            .iter()
            .copied()
            .find(|&c| allowed(c) && cx.loops.back_edge[c] && !choices[c].dv)
            .or_else(|| cycle.iter().copied().find(|&c| allowed(c) && !choices[c].dv));
        let Some(c) = pick else { break };
        choices[c].dv = true;
        choices[c].slots = choices[c].slots.max(1);
    }
    unfixable.extend(timing_paths::repair_dv(graph, choices, &cx.buf, period, allowed));
    for _ in 0..graph.channels.len() {
        let a = timing_paths::analyse(graph, choices, &cx.buf);
        let Some(cycle) = a.r_cycle else { break };
        let pick = cycle
            .iter()
            .copied()
            .find(|&c| allowed(c) && cx.loops.back_edge[c] && !choices[c].r)
            .or_else(|| cycle.iter().copied().find(|&c| allowed(c) && !choices[c].r));
        let Some(c) = pick else { break };
        choices[c].r = true;
        choices[c].slots = choices[c].slots.max(1);
    }
    if cx.options.algorithm == Algorithm::Fpl22 {
        unfixable.extend(timing_paths::repair_r(graph, choices, &cx.buf, period, allowed));
    }
    unfixable
}

/// Rounds of `budget::negotiate` per target.
const NEGOTIATION_ROUNDS: usize = 30;

/// The ways `target_search` lets `budget::repair` choose a late path's break.
const PICKS: [budget::Pick; 5] = [
    budget::Pick::MostFixed,
    budget::Pick::Latest,
    budget::Pick::MostSlack,
    budget::Pick::Reserve(1),
    budget::Pick::Reserve(2),
];

/// Bisection steps of `target_search` between the heuristic's throughput and the LP's.
const TARGET_STEPS: usize = 6;

/// Searches throughput targets: each loop's target lies a share `μ` of the way from the
/// heuristic's throughput to the LP relaxation's, `μ = 1` first, then bisection. A placement
/// that meets a target is built by `budget::repair` (late paths broken where the loops have
/// room) with each of `PICKS`, and by `budget::negotiate`; each one found loses the breaks it
/// does not need (`budget::prune`) and merges the breaks after a fork into one before it
/// (`budget::hoist`). Returns the best placement found and its objective, if any met a target
/// with no more unfixable paths than `base`. Past the time limit nothing new is started.
fn target_search(
    cx: &Context,
    allowed: &dyn Fn(usize) -> bool,
    theta_heuristic: &[f64],
    theta_lp: &[f64],
    base: usize,
) -> Option<(f64, Vec<Choice>)> {
    let graph = &cx.graph;
    if theta_lp.len() != cx.loops.cfdfcs.len() {
        return None;
    }
    let mut best: Option<(f64, Vec<Choice>)> = None;
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let mut mu = 1.0;
    for _ in 0..TARGET_STEPS {
        // Past the time limit no target or pick is started: the heuristic placement stands if
        // none was met.
        if cx.cancelled() {
            break;
        }
        if Instant::now() >= cx.deadline {
            cx.capped.set(true);
            break;
        }
        let targets: Vec<f64> = theta_heuristic
            .iter()
            .zip(theta_lp)
            .map(|(&h, &l)| h + mu * (l - h).max(0.0))
            .collect();
        let budgets = budget::Budgets::new(graph, &cx.loops, targets);
        let mut met = false;
        let timing = budget::Timing { graph, buf: &cx.buf, period: cx.budget(), allowed };
        let negotiated =
            budget::negotiate(&timing, &initial_choices(graph), &budgets, NEGOTIATION_ROUNDS);
        let picks = PICKS
            .iter()
            .map(|&p| (p, None))
            .chain(negotiated.map(|n| (budget::Pick::Negotiated, Some(n))));
        for (pick, done) in picks {
            if Instant::now() >= cx.deadline {
                cx.capped.set(true);
                break;
            }
            let trial = match done {
                Some(done) => Some(done),
                None => {
                    let mut trial = initial_choices(graph);
                    let kept = budgets.met(&trial)
                        && budget::repair(&timing, &mut trial, &budgets, pick, &[]);
                    kept.then_some(trial)
                }
            };
            let Some(mut trial) = trial else { continue };
            let left = heuristic_repair(cx, &mut trial, allowed);
            if left.len() > base || timing_paths::analyse(graph, &trial, &cx.buf).dv_cycle.is_some()
            {
                continue;
            }
            met = true;
            let removable = |c: usize| break_optional(graph, c);
            budget::prune(&timing, &mut trial, &removable);
            let at = budget::Budgets::new(graph, &cx.loops, budgets.achieved(&trial));
            budget::hoist(&timing, &mut trial, &removable, &at);
            size_slots(cx, &mut trial);
            let (_, objective) = evaluate(cx, &trial);
            if best.as_ref().is_none_or(|(b, _)| objective > *b + 1e-7) {
                best = Some((objective, trial));
            }
        }
        if met && mu >= 1.0 {
            break;
        }
        if met {
            lo = mu;
        } else {
            hi = mu;
        }
        mu = (lo + hi) / 2.0;
    }
    best
}

/// Thresholds at which `rounded_relaxation` rounds the LP's breaks up.
const ROUNDING: [f64; 4] = [0.5, 0.35, 0.2, 0.65];

/// Placements from the LP relaxation of the whole function (every decision continuous, timing
/// and throughput rows as in the MILP): a channel breaks a path when the LP breaks at least a
/// threshold's share of it. Not repaired: the caller repairs and checks each.
fn rounded_relaxation(
    cx: &Context,
    allowed: &dyn Fn(usize) -> bool,
) -> (Vec<Vec<Choice>>, Vec<f64>) {
    let nc = cx.graph.channels.len();
    let fixed = initial_choices(&cx.graph);
    let decide: Vec<bool> = (0..nc).map(allowed).collect();
    let scope = Scope {
        decide: decide.clone(),
        decide_x: decide.clone(),
        decide_y: decide,
        timed: vec![true; nc],
        cfdfcs: (0..cx.loops.cfdfcs.len()).collect(),
    };
    let mut built = formulation::build(&cx.inputs(&fixed), &scope);
    for v in &mut built.model.vars {
        v.domain = lp::Domain::Continuous;
    }
    let solved = lp::solve_microlp(&built.model, &cx.limits(None));
    let Some(values) = solved.values else { return (Vec::new(), Vec::new()) };
    let theta = built.theta.iter().map(|&(_, v)| values[v.0 as usize]).collect();
    let share = |var: Option<lp::Var>| var.map(|v| values[v.0 as usize]);
    let mut out: Vec<Vec<Choice>> = Vec::new();
    for t in ROUNDING {
        let mut choices = fixed.clone();
        for (c, choice) in choices.iter_mut().enumerate() {
            if share(built.x[c]).is_some_and(|x| x >= t - 1e-9) {
                choice.dv = true;
                choice.slots = choice.slots.max(1);
            }
            if cx.options.algorithm == Algorithm::Fpl22
                && share(built.y[c]).is_some_and(|y| y >= t - 1e-9)
            {
                choice.r = true;
                choice.slots = choice.slots.max(1);
            }
        }
        if !out.contains(&choices) {
            out.push(choices);
        }
    }
    (out, theta)
}

/// Passes of `local_search` over the loop breaks at most: a bound that does not depend on the
/// machine, as the node limit is for the solvers.
const SEARCH_PASSES: usize = 3;

/// Improves `choices` one data/valid break at a time: a break on a loop channel that no rule or
/// old buffer requires is taken out, the timing is repaired without it (so a break elsewhere,
/// often off the loop or before a fork, replaces it, or none does), the slots are sized again,
/// and the result is kept when the whole function's objective (throughput, then area) improves.
/// Returns the number of moves kept. Stops after `SEARCH_PASSES`, once `SEARCH_WORK` is spent,
/// on cancel, or at the time limit.
fn local_search(cx: &Context, choices: &mut Vec<Choice>, allowed: &dyn Fn(usize) -> bool) -> usize {
    let graph = &cx.graph;
    let nc = graph.channels.len();
    if cx.loops.cfdfcs.is_empty() {
        return 0;
    }
    let mut in_loop = vec![false; nc];
    for k in &cx.loops.cfdfcs {
        for &c in &k.channels {
            in_loop[c] = true;
        }
    }
    let violations = |choices: &mut Vec<Choice>| {
        let mut copy = choices.clone();
        heuristic_repair(cx, &mut copy, allowed).len()
    };
    let base_violations = violations(choices);
    let (_, mut best) = evaluate(cx, choices);
    let removable = |choices: &[Choice], c: usize| choices[c].dv && break_optional(graph, c);
    let mut kept = 0;
    let mut trials = (SEARCH_WORK / nc.max(1)).max(20);
    for _ in 0..SEARCH_PASSES {
        let mut changed = false;
        let mut moves: Vec<Move> =
            (0..nc).filter(|&c| in_loop[c] && removable(choices, c)).map(Move::Drop).collect();
        // Breaks moved across a unit: from all its outputs to its inputs (one break before a
        // fork instead of one per branch) or back.
        for u in 0..graph.units.len() {
            if timing_paths::registered(graph, u) {
                continue;
            }
            let touches_loop = graph.ins[u].iter().chain(&graph.outs[u]).any(|&c| in_loop[c]);
            if !touches_loop {
                continue;
            }
            if graph.outs[u].iter().any(|&c| removable(choices, c)) {
                moves.push(Move::Up(u));
            }
            if graph.ins[u].iter().any(|&c| removable(choices, c)) {
                moves.push(Move::Down(u));
            }
        }
        for m in moves {
            if cx.cancelled() {
                return kept;
            }
            if Instant::now() >= cx.deadline {
                cx.capped.set(true);
                return kept;
            }
            let mut trial = choices.clone();
            let (from, to, keep_out): (&[usize], &[usize], Option<usize>) = match m {
                Move::Drop(c) => (std::slice::from_ref(&graph.channels[c].to), &[], Some(c)),
                Move::Up(u) => (&graph.outs[u], &graph.ins[u], None),
                Move::Down(u) => (&graph.ins[u], &graph.outs[u], None),
            };
            let cleared: Vec<usize> = match m {
                Move::Drop(c) => vec![c],
                _ => from.iter().copied().filter(|&c| removable(&trial, c)).collect(),
            };
            let _ = from;
            if cleared.is_empty() {
                continue;
            }
            for &c in &cleared {
                trial[c].dv = false;
            }
            for &c in to {
                if allowed(c) && !trial[c].dv {
                    trial[c].dv = true;
                    trial[c].slots = trial[c].slots.max(1);
                }
            }
            if trials == 0 {
                return kept;
            }
            trials -= 1;
            let blocked = |d: usize| keep_out != Some(d) && allowed(d);
            let left = heuristic_repair(cx, &mut trial, &blocked);
            if left.len() > base_violations
                || timing_paths::analyse(graph, &trial, &cx.buf).dv_cycle.is_some()
            {
                continue;
            }
            size_slots(cx, &mut trial);
            let (_, objective) = evaluate(cx, &trial);
            if objective > best + 1e-7 {
                *choices = trial;
                best = objective;
                kept += 1;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    kept
}

/// Whether a data/valid break on channel `c` may be taken out: neither an old buffer nor a rule
/// requires it.
fn break_optional(graph: &Graph, c: usize) -> bool {
    let ch = &graph.channels[c];
    !ch.old_dv && ch.force_dv != Some(true)
}

/// A move of `local_search`.
#[derive(Debug, Clone, Copy)]
enum Move {
    /// Take the break of this channel out; the repair may not put it back there.
    Drop(usize),
    /// The breaks on this unit's outputs move to its inputs.
    Up(usize),
    /// The breaks on this unit's inputs move to its outputs.
    Down(usize),
}

fn dedup(violations: Vec<Violation>) -> Vec<Violation> {
    let mut out: Vec<Violation> = Vec::new();
    for v in violations {
        if !out.iter().any(|o| o.channels == v.channels) {
            out.push(v);
        }
    }
    out
}

fn path_diagnostic(cx: &Context, v: &Violation) -> Diagnostic {
    let graph = &cx.graph;
    let names: Vec<String> =
        v.units.iter().map(|&u| format!("`{}`", graph.units[u].label)).collect();
    let last = *v.units.last().unwrap_or(&0);
    let first_channel = v.channels.first().copied().unwrap_or(0);
    let kind = if v.ready { "ready" } else { "data/valid" };
    let why = if v.units.len() <= 2 && !graph.channels[first_channel].bufferable {
        " and its channels are memory ports, which are never buffered".to_string()
    } else if v.units.len() <= 2 {
        format!(
            " and no buffer can shorten it: `{}` alone takes most of it",
            graph.units[last].label
        )
    } else {
        String::new()
    };
    let mut d = Diagnostic::new(
        DiagnosticCode::PlacementPathTooLong,
        graph.units[last].range,
        format!(
            "the {kind} path {} has {:.2} ns of combinational delay, more than the {} ns period{why}",
            names.join(" → "),
            graph.path_cost(v.delay),
            cx.options.period
        ),
    );
    for &u in v.units.iter().take(v.units.len().saturating_sub(1)) {
        d = d.with_related(
            graph.units[u].range,
            format!("the path crosses `{}`", graph.units[u].label),
        );
    }
    d
}

/// Solves one part: heuristic objective, LP bound, MILP; keeps the better placement.
fn solve_part(
    cx: &Context,
    name: String,
    scope: &Scope,
    start: &[Choice],
    choices: &mut [Choice],
) -> ModelReport {
    // The node budget bounds the work; the time left is only a cap.
    let limit =
        cx.deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(50));
    let mut inputs = cx.inputs(start);
    inputs.relax_slots = true;
    let built = formulation::build(&inputs, scope);
    let model = &built.model;
    let mut report = ModelReport {
        name,
        variables: model.vars.len(),
        integer_variables: model.integer_vars(),
        binary_variables: model.binary_vars(),
        constraints: model.rows.len(),
        status: Status::Optimal,
        time: Duration::ZERO,
        time_limit: limit,
        nodes: 0,
        objective: None,
        heuristic_objective: None,
        lp_bound: None,
        gap: None,
        kept: "heuristic",
    };
    if Instant::now() >= cx.deadline {
        // No time left: the model is not solved, and the placement it would start from stays.
        cx.capped.set(true);
        report.status = Status::TimeLimit;
        for c in 0..choices.len() {
            if scope.decide[c] {
                choices[c] = start[c];
            }
        }
        return report;
    }
    let started = Instant::now();
    // The heuristic's objective: the LP left when its choices are fixed.
    let heuristic_objective = {
        let mut fixed = built.clone();
        formulation::fix_decisions(&mut fixed, start);
        let solved = lp::solve_microlp(&fixed.model, &cx.limits(None));
        solved.objective
    };
    report.heuristic_objective = heuristic_objective;
    report.lp_bound = lp::lp_bound(model, &cx.limits(None));
    let warm = formulation::warm_start(&built, start);
    let nodes = cx.options.node_limit.unwrap_or_else(|| node_budget(model.integer_vars()));
    report.nodes = nodes;
    let limits = Limits { time_limit: limit, node_limit: Some(nodes), ..cx.limits(Some(&warm)) };
    let solved = cx.solve(model, &limits);
    report.status = solved.status;
    if solved.status == Status::TimeLimit {
        cx.capped.set(true);
    }
    report.time = started.elapsed();
    let better = match (solved.objective, heuristic_objective) {
        (Some(m), Some(h)) => m >= h - 1e-9,
        (Some(_), None) => true,
        _ => false,
    };
    if let (true, Some(values)) = (better, &solved.values) {
        let mut candidate = choices.to_vec();
        formulation::read(&built, values, &mut candidate);
        choices.copy_from_slice(&candidate);
        report.kept = "milp";
        report.objective = solved.objective;
    } else {
        for c in 0..choices.len() {
            if scope.decide[c] {
                choices[c] = start[c];
            }
        }
        report.objective = heuristic_objective;
    }
    let bound = match (solved.bound, report.lp_bound) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    if let (Some(objective), Some(bound)) = (report.objective, bound) {
        report.gap = Some(((bound - objective).max(0.0)) / objective.abs().max(1e-9));
    }
    if report.status == Status::Optimal && report.kept == "milp" {
        report.gap = Some(0.0);
    }
    report
}

/// Each loop's throughput, and the whole-function objective, for `choices`.
fn evaluate(cx: &Context, choices: &[Choice]) -> (Vec<f64>, f64) {
    let nc = cx.graph.channels.len();
    let scope = Scope {
        decide: vec![true; nc],
        decide_x: vec![true; nc],
        decide_y: vec![true; nc],
        timed: vec![false; nc],
        cfdfcs: (0..cx.loops.cfdfcs.len()).collect(),
    };
    let mut built: Built = formulation::build(&cx.inputs(choices), &scope);
    formulation::fix_decisions(&mut built, choices);
    let solved = lp::solve_microlp(&built.model, &cx.limits(None));
    let Some(values) = solved.values else { return (vec![0.0; cx.loops.cfdfcs.len()], 0.0) };
    let theta = built.theta.iter().map(|&(_, v)| values[v.0 as usize]).collect();
    (theta, solved.objective.unwrap_or(0.0))
}

/// Placement of every function of a file.
#[derive(Debug, Clone)]
pub struct Output {
    pub placements: Vec<Placement>,
    /// Edits of the file's text that write every placement.
    pub edits: Vec<edit::TextEdit>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Places buffers in every `handshake.func` with a body (or only in `only`), one function after
/// another.
pub fn place_program(
    program: &crate::Program,
    text: &str,
    options: &Options,
    timing: &TimingModel,
    only: Option<&str>,
    cancel: Option<&AtomicBool>,
) -> Result<Output, Vec<Diagnostic>> {
    let funcs: Vec<&Func> = program
        .funcs
        .iter()
        .filter(|f| !f.external && only.is_none_or(|name| f.name == name))
        .collect();
    if funcs.is_empty() {
        let func = OpKind::Func.full_name();
        let message = match only {
            Some(name) => format!("the file has no `{func}` named `{name}` with a body"),
            None => format!("the file has no `{func}` with a body to place buffers in"),
        };
        return Err(vec![Diagnostic::new(
            DiagnosticCode::BackendNoTop,
            Default::default(),
            message,
        )]);
    }
    if options.period.is_nan() || options.period <= timing.overhead() {
        return Err(vec![Diagnostic::new(
            DiagnosticCode::PlacementPathTooLong,
            funcs[0].absolute(funcs[0].op().name_range),
            format!(
                "every register-to-register path takes at least the timing model's overhead of {} ns, which the {} ns period does not leave room for",
                timing.overhead(),
                options.period
            ),
        )]);
    }
    let mut out = Output { placements: Vec::new(), edits: Vec::new(), diagnostics: Vec::new() };
    for func in funcs {
        if cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            break;
        }
        let started = Instant::now();
        let mut placement = place(func, options, timing, cancel);
        let mut edits = if placement.cancelled {
            edit::edits(func, &placement, text)
        } else {
            repair::check_and_repair(func, &mut placement, text, &out.edits, options, timing)
        };
        let deadlocks = matches!(placement.capacity, Capacity::Deadlocks { .. });
        if options.slack && !placement.cancelled && !deadlocks {
            let circt = edit::form(func) == edit::Form::Syntax(BufferSyntax::Circt);
            let deadline = started + options.time_limit;
            let slack = slack::tune(
                func,
                text,
                &out.edits,
                &mut placement,
                options,
                timing,
                circt,
                deadline,
            );
            if slack.slots > 0 {
                edits = edit::edits(func, &placement, text);
            }
            placement.time = started.elapsed();
            placement.slack = Some(slack);
        }
        out.edits.extend(edits);
        out.diagnostics.extend(placement.diagnostics.iter().cloned());
        out.placements.push(placement);
    }
    out.edits.sort_by_key(|e| (e.range.start(), e.range.end()));
    Ok(out)
}

/// Sizes the slots of `choices` (its breaks fixed) for the best throughput: the LP with slots
/// continuous, rounded up.
fn size_slots(cx: &Context, choices: &mut [Choice]) {
    let nc = cx.graph.channels.len();
    let decide: Vec<bool> = (0..nc).map(|c| cx.graph.channels[c].bufferable).collect();
    let scope = Scope {
        decide: decide.clone(),
        decide_x: vec![false; nc],
        decide_y: vec![false; nc],
        timed: vec![false; nc],
        cfdfcs: (0..cx.loops.cfdfcs.len()).collect(),
    };
    let mut inputs = cx.inputs(choices);
    inputs.relax_slots = true;
    let built = formulation::build(&inputs, &scope);
    let solved = lp::solve_microlp(&built.model, &cx.limits(None));
    if let Some(values) = solved.values {
        formulation::read(&built, &values, choices);
    }
}
