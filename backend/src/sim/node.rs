//! The ops of the interpreter and one step of each: what it needs to fire, what it consumes and
//! what it produces, as the component library's module for it does (backend/rtl/README.md).
//!
//! Every token carries a vector clock: the steps it causally depends on, counted per merge and
//! per memory port (the only places where an order could come from timing). A step's clock is
//! the join of its consumed tokens' clocks and its part's previous step (an op's steps, or a
//! memory port's, happen one after another in hardware too). A merge whose token does not
//! depend on its previous choice of another input, or two accesses to one address with no
//! causal order between them, could go either way with other latencies: a race.

use hsir_analysis::ir::OpId;

use super::arith::{self, BinaryOp, Predicate, UnaryOp};
use super::build::{Channel, Memory};

/// Step counts per merge and memory port; missing components are 0.
pub(crate) type Clock = Vec<u32>;

/// A token: its data and its causal history.
#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub value: u64,
    pub clock: Clock,
    /// When it was made, in the order of the run: a merge holding tokens on several inputs
    /// passes the oldest, as hardware does when the tokens' paths to it have no buffering.
    pub seq: u64,
}

thread_local! {
    static SEQ: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

impl Token {
    pub(crate) fn new(value: u64, clock: Clock) -> Token {
        let seq = SEQ.with(|s| {
            let n = s.get() + 1;
            s.set(n);
            n
        });
        Token { value, clock, seq }
    }
}

/// Which steps a call may take: order-independent ones first, then the deferred ones (merges
/// choosing between inputs, a `mem_controller` ending).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    Eager,
    Deferred,
}

/// One op of the elaborated circuit. `inputs` and `outputs` are channel indices, in operand and
/// result order (a memory interface's memref operand left out).
#[derive(Debug)]
pub(crate) struct Node {
    /// The context (function instance) the op belongs to.
    pub ctx: usize,
    pub op: OpId,
    pub kind: Kind,
    pub inputs: Vec<usize>,
    pub outputs: Vec<usize>,
    /// Fed by sources alone: fires only while every output channel is empty.
    pub source_driven: bool,
    /// The clock of each part's last step (parts: a `load`'s request and response, each port
    /// of a memory, each operand of a terminator; one part otherwise).
    pub parts: Vec<Clock>,
}

#[derive(Debug)]
pub(crate) enum Kind {
    /// `fork`, `lazy_fork`: one token to every output.
    Fork,
    /// A control token once every input has one.
    Join,
    /// CIRCT's `sync`: one token from every input, each passed to its output.
    Sync,
    /// `merge`, `control_merge` (with the chosen index as a second output). Deferred.
    Merge(Merge),
    /// Input 0 selects among the others.
    Mux,
    /// `br`, `buffer`: the token passes.
    Pass,
    CondBr,
    Sink,
    /// A control token whenever its output is empty.
    Source,
    /// Each ctrl token becomes the value; with no ctrl operand (`arith.constant`), a source of
    /// the value.
    Constant(u64),
    Binary {
        op: BinaryOp,
        width: u32,
    },
    Compare {
        pred: Predicate,
        width: u32,
    },
    Unary {
        op: UnaryOp,
        from: u32,
        to: u32,
    },
    /// A float op (`crate::float`): its one or two operands to one result.
    Float(crate::float::FloatUnit),
    /// Condition, true value, false value.
    Select,
    /// Joins every operand; passes the last one's data.
    Wait,
    Load(Access),
    Store(Access),
    Memory(MemoryNode),
    /// Dynamatic's `lsq`, in order (`sim/lsq.rs`).
    Lsq(Box<super::lsq::Lsq>),
    Stream(Stream),
    /// LOOM's `dataflow.gate`: value, cond -> value, after_cond.
    Gate {
        held: Option<u64>,
    },
    /// LOOM's `dataflow.carry`: cond, init, next -> out.
    Carry {
        running: bool,
    },
    /// LOOM's `dataflow.invariant`: cond, value -> out.
    Invariant {
        kept: Option<u64>,
    },
    /// Input `i` passes to output `i`, each on its own; to the function's results when
    /// `results` (the top function's terminator). The last `done` inputs are Dynamatic 2024's
    /// memory done tokens after `end`'s results: every one must be offered for a result to
    /// pass, and none is taken (they stay offered while their memory is idle).
    Each {
        results: bool,
        done: usize,
    },
    /// `unbundle`: each token becomes a control token and its signals, output `i` taking the
    /// bits from `offsets[i]` (the data in the low bits, then each extra signal).
    Split {
        offsets: Vec<u32>,
    },
    /// `bundle`: a control token and one token of each signal become one token, input `i`
    /// placed at `offsets[i]`.
    Concat {
        offsets: Vec<u32>,
    },
}

