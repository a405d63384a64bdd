//! Capacity-aware, cycle-level simulation: the top function run clock cycle by clock cycle
//! with each op behaving as its module of the component library (`rtl/README.md`) does, so
//! that slots, back-pressure and the library's handshake timing are what they are in the RTL.
//! A design that deadlocks in the RTL is reported here, before any Verilog is written, with
//! the channels of the circular wait, which the untimed interpreter (unbounded channels)
//! cannot see.
//!
//! What it models, per op, as the module the netlist instantiates for it: buffers of every
//! type by their slots and which paths they register (ONE_SLOT_BREAK_DV and FIFO_BREAK_DV
//! accept while being emptied, ONE_SLOT_BREAK_R and ONE_SLOT_BREAK_DVR only into an empty slot,
//! FIFO_BREAK_NONE passes through when empty, SHIFT_REG_BREAK_DV stalls as a whole, CIRCT's
//! `seq` stage is a DV slot then an R slot); `merge` and `control_merge` with their own
//! ready-breaking slot; eager and lazy forks, `join`, `sync`, `mux`, `cond_br`, constants,
//! sources and sinks; integer arithmetic, comparisons and casts (combinational, as
//! `hsir_binary` / `hsir_unary`); float units as pipelines of their `float_latency`; CIRCT's
//! `load` / `store` as `hsir_load` / `hsir_store` and Dynamatic's (every era) as the wires the
//! netlist makes of them; memories, memory interfaces and load-store queues register for
//! register as `hsir_ext_memory` (+ `hsir_mc_control`), `hsir_memory` and `hsir_lsq`, with the
//! testbench's BRAM behind memref arguments (`memory.rs`); an instance as its callee's circuit
//! built in place between the instance's channels (`Net::instance`: the netlist instantiates
//! the callee's module there; a callee with memory arguments is not modelled). Anything else
//! (LOOM's loop ops, `unbundle`, speculation) is not modelled: the run says so
//! (`Verdict::NotModeled`, naming the op) and claims nothing about the design.
//!
//! Each unit's timing is described once, here, as its RTL module has it: the netlist's facts are
//! read, not repeated (`netlist::unit_latency`, `netlist::lsq::depth`, `memories::interface` for
//! the ports' roles, `float::FloatUnit::latency`), and ops are told apart by `OpKind`. Memory
//! contents are the run's inputs, so data-dependent control flow takes the RTL's path. The
//! function's outputs are the netlist's: in Dynamatic 2024 each result waits for every memory's
//! done token (`Net::terminator`).
//! `tests/capacity.rs` and `docs/timing-model.md` ("The capacity model beside the RTL") show it
//! cycle-exact against Icarus Verilog on Dynamatic's suite.
//!
//! Inputs are offered on every cycle while they last and outputs are always ready. The run
//! stops when every output has received what the untimed run delivered to it (Dynamatic's
//! circuits keep running after `end`: loops fed by a `source` restart), and otherwise at the
//! first cycle in which nothing moves: the state then repeats forever, so if an output still
//! lacks tokens the design is deadlocked. The report names the circular wait: channels offered
//! a token and not taken, in a cycle; or, when the tokens alone make none, the shortest cycle
//! through such a channel in which each op waits either for its consumer to take a token or for
//! a producer to give one (`Net::circular_wait`). Cycles are counted as the testbench counts
//! them: from the first input token taken to the last expected output token.

use std::collections::VecDeque;

use hsir_analysis::dataflow::{self, BufferKind, BufferType};
use hsir_analysis::ir::{Item, OpData, OpId, ValueId};
use hsir_analysis::ops::OpKind;
use hsir_analysis::{Diagnostic, DiagnosticCode as Code, TextRange};

use crate::program::{mask, Func, Program};
use crate::sim::{self, BinaryOp, Predicate, UnaryOp};

mod memory;

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Every output received the tokens the untimed run gave it. Cycles are counted as the
    /// testbench counts them: from the first input token taken to the last output token.
    Completed { cycles: u64 },
    /// Nothing moves any more and an output lacks tokens.
    Deadlock(Deadlock),
    /// The function has an op this model does not cover; nothing is claimed.
    NotModeled { range: TextRange, why: String },
    /// Still running after the cycle limit.
    Limit { cycles: u64 },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadlock {
    /// The first cycle in which nothing moved.
    pub cycle: u64,
    /// Tokens given to each argument (the most any got).
    pub tokens: usize,
    /// What is stuck, naming the channels (absolute ranges are in `range` and `channels`).
    pub message: String,
    /// Where to show it: the first op of the circular wait, or the function's name.
    pub range: TextRange,
    /// The channels of the circular wait, in order (value names), empty when none was found.
    pub channels: Vec<String>,
    /// The same channels as wires of the top function (a channel inside an instance is left
    /// out), in order; without a circular wait, every channel offered a token not taken. What
    /// buffer placement repairs.
    pub waits: Vec<Wait>,
}

/// One channel of a deadlock, as a wire of the top function: the value it carries, the ops at
/// its ends (`None` for a fork the netlist adds), and whether a token waits on it, offered and
/// not taken (otherwise its consumer waits for a token on it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wait {
    pub value: ValueId,
    pub producer: Option<OpId>,
    pub consumer: Option<OpId>,
    pub offered: bool,
}

/// A run's verdict, with the most tokens each buffer op held at once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub verdict: Verdict,
    /// Per buffer op of `top` (and of callees built in place, by their own op ids): the most
    /// tokens its slots held in one cycle.
    pub peaks: Vec<(OpId, usize)>,
}

/// Runs `top` on `inputs` cycle by cycle; `expected` is how many tokens each output of the
/// terminator should receive (what the untimed run delivered).
pub fn simulate(
    program: &Program,
    top: &str,
    inputs: &sim::Inputs,
    expected: &[usize],
    max_cycles: u64,
) -> Verdict {
    simulate_run(program, top, inputs, expected, max_cycles).verdict
}

/// As `simulate`, with the buffers' peak occupancy.
pub fn simulate_run(
    program: &Program,
    top: &str,
    inputs: &sim::Inputs,
    expected: &[usize],
    max_cycles: u64,
) -> Run {
    let Some(func) = program.func(top) else {
        let why = format!("no function `@{top}`");
        let verdict = Verdict::NotModeled { range: TextRange::default(), why };
        return Run { verdict, peaks: Vec::new() };
    };
    let mut net = match Net::build(program, func, inputs) {
        Ok(net) => net,
        Err((range, why)) => {
            let verdict = Verdict::NotModeled { range: func.absolute(range), why };
            return Run { verdict, peaks: Vec::new() };
        }
    };
    let verdict = match net.run(func, expected, max_cycles) {
        Verdict::Deadlock(mut d) => {
            d.tokens = inputs.args.iter().map(Vec::len).max().unwrap_or(0);
            Verdict::Deadlock(d)
        }
        other => other,
    };
    let mut peaks: Vec<(OpId, usize)> = Vec::new();
    for node in &net.nodes {
        let (Some(op), true) = (node.op, node.is_buffer()) else { continue };
        match peaks.iter_mut().find(|(o, _)| *o == op) {
            Some((_, p)) => *p += node.peak,
            None => peaks.push((op, node.peak)),
        }
    }
    Run { verdict, peaks }
}

