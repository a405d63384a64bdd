//! The FPGA20 and FPL22 MILPs, over any part of a function.
//!
//! Per channel with a decision: `x` (a buffer breaks data/valid), for FPL22 also `y` (breaks
//! ready), and `n` (slots). Per channel in the timing scope: arrival times at both ends on the
//! data/valid paths (`ti`, `to`) and for FPL22 on the ready paths (`ri`, `ro`), each in
//! `[0, period]`; per unit the latest data/valid input (`a`) and ready output (`b`). Per CFDFC:
//! its throughput `th`, a fluid retiming of each unit (`rin`, `rout`; one variable when the unit
//! has no latency) and the tokens on each channel (`f`). Rows (M = the period, the tightest
//! bound the arrival times allow):
//!
//! ```text
//! to ≥ ti − M·x          to ≥ δout·x          ti + δin·x ≤ M          (each channel)
//! a_v ≥ to_i  (inputs)   ti_o ≥ a_v + d_v     (combinational unit v)
//! ti_o ≥ δport_out       to_i ≤ M − δport_in  (pipelined unit v)
//! vo ≥ vi − M·x          av_v ≥ vo_i          vi_o ≥ av_v + dV_v     vi_o ≥ a_v + dCV_v   (FPL22 valid)
//! ro ≥ ri − M·y          b_v ≥ ro_o           ri_i ≥ b_v + dR_v
//! ri_i ≥ av_v + dVR_v    ri_i ≥ a_v + dCR_v                                            (FPL22 ready)
//! rout_u − rin_u = L_u·th                                              (each unit of a CFDFC)
//! f_c − [c is a back edge] = rin_dst − rout_src
//! th − f_c + x_c ≤ 1     f_c + th + x_c − n_c ≤ 1     f_c ≤ n_c         (each channel of a CFDFC)
//! n ≥ x   n ≥ y   n − x ≥ transparent minimum   n ≥ slot minimum
//! ```
//!
//! Objective: maximise Σ w_k·th_k − α·Σ(x + y) − β·Σ n, with the CFDFC weights normalised over
//! the function, so that the objectives of the parts of a decomposed function add up to the
//! whole function's.
//!
//! Channels outside the decision set keep their current choice as constants.

use super::cfdfc::Loops;
use super::graph::Graph;
use super::lp::{Cmp, Domain, Model, Var};
use super::timing_paths::{ready_combinational, registered, BufferDelays, Choice};

/// Area cost of a buffer that breaks a path, and of a slot (Dynamatic's weights are of this
/// order: throughput dominates, area decides between equals).
pub const BUFFER_COST: f64 = 1e-4;
pub const SLOT_COST: f64 = 1e-5;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    Fpga20,
    Fpl22,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Fpga20 => "fpga20",
            Algorithm::Fpl22 => "fpl22",
        }
    }

    pub fn from_name(name: &str) -> Option<Algorithm> {
        match name.to_ascii_lowercase().as_str() {
            "fpga20" => Some(Algorithm::Fpga20),
            "fpl22" => Some(Algorithm::Fpl22),
            _ => None,
        }
    }
}

/// What one model covers.
#[derive(Debug, Clone)]
pub struct Scope {
    /// Channels with decision variables (slots, and for FPL22 ready breaks).
    pub decide: Vec<bool>,
    /// Of those, the channels whose data/valid break is a variable (the others keep their
    /// current choice).
    pub decide_x: Vec<bool>,
    /// Of those, the channels whose ready break is a variable (FPL22).
    pub decide_y: Vec<bool>,
    /// Channels with arrival-time variables.
    pub timed: Vec<bool>,
    /// CFDFCs whose throughput the model maximises.
    pub cfdfcs: Vec<usize>,
}

#[derive(Debug, Clone)]
pub struct Built {
    pub model: Model,
    pub x: Vec<Option<Var>>,
    pub y: Vec<Option<Var>>,
    pub n: Vec<Option<Var>>,
    pub theta: Vec<(usize, Var)>,
    /// Row ranges, for naming binding rows: (first row, kind) in order.
    pub sections: Vec<(usize, &'static str)>,
}

pub struct Inputs<'a> {
    pub graph: &'a Graph,
    pub loops: &'a Loops,
    pub algorithm: Algorithm,
    /// What one register-to-register path's delays may add up to: the clock period less the
    /// timing model's overhead (`Graph::path_budget`); the units' delays are read beyond the
    /// overhead (`Unit::dv_delay`, ...). With no overhead, the period and the delays.
    pub period: f64,
    pub buf: &'a [BufferDelays],
    /// Current choices: the constants of channels outside the decision set, and the lower
    /// bounds every decision keeps (existing buffers, forced rules).
    pub fixed: &'a [Choice],
    pub max_slots: u32,
    /// Slots as continuous variables (rounded up when read): a slot only relaxes the rows it
    /// is in, so rounding up keeps a solution feasible at the same throughput.
    pub relax_slots: bool,
    /// Every buffer breaks data/valid (CIRCT's `seq` and `fifo`): no slot without a break.
    pub slots_break_dv: bool,
}