#[derive(Debug)]
pub(crate) struct Merge {
    /// The clock component counting this merge's steps.
    pub component: usize,
    /// The step that last took a token from each input (0: none yet).
    pub last: Vec<u32>,
}

/// Where a `load` / `store`'s parts are among its inputs and outputs.
#[derive(Debug)]
pub(crate) struct Access {
    pub addr_in: Vec<usize>,
    pub data_in: usize,
    pub ctrl_in: Option<usize>,
    pub addr_out: Vec<usize>,
    pub data_out: usize,
}

#[derive(Debug)]
pub(crate) struct StorePort {
    pub data_in: usize,
    pub addr_in: usize,
    pub done_out: Option<usize>,
    pub component: usize,
}

#[derive(Debug)]
pub(crate) struct LoadPort {
    pub addr_in: usize,
    pub data_out: usize,
    pub done_out: Option<usize>,
    pub component: usize,
}

/// `mem_controller`'s completion: `memStart`, `ctrlEnd` in, `memEnd` out. Dynamatic 2024's has
/// neither input: its done token is offered while no announced store is pending (`steady`).
#[derive(Debug)]
pub(crate) struct Completion {
    pub start_in: Option<usize>,
    pub end_in: Option<usize>,
    pub end_out: usize,
    /// Stores announced by store-count tokens minus stores written.
    pub pending: i64,
}

impl Completion {
    /// A done token offered while the memory is idle rather than sent once per `ctrlEnd`.
    pub fn steady(&self) -> bool {
        self.start_in.is_none() && self.end_in.is_none()
    }
}

#[derive(Debug)]
pub(crate) struct MemoryNode {
    pub memory: usize,
    pub stores: Vec<StorePort>,
    pub loads: Vec<LoadPort>,
    pub counts: Vec<usize>,
    pub completion: Option<Completion>,
    /// The load port and store port an `lsq [MC]` feeds: served in the order the LSQ sent their
    /// tokens, as one process (one part, one clock component), so its loads see its stores.
    pub lsq: Option<(usize, usize)>,
}

#[derive(Debug)]
pub(crate) struct Stream {
    pub step_op: String,
    pub cond: String,
    pub width: u32,
    /// Mid-loop: the next index, the step and the bound.
    pub state: Option<(u64, u64, u64)>,
}

/// Something timing-dependent a step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Event {
    /// Took a token from `inputs[0]` while, or although, one on `inputs[1]` was not ordered
    /// after its earlier choice.
    Merge { inputs: Vec<usize> },
    /// An access to `address` not ordered with an earlier one (a store, or two stores).
    Memory { address: u64, stores: bool },
    /// An LSQ allocated the first of these groups while the others' tokens waited too.
    Allocation { groups: Vec<usize> },
}

impl Kind {
    /// Whether the op has steps for the deferred phase.
    pub fn has_deferred(&self) -> bool {
        match self {
            Kind::Merge(_) => true,
            Kind::Memory(m) => m.completion.is_some(),
            Kind::Lsq(_) => true,
            _ => false,
        }
    }
}

/// The channels one op reads and writes in a step, and the step's causal history.
pub(super) struct Io<'a> {
    pub(super) channels: &'a mut [Channel],
    pub(super) inputs: &'a [usize],
    outputs: &'a [usize],
    parts: &'a mut Vec<Clock>,
    pub(super) part: usize,
    /// The consumed tokens' clocks joined; once settled, the part's too.
    pub(super) clock: Clock,
    settled: bool,
}