/// The capacity check of `hsir rtl` and `hsir sim --cycles`: the function's `// hsir-sim:`
/// inputs (as the testbench draws them for `seed` and `tokens`, over an inputs file's text when
/// given), the untimed run for the tokens each output should get, then the cycle-level run.
/// `None` when the inputs cannot be read or the untimed run itself fails (their own errors are
/// reported elsewhere).
pub fn check(
    text: &str,
    program: &Program,
    top: &str,
    seed: u64,
    tokens: Option<usize>,
    inputs_file: Option<&str>,
) -> Option<Verdict> {
    check_run(text, program, top, seed, tokens, inputs_file).map(|run| run.verdict)
}

/// As `check`, with the buffers' peak occupancy.
pub fn check_run(
    text: &str,
    program: &Program,
    top: &str,
    seed: u64,
    tokens: Option<usize>,
    inputs_file: Option<&str>,
) -> Option<Run> {
    let func = program.func(top)?;
    let mut directives = sim::stimulus::directives(text, program, func).ok()?;
    if let Some(tokens) = tokens {
        directives.tokens = tokens;
    }
    if let Some(file) = inputs_file {
        sim::stimulus::read_inputs_file(func, file, &mut directives).ok()?;
    }
    let inputs = sim::stimulus::inputs(func, &directives, seed);
    let outcome = sim::run(program, top, &inputs, 1_000_000).ok()?;
    let expected: Vec<usize> = outcome.results.iter().map(Vec::len).collect();
    let limit = 10_000 + 64 * outcome.firings;
    Some(simulate_run(program, top, &inputs, &expected, limit))
}

/// HS5011 for a deadlock found in `top`.
pub fn diagnostic(top: &str, deadlock: &Deadlock) -> Diagnostic {
    Diagnostic::new(
        Code::CapacityDeadlock,
        deadlock.range,
        format!(
            "`@{top}` deadlocks in hardware with {} per argument, after {} cycles: {}; add slots to the cycle (`hsir buffers`, or a buffer by hand), or generate it anyway (`hsir rtl --allow-lint-errors`)",
            if deadlock.tokens == 1 { "1 token".to_string() } else { format!("{} tokens", deadlock.tokens) },
            deadlock.cycle,
            deadlock.message
        ),
    )
}

/// A one-slot register at a clock edge: a held token leaves when its output is ready; an empty
/// register takes `fill`. Whether it changed.
fn one_slot(slot: &mut VecDeque<u64>, out_ready: bool, fill: Option<u64>) -> bool {
    if !slot.is_empty() {
        if out_ready {
            slot.pop_front();
        }
        return out_ready;
    }
    match fill {
        Some(data) => {
            slot.push_back(data);
            true
        }
        None => false,
    }
}

// ---- the network ---------------------------------------------------------------------------

/// One channel: its wires in the current cycle, and the value it carries (for names).
#[derive(Debug, Clone)]
struct Chan {
    valid: bool,
    ready: bool,
    data: u64,
    value: ValueId,
    /// The name of a channel inside an instance (its value is the callee's).
    label: Option<Box<str>>,
}

impl Chan {
    /// An empty channel carrying `value`.
    fn idle(value: ValueId, label: Option<Box<str>>) -> Chan {
        Chan { valid: false, ready: false, data: 0, value, label }
    }
}

#[derive(Debug, Clone)]
enum Kind {
    /// A function argument: its tokens, offered one per cycle while they last.
    Input(VecDeque<u64>),
    /// An operand of the terminator: always ready; counts what it receives.
    Output(usize),
    /// A rename (`br`): wires through.
    Wire,
    /// Eager fork (also the forks the netlist adds for values used several times).
    Fork,
    LazyFork,
    Join,
    /// A join whose outputs leave as an eager fork's, each with its input's data.
    Sync,
    Merge,
    ControlMerge,
    Mux,
    CondBr,
    Sink,
    Source,
    Constant(u64),
    /// An integer unit: combinational, or a pipeline of `stages.len()` registers (`hsir_binary`).
    Binary(BinaryOp, u32),
    Compare(Predicate, u32),
    Unary(UnaryOp, u32, u32),
    Select,
    /// Joins its tokens with the data operand (the last) and passes the data.
    Wait,
    /// A FIFO of `slots`; `transparent` passes a token through when empty (FIFO_BREAK_NONE),
    /// otherwise data and valid are registered (FIFO_BREAK_DV; ONE_SLOT_BREAK_DV is one slot).
    /// Both accept while being emptied.
    Fifo {
        slots: usize,
        transparent: bool,
    },
    /// ONE_SLOT_BREAK_R: transparent when empty, keeps a token that meets back-pressure, accepts
    /// only when empty.
    Tehb,
    /// ONE_SLOT_BREAK_DVR: registered output, accepts only into an empty slot.
    Dvr,
    /// SHIFT_REG_BREAK_DV: `stages` registers shifting together.
    ShiftReg,
    /// A float unit: a pipeline of `stages.len()` registers (combinational when 0).
    Float(crate::float::FloatUnit),
    /// CIRCT's `load` (`hsir_load`): ins address, memory data, control; outs data, address.
    CirctLoad,
    /// CIRCT's `store` (`hsir_store`): ins address, data, control; outs data, address.
    CirctStore,
    /// A memory interface with its memory (`hsir_ext_memory`, `hsir_memory`, `hsir_mc_control`).
    Mem(Box<memory::Mem>),
    /// A load-store queue (`hsir_lsq`).
    Lsq(Box<memory::Lsq>),
}

#[derive(Debug, Clone)]
struct Node {
    kind: Kind,
    /// The op it models (`None` for forks and sinks the netlist would add, and arguments).
    op: Option<OpId>,
    ins: Vec<usize>,
    outs: Vec<usize>,
    /// Tokens held in slots (data; a control_merge's index in `index`).
    slot: VecDeque<u64>,
    index: VecDeque<u64>,
    /// Per output: the copy was already taken (eager forks, sync, control_merge).
    sent: Vec<bool>,
    /// Pipeline registers (shift registers, float and pipelined integer units).
    stages: Vec<Option<u64>>,
    /// The most tokens `slot` held at the end of a cycle.
    peak: usize,
}

impl Node {
    fn new(kind: Kind, op: Option<OpId>, ins: Vec<usize>, outs: Vec<usize>) -> Node {
        let sent = vec![false; outs.len()];
        Node {
            kind,
            op,
            ins,
            outs,
            slot: VecDeque::new(),
            index: VecDeque::new(),
            sent,
            stages: Vec::new(),
            peak: 0,
        }
    }

    /// A buffer op's stage: a FIFO, a ready-breaking or an opaque slot.
    fn is_buffer(&self) -> bool {
        matches!(self.kind, Kind::Fifo { .. } | Kind::Tehb | Kind::Dvr)
    }

    /// Slots the op has, for the report.
    fn capacity(&self) -> usize {
        match &self.kind {
            Kind::Fifo { slots, .. } => *slots,
            Kind::Tehb | Kind::Dvr | Kind::Merge | Kind::ControlMerge => 1,
            Kind::ShiftReg | Kind::Float(_) | Kind::Binary(..) => self.stages.len(),
            Kind::Lsq(q) => q.depth(),
            _ => 0,
        }
    }

