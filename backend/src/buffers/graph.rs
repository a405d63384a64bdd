//! The graph buffer placement works on: units (the function's channel arguments and its ops,
//! buffers left out) and channels (one per use of a value, from the unit producing it to the
//! unit consuming it, through any buffers already on it).
//!
//! Everything here is read from a typed function and the timing model; nothing is solved.

use hsir_analysis::dataflow::{self, BufferInfo};
use hsir_analysis::ir::{Def, OpId, UseId, ValueId};
use hsir_analysis::ops::OpKind;
use hsir_analysis::TextRange;

use super::timing::{OpTiming, TimingModel};
use crate::program::Func;

#[derive(Debug, Clone)]
pub struct Unit {
    /// The op, or `None` for a function argument.
    pub op: Option<OpId>,
    /// What the op is, when the op table knows it.
    pub kind: Option<OpKind>,
    /// The op's name without dialect (`addi`), or `argument`.
    pub name: String,
    /// How messages name the unit: `addi0` (Dynamatic's `handshake.name`) or `addi %5`.
    pub label: String,
    /// Where the op (or the argument) is written, in the file.
    pub range: TextRange,
    pub timing: OpTiming,
    /// Whether the timing model had no entry for the op (its fallback was used).
    pub missing_timing: bool,
    /// Merges tokens from several inputs (seed 000's "merge-like operations":
    /// `OpKind::is_merge_like`).
    pub merge_like: bool,
    /// Its ports are memory ports, never buffered (seed 000, "Unbufferizable Channels"): memory
    /// interfaces and memories.
    pub memory_interface: bool,
    /// Dynamatic's `handshake.bb`, when written.
    pub block: Option<u32>,
    /// The data/valid path is timed by the data delay alone, as Dynamatic's FPGA20 times it
    /// (its MILP has rows for the data signal only, with each unit's `data` delay); set for
    /// FPGA20 placements. Otherwise the valid and pin-to-pin delays count too.
    pub data_only: bool,
    /// The timing model's register-to-register overhead (`TimingModel::overhead`), which every
    /// delay of `timing` includes. The delays below are what the unit adds to a path beyond
    /// it (`max(0, d − overhead)`); a path is then timed against the period less the overhead
    /// (`Graph::path_budget`). With 0, the characterized delays and the period themselves.
    pub overhead: f64,
}

impl Unit {
    /// What a characterized delay of this unit adds to a path: `max(0, d − overhead)`.
    fn excess(&self, delay: f64) -> f64 {
        super::timing::excess(delay, self.overhead)
    }

    /// The characterized data/valid delay through the unit ({D, V} grouped as FPL22 groups
    /// them; with `data_only` the data delay alone, as Dynamatic's FPGA20 times it). Zero for
    /// pipelined units, whose ports are registered. Paths add `dv_delay`, this less the
    /// overhead.
    pub fn characterized_dv_delay(&self) -> f64 {
        if self.timing.latency > 0 {
            return 0.0;
        }
        let t = &self.timing;
        if self.data_only {
            return t.data;
        }
        t.data.max(t.valid).max(t.cond_to_valid).max(t.valid_to_cond).max(t.valid_to_data)
    }

    /// Data/valid delay through the unit beyond the overhead (FPGA20 reads only this).
    pub fn dv_delay(&self) -> f64 {
        self.excess(self.characterized_dv_delay())
    }

    /// Valid delay through the unit from its input valids (FPL22's ready rows read valid
    /// arrivals, which are earlier than data arrivals through arithmetic). Zero for pipelined
    /// units.
    pub fn v_delay(&self) -> f64 {
        if self.timing.latency > 0 {
            return 0.0;
        }
        self.excess(self.timing.valid)
    }

    /// Condition (data) to valid, zero for pipelined units.
    pub fn cond_to_v_delay(&self) -> f64 {
        if self.timing.latency > 0 {
            return 0.0;
        }
        self.excess(self.timing.cond_to_valid)
    }