impl Io<'_> {
    pub(super) fn has(&self, i: usize) -> bool {
        !self.channels[self.inputs[i]].tokens.is_empty()
    }

    fn all(&self) -> bool {
        (0..self.inputs.len()).all(|i| self.has(i))
    }

    pub(super) fn head_seq(&self, i: usize) -> u64 {
        self.channels[self.inputs[i]].tokens.front().map_or(u64::MAX, |t| t.seq)
    }

    fn peek(&self, i: usize) -> u64 {
        self.channels[self.inputs[i]].tokens.front().map_or(0, |t| t.value)
    }

    pub(super) fn pop(&mut self, i: usize) -> u64 {
        let Some(token) = self.channels[self.inputs[i]].tokens.pop_front() else { return 0 };
        join(&mut self.clock, &token.clock);
        token.value
    }

    /// Ends the step's consumption: its clock becomes the consumed tokens' joined with the
    /// part's previous step.
    pub(super) fn settle(&mut self) -> &mut Clock {
        if !self.settled {
            self.settled = true;
            if self.parts.len() <= self.part {
                self.parts.resize(self.part + 1, Clock::new());
            }
            join(&mut self.clock, &self.parts[self.part]);
        }
        &mut self.clock
    }

    /// Counts a step of the process `c` (a merge, a memory port); returns its number.
    pub(super) fn tick(&mut self, c: usize) -> u32 {
        let clock = self.settle();
        if clock.len() <= c {
            clock.resize(c + 1, 0);
        }
        clock[c] += 1;
        clock[c]
    }

    /// Whether output `o` holds a token.
    pub(super) fn offered(&self, o: usize) -> bool {
        !self.channels[self.outputs[o]].tokens.is_empty()
    }

    /// Takes back the token output `o` offers, if any (a steady done token whose memory is
    /// busy again).
    pub(super) fn retract(&mut self, o: usize) {
        self.channels[self.outputs[o]].tokens.pop_back();
    }

    pub(super) fn push(&mut self, o: usize, value: u64) {
        let clock = self.settle().clone();
        let channel = &mut self.channels[self.outputs[o]];
        channel.tokens.push_back(Token::new(value & channel.mask, clock));
    }
}

/// Joins `other` into `clock`, component by component.
pub(super) fn join(clock: &mut Clock, other: &Clock) {
    if clock.len() < other.len() {
        clock.resize(other.len(), 0);
    }
    for (c, &o) in clock.iter_mut().zip(other) {
        *c = (*c).max(o);
    }
}

fn component(clock: &Clock, c: usize) -> u32 {
    clock.get(c).copied().unwrap_or(0)
}

/// Takes one step of `node` if it can: `None` when it cannot, else the timing-dependent event
/// the step was, if any.
pub(crate) fn fire(
    node: &mut Node,
    channels: &mut [Channel],
    memories: &mut [Memory],
    results: &mut [Vec<u64>],
    phase: Phase,
) -> Option<Option<Event>> {
    let Node { kind, inputs, outputs, parts, .. } = node;
    let mut io =
        Io { channels, inputs, outputs, parts, part: 0, clock: Clock::new(), settled: false };
    let outcome = step(kind, &mut io, memories, results, phase);
    if outcome.is_some() {
        let clock = io.settle().clone();
        io.parts[io.part] = clock;
    }
    outcome
}