    /// What an arithmetic unit computes from its operands' data.
    fn unit_value(&self, lhs: u64, rhs: u64) -> u64 {
        match &self.kind {
            Kind::Binary(op, w) => sim::binary(*op, *w, lhs, rhs),
            Kind::Float(unit) => sim::float::apply(unit, lhs, rhs),
            _ => 0,
        }
    }

    /// Tokens held in its slots.
    fn held(&self) -> usize {
        let queued = if let Kind::Lsq(q) = &self.kind { q.held() } else { 0 };
        self.slot.len() + self.stages.iter().filter(|s| s.is_some()).count() + queued
    }
}

struct Net {
    chans: Vec<Chan>,
    nodes: Vec<Node>,
    /// The node of each output of the terminator, in order.
    outputs: Vec<usize>,
    /// The store-done channel of each `lsq [MC]` from its `mem_controller`.
    controller_done: Vec<(OpId, usize)>,
}

type BuildError = (TextRange, String);

impl Net {
    fn build(program: &Program, func: &Func, inputs: &sim::Inputs) -> Result<Net, BuildError> {
        let mut net = Net {
            chans: Vec::new(),
            nodes: Vec::new(),
            outputs: Vec::new(),
            controller_done: Vec::new(),
        };
        net.body(program, func, inputs, None, &mut vec![func.name.clone()])?;
        Ok(net)
    }

    /// The nodes of `func`'s body: the top function's, with its arguments as inputs and its
    /// results as outputs, or an instance's (`ports`: the caller's channels of its operands and
    /// results), whose module is its callee's circuit wired to the instance's channels.
    fn body(
        &mut self,
        program: &Program,
        func: &Func,
        inputs: &sim::Inputs,
        ports: Option<(&[usize], &[usize])>,
        stack: &mut Vec<String>,
    ) -> Result<(), BuildError> {
        let item = &func.item;
        let net = self;
        // The channel each value is produced on, and the channel each use reads.
        let mut value_chan = vec![usize::MAX; item.values.len()];
        for (v, _) in item.values.iter().enumerate() {
            value_chan[v] = net.chans.len();
            net.chans.push(Chan::idle(v as ValueId, None));
        }
        let mut use_chan = vec![usize::MAX; item.uses.len()];
        for (v, value) in item.values.iter().enumerate() {
            match value.uses.len() {
                0 => net.nodes.push(Node::new(Kind::Sink, None, vec![value_chan[v]], vec![])),
                1 => use_chan[item.value_uses(value)[0] as usize] = value_chan[v],
                _ => {
                    let mut outs = Vec::new();
                    for &u in item.value_uses(value) {
                        use_chan[u as usize] = net.chans.len();
                        outs.push(net.chans.len());
                        net.chans.push(Chan::idle(v as ValueId, None));
                    }
                    net.nodes.push(Node::new(Kind::Fork, None, vec![value_chan[v]], outs));
                }
            }
        }
        let args = func.args();
        if ports.is_some_and(|(ins, _)| ins.len() != args.len()) {
            return Err((func.op().name_range, "has arguments its instance does not give".into()));
        }
        for (i, &arg) in args.iter().enumerate() {
            let memref = func
                .ty(arg)
                .is_some_and(|t| matches!(t, hsir_analysis::types::Type::MemRef { .. }));
            if let Some((ins, _)) = ports {
                if memref {
                    return Err((func.op().name_range, "has a memory argument".into()));
                }
                let to = value_chan[arg as usize];
                net.nodes.push(Node::new(Kind::Wire, None, vec![ins[i]], vec![to]));
                continue;
            }
            if memref {
                // A memory: its interface op models it (`memory.rs`).
                continue;
            }
            let tokens: VecDeque<u64> = inputs.args.get(i).cloned().unwrap_or_default().into();
            net.nodes.push(Node::new(
                Kind::Input(tokens),
                None,
                vec![],
                vec![value_chan[arg as usize]],
            ));
        }
        let body = item.blocks.first().map(|b| b.ops.clone()).unwrap_or_default();
        let last = body.last().copied();
        for &id in &body {
            let op = &item.ops[id as usize];
            if op.broken {
                return Err((op.name_range, "its syntax is broken".into()));
            }
            let ins: Vec<usize> = item.operands(op).iter().map(|&u| use_chan[u as usize]).collect();
            if ins.contains(&usize::MAX) {
                return Err((
                    op.name_range,
                    format!("`{}` reads a value the model has no channel for", op.name),
                ));
            }
            let outs: Vec<usize> =
                item.results(op).iter().map(|&v| value_chan[v as usize]).collect();
            let kind = OpKind::of(op);
            if matches!(kind, Some(OpKind::End | OpKind::Return)) && Some(id) == last {
                net.terminator(func, id, op, &ins, ports.map(|(_, outs)| outs))?;
                continue;
            }
            if kind == Some(OpKind::Instance) {
                net.instance(program, func, op, &ins, &outs, stack)?;
                continue;
            }
            net.op(func, inputs, id, op, kind, ins, outs)?;
        }
        Ok(())
    }

    /// An instance: its callee's circuit, built in place between the instance's channels (the
    /// netlist instantiates the callee's module there, whose ports are its arguments and
    /// results). What it builds is shown at the instance: its ops, and its channels named in the
    /// callee (`` `%x` in `@callee` ``).
    fn instance(
        &mut self,
        program: &Program,
        func: &Func,
        op: &OpData,
        ins: &[usize],
        outs: &[usize],
        stack: &mut Vec<String>,
    ) -> Result<(), BuildError> {
        let callee = op.symbol.and_then(|name| program.callee(func, func.item.str(name)));
        let Some(callee) = callee.filter(|c| !c.external) else {
            return Err((op.name_range, format!("`{}` calls a function with no body", op.name)));
        };
        if stack.contains(&callee.name) || stack.len() > 16 {
            return Err((
                op.name_range,
                format!("`{}` calls `@{}` recursively", op.name, callee.name),
            ));
        }
        let (first_node, first_chan) = (self.nodes.len(), self.chans.len());
        stack.push(callee.name.clone());
        // A callee's ops have no memories of the top function: an empty input set.
        let built = self.body(program, callee, &sim::Inputs::default(), Some((ins, outs)), stack);
        stack.pop();
        if let Err((_, why)) = built {
            return Err((
                op.name_range,
                format!("`{}` calls `@{}`, which {why}", op.name, callee.name),
            ));
        }
        let site = func.item.ops.iter().position(|o| std::ptr::eq(o, op)).map(|i| i as OpId);
        for node in &mut self.nodes[first_node..] {
            node.op = site;
        }
        let item = &callee.item;
        for chan in &mut self.chans[first_chan..] {
            if chan.label.is_none() {
                let v = chan.value;
                let shown =
                    item.values[v as usize].display(item, hsir_analysis::ir::group_len(item, v));
                chan.label = Some(format!("`{shown}` in `@{}`", callee.name).into());
            }
        }
        Ok(())
    }