/// The CFDFC weights normalised over the function.
pub fn normalised_weights(loops: &Loops) -> Vec<f64> {
    let total: f64 = loops.cfdfcs.iter().map(|c| c.weight).sum();
    loops.cfdfcs.iter().map(|c| if total > 0.0 { c.weight / total } else { 0.0 }).collect()
}

/// A linear expression with a constant, built from variables or constants.
#[derive(Default)]
struct Lin {
    terms: Vec<(Var, f64)>,
    constant: f64,
}

impl Lin {
    fn add(mut self, term: Term, c: f64) -> Lin {
        match term {
            Term::Var(v) => self.terms.push((v, c)),
            Term::Const(k) => self.constant += c * k,
        }
        self
    }
}

#[derive(Clone, Copy)]
enum Term {
    Var(Var),
    Const(f64),
}

fn emit(model: &mut Model, name: String, lin: Lin, cmp: Cmp, rhs: f64) {
    if lin.terms.is_empty() {
        return; // constant row: holds or not independently of the model (checked elsewhere)
    }
    model.row(name, lin.terms, cmp, rhs - lin.constant);
}

pub fn build(inputs: &Inputs, scope: &Scope) -> Built {
    let Inputs {
        graph,
        loops,
        algorithm,
        period,
        buf,
        fixed,
        max_slots,
        relax_slots,
        slots_break_dv,
    } = *inputs;
    let fpl22 = algorithm == Algorithm::Fpl22;
    let nc = graph.channels.len();
    let mut model = Model::default();
    let mut x = vec![None; nc];
    let mut y = vec![None; nc];
    let mut n = vec![None; nc];
    let mut sections = Vec::new();
    let weights = normalised_weights(loops);
    // Decisions.
    sections.push((model.rows.len(), "slots"));
    for c in 0..nc {
        let ch = &graph.channels[c];
        if !scope.decide[c] || !ch.bufferable {
            continue;
        }
        let lower = ch.min_slots.max(ch.old_slots).max(ch.min_transparent);
        let domain = if relax_slots { Domain::Continuous } else { Domain::Integer };
        let nv =
            model.var(format!("n_c{c}"), domain, (lower as f64, max_slots.max(lower + 1) as f64));
        model.set_objective(nv, -SLOT_COST);
        n[c] = Some(nv);
        let xterm = if scope.decide_x[c] {
            let xl = if ch.old_dv || ch.force_dv == Some(true) { 1.0 } else { 0.0 };
            let xu = if ch.force_dv == Some(false) { 0.0 } else { 1.0 };
            let xv = model.var(format!("x_c{c}"), Domain::Binary, (xl, xu));
            model.set_objective(xv, -BUFFER_COST);
            x[c] = Some(xv);
            Term::Var(xv)
        } else {
            Term::Const(fixed[c].dv as u8 as f64)
        };
        let lin = Lin::default().add(Term::Var(nv), 1.0).add(xterm, -1.0);
        emit(&mut model, format!("slot_dv_c{c}"), lin, Cmp::Ge, 0.0);
        if slots_break_dv {
            let most = max_slots.max(lower + 1) as f64;
            let lin = Lin::default().add(Term::Var(nv), 1.0).add(xterm, -most);
            emit(&mut model, format!("opaque_slots_c{c}"), lin, Cmp::Le, 0.0);
        }
        if ch.min_transparent > 0 {
            let lin = Lin::default().add(Term::Var(nv), 1.0).add(xterm, -1.0);
            emit(&mut model, format!("transparent_c{c}"), lin, Cmp::Ge, ch.min_transparent as f64);
        }
        if fpl22 && scope.decide_y[c] {
            let yl = if ch.old_r || ch.force_r { 1.0 } else { 0.0 };
            let yv = model.var(format!("y_c{c}"), Domain::Binary, (yl, 1.0));
            model.set_objective(yv, -BUFFER_COST);
            y[c] = Some(yv);
            model.row(format!("slot_r_c{c}"), vec![(nv, 1.0), (yv, -1.0)], Cmp::Ge, 0.0);
        } else if fpl22 && fixed[c].r {
            model.row(format!("slot_r_c{c}"), vec![(nv, 1.0)], Cmp::Ge, 1.0);
        }
    }
    let xt = |c: usize| x[c].map_or(Term::Const(fixed[c].dv as u8 as f64), Term::Var);
    let yt = |c: usize| y[c].map_or(Term::Const(fixed[c].r as u8 as f64), Term::Var);
    let nt = |c: usize| n[c].map_or(Term::Const(fixed[c].slots as f64), Term::Var);
    // Data/valid timing.
    sections.push((model.rows.len(), "timing"));
    let mut ti = vec![None; nc];
    let mut to = vec![None; nc];
    for c in 0..nc {
        if !scope.timed[c] {
            continue;
        }
        let tin = model.var(format!("ti_c{c}"), Domain::Continuous, (0.0, period));
        let tout = model.var(format!("to_c{c}"), Domain::Continuous, (0.0, period));
        ti[c] = Some(tin);
        to[c] = Some(tout);
        let lin =
            Lin::default().add(Term::Var(tout), 1.0).add(Term::Var(tin), -1.0).add(xt(c), period);
        emit(&mut model, format!("pass_c{c}"), lin, Cmp::Ge, 0.0);
        if buf[c].dv_out > 0.0 {
            let lin = Lin::default().add(Term::Var(tout), 1.0).add(xt(c), -buf[c].dv_out);
            emit(&mut model, format!("bufout_c{c}"), lin, Cmp::Ge, 0.0);
        }
        if buf[c].dv_in > 0.0 {
            let lin = Lin::default().add(Term::Var(tin), 1.0).add(xt(c), buf[c].dv_in);
            emit(&mut model, format!("bufin_c{c}"), lin, Cmp::Le, period);
        }
    }
    // FPL22's ready rows start from valid arrivals, which run apart from data arrivals
    // through arithmetic: per channel `vi`/`vo`, per unit `av`, rows as for data.
    let mut vi = vec![None; nc];
    let mut vo = vec![None; nc];
    if fpl22 {
        for c in 0..nc {
            if !scope.timed[c] {
                continue;
            }
            let vin = model.var(format!("vi_c{c}"), Domain::Continuous, (0.0, period));
            let vout = model.var(format!("vo_c{c}"), Domain::Continuous, (0.0, period));
            vi[c] = Some(vin);
            vo[c] = Some(vout);
            let lin = Lin::default()
                .add(Term::Var(vout), 1.0)
                .add(Term::Var(vin), -1.0)
                .add(xt(c), period);
            emit(&mut model, format!("vpass_c{c}"), lin, Cmp::Ge, 0.0);
            if buf[c].dv_out > 0.0 {
                let lin = Lin::default().add(Term::Var(vout), 1.0).add(xt(c), -buf[c].dv_out);
                emit(&mut model, format!("vbufout_c{c}"), lin, Cmp::Ge, 0.0);
            }
        }
    }
    let mut arrive = vec![None; graph.units.len()];
    let mut arrive_valid = vec![None; graph.units.len()];
    for u in 0..graph.units.len() {
        let ins: Vec<usize> = graph.ins[u].iter().copied().filter(|&c| scope.timed[c]).collect();
        let outs: Vec<usize> = graph.outs[u].iter().copied().filter(|&c| scope.timed[c]).collect();
        if ins.is_empty() && outs.is_empty() {
            continue;
        }
        let unit = &graph.units[u];
        if registered(graph, u) {
            let out_delay = if unit.timing.latency > 0 { unit.out_port_dv() } else { 0.0 };
            let in_delay = unit.in_port_dv();
            for &o in &outs {
                if out_delay > 0.0 {
                    model.row(
                        format!("regout_c{o}"),
                        vec![(ti[o].unwrap(), 1.0)],
                        Cmp::Ge,
                        out_delay,
                    );
                }
            }
            for &i in &ins {
                if in_delay > 0.0 {
                    model.row(
                        format!("regin_c{i}"),
                        vec![(to[i].unwrap(), 1.0)],
                        Cmp::Le,
                        period - in_delay,
                    );
                }
            }
        }
        // The latest input (also read by the ready rows of FPL22).
        let a = model.var(format!("a_u{u}"), Domain::Continuous, (0.0, period));
        arrive[u] = Some(a);
        for &i in &ins {
            model.row(
                format!("late_u{u}_c{i}"),
                vec![(a, 1.0), (to[i].unwrap(), -1.0)],
                Cmp::Ge,
                0.0,
            );
        }
        if !registered(graph, u) {
            let d = unit.dv_delay();
            for &o in &outs {
                model.row(
                    format!("comb_u{u}_c{o}"),
                    vec![(ti[o].unwrap(), 1.0), (a, -1.0)],
                    Cmp::Ge,
                    d,
                );
            }
        }
        if fpl22 {
            let av = model.var(format!("av_u{u}"), Domain::Continuous, (0.0, period));
            arrive_valid[u] = Some(av);
            for &i in &ins {
                model.row(
                    format!("vlate_u{u}_c{i}"),
                    vec![(av, 1.0), (vo[i].unwrap(), -1.0)],
                    Cmp::Ge,
                    0.0,
                );
            }
            for &o in &outs {
                let vin = vi[o].unwrap();
                if registered(graph, u) {
                    if unit.timing.latency > 0 && unit.out_port_v() > 0.0 {
                        model.row(
                            format!("vregout_c{o}"),
                            vec![(vin, 1.0)],
                            Cmp::Ge,
                            unit.out_port_v(),
                        );
                    }
                    continue;
                }
                if unit.v_delay() > 0.0 {
                    model.row(
                        format!("vcomb_u{u}_c{o}"),
                        vec![(vin, 1.0), (av, -1.0)],
                        Cmp::Ge,
                        unit.v_delay(),
                    );
                }
                if unit.cond_to_v_delay() > 0.0 {
                    model.row(
                        format!("cv_u{u}_c{o}"),
                        vec![(vin, 1.0), (a, -1.0)],
                        Cmp::Ge,
                        unit.cond_to_v_delay(),
                    );
                }
            }
        }
    }
    // Ready timing (FPL22).
    if fpl22 {
        sections.push((model.rows.len(), "ready"));
        let mut ri = vec![None; nc];
        let mut ro = vec![None; nc];
        for c in 0..nc {
            if !scope.timed[c] {
                continue;
            }
            let rin = model.var(format!("ri_c{c}"), Domain::Continuous, (0.0, period));
            let rout = model.var(format!("ro_c{c}"), Domain::Continuous, (0.0, period));
            ri[c] = Some(rin);
            ro[c] = Some(rout);
            let lin = Lin::default()
                .add(Term::Var(rout), 1.0)
                .add(Term::Var(rin), -1.0)
                .add(yt(c), period);
            emit(&mut model, format!("rpass_c{c}"), lin, Cmp::Ge, 0.0);
            if buf[c].r_out > 0.0 {
                let lin = Lin::default().add(Term::Var(rout), 1.0).add(yt(c), -buf[c].r_out);
                emit(&mut model, format!("rbufout_c{c}"), lin, Cmp::Ge, 0.0);
            }
        }
        for u in 0..graph.units.len() {
            if !ready_combinational(graph, u) {
                continue;
            }
            let ins: Vec<usize> =
                graph.ins[u].iter().copied().filter(|&c| scope.timed[c]).collect();
            let outs: Vec<usize> =
                graph.outs[u].iter().copied().filter(|&c| scope.timed[c]).collect();
            if ins.is_empty() {
                continue;
            }
            let unit = &graph.units[u];
            let b = model.var(format!("b_u{u}"), Domain::Continuous, (0.0, period));
            for &o in &outs {
                model.row(
                    format!("rlate_u{u}_c{o}"),
                    vec![(b, 1.0), (ro[o].unwrap(), -1.0)],
                    Cmp::Ge,
                    0.0,
                );
            }
            for &i in &ins {
                model.row(
                    format!("rcomb_u{u}_c{i}"),
                    vec![(ri[i].unwrap(), 1.0), (b, -1.0)],
                    Cmp::Ge,
                    unit.r_delay(),
                );
                if let Some(av) = arrive_valid[u] {
                    let d = unit.v_to_r_delay();
                    if d > 0.0 {
                        model.row(
                            format!("vr_u{u}_c{i}"),
                            vec![(ri[i].unwrap(), 1.0), (av, -1.0)],
                            Cmp::Ge,
                            d,
                        );
                    }
                }
                if let Some(a) = arrive[u] {
                    let d = unit.cond_to_r_delay();
                    if d > 0.0 {
                        model.row(
                            format!("cr_u{u}_c{i}"),
                            vec![(ri[i].unwrap(), 1.0), (a, -1.0)],
                            Cmp::Ge,
                            d,
                        );
                    }
                }
            }
        }
    }
    // Throughput.
    sections.push((model.rows.len(), "throughput"));
    let mut theta = Vec::new();
    for &k in &scope.cfdfcs {
        let cfdfc = &loops.cfdfcs[k];
        let th = model.var(format!("th_k{k}"), Domain::Continuous, (0.0, 1.0));
        model.set_objective(th, weights[k]);
        theta.push((k, th));
        let mut rin = std::collections::BTreeMap::new();
        let mut rout = std::collections::BTreeMap::new();
        for &u in &cfdfc.units {
            let latency = graph.units[u].timing.latency;
            let r_in = model.var(
                format!("rin_k{k}_u{u}"),
                Domain::Continuous,
                (f64::NEG_INFINITY, f64::INFINITY),
            );
            rin.insert(u, r_in);
            if latency > 0 {
                let r_out = model.var(
                    format!("rout_k{k}_u{u}"),
                    Domain::Continuous,
                    (f64::NEG_INFINITY, f64::INFINITY),
                );
                model.row(
                    format!("lat_k{k}_u{u}"),
                    vec![(r_out, 1.0), (r_in, -1.0), (th, -(latency as f64))],
                    Cmp::Eq,
                    0.0,
                );
                rout.insert(u, r_out);
            } else {
                rout.insert(u, r_in);
            }
        }
        for &c in &cfdfc.channels {
            let ch = &graph.channels[c];
            let f = model.var(format!("f_k{k}_c{c}"), Domain::Continuous, (0.0, f64::INFINITY));
            let back = cfdfc.back_edges.contains(&c) as u8 as f64;
            model.row(
                format!("tokens_k{k}_c{c}"),
                vec![(f, 1.0), (rin[&ch.to], -1.0), (rout[&ch.from], 1.0)],
                Cmp::Eq,
                back,
            );
            let lin =
                Lin::default().add(Term::Var(th), 1.0).add(Term::Var(f), -1.0).add(xt(c), 1.0);
            emit(&mut model, format!("opaque_k{k}_c{c}"), lin, Cmp::Le, 1.0);
            let lin = Lin::default()
                .add(Term::Var(f), 1.0)
                .add(Term::Var(th), 1.0)
                .add(xt(c), 1.0)
                .add(nt(c), -1.0);
            emit(&mut model, format!("occupancy_k{k}_c{c}"), lin, Cmp::Le, 1.0);
            let lin = Lin::default().add(Term::Var(f), 1.0).add(nt(c), -1.0);
            emit(&mut model, format!("capacity_k{k}_c{c}"), lin, Cmp::Le, 0.0);
        }
    }
    let _ = yt;
    Built { model, x, y, n, theta, sections }
}

