//! A solver-neutral MILP: variables, rows and an objective, built once and then solved by
//! microlp (the default), written as CPLEX LP text for other solvers (`--emit-model`), or solved
//! by HiGHS (the `highs` feature).
//!
//! Every variable and row has a name, so that an exported model can be read back against the
//! design and a binding row can be named in a diagnostic.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Var(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Domain {
    Continuous,
    Integer,
    Binary,
}

#[derive(Debug, Clone)]
pub struct VarData {
    pub name: String,
    pub lower: f64,
    pub upper: f64,
    pub domain: Domain,
    pub objective: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    Le,
    Ge,
    Eq,
}

#[derive(Debug, Clone)]
pub struct Row {
    pub name: String,
    pub terms: Vec<(Var, f64)>,
    pub cmp: Cmp,
    pub rhs: f64,
}

/// A maximisation problem (buffer placement maximises weighted throughput minus area).
#[derive(Debug, Clone, Default)]
pub struct Model {
    pub vars: Vec<VarData>,
    pub rows: Vec<Row>,
}

impl Model {
    pub fn var(&mut self, name: String, domain: Domain, (lower, upper): (f64, f64)) -> Var {
        let (lower, upper) = match domain {
            Domain::Binary => (lower.max(0.0), upper.min(1.0)),
            _ => (lower, upper),
        };
        self.vars.push(VarData { name, lower, upper, domain, objective: 0.0 });
        Var(self.vars.len() as u32 - 1)
    }

    pub fn set_objective(&mut self, var: Var, coefficient: f64) {
        self.vars[var.0 as usize].objective = coefficient;
    }

    /// Adds a row; a variable written twice (a channel from a unit to itself, whose retiming
    /// variables cancel) gets one term with the coefficients summed, as solvers require.
    pub fn row(&mut self, name: String, terms: Vec<(Var, f64)>, cmp: Cmp, rhs: f64) {
        let mut merged: Vec<(Var, f64)> = Vec::with_capacity(terms.len());
        for (v, c) in terms {
            match merged.iter_mut().find(|(w, _)| *w == v) {
                Some(term) => term.1 += c,
                None => merged.push((v, c)),
            }
        }
        merged.retain(|&(_, c)| c != 0.0);
        if merged.is_empty() {
            // Nothing left to decide: the row holds or not whatever the solution (a unit in a
            // loop with itself holds its one token either way).
            return;
        }
        self.rows.push(Row { name, terms: merged, cmp, rhs });
    }

    /// Fixes `var` at `value` (both bounds).
    pub fn fix(&mut self, var: Var, value: f64) {
        let data = &mut self.vars[var.0 as usize];
        data.lower = value;
        data.upper = value;
    }

    pub fn integer_vars(&self) -> usize {
        self.vars.iter().filter(|v| v.domain != Domain::Continuous).count()
    }

    pub fn binary_vars(&self) -> usize {
        self.vars.iter().filter(|v| v.domain == Domain::Binary).count()
    }

    pub fn objective_of(&self, values: &[f64]) -> f64 {
        self.vars.iter().zip(values).map(|(v, x)| v.objective * x).sum()
    }

    /// The rows `values` violates by more than `tolerance`, with the amount.
    pub fn violations(&self, values: &[f64], tolerance: f64) -> Vec<(usize, f64)> {
        let mut out = Vec::new();
        for (i, row) in self.rows.iter().enumerate() {
            let lhs: f64 = row.terms.iter().map(|&(v, c)| c * values[v.0 as usize]).sum();
            let excess = match row.cmp {
                Cmp::Le => lhs - row.rhs,
                Cmp::Ge => row.rhs - lhs,
                Cmp::Eq => (lhs - row.rhs).abs(),
            };
            if excess > tolerance {
                out.push((i, excess));
            }
        }
        out
    }