    /// The function's outputs, as the netlist's `terminator` makes them: in Dynamatic 2024,
    /// `end`'s operands after the results are the memories' done tokens, and each result
    /// leaves through a `hsir_wait` on its own copy of every done token.
    fn terminator(
        &mut self,
        func: &Func,
        id: OpId,
        op: &OpData,
        ins: &[usize],
        to: Option<&[usize]>,
    ) -> Result<(), BuildError> {
        let (results, done) = ins.split_at(func.terminator_results(op).min(ins.len()));
        if to.is_some_and(|to| to.len() != results.len()) {
            return Err((op.name_range, "has results its instance does not take".into()));
        }
        if results.is_empty() {
            for &d in done {
                self.nodes.push(Node::new(Kind::Output(0), Some(id), vec![d], vec![]));
            }
        }
        let mut copies: Vec<Vec<usize>> = vec![Vec::new(); results.len()];
        for &d in done {
            if results.len() == 1 {
                copies[0].push(d);
                continue;
            }
            let outs: Vec<usize> = (0..results.len()).map(|_| self.new_chan(d)).collect();
            for (i, &o) in outs.iter().enumerate() {
                copies[i].push(o);
            }
            self.nodes.push(Node::new(Kind::Fork, Some(id), vec![d], outs));
        }
        for (i, &result) in results.iter().enumerate() {
            let channel = if done.is_empty() {
                result
            } else {
                let out = self.new_chan(result);
                let mut tokens = std::mem::take(&mut copies[i]);
                tokens.push(result);
                self.nodes.push(Node::new(Kind::Wait, Some(id), tokens, vec![out]));
                out
            };
            if let Some(to) = to {
                self.nodes.push(Node::new(Kind::Wire, Some(id), vec![channel], vec![to[i]]));
            } else {
                self.outputs.push(self.nodes.len());
                self.nodes.push(Node::new(Kind::Output(0), Some(id), vec![channel], vec![]));
            }
        }
        Ok(())
    }

    /// A new channel named as channel `like`'s value.
    fn new_chan(&mut self, like: usize) -> usize {
        let (value, label) = (self.chans[like].value, self.chans[like].label.clone());
        self.chans.push(Chan::idle(value, label));
        self.chans.len() - 1
    }

    /// The node(s) of one op, as the netlist lowers it.
    #[allow(clippy::too_many_arguments)]
    fn op(
        &mut self,
        func: &Func,
        inputs: &sim::Inputs,
        id: OpId,
        op: &OpData,
        kind: Option<OpKind>,
        ins: Vec<usize>,
        outs: Vec<usize>,
    ) -> Result<(), BuildError> {
        use OpKind as K;
        let unsupported = |why: &str| Err((op.name_range, format!("`{}` {why}", op.name)));
        let Some(kind) = kind else { return unsupported("is not an op hsir knows") };
        let width = |v: ValueId| func.shape(v).map_or(1, |s| s.data.max(1));
        let shape_ok = |n_in: usize, n_out: usize| ins.len() == n_in && outs.len() == n_out;
        let node = |k: Kind| Node::new(k, Some(id), ins.clone(), outs.clone());
        let new = match kind {
            K::Br | K::Compose | K::Decompose | K::Return if ins.len() == outs.len() => {
                for (&i, &o) in ins.iter().zip(&outs) {
                    self.nodes.push(Node::new(Kind::Wire, Some(id), vec![i], vec![o]));
                }
                return Ok(());
            }
            K::Fork => node(Kind::Fork),
            K::LazyFork => node(Kind::LazyFork),
            K::Join if outs.len() == 1 => node(Kind::Join),
            K::Sync if ins.len() == outs.len() => node(Kind::Sync),
            K::Merge if outs.len() == 1 && !ins.is_empty() => node(Kind::Merge),
            K::ControlMerge if outs.len() == 2 && !ins.is_empty() => node(Kind::ControlMerge),
            K::Mux if outs.len() == 1 && ins.len() >= 2 => node(Kind::Mux),
            K::CondBr if shape_ok(2, 2) => node(Kind::CondBr),
            K::Sink if outs.is_empty() => node(Kind::Sink),
            K::Source if shape_ok(0, 1) => node(Kind::Source),
            K::Constant | K::ArithConstant if ins.len() <= 1 && outs.len() == 1 => {
                let text = match func.item.attr_value(op, "value") {
                    Some(value) => value.to_string(),
                    None => sim::constant_text(func, op),
                };
                let value = match crate::float::format_of(func, func.item.results(op)[0]) {
                    Some(format) => format.literal(dataflow::attribute_scalar(&text)),
                    None => crate::program::parse_integer(&text)
                        .map(|v| v & mask(width(func.item.results(op)[0]))),
                };
                let Some(value) = value else {
                    return unsupported("has a value the model cannot read");
                };
                if ins.is_empty() {
                    // A constant without a trigger offers its value on every cycle.
                    let mut n = node(Kind::Source);
                    n.kind = Kind::Constant(value);
                    n
                } else {
                    node(Kind::Constant(value))
                }
            }
            // The integer ops the interpreter computes (`BinaryOp::of` is their one list).
            _ if BinaryOp::of(kind).is_some() && shape_ok(2, 1) => {
                let Some(bin) = BinaryOp::of(kind) else {
                    return unsupported("has no integer unit");
                };
                let w = width(func.item.results(op)[0]);
                let mut n = node(Kind::Binary(bin, w));
                // `hsir_binary` pipelines the units Dynamatic's timing gives a latency.
                n.stages = vec![None; crate::netlist::unit_latency(kind, w) as usize];
                n
            }
            K::CmpI if shape_ok(2, 1) => {
                let text = sim::predicate_text(&func.item, op);
                let Some(pred) = Predicate::parse(&text) else {
                    return unsupported("has a predicate the model cannot read");
                };
                let operand = func.item.uses[func.item.operands(op)[0] as usize].value;
                node(Kind::Compare(pred, operand.map_or(1, width)))
            }
            // The conversions the interpreter computes (`UnaryOp::of` is their one list).
            _ if UnaryOp::of(kind).is_some() && shape_ok(1, 1) => {
                let Some(unary) = UnaryOp::of(kind) else {
                    return unsupported("is not a conversion the model knows");
                };
                let operand = func.item.uses[func.item.operands(op)[0] as usize].value;
                node(Kind::Unary(unary, operand.map_or(1, width), width(func.item.results(op)[0])))
            }
            K::Select | K::ArithSelect if shape_ok(3, 1) => node(Kind::Select),
            K::Wait if !ins.is_empty() && outs.len() == 1 => node(Kind::Wait),
            K::AddF
            | K::SubF
            | K::MulF
            | K::DivF
            | K::CmpF
            | K::NegF
            | K::ExtF
            | K::TruncF
            | K::SIToFP
            | K::UIToFP
            | K::FPToSI
            | K::FPToUI => match crate::float::unit(func, op) {
                Some(Ok(unit)) if outs.len() == 1 => {
                    let mut n = node(Kind::Float(unit));
                    n.stages = vec![None; unit.latency(func.era) as usize];
                    n
                }
                _ => return unsupported("has no float unit the model knows"),
            },
            K::Buffer | K::Oehb | K::Tehb | K::Tfifo if shape_ok(1, 1) => {
                return self.buffer(&func.item, op, id, ins[0], outs[0]);
            }
            // CIRCT's accesses are cells (`hsir_load`, `hsir_store`); Dynamatic's pass address
            // and data through to their interface (`netlist.rs`'s `alias_of`).
            K::Load | K::McLoad | K::LsqLoad if shape_ok(3, 2) => node(Kind::CirctLoad),
            K::Store | K::McStore | K::LsqStore if shape_ok(3, 2) => node(Kind::CirctStore),
            K::Load | K::McLoad | K::LsqLoad | K::Store | K::McStore | K::LsqStore
                if shape_ok(2, 2) =>
            {
                for (&i, &o) in ins.iter().zip(&outs) {
                    self.nodes.push(Node::new(Kind::Wire, Some(id), vec![i], vec![o]));
                }
                return Ok(());
            }
            K::Memory | K::ExtMemory | K::MemController => {
                return self.memory(func, inputs, id, op, ins, outs)
            }
            K::Lsq => return self.lsq(func, inputs, id, op, ins, outs),

            _ => return unsupported("is not modelled by the cycle-level simulation"),
        };
        self.nodes.push(new);
        Ok(())
    }