fn step(
    kind: &mut Kind,
    io: &mut Io<'_>,
    memories: &mut [Memory],
    results: &mut [Vec<u64>],
    phase: Phase,
) -> Option<Option<Event>> {
    if phase == Phase::Deferred {
        return match kind {
            Kind::Merge(state) => merge(io, state),
            Kind::Memory(memory) => complete(io, memory).then_some(None),
            Kind::Lsq(lsq) => lsq.deferred(io),
            _ => None,
        };
    }
    let fired = match kind {
        Kind::Merge(_) => false,
        Kind::Fork => {
            io.has(0) && {
                let v = io.pop(0);
                for o in 0..io.outputs.len() {
                    io.push(o, v);
                }
                true
            }
        }
        Kind::Join => {
            io.all() && {
                for i in 0..io.inputs.len() {
                    io.pop(i);
                }
                io.push(0, 0);
                true
            }
        }
        Kind::Sync => {
            io.all() && {
                let values: Vec<u64> = (0..io.inputs.len()).map(|i| io.pop(i)).collect();
                for (o, v) in values.into_iter().enumerate() {
                    io.push(o, v);
                }
                true
            }
        }
        Kind::Mux => {
            let chosen = (io.peek(0) as usize).saturating_add(1);
            // A select beyond the inputs never finds its data: the mux waits, as the
            // hardware's never-valid output does.
            io.has(0) && chosen < io.inputs.len() && io.has(chosen) && {
                io.pop(0);
                let v = io.pop(chosen);
                io.push(0, v);
                true
            }
        }
        Kind::Split { offsets } => {
            io.has(0) && {
                let v = io.pop(0);
                for (o, &offset) in offsets.iter().enumerate() {
                    io.push(o, if offset >= 64 { 0 } else { v >> offset });
                }
                true
            }
        }
        Kind::Concat { offsets } => {
            io.all() && {
                let mut v = 0u64;
                for (i, &offset) in offsets.iter().enumerate() {
                    let part = io.pop(i);
                    if offset < 64 {
                        v |= part << offset;
                    }
                }
                io.push(0, v);
                true
            }
        }
        Kind::Pass => {
            io.has(0) && {
                let v = io.pop(0);
                io.push(0, v);
                true
            }
        }
        Kind::CondBr => {
            io.all() && {
                let cond = io.pop(0) & 1;
                let v = io.pop(1);
                io.push(if cond == 1 { 0 } else { 1 }, v);
                true
            }
        }
        Kind::Sink => {
            io.has(0) && {
                io.pop(0);
                true
            }
        }
        Kind::Source => {
            io.push(0, 0);
            true
        }
        Kind::Constant(value) => {
            if io.inputs.is_empty() {
                io.push(0, *value);
                true
            } else {
                io.has(0) && {
                    io.pop(0);
                    io.push(0, *value);
                    true
                }
            }
        }
        Kind::Binary { op, width } => {
            io.all() && {
                let (a, b) = (io.pop(0), io.pop(1));
                io.push(0, arith::binary(*op, *width, a, b));
                true
            }
        }
        Kind::Compare { pred, width } => {
            io.all() && {
                let (a, b) = (io.pop(0), io.pop(1));
                io.push(0, arith::compare(*pred, *width, a, b) as u64);
                true
            }
        }
        Kind::Unary { op, from, to } => {
            io.has(0) && {
                let v = io.pop(0);
                io.push(0, arith::unary(*op, *from, *to, v));
                true
            }
        }
        Kind::Float(unit) => {
            io.all() && {
                let a = io.pop(0);
                let b = if unit.op.is_binary() { io.pop(1) } else { 0 };
                io.push(0, super::float::apply(unit, a, b));
                true
            }
        }
        Kind::Select => {
            io.all() && {
                let cond = io.pop(0) & 1;
                let (t, f) = (io.pop(1), io.pop(2));
                io.push(0, if cond == 1 { t } else { f });
                true
            }
        }
        Kind::Wait => {
            io.all() && {
                let mut last = 0;
                for i in 0..io.inputs.len() {
                    last = io.pop(i);
                }
                io.push(0, last);
                true
            }
        }
        Kind::Load(access) => load(io, access),
        Kind::Store(access) => store(io, access),
        Kind::Memory(memory) => {
            let storage = &mut memories[memory.memory];
            return port(io, memory, storage);
        }
        Kind::Lsq(lsq) => {
            let storage = lsq.memory.map(|m| &mut memories[m]);
            return lsq.step(io, storage);
        }
        Kind::Stream(state) => stream(io, state),
        Kind::Gate { held } => {
            io.all() && {
                let v = io.pop(0);
                let cond = io.pop(1) & 1;
                if let Some(previous) = held.take() {
                    io.push(0, previous);
                    io.push(1, cond);
                }
                if cond == 1 {
                    *held = Some(v);
                }
                true
            }
        }
        Kind::Carry { running } => {
            if !*running {
                io.has(1) && {
                    let v = io.pop(1);
                    io.push(0, v);
                    *running = true;
                    true
                }
            } else if !io.has(0) {
                false
            } else if io.peek(0) & 1 == 1 {
                // The true condition and the next value are taken together.
                io.has(2) && {
                    io.pop(0);
                    let v = io.pop(2);
                    io.push(0, v);
                    true
                }
            } else {
                io.pop(0);
                *running = false;
                true
            }
        }
        Kind::Invariant { kept } => match *kept {
            None => {
                io.has(1) && {
                    let v = io.pop(1);
                    io.push(0, v);
                    *kept = Some(v);
                    true
                }
            }
            Some(v) => {
                io.has(0) && {
                    if io.pop(0) & 1 == 1 {
                        io.push(0, v);
                    } else {
                        *kept = None;
                    }
                    true
                }
            }
        },
        Kind::Each { results: to_results, done } => {
            let returned = io.inputs.len() - *done;
            if (returned..io.inputs.len()).any(|i| !io.has(i)) {
                return None;
            }
            let i = (0..returned).find(|&i| io.has(i))?;
            io.part = i;
            let v = io.pop(i);
            if *to_results {
                results[i].push(v);
            } else {
                io.push(i, v);
            }
            true
        }
    };
    fired.then_some(None)
}