    /// The model in CPLEX LP format, which HiGHS, CBC, Gurobi and SCIP all read.
    pub fn to_lp(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            let _ = writeln!(out, "\\ {line}");
        }
        out.push_str("Maximize\n obj:");
        let mut any = false;
        for v in &self.vars {
            if v.objective != 0.0 {
                let _ = write!(out, " {} {}", signed(v.objective), v.name);
                any = true;
            }
        }
        if !any {
            // LP readers want at least one term.
            if let Some(v) = self.vars.first() {
                let _ = write!(out, " + 0 {}", v.name);
            }
        }
        out.push_str("\nSubject To\n");
        for row in &self.rows {
            let _ = write!(out, " {}:", row.name);
            if row.terms.is_empty() {
                if let Some(v) = self.vars.first() {
                    let _ = write!(out, " + 0 {}", v.name);
                }
            }
            for &(var, c) in &row.terms {
                let _ = write!(out, " {} {}", signed(c), self.vars[var.0 as usize].name);
            }
            let cmp = match row.cmp {
                Cmp::Le => "<=",
                Cmp::Ge => ">=",
                Cmp::Eq => "=",
            };
            let _ = writeln!(out, " {cmp} {}", number(row.rhs));
        }
        out.push_str("Bounds\n");
        for v in &self.vars {
            if v.domain == Domain::Binary && v.lower == 0.0 && v.upper == 1.0 {
                continue;
            }
            let lower = if v.lower.is_finite() { number(v.lower) } else { "-inf".into() };
            let upper = if v.upper.is_finite() { number(v.upper) } else { "+inf".into() };
            let _ = writeln!(out, " {lower} <= {} <= {upper}", v.name);
        }
        let generals: Vec<&str> =
            self.vars.iter().filter(|v| v.domain == Domain::Integer).map(|v| &*v.name).collect();
        if !generals.is_empty() {
            out.push_str("Generals\n");
            for chunk in generals.chunks(8) {
                let _ = writeln!(out, " {}", chunk.join(" "));
            }
        }
        let binaries: Vec<&str> =
            self.vars.iter().filter(|v| v.domain == Domain::Binary).map(|v| &*v.name).collect();
        if !binaries.is_empty() {
            out.push_str("Binaries\n");
            for chunk in binaries.chunks(8) {
                let _ = writeln!(out, " {}", chunk.join(" "));
            }
        }
        out.push_str("End\n");
        out
    }
}

fn signed(c: f64) -> String {
    if c < 0.0 {
        format!("- {}", number(-c))
    } else {
        format!("+ {}", number(c))
    }
}

fn number(x: f64) -> String {
    // Shortest text that reads back to the same f64.
    let text = format!("{x}");
    if text == "-0" {
        "0".into()
    } else {
        text
    }
}

/// How a solve ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Proven optimal (within the gap asked for).
    Optimal,
    /// Stopped by the time limit with a feasible placement; the gap says how far it may be.
    TimeLimit,
    /// Stopped by its node budget with a feasible placement (reproducible, unlike a time
    /// limit); the gap says how far it may be.
    NodeLimit,
    /// Stopped by the time limit before any feasible placement was found.
    NoSolution,
    Infeasible,
    /// The caller asked to stop (an editor's cancel).
    Cancelled,
    /// The solver failed; the message says why.
    Failed,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::TimeLimit => "time-limit",
            Status::NodeLimit => "node-limit",
            Status::NoSolution => "no-solution",
            Status::Infeasible => "infeasible",
            Status::Cancelled => "cancelled",
            Status::Failed => "failed",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Solved {
    pub status: Status,
    /// One value per variable, when a feasible point is known.
    pub values: Option<Vec<f64>>,
    pub objective: Option<f64>,
    /// The best proven upper bound on the objective (the LP bound when nothing better).
    pub bound: Option<f64>,
    pub time: Duration,
    pub message: Option<String>,
}

impl Solved {
    /// Relative gap between the objective and the bound.
    pub fn gap(&self) -> Option<f64> {
        let (objective, bound) = (self.objective?, self.bound?);
        Some(((bound - objective).max(0.0)) / objective.abs().max(1e-9))
    }
}

#[derive(Debug, Clone)]
pub struct Limits<'a> {
    pub time_limit: Duration,
    /// Branch-and-bound nodes, in all (microlp only).
    pub node_limit: Option<u64>,
    pub gap: f64,
    pub warm_start: Option<&'a [(Var, f64)]>,
    pub cancel: Option<&'a AtomicBool>,
}