    /// A buffer as the netlist lowers it: a chain of slots of its type.
    fn buffer(
        &mut self,
        item: &Item,
        op: &OpData,
        id: OpId,
        input: usize,
        output: usize,
    ) -> Result<(), BuildError> {
        let Some(info) = dataflow::buffer_info(item, op, id) else {
            return Err((op.name_range, "is a buffer the model cannot read".into()));
        };
        let slots = info.slot_count().unwrap_or(1) as usize;
        // Stages in order, each with its initial token.
        let mut stages: Vec<(Kind, Option<u64>)> = Vec::new();
        let one = |k: Kind, n: usize| -> Vec<(Kind, Option<u64>)> {
            (0..n).map(|_| (k.clone(), None)).collect()
        };
        match info.kind {
            BufferKind::Known(t) | BufferKind::Legacy(t, _) | BufferKind::Implied(t) => match t {
                BufferType::OneSlotBreakDv => {
                    stages = one(Kind::Fifo { slots: 1, transparent: false }, slots)
                }
                BufferType::OneSlotBreakR => stages = one(Kind::Tehb, slots),
                BufferType::OneSlotBreakDvr => stages = one(Kind::Dvr, slots),
                BufferType::FifoBreakDv => {
                    stages = vec![(Kind::Fifo { slots, transparent: false }, None)]
                }
                BufferType::FifoBreakNone => {
                    stages = vec![(Kind::Fifo { slots, transparent: true }, None)]
                }
                BufferType::ShiftRegBreakDv => stages = vec![(Kind::ShiftReg, None)],
            },
            BufferKind::CirctSeq => {
                let init = crate::program::init_values(item, op).unwrap_or_default();
                if item.attr(op, "initValues").is_some()
                    && crate::program::init_values(item, op).is_none()
                {
                    return Err((op.name_range, "has initial values the model cannot read".into()));
                }
                let n = item.bracket_ints(op).first().map_or(slots, |&n| n as usize).max(1);
                for k in 0..n {
                    // One `hsir_seq_stage`: a DV slot (which holds the initial token), then an R slot.
                    stages
                        .push((Kind::Fifo { slots: 1, transparent: false }, init.get(k).copied()));
                    stages.push((Kind::Tehb, None));
                }
            }
            BufferKind::CirctFifo => {
                let n = item.bracket_ints(op).first().map_or(slots, |&n| n as usize).max(1);
                stages = vec![(Kind::Fifo { slots: n, transparent: false }, None)];
            }
            BufferKind::Missing => stages = vec![(Kind::Fifo { slots, transparent: true }, None)],
            BufferKind::Unknown(_) => {
                return Err((op.name_range, "has a buffer type with no RTL".into()))
            }
        }
        let count = stages.len();
        let mut from = input;
        for (k, (kind, init)) in stages.into_iter().enumerate() {
            let to = if k + 1 == count { output } else { self.new_chan(output) };
            let mut node = Node::new(kind, Some(id), vec![from], vec![to]);
            if let Kind::ShiftReg = node.kind {
                node.stages = vec![None; slots.max(1)];
            }
            if let Some(v) = init {
                node.slot.push_back(v);
            }
            self.nodes.push(node);
            from = to;
        }
        Ok(())
    }

    // ---- one cycle -------------------------------------------------------------------------

