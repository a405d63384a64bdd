//! The cycle-accurate reference evaluator of an `hw.module` with pipelines.
//!
//! It reads the IR's meaning directly rather than the lowering's netlist: a stage that moves on
//! hands its token (every value the token has computed so far) to the next stage, so a value
//! read in a later stage than its own is simply the one that token computed, with no routing
//! through registers. Stage enables and valids follow the pipeline dialect's rules for
//! continuous, stallable, non-stallable and runoff stages. What it shares with the lowering is
//! only the reading of the module (which op, which operands, which widths).
//!
//! Conventions, shared with the generated Verilog: every register starts at zero; division and
//! remainder by zero give zero; the result of `pipeline.latency N` is the value its body
//! computed for the same token, `N` stages earlier.

use std::collections::HashMap;

use hsir_analysis::ir::ValueId;
use hsir_analysis::Diagnostic;

use super::design::{self, BinaryOp, Design, Exit, Kind, Origin, Place};
use crate::program::{mask, HwModule};

/// Runs a module for `inputs.len()` cycles. `inputs[c]` holds, for cycle `c`, one value per
/// input port other than the clock, in port order (`PipelineVerilog::ports`); the result holds,
/// per cycle, one value per output port: what the outputs show during the cycle, before the
/// clock edge that ends it.
pub fn simulate(module: &HwModule, inputs: &[Vec<u64>]) -> Result<Vec<Vec<u64>>, Vec<Diagnostic>> {
    let design = design::read(module)?;
    let mut machine = Machine::new(&design);
    let mut outputs = Vec::with_capacity(inputs.len());
    for values in inputs {
        machine.start_cycle(values);
        let shown: Vec<u64> = design
            .outputs
            .iter()
            .map(|&v| machine.value(v, Scope::Module) & mask(design.width[v as usize]))
            .collect();
        outputs.push(shown);
        machine.clock_edge();
    }
    Ok(outputs)
}

/// Where a value is read from: the module body, or a stage of a pipeline (which decides which
/// token's value a read from an earlier stage means).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Scope {
    Module,
    Stage(usize, usize),
}

fn scope_of(place: Place) -> Scope {
    match place {
        Place::Module => Scope::Module,
        Place::Stage { pipeline, stage } => Scope::Stage(pipeline, stage),
    }
}

/// What one stage holds: whether it is enabled, and the values of the token in it.
#[derive(Debug, Clone, Default)]
struct Slot {
    enabled: bool,
    token: HashMap<ValueId, u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stalling {
    /// No stall signal at all.
    Never,
    /// Stops while `stall` is high.
    OnStall,
    /// Marked non-stallable: never stops.
    Not,
    /// After a non-stallable stage: keeps draining while the last non-stallable stage before it
    /// is enabled.
    Runoff,
}

struct Machine<'d> {
    design: &'d Design,
    /// Per pipeline, per stage: how the stage reacts to `stall`.
    stalling: Vec<Vec<Stalling>>,
    /// Per pipeline, per stage (index 0 is the entry stage and is never used).
    slots: Vec<Vec<Slot>>,
    /// `seq.compreg` state, by node.
    registers: HashMap<usize, u64>,
    /// The current cycle's input values, by value.
    inputs: HashMap<ValueId, u64>,
    memo: HashMap<(ValueId, Scope), u64>,
    busy: Vec<bool>,
}