/// Solves `model` with microlp; with a cancel flag, in slices of at most 200 ms so that a cancel
/// is seen quickly. Without one, in one call up to the time limit: microlp counts a node that a
/// slice interrupted after its LP was solved, and solves it again on resume, so slices falling
/// differently (a loaded machine) would spend the node budget differently.
pub fn solve_microlp(model: &Model, limits: &Limits) -> Solved {
    let started = Instant::now();
    let mut problem = microlp::Problem::new(microlp::OptimizationDirection::Maximize);
    let vars: Vec<microlp::Variable> = model
        .vars
        .iter()
        .map(|v| match v.domain {
            Domain::Continuous => problem.add_var(v.objective, (v.lower, v.upper)),
            Domain::Integer => problem.add_integer_var(
                v.objective,
                (v.lower.max(i32::MIN as f64) as i32, v.upper.min(i32::MAX as f64) as i32),
            ),
            Domain::Binary if v.lower == 0.0 && v.upper == 1.0 => {
                problem.add_binary_var(v.objective)
            }
            Domain::Binary => {
                problem.add_integer_var(v.objective, (v.lower as i32, v.upper as i32))
            }
        })
        .collect();
    for row in &model.rows {
        let expr: Vec<(microlp::Variable, f64)> =
            row.terms.iter().map(|&(v, c)| (vars[v.0 as usize], c)).collect();
        let cmp = match row.cmp {
            Cmp::Le => microlp::ComparisonOp::Le,
            Cmp::Ge => microlp::ComparisonOp::Ge,
            Cmp::Eq => microlp::ComparisonOp::Eq,
        };
        problem.add_constraint(expr, cmp, row.rhs);
    }
    let slice = if limits.cancel.is_some() { Duration::from_millis(200) } else { Duration::MAX };
    let remaining = |now: Instant| limits.time_limit.saturating_sub(now - started);
    let mut options = microlp::SolveOptions::default();
    options.mip_gap = limits.gap;
    options.time_limit = Some(slice.min(remaining(Instant::now())));
    options.node_limit = limits.node_limit;
    if let Some(start) = limits.warm_start {
        options.warm_start =
            Some(start.iter().map(|&(v, x)| (vars[v.0 as usize], x)).collect::<Vec<_>>());
    }
    let cancelled = || limits.cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let mut outcome = match problem.solve_with(options) {
        Ok(outcome) => outcome,
        Err(error) => return failed(error, started),
    };
    loop {
        let stop = match &outcome {
            microlp::SolveOutcome::Solution(s) => {
                s.termination_reason() != microlp::TerminationReason::TimeLimit
            }
            microlp::SolveOutcome::Interrupted(_) => false,
        };
        // The node budget applies per call: what is left of it.
        let nodes = outcome.stats().nodes_solved;
        let nodes_left = limits.node_limit.map(|n| n.saturating_sub(nodes));
        if stop || cancelled() || remaining(Instant::now()).is_zero() || nodes_left == Some(0) {
            break;
        }
        let mut resume = microlp::ResumeOptions::default();
        resume.node_limit = nodes_left;
        resume.time_limit = Some(slice.min(remaining(Instant::now())));
        resume.mip_gap = Some(limits.gap);
        outcome = match outcome.resume_with(resume) {
            Ok(outcome) => outcome,
            Err(error) => return failed(error, started),
        };
    }
    let stats = outcome.stats();
    let time = started.elapsed();
    match outcome {
        microlp::SolveOutcome::Solution(solution) => {
            let values: Vec<f64> = vars.iter().map(|&v| solution.var_value(v)).collect();
            let objective = solution.objective();
            // A slice that ends on its clock just as the node budget runs out stopped at the
            // budget: what the caller sees must not depend on the slicing.
            // (The loop above stops a search that a slice's clock ended only when the node
            // budget is spent or no time is left.)
            let spent = limits.node_limit.is_some_and(|n| stats.nodes_solved >= n)
                || !remaining(Instant::now()).is_zero();
            let status = match solution.termination_reason() {
                microlp::TerminationReason::TimeLimit if cancelled() => Status::Cancelled,
                microlp::TerminationReason::TimeLimit if spent => Status::NodeLimit,
                microlp::TerminationReason::TimeLimit => Status::TimeLimit,
                microlp::TerminationReason::NodeLimit => Status::NodeLimit,
                _ => Status::Optimal,
            };
            let bound = if status == Status::Optimal && limits.gap == 0.0 {
                Some(objective)
            } else {
                stats.best_bound.or(Some(objective))
            };
            Solved {
                status,
                values: Some(values),
                objective: Some(objective),
                bound,
                time,
                message: None,
            }
        }
        microlp::SolveOutcome::Interrupted(_) => Solved {
            status: if cancelled() { Status::Cancelled } else { Status::NoSolution },
            values: None,
            objective: None,
            bound: stats.best_bound,
            time,
            message: None,
        },
    }
}