    /// Valid to ready (FPL22's VR pin-to-pin delay).
    pub fn v_to_r_delay(&self) -> f64 {
        self.excess(self.timing.valid_to_ready)
    }

    /// Condition (data) to ready (FPL22's CR pin-to-pin delay).
    pub fn cond_to_r_delay(&self) -> f64 {
        self.excess(self.timing.cond_to_ready)
    }

    pub fn r_delay(&self) -> f64 {
        self.excess(self.timing.ready)
    }

    /// Input ports to the first register, data/valid (pipelined units).
    pub fn in_port_dv(&self) -> f64 {
        let p = &self.timing.in_port;
        self.excess(p.data.max(p.valid))
    }

    /// Last register to the output ports, data/valid (pipelined units).
    pub fn out_port_dv(&self) -> f64 {
        let p = &self.timing.out_port;
        self.excess(p.data.max(p.valid))
    }

    /// Last register to the output ports, valid alone (pipelined units).
    pub fn out_port_v(&self) -> f64 {
        self.excess(self.timing.out_port.valid)
    }
}

#[derive(Debug, Clone)]
pub struct Channel {
    pub from: usize,
    pub to: usize,
    /// The value at its producer (before any buffers on the channel).
    pub value: ValueId,
    /// The use at the consumer (after any buffers on the channel).
    pub use_: UseId,
    pub operand: u32,
    /// Data bits (0 for control).
    pub width: u32,
    /// The buffers already on the channel, producer side first.
    pub old: Vec<OpId>,
    pub old_slots: u32,
    pub old_dv: bool,
    pub old_r: bool,
    /// False for memory ports.
    pub bufferable: bool,
    /// Slots a heuristic requires.
    pub min_slots: u32,
    /// Slots that must not break data/valid (Dynamatic's transparent slots).
    pub min_transparent: u32,
    /// `Some(true)`: must break data/valid; `Some(false)`: must not (LSQ control-path rules).
    pub force_dv: Option<bool>,
    /// Whether a heuristic requires a ready-breaking buffer here (FPGA20's rule for the outputs
    /// of merge-like ops on cycles).
    pub force_r: bool,
    /// Why the requirements above hold, for the report.
    pub rules: Vec<&'static str>,
}

#[derive(Debug, Clone)]
pub struct Graph {
    pub units: Vec<Unit>,
    pub channels: Vec<Channel>,
    /// Channels out of / into each unit.
    pub outs: Vec<Vec<usize>>,
    pub ins: Vec<Vec<usize>>,
    /// The timing model's register-to-register overhead, ns (`Unit::overhead`).
    pub overhead: f64,
}

/// What the graph builder reports besides the graph.
#[derive(Debug, Clone, Default)]
pub struct BuildNotes {
    /// Ops the timing model has no entry for, by name, with the first unit of each.
    pub missing_timing: Vec<(String, usize)>,
}