    /// Evaluates the combinational wires of node `n` from the current wires and its state;
    /// returns whether a wire changed.
    fn eval(&mut self, n: usize) -> bool {
        let node = &self.nodes[n];
        let c = &self.chans;
        let v = |k: usize| c[node.ins[k]].valid;
        let d = |k: usize| c[node.ins[k]].data;
        let r = |k: usize| c[node.outs[k]].ready;
        let all_valid = node.ins.iter().all(|&i| c[i].valid);
        // (channel, valid, data) to drive, and (channel, ready).
        let mut outs: Vec<(usize, bool, u64)> = Vec::new();
        let mut readies: Vec<(usize, bool)> = Vec::new();
        let join = |out_ready: bool, readies: &mut Vec<(usize, bool)>| {
            for &i in &node.ins {
                readies.push((i, all_valid && out_ready));
            }
        };
        match &node.kind {
            Kind::Input(tokens) => {
                outs.push((node.outs[0], !tokens.is_empty(), tokens.front().copied().unwrap_or(0)))
            }
            Kind::Output(_) | Kind::Sink => readies.push((node.ins[0], true)),
            Kind::Wire => {
                outs.push((node.outs[0], v(0), d(0)));
                readies.push((node.ins[0], r(0)));
            }
            Kind::Fork => {
                for (k, &o) in node.outs.iter().enumerate() {
                    outs.push((o, v(0) && !node.sent[k], d(0)));
                }
                let done = (0..node.outs.len()).all(|k| node.sent[k] || r(k));
                readies.push((node.ins[0], done));
            }
            Kind::LazyFork => {
                let all_ready = (0..node.outs.len()).all(r);
                for (k, &o) in node.outs.iter().enumerate() {
                    let others = (0..node.outs.len()).all(|j| j == k || r(j));
                    outs.push((o, v(0) && others, d(0)));
                }
                readies.push((node.ins[0], all_ready));
            }
            Kind::Join => {
                outs.push((node.outs[0], all_valid, 0));
                join(r(0), &mut readies);
            }
            Kind::Sync => {
                for (k, &o) in node.outs.iter().enumerate() {
                    outs.push((o, all_valid && !node.sent[k], d(k)));
                }
                let taken = (0..node.outs.len()).all(|k| node.sent[k] || r(k));
                join(taken, &mut readies);
            }
            Kind::Merge | Kind::ControlMerge => {
                let pick = (0..node.ins.len()).find(|&k| v(k));
                let full = !node.slot.is_empty();
                let data = if full { node.slot[0] } else { pick.map_or(0, d) };
                let token = full || pick.is_some();
                if let Kind::Merge = node.kind {
                    outs.push((node.outs[0], token, data));
                } else {
                    let index = if full { node.index[0] } else { pick.unwrap_or(0) as u64 };
                    outs.push((node.outs[0], token && !node.sent[0], data));
                    outs.push((node.outs[1], token && !node.sent[1], index));
                }
                for (k, &i) in node.ins.iter().enumerate() {
                    readies.push((i, Some(k) == pick && !full));
                }
            }
            Kind::Mux => {
                let n_data = node.ins.len() - 1;
                let sel = d(0) as usize;
                let picked = sel < n_data && v(1 + sel.min(n_data - 1));
                let valid = v(0) && picked;
                let fire = valid && r(0);
                outs.push((node.outs[0], valid, if sel < n_data { d(1 + sel) } else { 0 }));
                readies.push((node.ins[0], fire));
                for k in 0..n_data {
                    readies.push((node.ins[1 + k], k == sel && fire));
                }
            }
            Kind::CondBr => {
                let both = v(0) && v(1);
                let cond = d(0) & 1 == 1;
                outs.push((node.outs[0], both && cond, d(1)));
                outs.push((node.outs[1], both && !cond, d(1)));
                let fire = both && if cond { r(0) } else { r(1) };
                readies.push((node.ins[0], fire));
                readies.push((node.ins[1], fire));
            }
            Kind::Source => outs.push((node.outs[0], true, 0)),
            Kind::Constant(value) => {
                outs.push((node.outs[0], node.ins.is_empty() || v(0), *value));
                if !node.ins.is_empty() {
                    readies.push((node.ins[0], r(0)));
                }
            }
            Kind::Compare(pred, w) => {
                outs.push((
                    node.outs[0],
                    all_valid,
                    u64::from(sim::compare(*pred, *w, d(0), d(1))),
                ));
                join(r(0), &mut readies);
            }
            Kind::Unary(op, from, to) => {
                outs.push((node.outs[0], all_valid, sim::unary(*op, *from, *to, d(0))));
                join(r(0), &mut readies);
            }
            Kind::Select => {
                outs.push((node.outs[0], all_valid, if d(0) & 1 == 1 { d(1) } else { d(2) }));
                join(r(0), &mut readies);
            }
            Kind::Wait => {
                outs.push((node.outs[0], all_valid, d(node.ins.len() - 1)));
                join(r(0), &mut readies);
            }
            Kind::Fifo { slots, transparent } => {
                let full = node.slot.len() >= *slots;
                let empty = node.slot.is_empty();
                let valid = !empty || (*transparent && v(0));
                outs.push((
                    node.outs[0],
                    valid,
                    node.slot.front().copied().unwrap_or_else(|| d(0)),
                ));
                readies.push((node.ins[0], !full || r(0)));
            }
            Kind::Tehb => {
                let full = !node.slot.is_empty();
                outs.push((
                    node.outs[0],
                    full || v(0),
                    node.slot.front().copied().unwrap_or_else(|| d(0)),
                ));
                readies.push((node.ins[0], !full));
            }
            Kind::Dvr => {
                let full = !node.slot.is_empty();
                outs.push((node.outs[0], full, node.slot.front().copied().unwrap_or(0)));
                readies.push((node.ins[0], !full));
            }
            Kind::ShiftReg => {
                let last = node.stages.last().copied().flatten();
                let en = last.is_none() || r(0);
                outs.push((node.outs[0], last.is_some(), last.unwrap_or(0)));
                readies.push((node.ins[0], en));
            }
            Kind::CirctLoad => {
                let valid = v(0) && v(2);
                outs.push((node.outs[1], valid, d(0)));
                readies.push((node.ins[0], valid && r(1)));
                readies.push((node.ins[2], valid && r(1)));
                outs.push((node.outs[0], v(1), d(1)));
                readies.push((node.ins[1], r(0)));
            }
            Kind::CirctStore => {
                outs.push((node.outs[0], all_valid && r(1), d(1)));
                outs.push((node.outs[1], all_valid && r(0), d(0)));
                join(r(0) && r(1), &mut readies);
            }
            Kind::Mem(m) => m.eval(c, &mut outs, &mut readies),
            Kind::Lsq(q) => q.eval(c, &mut outs, &mut readies),
            Kind::Float(_) | Kind::Binary(..) => {
                let value = node.unit_value(d(0), if node.ins.len() == 2 { d(1) } else { 0 });
                if node.stages.is_empty() {
                    outs.push((node.outs[0], all_valid, value));
                    join(r(0), &mut readies);
                } else {
                    let last = node.stages.last().copied().flatten();
                    let en0 = r(0) || node.stages.iter().any(Option::is_none);
                    outs.push((node.outs[0], last.is_some(), last.unwrap_or(0)));
                    join(en0, &mut readies);
                }
            }
        }
        let mut changed = false;
        for (ch, valid, data) in outs {
            let chan = &mut self.chans[ch];
            let data = if valid { data } else { 0 };
            if chan.valid != valid || chan.data != data {
                chan.valid = valid;
                chan.data = data;
                changed = true;
            }
        }
        for (ch, ready) in readies {
            if self.chans[ch].ready != ready {
                self.chans[ch].ready = ready;
                changed = true;
            }
        }
        changed
    }

    /// The clock edge of node `n`, given which channels transfer; returns whether its state
    /// changed.
    fn clock(&mut self, n: usize) -> bool {
        let c = &self.chans;
        let node = &mut self.nodes[n];
        let fired = |ch: usize| c[ch].valid && c[ch].ready;
        let in0 = node.ins.first().copied();
        let out0 = node.outs.first().copied();
        match &mut node.kind {
            Kind::Input(tokens) => {
                if fired(out0.unwrap_or(0)) {
                    tokens.pop_front();
                    return true;
                }
                false
            }
            Kind::Output(count) => {
                if fired(in0.unwrap_or(0)) {
                    *count += 1;
                    return true;
                }
                false
            }
            Kind::Fork | Kind::Sync => {
                let consumed = node.ins.iter().all(|&i| fired(i));
                let before = node.sent.clone();
                if consumed {
                    node.sent.iter_mut().for_each(|s| *s = false);
                } else {
                    for (k, &o) in node.outs.iter().enumerate() {
                        node.sent[k] |= fired(o);
                    }
                }
                before != node.sent
            }
            Kind::Merge => {
                let out = out0.unwrap_or(0);
                let held = (c[out].valid && !c[out].ready).then_some(c[out].data);
                one_slot(&mut node.slot, c[out].ready, held)
            }
            Kind::ControlMerge => {
                let (out, index) = (node.outs[0], node.outs[1]);
                let token = c[out].valid || c[index].valid || !node.slot.is_empty();
                let taken = (node.sent[0] || c[out].ready) && (node.sent[1] || c[index].ready);
                let before = (node.slot.len(), node.sent.clone());
                if token && !taken {
                    if node.slot.is_empty() {
                        node.slot.push_back(c[out].data);
                        node.index.push_back(c[index].data);
                    }
                } else {
                    node.slot.clear();
                    node.index.clear();
                }
                if token && taken {
                    node.sent = vec![false, false];
                } else {
                    node.sent[0] |= fired(out);
                    node.sent[1] |= fired(index);
                }
                before != (node.slot.len(), node.sent.clone())
            }
            Kind::Fifo { transparent, .. } => {
                let (i, o) = (in0.unwrap_or(0), out0.unwrap_or(0));
                let (wr, rd) = (fired(i), fired(o));
                if *transparent && node.slot.is_empty() && wr && rd {
                    return false;
                }
                if rd {
                    node.slot.pop_front();
                }
                if wr {
                    node.slot.push_back(c[i].data);
                }
                wr || rd
            }
            Kind::Tehb => {
                let (i, o) = (in0.unwrap_or(0), out0.unwrap_or(0));
                let held = (c[i].valid && !c[o].ready).then_some(c[i].data);
                one_slot(&mut node.slot, c[o].ready, held)
            }
            Kind::Dvr => {
                let (i, o) = (in0.unwrap_or(0), out0.unwrap_or(0));
                one_slot(&mut node.slot, c[o].ready, c[i].valid.then_some(c[i].data))
            }
            Kind::ShiftReg => {
                let (i, o) = (in0.unwrap_or(0), out0.unwrap_or(0));
                let last = node.stages.last().copied().flatten();
                if last.is_some() && !c[o].ready {
                    return false;
                }
                let incoming = c[i].valid.then_some(c[i].data);
                let before = node.stages.clone();
                node.stages.rotate_right(1);
                node.stages[0] = incoming;
                before != node.stages
            }
            Kind::Float(_) | Kind::Binary(..) if !node.stages.is_empty() => {
                let o = out0.unwrap_or(0);
                let d = |k: usize| c[node.ins[k]].data;
                let entering = node
                    .ins
                    .iter()
                    .all(|&i| fired(i))
                    .then(|| node.unit_value(d(0), if node.ins.len() == 2 { d(1) } else { 0 }));
                let l = node.stages.len();
                let before = node.stages.clone();
                // en[s] = out_ready | !(all valid from s to the end).
                let mut en = vec![false; l];
                let mut all_full = true;
                for s in (0..l).rev() {
                    all_full &= node.stages[s].is_some();
                    en[s] = c[o].ready || !all_full;
                }
                for s in (0..l).rev() {
                    if en[s] {
                        node.stages[s] = if s == 0 { entering } else { node.stages[s - 1] };
                    }
                }
                before != node.stages
            }
            Kind::Mem(m) => m.clock(c),
            Kind::Lsq(q) => q.clock(c),
            _ => false,
        }
    }