fn failed(error: microlp::Error, started: Instant) -> Solved {
    let status = match error {
        microlp::Error::Infeasible => Status::Infeasible,
        _ => Status::Failed,
    };
    Solved {
        status,
        values: None,
        objective: None,
        bound: None,
        time: started.elapsed(),
        message: Some(error.to_string()),
    }
}

/// Solves the LP relaxation of `model` (integers relaxed): its optimum bounds the MILP's.
pub fn lp_bound(model: &Model, limits: &Limits) -> Option<f64> {
    let mut relaxed = model.clone();
    for v in &mut relaxed.vars {
        v.domain = Domain::Continuous;
    }
    let solved = solve_microlp(&relaxed, &Limits { warm_start: None, ..limits.clone() });
    (solved.status == Status::Optimal).then_some(solved.objective).flatten()
}

#[cfg(feature = "highs")]
pub fn solve_highs(model: &Model, limits: &Limits) -> Solved {
    let started = Instant::now();
    let mut problem = highs::RowProblem::default();
    let cols: Vec<highs::Col> = model
        .vars
        .iter()
        .map(|v| {
            let bounds = v.lower..=v.upper;
            match v.domain {
                Domain::Continuous => problem.add_column(v.objective, bounds),
                _ => problem.add_integer_column(v.objective, bounds),
            }
        })
        .collect();
    for row in &model.rows {
        let terms: Vec<(highs::Col, f64)> =
            row.terms.iter().map(|&(v, c)| (cols[v.0 as usize], c)).collect();
        match row.cmp {
            Cmp::Le => problem.add_row(..=row.rhs, terms),
            Cmp::Ge => problem.add_row(row.rhs.., terms),
            Cmp::Eq => problem.add_row(row.rhs..=row.rhs, terms),
        }
    }
    let mut highs_model = problem.optimise(highs::Sense::Maximise);
    highs_model.make_quiet();
    highs_model.set_option("threads", 1);
    highs_model.set_option("time_limit", limits.time_limit.as_secs_f64());
    highs_model.set_option("mip_rel_gap", limits.gap.max(1e-9));
    let solved = highs_model.solve();
    let status = solved.status();
    let time = started.elapsed();
    let (status, values) = match status {
        highs::HighsModelStatus::Optimal => {
            (Status::Optimal, Some(solved.get_solution().columns().to_vec()))
        }
        highs::HighsModelStatus::Infeasible => (Status::Infeasible, None),
        highs::HighsModelStatus::ReachedTimeLimit => {
            let values = solved.get_solution().columns().to_vec();
            if values.is_empty() {
                (Status::NoSolution, None)
            } else {
                (Status::TimeLimit, Some(values))
            }
        }
        other => {
            return Solved {
                status: Status::Failed,
                values: None,
                objective: None,
                bound: None,
                time,
                message: Some(format!("HiGHS stopped with {other:?}")),
            }
        }
    };
    let objective = values.as_ref().map(|v| model.objective_of(v));
    let bound = if status == Status::Optimal { objective } else { None };
    Solved { status, values, objective, bound, time, message: None }
}