impl<'d> Machine<'d> {
    fn new(design: &'d Design) -> Machine<'d> {
        let stalling = (0..design.pipelines.len()).map(|p| stalling(design, p)).collect();
        let slots =
            design.pipelines.iter().map(|p| vec![Slot::default(); p.stages.len()]).collect();
        Machine {
            design,
            stalling,
            slots,
            registers: HashMap::new(),
            inputs: HashMap::new(),
            memo: HashMap::new(),
            busy: vec![false; design.width.len()],
        }
    }

    fn start_cycle(&mut self, values: &[u64]) {
        self.memo.clear();
        self.inputs.clear();
        let ports = self.design.ports.iter().filter(|p| p.input && !p.clock);
        for (port, &value) in ports.zip(values) {
            if let Some(v) = port.value {
                self.inputs.insert(v, value & mask(port.width));
            }
        }
    }

    fn flag(&mut self, value: ValueId, scope: Scope) -> bool {
        self.value(value, scope) & 1 == 1
    }

    /// The value of `value` as read in `scope` during the current cycle.
    fn value(&mut self, value: ValueId, scope: Scope) -> u64 {
        if let Some(&known) = self.memo.get(&(value, scope)) {
            return known;
        }
        let design = self.design;
        let result = if let Some(c) = design.constant(value) {
            c
        } else {
            match (design.place[value as usize], scope) {
                // Defined in an earlier stage: the value the token now in this stage computed.
                (Place::Stage { pipeline, stage: defined }, Scope::Stage(q, s))
                    if q == pipeline && defined < s =>
                {
                    self.slots[pipeline][s].token.get(&value).copied().unwrap_or(0)
                }
                _ => self.define(value),
            }
        };
        self.memo.insert((value, scope), result);
        result
    }

    /// A value computed where it is defined.
    fn define(&mut self, value: ValueId) -> u64 {
        if self.busy[value as usize] {
            // The design reader rejects combinational loops; never reached.
            return 0;
        }
        self.busy[value as usize] = true;
        let design = self.design;
        let result = match design.origin[value as usize] {
            Origin::Input(_) => self.inputs.get(&value).copied().unwrap_or(0),
            Origin::Unknown => 0,
            Origin::Node { node, index } => self.node(node, index),
            Origin::PipelineResult { pipeline, index } => {
                let p = &design.pipelines[pipeline];
                let last = p.stages.len() - 1;
                if index < p.outputs() {
                    match &p.stages[last].exit {
                        Exit::Return(values) => {
                            self.value(values[index], Scope::Stage(pipeline, last))
                        }
                        Exit::Next { .. } => 0,
                    }
                } else {
                    self.valid(pipeline, last) as u64
                }
            }
            Origin::InnerInput { pipeline, index } => {
                self.value(design.pipelines[pipeline].inputs[index].1, Scope::Module)
            }
            Origin::EntryEnable { pipeline } => {
                self.value(design.pipelines[pipeline].go, Scope::Module)
            }
            Origin::StageEnable { pipeline, stage } => self.slots[pipeline][stage].enabled as u64,
            Origin::StageArg { pipeline, stage, index } => {
                let (source, carried) = self.argument(pipeline, stage, index);
                if carried {
                    self.slots[pipeline][stage].token.get(&value).copied().unwrap_or(0)
                } else {
                    // A pass-through of a ready value is a wire from the previous stage.
                    self.value(source, Scope::Stage(pipeline, stage - 1))
                }
            }
        };
        self.busy[value as usize] = false;
        result & mask(design.width[value as usize].max(1))
    }

    /// The value sent as data argument `index` of `stage`, and whether it travels with the
    /// token (a register, or a latency result not yet ready) rather than through a wire.
    fn argument(&self, pipeline: usize, stage: usize, index: usize) -> (ValueId, bool) {
        let p = &self.design.pipelines[pipeline];
        let Exit::Next { regs, pass } = &p.stages[stage - 1].exit else { return (0, false) };
        if let Some(carry) = regs.get(index) {
            return (carry.value, true);
        }
        let Some(carry) = pass.get(index - regs.len()) else { return (0, false) };
        let ready = self.ready_stage(carry.value, pipeline);
        (carry.value, ready >= stage)
    }

    /// The first stage in which a value of `pipeline` holds its final value: a latency result
    /// `N` stages after its own, and whatever carries one no earlier than that.
    fn ready_stage(&self, value: ValueId, pipeline: usize) -> usize {
        let design = self.design;
        let own = match design.place[value as usize] {
            Place::Stage { pipeline: q, stage } if q == pipeline => stage,
            _ => return 0,
        };
        match design.origin[value as usize] {
            Origin::Node { node, .. } => match &design.nodes[node].kind {
                Kind::Latency { cycles, .. } => own + *cycles as usize,
                Kind::Source => own.max(self.ready_stage(design.nodes[node].operands[0], pipeline)),
                _ => own,
            },
            Origin::StageArg { stage, index, .. } => {
                let p = &design.pipelines[pipeline];
                match &p.stages[stage - 1].exit {
                    Exit::Next { regs, pass } => {
                        let source = regs.iter().chain(pass).nth(index).map(|c| c.value);
                        source.map_or(own, |s| own.max(self.ready_stage(s, pipeline)))
                    }
                    Exit::Return(_) => own,
                }
            }
            _ => own,
        }
    }

    fn node(&mut self, node: usize, index: usize) -> u64 {
        let design = self.design;
        let n = &design.nodes[node];
        let scope = scope_of(n.place);
        let width = n.results.get(index).map_or(1, |&r| design.width[r as usize]);
        match &n.kind {
            Kind::Constant(c) => *c,
            Kind::CompReg { .. } => self.registers.get(&node).copied().unwrap_or(0),
            Kind::Latency { returned, .. } => self.value(returned[index], scope),
            Kind::Source => self.value(n.operands[0], scope),
            kind => {
                let operands: Vec<(u64, u32)> = n
                    .operands
                    .iter()
                    .map(|&v| (self.value(v, scope), design.width[v as usize]))
                    .collect();
                compute(kind, &operands, width)
            }
        }
    }

    fn stall(&mut self, pipeline: usize) -> bool {
        match self.design.pipelines[pipeline].stall {
            Some(s) => self.flag(s, Scope::Module),
            None => false,
        }
    }

    fn enabled(&mut self, pipeline: usize, stage: usize) -> bool {
        if stage == 0 {
            self.flag(self.design.pipelines[pipeline].go, Scope::Module)
        } else {
            self.slots[pipeline][stage].enabled
        }
    }

    /// Whether the last non-stallable stage before `stage` is enabled.
    fn draining(&mut self, pipeline: usize, stage: usize) -> bool {
        let last = (0..stage).rev().find(|&s| self.stalling[pipeline][s] == Stalling::Not);
        match last {
            Some(s) => self.enabled(pipeline, s),
            None => false,
        }
    }

    /// Whether the stage holds a token that moves on at the next edge.
    fn valid(&mut self, pipeline: usize, stage: usize) -> bool {
        let enabled = self.enabled(pipeline, stage);
        match self.stalling[pipeline][stage] {
            Stalling::Never | Stalling::Not => enabled,
            Stalling::OnStall => enabled && !self.stall(pipeline),
            Stalling::Runoff => {
                enabled && (self.draining(pipeline, stage) || !self.stall(pipeline))
            }
        }
    }

    /// Whether a stage takes in what the previous stage offers at the next edge.
    fn accepts(&mut self, pipeline: usize, stage: usize) -> bool {
        match self.stalling[pipeline][stage] {
            Stalling::Never | Stalling::Not => true,
            Stalling::OnStall => !self.stall(pipeline),
            Stalling::Runoff => self.draining(pipeline, stage) || !self.stall(pipeline),
        }
    }

    /// Computes every register's next state from the current cycle, then commits it.
    fn clock_edge(&mut self) {
        let design = self.design;
        let mut next_registers = Vec::new();
        for (index, node) in design.nodes.iter().enumerate() {
            let Kind::CompReg { enable, reset } = &node.kind else { continue };
            let scope = scope_of(node.place);
            let current = self.registers.get(&index).copied().unwrap_or(0);
            let next = match reset {
                Some((r, value)) if self.flag(*r, scope) => self.value(*value, scope),
                _ => match enable {
                    Some(e) if !self.flag(*e, scope) => current,
                    _ => self.value(node.operands[0], scope),
                },
            };
            next_registers.push((index, next));
        }
        let mut next_slots = self.slots.clone();
        for (pipeline, p) in design.pipelines.iter().enumerate() {
            let reset = p.reset.is_some_and(|r| self.flag(r, Scope::Module));
            for (stage, slot) in next_slots[pipeline].iter_mut().enumerate().skip(1) {
                // The enable: cleared by reset, else the previous stage's valid when this stage
                // accepts it.
                if reset {
                    slot.enabled = false;
                } else if self.accepts(pipeline, stage) {
                    slot.enabled = self.valid(pipeline, stage - 1);
                }
                // The token: taken over from the previous stage when it moves on (every cycle
                // without a stall signal); reset does not clear data.
                let moves = match p.stall {
                    None => true,
                    Some(_) => self.valid(pipeline, stage - 1),
                };
                if moves {
                    slot.token = self.hand_over(pipeline, stage);
                }
            }
        }
        for (index, value) in next_registers {
            self.registers.insert(index, value);
        }
        self.slots = next_slots;
    }

    /// The token stage `stage - 1` hands to `stage`: what it holds, every value it computes,
    /// and the values it sends as the next stage's arguments.
    fn hand_over(&mut self, pipeline: usize, stage: usize) -> HashMap<ValueId, u64> {
        let design = self.design;
        let from = stage - 1;
        let scope = Scope::Stage(pipeline, from);
        let mut token =
            if from == 0 { HashMap::new() } else { self.slots[pipeline][from].token.clone() };
        for (value, place) in design.place.iter().enumerate() {
            if *place == (Place::Stage { pipeline, stage: from }) {
                let v = value as ValueId;
                let computed = self.value(v, scope);
                token.insert(v, computed);
            }
        }
        let args = design.pipelines[pipeline].stages[stage].args.clone();
        for (index, arg) in args.into_iter().enumerate() {
            let (source, carried) = self.argument(pipeline, stage, index);
            if carried {
                let sent = self.value(source, scope);
                token.insert(arg, sent);
            }
        }
        token
    }
}

/// The stage kinds of the pipeline dialect: no stall signal means no stage stalls; otherwise
/// stages stall unless `stallability` marks them `false`, and a stallable stage after a
/// non-stallable one (not counting the entry stage, as CIRCT's rule does not) is a runoff stage.
fn stalling(design: &Design, pipeline: usize) -> Vec<Stalling> {
    let p = &design.pipelines[pipeline];
    let mut kinds = Vec::with_capacity(p.stages.len());
    let mut after_nonstallable = false;
    for stage in 0..p.stages.len() {
        let kind = if p.stall.is_none() {
            Stalling::Never
        } else {
            let marked = p.stallability.as_ref().and_then(|s| s.get(stage).copied());
            if marked == Some(false) {
                Stalling::Not
            } else if after_nonstallable {
                Stalling::Runoff
            } else {
                Stalling::OnStall
            }
        };
        if kind == Stalling::Not && stage > 0 {
            after_nonstallable = true;
        }
        kinds.push(kind);
    }
    kinds
}

/// `value` (of `width` bits) as a signed number.
fn signed(value: u64, width: u32) -> i64 {
    if width >= 64 {
        value as i64
    } else {
        let shift = 64 - width;
        ((value << shift) as i64) >> shift
    }
}

fn compute(kind: &Kind, operands: &[(u64, u32)], width: u32) -> u64 {
    let m = mask(width);
    let arg = |i: usize| operands.get(i).map_or(0, |o| o.0);
    let arg_width = |i: usize| operands.get(i).map_or(1, |o| o.1);
    let result = match kind {
        Kind::Binary(op) => {
            let (a, b) = (arg(0), arg(1));
            match op {
                BinaryOp::Add => operands.iter().fold(0u64, |acc, o| acc.wrapping_add(o.0)),
                BinaryOp::Mul => operands.iter().fold(1u64, |acc, o| acc.wrapping_mul(o.0) & m),
                BinaryOp::And => operands.iter().fold(m, |acc, o| acc & o.0),
                BinaryOp::Or => operands.iter().fold(0, |acc, o| acc | o.0),
                BinaryOp::Xor => operands.iter().fold(0, |acc, o| acc ^ o.0),
                BinaryOp::Sub => a.wrapping_sub(b),
                BinaryOp::DivU => a.checked_div(b).unwrap_or(0),
                BinaryOp::ModU => a.checked_rem(b).unwrap_or(0),
                BinaryOp::DivS => {
                    if b == 0 {
                        0
                    } else {
                        signed(a, width).wrapping_div(signed(b, width)) as u64
                    }
                }
                BinaryOp::ModS => {
                    if b == 0 {
                        0
                    } else {
                        signed(a, width).wrapping_rem(signed(b, width)) as u64
                    }
                }
                BinaryOp::Shl => {
                    if b >= width as u64 {
                        0
                    } else {
                        a << b
                    }
                }
                BinaryOp::ShrU => {
                    if b >= width as u64 {
                        0
                    } else {
                        a >> b
                    }
                }
                BinaryOp::ShrS => {
                    let s = signed(a, width);
                    (s >> b.min(63)) as u64
                }
            }
        }
        Kind::Compare(predicate) => {
            let w = arg_width(0);
            let (a, b) = (arg(0), arg(1));
            let truth = crate::sim::compare(*predicate, w, a, b);
            truth as u64
        }
        Kind::Mux => {
            if arg(0) & 1 == 1 {
                arg(1)
            } else {
                arg(2)
            }
        }
        Kind::Concat => operands.iter().fold(0u64, |acc, &(v, w)| {
            let shifted = if w >= 64 { 0 } else { acc << w };
            shifted | (v & mask(w))
        }),
        Kind::Extract { low } => {
            if *low >= 64 {
                0
            } else {
                arg(0) >> low
            }
        }
        Kind::Replicate => {
            let w = arg_width(0).max(1);
            let mut acc = 0u64;
            for _ in 0..width / w {
                acc = if w >= 64 { arg(0) } else { (acc << w) | arg(0) };
            }
            acc
        }
        Kind::Parity => (arg(0).count_ones() & 1) as u64,
        Kind::Extend { signed: true } => signed(arg(0), arg_width(0)) as u64,
        Kind::Extend { signed: false } | Kind::Truncate => arg(0),
        Kind::Constant(c) => *c,
        Kind::CompReg { .. } | Kind::Latency { .. } | Kind::Source => 0,
    };
    result & m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Predicate;

    #[test]
    fn arithmetic_edges() {
        let div = Kind::Binary(BinaryOp::DivS);
        assert_eq!(compute(&div, &[(0x80, 8), (0xff, 8)], 8), 0x80);
        assert_eq!(compute(&div, &[(0xf9, 8), (2, 8)], 8), 0xfd);
        assert_eq!(compute(&div, &[(5, 8), (0, 8)], 8), 0);
        let rem = Kind::Binary(BinaryOp::ModS);
        assert_eq!(compute(&rem, &[(0xf9, 8), (2, 8)], 8), 0xff);
        let shrs = Kind::Binary(BinaryOp::ShrS);
        assert_eq!(compute(&shrs, &[(0x80, 8), (9, 8)], 8), 0xff);
        let shl = Kind::Binary(BinaryOp::Shl);
        assert_eq!(compute(&shl, &[(1, 8), (8, 8)], 8), 0);
        let concat = Kind::Concat;
        assert_eq!(compute(&concat, &[(0x3, 4), (0x5, 4)], 8), 0x35);
        assert_eq!(compute(&Kind::Replicate, &[(0b10, 2)], 6), 0b101010);
        assert_eq!(compute(&Kind::Extend { signed: true }, &[(0b1, 1)], 4), 0xf);
        assert_eq!(compute(&Kind::Compare(Predicate::Slt), &[(0xff, 8), (1, 8)], 1), 1);
        assert_eq!(compute(&Kind::Compare(Predicate::Ult), &[(0xff, 8), (1, 8)], 1), 0);
    }
}