/// The oldest token among the inputs passes (the lowest input among equals). A race when
/// another input holds one too, or when the token does not depend on the merge's last choice of
/// another input (with other latencies it could have come first).
fn merge(io: &mut Io<'_>, state: &mut Merge) -> Option<Option<Event>> {
    let holding: Vec<usize> = (0..io.inputs.len()).filter(|&i| io.has(i)).collect();
    let &chosen = holding.iter().min_by_key(|&&i| io.head_seq(i))?;
    let v = io.pop(chosen);
    let after = component(&io.clock, state.component);
    let unordered = (0..state.last.len())
        .filter(|&j| j != chosen && state.last[j] > after)
        .max_by_key(|&j| state.last[j]);
    let tick = io.tick(state.component);
    state.last[chosen] = tick;
    io.push(0, v);
    if io.outputs.len() > 1 {
        io.push(1, chosen as u64);
    }
    let event = if holding.len() > 1 {
        Some(Event::Merge { inputs: holding })
    } else {
        unordered.map(|j| Event::Merge { inputs: vec![chosen, j] })
    };
    Some(event)
}

/// A `load`'s request (addresses and ctrl joined, addresses sent to memory) or response (the
/// word from memory passed on), whichever can go; the request first. The two are independent
/// parts.
fn load(io: &mut Io<'_>, access: &Access) -> bool {
    let request = access.addr_in.iter().chain(&access.ctrl_in).all(|&i| io.has(i));
    if request {
        if let Some(ctrl) = access.ctrl_in {
            io.pop(ctrl);
        }
        let addresses: Vec<u64> = access.addr_in.iter().map(|&i| io.pop(i)).collect();
        for (k, v) in addresses.into_iter().enumerate() {
            io.push(access.addr_out[k], v);
        }
        return true;
    }
    io.has(access.data_in) && {
        io.part = 1;
        let v = io.pop(access.data_in);
        io.push(access.data_out, v);
        true
    }
}

/// A `store`: addresses, data and ctrl joined; data and addresses sent to memory together.
fn store(io: &mut Io<'_>, access: &Access) -> bool {
    let ready =
        access.addr_in.iter().chain(&access.ctrl_in).all(|&i| io.has(i)) && io.has(access.data_in);
    ready && {
        if let Some(ctrl) = access.ctrl_in {
            io.pop(ctrl);
        }
        let data = io.pop(access.data_in);
        let addresses: Vec<u64> = access.addr_in.iter().map(|&i| io.pop(i)).collect();
        io.push(access.data_out, data);
        for (k, v) in addresses.into_iter().enumerate() {
            io.push(access.addr_out[k], v);
        }
        true
    }
}