/// Reads the decisions of a solution into `choices` (channels without decisions keep theirs).
pub fn read(built: &Built, values: &[f64], choices: &mut [Choice]) {
    for (c, choice) in choices.iter_mut().enumerate() {
        if let Some(v) = built.x[c] {
            choice.dv = values[v.0 as usize] > 0.5;
        }
        if let Some(v) = built.y[c] {
            choice.r = values[v.0 as usize] > 0.5;
        }
        if let Some(v) = built.n[c] {
            // Up, when slots were relaxed; the tolerance absorbs the solver's round-off.
            choice.slots = (values[v.0 as usize] - 1e-6).ceil().max(0.0) as u32;
        }
    }
}

/// A starting point for the solver from `choices`: the decision variables only (the solver
/// completes the rest with an LP).
pub fn warm_start(built: &Built, choices: &[Choice]) -> Vec<(Var, f64)> {
    let mut out = Vec::new();
    for (c, choice) in choices.iter().enumerate() {
        if let Some(v) = built.x[c] {
            out.push((v, choice.dv as u8 as f64));
        }
        if let Some(v) = built.y[c] {
            out.push((v, choice.r as u8 as f64));
        }
        if let Some(v) = built.n[c] {
            out.push((v, choice.slots as f64));
        }
    }
    out
}

/// Fixes every decision of `built` at `choices`: what is left is an LP, whose optimum is the
/// throughput those choices achieve.
pub fn fix_decisions(built: &mut Built, choices: &[Choice]) {
    for (c, choice) in choices.iter().enumerate() {
        if let Some(v) = built.x[c] {
            built.model.fix(v, choice.dv as u8 as f64);
        }
        if let Some(v) = built.y[c] {
            built.model.fix(v, choice.r as u8 as f64);
        }
        if let Some(v) = built.n[c] {
            built.model.fix(v, choice.slots as f64);
        }
    }
}