    fn run(&mut self, func: &Func, expected: &[usize], max_cycles: u64) -> Verdict {
        let limit_passes = 4 * (self.chans.len() + self.nodes.len()) + 16;
        // The first cycle an input token was taken, and the last an expected output token came.
        let (mut first, mut last): (Option<u64>, u64) = (None, 0);
        for cycle in 0..max_cycles {
            if self.outputs.len() == expected.len()
                && self.outputs.iter().zip(expected).all(|(&n, &e)| self.received(n) >= e)
            {
                return Verdict::Completed { cycles: last.saturating_sub(first.unwrap_or(0)) };
            }
            for chan in &mut self.chans {
                chan.valid = false;
                chan.ready = false;
                chan.data = 0;
            }
            let mut settled = false;
            for _ in 0..limit_passes {
                let mut changed = false;
                for n in 0..self.nodes.len() {
                    changed |= self.eval(n);
                }
                if !changed {
                    settled = true;
                    break;
                }
            }
            if !settled {
                return Verdict::NotModeled {
                    range: func.absolute(func.op().name_range),
                    why: format!(
                        "its handshake wires do not settle in cycle {cycle} (a combinational loop)"
                    ),
                };
            }
            let fired = |net: &Net, ch: usize| net.chans[ch].valid && net.chans[ch].ready;
            if first.is_none()
                && self.nodes.iter().any(|n| {
                    matches!(n.kind, Kind::Input(_)) && n.outs.iter().any(|&o| fired(self, o))
                })
            {
                first = Some(cycle);
            }
            for (k, &n) in self.outputs.iter().enumerate() {
                let wanted = expected.get(k).copied().unwrap_or(0);
                if self.received(n) < wanted && fired(self, self.nodes[n].ins[0]) {
                    last = cycle;
                }
            }
            let mut moved = false;
            for n in 0..self.nodes.len() {
                moved |= self.clock(n);
                let node = &mut self.nodes[n];
                node.peak = node.peak.max(node.slot.len());
            }
            // Progress is a register, an input or an output changing: tokens that only cross
            // wires (a `source` into a `sink`) change nothing, and a token passed straight
            // through a transparent FIFO came from a register or an input.
            if !moved {
                return Verdict::Deadlock(self.deadlock(func, cycle, expected));
            }
        }
        Verdict::Limit { cycles: max_cycles }
    }

    fn received(&self, n: usize) -> usize {
        match self.nodes[n].kind {
            Kind::Output(count) => count,
            _ => 0,
        }
    }