/// One port of a memory interface: a store-count token, else a store, else a load. Parts: the
/// count channels, then the store ports, then the load ports, then the completion.
fn port(io: &mut Io<'_>, node: &mut MemoryNode, memory: &mut Memory) -> Option<Option<Event>> {
    if let Some(k) = (0..node.counts.len()).find(|&k| io.has(node.counts[k])) {
        io.part = k;
        let count = io.pop(node.counts[k]);
        if let Some(completion) = &mut node.completion {
            completion.pending += count as i64;
            withdraw(io, completion);
        }
        return Some(None);
    }
    let parts = node.counts.len();
    // The LSQ's load waits for its older store, and the other way round.
    let lsq_first = |io: &Io<'_>, load: bool| {
        node.lsq.is_none_or(|(l, s)| {
            let (load_seq, store_seq) =
                (io.head_seq(node.loads[l].addr_in), io.head_seq(node.stores[s].addr_in));
            if load {
                load_seq < store_seq
            } else {
                store_seq < load_seq
            }
        })
    };
    let lsq_store = node.lsq.map(|(_, s)| s);
    let lsq_load = node.lsq.map(|(l, _)| l);
    if let Some(k) = node.stores.iter().enumerate().position(|(k, p)| {
        io.has(p.data_in) && io.has(p.addr_in) && (Some(k) != lsq_store || lsq_first(io, false))
    }) {
        let port = &node.stores[k];
        io.part = parts + k;
        let data = io.pop(port.data_in);
        let address = io.pop(port.addr_in);
        let tick = io.tick(port.component);
        let race = memory.store(address, data, &io.clock, (port.component, tick));
        if let Some(done) = port.done_out {
            io.push(done, 0);
        }
        if let Some(completion) = &mut node.completion {
            completion.pending -= 1;
            withdraw(io, completion);
        }
        return Some(race);
    }
    let parts = parts + node.stores.len();
    if let Some(k) = node
        .loads
        .iter()
        .enumerate()
        .position(|(k, p)| io.has(p.addr_in) && (Some(k) != lsq_load || lsq_first(io, true)))
    {
        let port = &node.loads[k];
        io.part = match (lsq_load, lsq_store) {
            (Some(l), Some(s)) if l == k => parts - node.stores.len() + s,
            _ => parts + k,
        };
        let address = io.pop(port.addr_in);
        let tick = io.tick(port.component);
        let (value, race) = memory.load(address, &io.clock, (port.component, tick));
        io.push(port.data_out, value);
        if let Some(done) = port.done_out {
            io.push(done, 0);
        }
        return Some(race);
    }
    None
}

/// A steady done token is not offered while stores are pending.
fn withdraw(io: &mut Io<'_>, completion: &Completion) {
    if completion.steady() && completion.pending != 0 && io.offered(completion.end_out) {
        io.retract(completion.end_out);
    }
}

/// `mem_controller`'s end: `memStart` and `ctrlEnd` arrived and every announced store written;
/// for a steady done token, every announced store written and no token offered yet.
fn complete(io: &mut Io<'_>, node: &mut MemoryNode) -> bool {
    let Some(c) = &node.completion else { return false };
    let inputs = [c.start_in, c.end_in];
    let ready = c.pending == 0
        && inputs.iter().flatten().all(|&i| io.has(i))
        && !(c.steady() && io.offered(c.end_out));
    ready && {
        io.part = node.counts.len() + node.stores.len() + node.loads.len();
        for i in inputs.into_iter().flatten() {
            io.pop(i);
        }
        io.push(c.end_out, 0);
        true
    }
}

/// One index of a LOOM stream: on entry (start, step, bound taken) the first; then one per step
/// until the condition fails, that index going out with `cont = 0`.
fn stream(io: &mut Io<'_>, stream: &mut Stream) -> bool {
    let (idx, step, bound) = match stream.state {
        Some(state) => state,
        None if io.all() => (io.pop(0), io.pop(1), io.pop(2)),
        None => return false,
    };
    let width = stream.width;
    let cont = arith::continues(&stream.cond, width, idx, bound).unwrap_or(false);
    io.push(0, idx);
    io.push(1, cont as u64);
    stream.state = if cont {
        arith::step(&stream.step_op, width, idx, step).map(|next| (next, step, bound))
    } else {
        None
    };
    true
}

/// Whether the access stamped `(component, tick)` is ordered before a step with `clock`.
pub(crate) fn before(access: (usize, u32), clock: &Clock) -> bool {
    component(clock, access.0) >= access.1
}