impl Graph {
    pub fn build(
        func: &Func,
        timing: &TimingModel,
        strip: bool,
        period: f64,
    ) -> (Graph, BuildNotes) {
        let item = &func.item;
        let buffers = dataflow::buffers(item);
        let is_buffer = |op: OpId| dataflow::is_channel_buffer(item, &buffers, op);
        let mut units = Vec::new();
        let mut unit_of_op = vec![None; item.ops.len()];
        let mut unit_of_arg = Vec::new();
        let mut notes = BuildNotes::default();
        let fallback = timing.fallback();
        for (n, &value) in func.args().iter().enumerate() {
            let is_channel = func.shape(value).is_some();
            unit_of_arg.push(is_channel.then_some(units.len()));
            if is_channel {
                let v = &item.values[value as usize];
                units.push(Unit {
                    op: None,
                    kind: None,
                    name: "argument".into(),
                    label: format!("argument {}", item.str(v.name())),
                    range: func.absolute(v.range),
                    timing: OpTiming { ..fallback_zero(&fallback) },
                    missing_timing: false,
                    merge_like: false,
                    memory_interface: false,
                    block: None,
                    data_only: false,
                    overhead: timing.overhead(),
                });
            }
            let _ = n;
        }
        for (id, op) in item.ops.iter().enumerate().skip(1) {
            if is_buffer(id as OpId) || op.block.is_none() {
                continue;
            }
            let name = op.short_name().rsplit('.').next().unwrap_or("").to_string();
            let width = item
                .operands(op)
                .iter()
                .filter_map(|&u| item.uses[u as usize].value)
                .chain(item.results(op).iter().copied())
                .filter_map(|v| func.shape(v))
                .map(|s| s.data)
                .max()
                .unwrap_or(0);
            let kind = OpKind::of(op);
            let section = section(func, id as OpId, kind);
            let (mut timing_entry, missing) = match section
                .as_deref()
                .and_then(|key| timing.op_at_period(key, width.max(1), period))
                .or_else(|| timing.op_at_period(op.short_name(), width.max(1), period))
            {
                Some(t) => (t, false),
                None => (fallback, true),
            };
            if kind.is_some_and(OpKind::is_shift) && shifts_by_constant(func, id as OpId) {
                // A shift by a constant is wiring, as Dynamatic's MILPs take it.
                timing_entry.data = 0.0;
            }
            if missing && !notes.missing_timing.iter().any(|(n, _)| *n == name) {
                notes.missing_timing.push((name.clone(), units.len()));
            }
            unit_of_op[id] = Some(units.len());
            units.push(Unit {
                op: Some(id as OpId),
                kind,
                label: label(func, id as OpId),
                range: func.absolute(op.range),
                timing: timing_entry,
                missing_timing: missing,
                merge_like: kind.is_some_and(OpKind::is_merge_like),
                memory_interface: kind.is_some_and(|k| k.is_interface() || k.is_memory()),
                block: func
                    .item
                    .attr_value(op, "handshake.bb")
                    .and_then(|a| crate::program::parse_integer(dataflow::attribute_scalar(a)))
                    .map(|b| b as u32),
                name,
                data_only: false,
                overhead: timing.overhead(),
            });
        }
        let mut channels = Vec::new();
        for (id, op) in item.ops.iter().enumerate().skip(1) {
            let Some(to) = unit_of_op[id] else { continue };
            for (operand, &use_) in item.operands(op).iter().enumerate() {
                let Some(value) = item.uses[use_ as usize].value else { continue };
                if func.shape(value).is_none() {
                    continue; // memrefs and other non-channels
                }
                let (old, start) = dataflow::upstream_buffers(item, &buffers, value);
                let from = match item.values[start as usize].def {
                    Def::Result { op, .. } => unit_of_op[op as usize],
                    Def::Arg { n, .. } => unit_of_arg.get(n as usize).copied().flatten(),
                };
                let Some(from) = from else { continue };
                let mut old: Vec<OpId> = old;
                old.reverse();
                let infos: Vec<&BufferInfo> =
                    old.iter().filter_map(|&b| buffers[b as usize].as_ref()).collect();
                let kept = !strip;
                let old_slots =
                    if kept { infos.iter().map(|b| b.slot_count().unwrap_or(1)).sum() } else { 0 };
                let width = func.shape(value).map_or(0, |s| s.data);
                let bufferable = !units[from].memory_interface && !units[to].memory_interface;
                channels.push(Channel {
                    from,
                    to,
                    value: start,
                    use_,
                    operand: operand as u32,
                    width,
                    old,
                    old_slots,
                    old_dv: kept && infos.iter().any(|b| b.breaks_dv()),
                    old_r: kept && infos.iter().any(|b| b.breaks_r()),
                    bufferable,
                    min_slots: 0,
                    min_transparent: 0,
                    force_dv: None,
                    force_r: false,
                    rules: Vec::new(),
                });
            }
        }
        let mut outs = vec![Vec::new(); units.len()];
        let mut ins = vec![Vec::new(); units.len()];
        for (i, c) in channels.iter().enumerate() {
            outs[c.from].push(i);
            ins[c.to].push(i);
        }
        (Graph { units, channels, outs, ins, overhead: timing.overhead() }, notes)
    }