    /// What is stuck at quiescence: a circular wait among the ops whose output is offered and
    /// not taken, with the tokens its slots hold.
    fn deadlock(&self, func: &Func, cycle: u64, expected: &[usize]) -> Deadlock {
        let item = &func.item;
        let name = |ch: usize| match &self.chans[ch].label {
            Some(label) => label.to_string(),
            None => {
                let v = self.chans[ch].value;
                format!(
                    "`{}`",
                    item.values[v as usize].display(item, hsir_analysis::ir::group_len(item, v))
                )
            }
        };
        // Blocked channels: offered and not taken. Edges producer -> consumer.
        let mut producer = vec![usize::MAX; self.chans.len()];
        let mut consumer = vec![usize::MAX; self.chans.len()];
        for (n, node) in self.nodes.iter().enumerate() {
            for &o in &node.outs {
                producer[o] = n;
            }
            for &i in &node.ins {
                consumer[i] = n;
            }
        }
        let blocked: Vec<usize> = (0..self.chans.len())
            .filter(|&ch| self.chans[ch].valid && !self.chans[ch].ready)
            .filter(|&ch| producer[ch] != usize::MAX && consumer[ch] != usize::MAX)
            .collect();
        let as_wait = |ch: usize, offered: bool| {
            let op = |n: usize| self.nodes.get(n).and_then(|n| n.op);
            (self.chans[ch].label.is_none()).then(|| Wait {
                value: self.chans[ch].value,
                producer: op(producer[ch]),
                consumer: op(consumer[ch]),
                offered,
            })
        };
        // A cycle in the graph of blocked channels, by depth-first search.
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); self.nodes.len()];
        for &ch in &blocked {
            succ[producer[ch]].push(ch);
        }
        let circle = find_cycle(&succ, &producer, &consumer);
        let missing: Vec<String> = self
            .outputs
            .iter()
            .zip(expected)
            .enumerate()
            .filter(|(_, (&n, &e))| self.received(n) < e)
            .map(|(k, (&n, &e))| {
                let names = func.result_names();
                let label = names.get(k).cloned().unwrap_or_else(|| format!("out{k}"));
                format!("output `{label}` got {} of {e} tokens", self.received(n))
            })
            .collect();
        if circle.is_none() {
            if let Some(wait) = self.circular_wait(&blocked, &producer, &consumer) {
                let mut names: Vec<String> = wait
                    .iter()
                    .map(|&(ch, offered)| {
                        let n = name(ch);
                        if offered {
                            format!("{n} (offered, not taken)")
                        } else {
                            format!("{n} (awaited, empty)")
                        }
                    })
                    .collect();
                // A value's channels before and after a fork or a buffer's stages, once.
                names.dedup();
                let first_op = wait.first().and_then(|&(ch, offered)| {
                    let n = if offered { producer[ch] } else { consumer[ch] };
                    self.nodes.get(n).and_then(|n| n.op)
                });
                let range =
                    first_op.map_or(func.op().name_range, |op| item.ops[op as usize].name_range);
                let message = format!(
                    "a circular wait, each op waiting for the next to take its token or to give one: {} -> back to the first ({})",
                    names.join(" -> "),
                    missing.join(", ")
                );
                let channels = dedup(wait.iter().map(|&(ch, _)| name(ch)).collect());
                let waits = wait.iter().filter_map(|&(ch, offered)| as_wait(ch, offered)).collect();
                return Deadlock {
                    cycle,
                    tokens: 0,
                    message,
                    range: func.absolute(range),
                    channels,
                    waits,
                };
            }
        }
        let Some(circle) = circle else {
            let mut held = dedup(blocked.iter().map(|&ch| name(ch)).collect());
            let count = held.len();
            held.truncate(6);
            let more = if count > held.len() {
                format!(", ... ({count} channels)")
            } else {
                String::new()
            };
            let message = if held.is_empty() {
                format!("nothing is offered that can be taken ({})", missing.join(", "))
            } else {
                format!(
                    "{}; tokens wait, not taken, on {}{more}",
                    missing.join(", "),
                    held.join(", ")
                )
            };
            return Deadlock {
                cycle,
                tokens: 0,
                message,
                range: func.absolute(func.op().name_range),
                channels: Vec::new(),
                waits: blocked.iter().filter_map(|&ch| as_wait(ch, true)).collect(),
            };
        };
        let mut channels: Vec<String> = Vec::new();
        let mut tokens = 0;
        let mut slots = 0;
        let mut nodes_seen: Vec<usize> = Vec::new();
        // Shown at the op that offers the first channel of the circle.
        let first_op = self.nodes[producer[circle[0]]].op;
        for &ch in &circle {
            channels.push(name(ch));
            let n = consumer[ch];
            if !nodes_seen.contains(&n) {
                nodes_seen.push(n);
                tokens += self.nodes[n].held();
                slots += self.nodes[n].capacity();
            }
        }
        let channels = dedup(channels);
        let mut ring = channels.clone();
        if let Some(first) = channels.first() {
            ring.push(first.clone());
        }
        let plural = |n: usize, what: &str| {
            if n == 1 {
                format!("1 {what}")
            } else {
                format!("{n} {what}s")
            }
        };
        let message = format!(
            "the cycle {} holds {} and has {}, none free to move into ({})",
            ring.join(" -> "),
            plural(tokens, "token"),
            plural(slots, "slot"),
            missing.join(", ")
        );
        let range = first_op.map_or(func.op().name_range, |op| item.ops[op as usize].name_range);
        let waits = circle.iter().filter_map(|&ch| as_wait(ch, true)).collect();
        Deadlock { cycle, tokens: 0, message, range: func.absolute(range), channels, waits }
    }
}

impl Net {
    /// A circular wait through at least one token offered and not taken, when the tokens alone
    /// make no circle: an op holding a token waits for its consumer to take it, and an op missing
    /// an input waits for that input's producer (a merge waits for none in particular; a mux
    /// for its select, then the selected input). The shortest such circle, as (channel, whether
    /// it is a token offered and not taken) in the order of waiting.
    fn circular_wait(
        &self,
        blocked: &[usize],
        producer: &[usize],
        consumer: &[usize],
    ) -> Option<Vec<(usize, bool)>> {
        let c = &self.chans;
        // Edges node -> node, each through one channel.
        let mut succ: Vec<Vec<(usize, usize, bool)>> = vec![Vec::new(); self.nodes.len()];
        for &ch in blocked {
            succ[producer[ch]].push((consumer[ch], ch, true));
        }
        for (n, node) in self.nodes.iter().enumerate() {
            let awaited: Vec<usize> = match node.kind {
                Kind::Merge | Kind::ControlMerge | Kind::Source | Kind::Input(_) => Vec::new(),
                Kind::Mux => {
                    let sel = node.ins[0];
                    if !c[sel].valid {
                        vec![sel]
                    } else {
                        node.ins.get(1 + c[sel].data as usize).copied().into_iter().collect()
                    }
                }
                _ => node.ins.clone(),
            };
            for ch in awaited {
                if !c[ch].valid && producer[ch] != usize::MAX {
                    succ[n].push((producer[ch], ch, false));
                }
            }
        }
        let mut best: Option<Vec<(usize, bool)>> = None;
        for &start in blocked {
            let (from, to) = (consumer[start], producer[start]);
            // Breadth-first from the consumer back to the producer.
            let mut prev: Vec<Option<(usize, usize, bool)>> = vec![None; self.nodes.len()];
            let mut seen = vec![false; self.nodes.len()];
            let mut queue = VecDeque::from([from]);
            seen[from] = true;
            while let Some(n) = queue.pop_front() {
                if n == to {
                    break;
                }
                for &(m, ch, offered) in &succ[n] {
                    if !seen[m] {
                        seen[m] = true;
                        prev[m] = Some((n, ch, offered));
                        queue.push_back(m);
                    }
                }
            }
            if !seen[to] {
                continue;
            }
            let mut path = vec![(start, true)];
            let mut at = to;
            let mut back = Vec::new();
            while at != from {
                let Some((p, ch, offered)) = prev[at] else { break };
                back.push((ch, offered));
                at = p;
            }
            back.reverse();
            path.extend(back);
            if best.as_ref().is_none_or(|b| path.len() < b.len()) {
                best = Some(path);
            }
        }
        best
    }
}

/// Consecutive repeats removed (a value's channels before and after an added fork, a buffer's
/// inner stages).
fn dedup(mut names: Vec<String>) -> Vec<String> {
    names.dedup();
    if names.len() > 1 && names.first() == names.last() {
        names.pop();
    }
    names
}

/// A cycle of channels in the graph whose edges are `succ[node]` (channels leaving it); the
/// channels in order, starting from the lowest node on it.
fn find_cycle(succ: &[Vec<usize>], producer: &[usize], consumer: &[usize]) -> Option<Vec<usize>> {
    let n = succ.len();
    // 0 unvisited, 1 on the stack, 2 done.
    let mut state = vec![0u8; n];
    for root in 0..n {
        if state[root] != 0 || succ[root].is_empty() {
            continue;
        }
        let mut path: Vec<usize> = Vec::new(); // channels taken
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(top) = stack.last_mut() {
            let node = top.0;
            if let Some(&ch) = succ[node].get(top.1) {
                top.1 += 1;
                let to = consumer[ch];
                match state[to] {
                    0 => {
                        state[to] = 1;
                        path.push(ch);
                        stack.push((to, 0));
                    }
                    1 => {
                        // The cycle: from where `to` was entered on the path, to `ch`.
                        let start =
                            path.iter().position(|&c| producer[c] == to).unwrap_or(path.len());
                        let mut cycle: Vec<usize> = path[start..].to_vec();
                        cycle.push(ch);
                        return Some(cycle);
                    }
                    _ => {}
                }
            } else {
                state[node] = 2;
                stack.pop();
                path.pop();
            }
        }
    }
    None
}