    /// What the delays beyond the overhead (`Unit::dv_delay`, ...) of one register-to-register
    /// path may add up to at the clock period `period`: `period − overhead`, so that the path's
    /// cost `overhead + Σ max(0, d − overhead)` fits the period. The period itself when the
    /// overhead is 0.
    pub fn path_budget(&self, period: f64) -> f64 {
        period - self.overhead
    }

    /// The cost of a register-to-register path whose delays beyond the overhead add up to
    /// `excess`: `excess + overhead` (what a path budget of `path_budget` holds).
    pub fn path_cost(&self, excess: f64) -> f64 {
        excess + self.overhead
    }

    /// Channels that take part in cycles: bufferable ones (memory ports are not real
    /// combinational edges: a memory answers a cycle later at the earliest).
    pub fn cycle_edge(&self, c: usize) -> bool {
        self.channels[c].bufferable
    }
}

/// The timing model's section for `op` where the context decides it, before its own name:
/// a float op of an earlier era (`float::era_section`, as the RTL's float units), and a load an
/// LSQ serves (`load.lsq`: Dynamatic adds the LSQ's 3 cycles to such a load's latency, and
/// `hsir_lsq` takes 3 cycles from address to data).
fn section(func: &Func, op: OpId, kind: Option<OpKind>) -> Option<String> {
    let kind = kind?;
    if let Some(key) = crate::float::era_section(kind, func.era) {
        return Some(key);
    }
    let item = &func.item;
    let from_lsq = |&u: &UseId| {
        item.uses[u as usize].value.is_some_and(|v| match item.values[v as usize].def {
            Def::Result { op, .. } => OpKind::of(&item.ops[op as usize]) == Some(OpKind::Lsq),
            Def::Arg { .. } => false,
        })
    };
    let data = &item.ops[op as usize];
    (kind == OpKind::LsqLoad || (kind.is_load() && item.operands(data).iter().any(from_lsq)))
        .then(|| "load.lsq".to_string())
}

/// Whether a shift's amount (its second operand) is a `constant`, possibly through forks,
/// extensions, truncations and buffers (Dynamatic's `isShiftByConstant`, buffers added).
fn shifts_by_constant(func: &Func, shift: OpId) -> bool {
    let item = &func.item;
    let mut value =
        item.operands(&item.ops[shift as usize]).get(1).and_then(|&u| item.uses[u as usize].value);
    // Each step moves to an earlier op; the bound only guards against malformed cycles.
    for _ in 0..item.ops.len() {
        let Some(v) = value else { return false };
        let Def::Result { op, .. } = item.values[v as usize].def else { return false };
        let data = &item.ops[op as usize];
        match OpKind::of(data) {
            Some(OpKind::Constant | OpKind::ArithConstant) => return true,
            Some(k) if k.forwards_value() => {
                value = item.operands(data).first().and_then(|&u| item.uses[u as usize].value);
            }
            _ => return false,
        }
    }
    false
}

fn fallback_zero(fallback: &OpTiming) -> OpTiming {
    // An argument is driven by the environment: registered, no delay of its own.
    OpTiming { latency: 0, data: 0.0, valid: 0.0, ready: 0.0, ..*fallback }
}

/// `addi0` (Dynamatic's `handshake.name`), else `addi %5`.
pub fn label(func: &Func, op: OpId) -> String {
    let data = &func.item.ops[op as usize];
    if let Some(name) = func.item.attr_value(data, "handshake.name") {
        return dataflow::attribute_scalar(name).trim_matches('"').to_string();
    }
    match func.item.results(data).first() {
        Some(&v) => {
            let value = &func.item.values[v as usize];
            format!("{} {}", data.short_name(), func.item.str(value.name()))
        }
        None => data.short_name().to_string(),
    }
}
