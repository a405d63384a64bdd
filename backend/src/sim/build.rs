//! Elaboration: from a function of a `Program` to the interpreter's circuit of channels and
//! nodes, instances expanded inline.

use std::collections::BTreeMap;

use hsir_analysis::ir::{Container, Def, Item, OpData, OpId, ValueId};
use hsir_analysis::ops::OpKind;
use hsir_analysis::signatures::Style;
use hsir_analysis::types::Type;
use hsir_analysis::TextRange;

use super::arith::{BinaryOp, Predicate, UnaryOp};
use super::node::{
    self, Access, Clock, Completion, Event, Kind, LoadPort, MemoryNode, Merge, Node, Phase,
    StorePort, Stream, Token,
};
use super::{Fifo, Inputs, RaceKind, SimError, Site, MAX_INSTANCE_DEPTH, MAX_MEMORY_WORDS};
use crate::memories::{self, InterfaceKind, MemoryKind, Port};
use crate::program::{init_values, mask, parse_integer, scalar_width, Func, Program};

/// One channel: a FIFO with its width, the nodes at its ends, and where it comes from.
#[derive(Debug)]
pub(crate) struct Channel {
    pub tokens: Fifo,
    pub mask: u64,
    pub producer: Option<usize>,
    pub consumer: Option<usize>,
    /// The context and value that define it.
    pub origin: (usize, ValueId),
    /// The op operand that reads it: context, op, operand position.
    pub reader: Option<(usize, OpId, usize)>,
    /// Produced by a source-fed node: its token is always there in hardware.
    pub infinite: bool,
    /// An argument of the top function, or computed from arguments (and sources) alone, as a
    /// start constant is: it carries tokens once per invocation.
    pub once: bool,
}

/// One memory's words, and who accessed each address last.
#[derive(Debug)]
pub(crate) struct Memory {
    pub name: String,
    pub mask: u64,
    pub words: Vec<u64>,
    history: BTreeMap<u64, Accesses>,
}

/// The accesses to one address since (and including) its last store, each stamped with its
/// port's clock component and step number.
#[derive(Debug, Default)]
struct Accesses {
    store: Option<(usize, u32)>,
    loads: Vec<(usize, u32)>,
}

impl Memory {
    /// The word at `address`; 0 beyond the memory, as in the library.
    pub fn read(&self, address: u64) -> u64 {
        usize::try_from(address).ok().and_then(|a| self.words.get(a)).copied().unwrap_or(0)
    }

    /// A store stamped `stamp`, happening after what `clock` says: a race if the address's
    /// last store or a load since is not ordered before it. Nothing is written beyond the
    /// memory.
    pub fn store(
        &mut self,
        address: u64,
        value: u64,
        clock: &Clock,
        stamp: (usize, u32),
    ) -> Option<Event> {
        let accesses = self.history.entry(address).or_default();
        let race = if accesses.store.is_some_and(|s| !node::before(s, clock)) {
            Some(Event::Memory { address, stores: true })
        } else if accesses.loads.iter().any(|&l| !node::before(l, clock)) {
            Some(Event::Memory { address, stores: false })
        } else {
            None
        };
        accesses.store = Some(stamp);
        accesses.loads.clear();
        if let Some(word) = usize::try_from(address).ok().and_then(|a| self.words.get_mut(a)) {
            *word = value & self.mask;
        }
        race
    }

    /// A load stamped `stamp`: the word, and a race if the address's last store is not ordered
    /// before it.
    pub fn load(
        &mut self,
        address: u64,
        clock: &Clock,
        stamp: (usize, u32),
    ) -> (u64, Option<Event>) {
        let accesses = self.history.entry(address).or_default();
        let race = accesses
            .store
            .is_some_and(|s| !node::before(s, clock))
            .then_some(Event::Memory { address, stores: false });
        accesses.loads.push(stamp);
        (self.read(address), race)
    }
}

/// One elaborated function: the top one, or the body of an instance.
#[derive(Debug)]
pub(crate) struct Context {
    /// Index into `Program::funcs`.
    pub func: usize,
    pub site: Site,
    /// Put before messages about it: "" for the top, else which instance.
    pub prefix: String,
}

/// Timing-dependent steps of one node, of one kind.
#[derive(Debug)]
pub(crate) struct RaceRecord {
    pub node: usize,
    pub first: Event,
    pub count: u64,
}

#[derive(Debug, Default)]
pub(crate) struct Network {
    pub channels: Vec<Channel>,
    pub nodes: Vec<Node>,
    pub memories: Vec<Memory>,
    pub contexts: Vec<Context>,
    pub results: Vec<Vec<u64>>,
    pub races: Vec<RaceRecord>,
    /// The top function's terminator, when it sends the function's results.
    pub end_node: Option<usize>,
    /// Tokens given to the top function's start argument (`Func::start_arg`); 0 without one.
    pub invocations: usize,
    /// `end` has sent its results once per invocation: no `mux` may now choose a source-fed
    /// input (`restarting`).
    pub frozen: bool,
}

impl Network {
    /// Takes one step of node `n` in `phase`, if it can.
    pub fn fire(&mut self, n: usize, phase: Phase) -> bool {
        if self.restarting(n) {
            return false;
        }
        let node = &mut self.nodes[n];
        if node.source_driven
            && (node.outputs.is_empty()
                || node.outputs.iter().any(|&c| !self.channels[c].tokens.is_empty()))
        {
            return false;
        }
        let Some(event) =
            node::fire(node, &mut self.channels, &mut self.memories, &mut self.results, phase)
        else {
            return false;
        };
        if let Some(event) = event {
            let same_kind = |r: &&mut RaceRecord| {
                r.node == n && std::mem::discriminant(&r.first) == std::mem::discriminant(&event)
            };
            match self.races.iter_mut().find(same_kind) {
                Some(record) => record.count += 1,
                None => self.races.push(RaceRecord { node: n, first: event, count: 1 }),
            }
        }
        true
    }
}

impl Network {
    /// Whether the top function's `end` has sent every result once per invocation.
    pub fn ended(&self) -> bool {
        self.invocations > 0
            && !self.results.is_empty()
            && self.results.iter().all(|r| r.len() >= self.invocations)
    }

    /// Whether channel `c` is fed by a source-fed op.
    fn source_fed(&self, c: usize) -> bool {
        self.channels[c].producer.is_some_and(|p| self.nodes[p].source_driven)
    }

    /// The input a `mux` node's select token chooses, if it holds one and it names an input.
    fn chosen(&self, node: &Node) -> Option<usize> {
        let select = self.channels[*node.inputs.first()?].tokens.front()?;
        let i = usize::try_from(select.value).ok()?.checked_add(1)?;
        node.inputs.get(i).copied()
    }

    /// Whether node `n` is where the circuit would start again: after `end`, a `mux` whose
    /// select chooses a source-fed input (a loop entered with a source's constant as its start
    /// value: the kernel's outer loop starting over, or an inner loop entered for an outer
    /// iteration that never comes), which it may no longer take, or an input that carries one
    /// token per invocation and has none left (a loop made ready for the next invocation).
    pub fn restarting(&self, n: usize) -> bool {
        let node = &self.nodes[n];
        self.frozen
            && matches!(node.kind, Kind::Mux)
            && self.chosen(node).is_some_and(|c| {
                let channel = &self.channels[c];
                self.source_fed(c) || (channel.once && channel.tokens.is_empty())
            })
    }

    /// Per channel, whether its tokens may be left only because the circuit started again or
    /// was not allowed to: the channel is downstream of a restarting `mux` (its tokens may
    /// belong to a run that started again before `end`), or its consumer is a restarting `mux`,
    /// or waits only for inputs fed by sources or downstream of one (which a new run would
    /// supply). Always false before `end`.
    pub fn awaiting_restart(&self) -> Vec<bool> {
        let mut downstream = vec![false; self.channels.len()];
        if !self.frozen {
            return downstream;
        }
        let mut work: Vec<usize> = (0..self.nodes.len()).filter(|&n| self.restarting(n)).collect();
        let mut seen = vec![false; self.nodes.len()];
        while let Some(n) = work.pop() {
            if std::mem::replace(&mut seen[n], true) {
                continue;
            }
            for &c in &self.nodes[n].outputs {
                downstream[c] = true;
                work.extend(self.channels[c].consumer);
            }
        }
        let empty = |c: usize| self.channels[c].tokens.is_empty();
        let mut waiting = downstream.clone();
        for (n, node) in self.nodes.iter().enumerate() {
            let awaited: Vec<usize> = match node.kind {
                Kind::Merge(_) => continue,
                Kind::Mux => match self.chosen(node) {
                    Some(c) => vec![c],
                    None => vec![node.inputs[0]],
                },
                _ => node.inputs.iter().copied().filter(|&c| empty(c)).collect(),
            };
            let explained = self.restarting(n)
                || (!awaited.is_empty()
                    && awaited.iter().all(|&c| downstream[c] || self.source_fed(c)));
            if explained {
                for &c in &node.inputs {
                    waiting[c] = true;
                }
            }
        }
        waiting
    }
}

impl RaceRecord {
    pub fn kind(&self) -> RaceKind {
        match &self.first {
            Event::Merge { inputs } => RaceKind::Merge { inputs: inputs.clone() },
            Event::Memory { address, stores } => {
                RaceKind::Memory { address: *address, stores: *stores }
            }
            Event::Allocation { groups } => RaceKind::Allocation { groups: groups.clone() },
        }
    }
}

/// What a callee's argument is bound to.
#[derive(Debug, Clone, Copy)]
enum Binding {
    Channel(usize),
    Memory(usize),
}

struct Builder<'p> {
    program: &'p Program,
    net: Network,
    /// Clock components handed out (one per merge and per memory port).
    components: usize,
}

impl Builder<'_> {
    fn component(&mut self) -> usize {
        self.components += 1;
        self.components - 1
    }
}

/// Elaborates `top` with its inputs in place.
pub(crate) fn build(program: &Program, top: &str, inputs: &Inputs) -> Result<Network, SimError> {
    let index = program
        .funcs
        .iter()
        .position(|f| f.name == top && !f.external)
        .ok_or_else(|| SimError::NoFunction(top.to_string()))?;
    let func = &program.funcs[index];
    let args = func.args();
    if inputs.args.len() != args.len() {
        return Err(SimError::Inputs(format!(
            "`@{top}` has {} argument{}, but inputs for {} were given",
            args.len(),
            if args.len() == 1 { "" } else { "s" },
            inputs.args.len()
        )));
    }
    let specs = memories::memories(func);
    for name in inputs.memories.keys() {
        match specs.iter().find(|m| &m.name == name) {
            Some(spec) if matches!(spec.kind, MemoryKind::Argument(_)) => {}
            Some(_) => {
                return Err(SimError::Inputs(format!(
                    "memory `{name}` is internal to `@{top}`; it starts at 0"
                )))
            }
            None => {
                return Err(SimError::Inputs(format!("`@{top}` has no memory `{name}`")));
            }
        }
    }
    let mut builder = Builder { program, net: Network::default(), components: 0 };
    builder.net.contexts.push(Context {
        func: index,
        site: Site { func: func.name.clone(), instances: Vec::new() },
        prefix: String::new(),
    });
    let mut bindings = Vec::with_capacity(args.len());
    for (i, &value) in args.iter().enumerate() {
        if let Some(spec) = specs.iter().find(|m| m.kind == MemoryKind::Argument(i)) {
            if !inputs.args[i].is_empty() {
                return Err(SimError::Inputs(format!(
                    "argument #{i} of `@{top}` is a memory; give its contents by the name `{}`",
                    spec.name
                )));
            }
            let words = inputs.memories.get(&spec.name).map_or(&[][..], |w| w.as_slice());
            if words.len() as u64 > spec.depth {
                return Err(SimError::Inputs(format!(
                    "memory `{}` holds {} words, but {} were given",
                    spec.name,
                    spec.depth,
                    words.len()
                )));
            }
            let memory = builder.memory(func, &spec.name, spec.depth, spec.width, words)?;
            bindings.push(Some(Binding::Memory(memory)));
            continue;
        }
        let channel = builder.channel(0, func, value)?;
        let m = builder.net.channels[channel].mask;
        builder.net.channels[channel].tokens =
            inputs.args[i].iter().map(|&v| Token::new(v & m, Clock::new())).collect();
        builder.net.channels[channel].once = true;
        bindings.push(Some(Binding::Channel(channel)));
    }
    builder.body(0, &bindings, None, "", 0)?;
    builder.mark_source_driven();
    builder.mark_once();
    builder.endless_results(func)?;
    let net = &mut builder.net;
    net.end_node =
        net.nodes.iter().position(|n| matches!(n.kind, Kind::Each { results: true, .. }));
    net.invocations = func.start_arg().map_or(0, |i| inputs.args[i].len());
    Ok(builder.net)
}

fn unsupported(func: &Func, op: &OpData, reason: impl Into<String>) -> SimError {
    SimError::Unsupported {
        func: func.name.clone(),
        op: op.name.to_string(),
        range: op.name_range,
        reason: reason.into(),
    }
}

fn malformed(func: &Func, range: TextRange, message: impl Into<String>) -> SimError {
    SimError::Malformed { func: func.name.clone(), range, message: message.into() }
}

impl<'p> Builder<'p> {
    fn memory(
        &mut self,
        func: &Func,
        name: &str,
        depth: u64,
        width: u32,
        words: &[u64],
    ) -> Result<usize, SimError> {
        if depth > MAX_MEMORY_WORDS {
            return Err(SimError::Unsupported {
                func: func.name.clone(),
                op: func.op().name.to_string(),
                range: func.op().name_range,
                reason: format!(
                    "memory `{name}` has {depth} words; the interpreter holds at most {MAX_MEMORY_WORDS}"
                ),
            });
        }
        let m = mask(width);
        let mut contents: Vec<u64> = words.iter().map(|&w| w & m).collect();
        contents.resize(depth as usize, 0);
        self.net.memories.push(Memory {
            name: name.to_string(),
            mask: m,
            words: contents,
            history: BTreeMap::new(),
        });
        Ok(self.net.memories.len() - 1)
    }

    /// A new channel for `value` of the function of context `ctx`.
    fn channel(&mut self, ctx: usize, func: &Func, value: ValueId) -> Result<usize, SimError> {
        let Some(shape) = func.shape(value) else {
            let data = &func.item.values[value as usize];
            let shown = func.ty(value).map_or("unknown".to_string(), |t| t.to_string());
            let reason = format!(
                "`{}` has type `{shown}`, which has no known width",
                func.item.str(data.name())
            );
            return Err(match data.def {
                Def::Result { op, .. } => unsupported(func, &func.item.ops[op as usize], reason),
                Def::Arg { .. } => SimError::Unsupported {
                    func: func.name.clone(),
                    op: func.op().name.to_string(),
                    range: data.range,
                    reason,
                },
            });
        };
        self.net.channels.push(Channel {
            tokens: Fifo::new(),
            mask: if shape.control { 0 } else { shape.mask() },
            producer: None,
            consumer: None,
            origin: (ctx, value),
            reader: None,
            infinite: false,
            once: false,
        });
        Ok(self.net.channels.len() - 1)
    }

    /// Elaborates the body of context `ctx`'s function: its arguments bound as given, its
    /// terminator feeding `results` (an instance's result channels) or the function's results.
    fn body(
        &mut self,
        ctx: usize,
        bindings: &[Option<Binding>],
        results: Option<&[usize]>,
        memory_prefix: &str,
        depth: usize,
    ) -> Result<(), SimError> {
        let program = self.program;
        let func = &program.funcs[self.net.contexts[ctx].func];
        let item = &func.item;
        let Some(entry) = item.blocks.first() else { return Ok(()) };
        let mut channels: Vec<Option<usize>> = vec![None; item.values.len()];
        let mut memories: Vec<Option<usize>> = vec![None; item.values.len()];
        for (&value, binding) in entry.args.iter().zip(bindings) {
            match binding {
                Some(Binding::Channel(c)) => channels[value as usize] = Some(*c),
                Some(Binding::Memory(m)) => memories[value as usize] = Some(*m),
                None => {}
            }
        }
        // Internal memories, named after the instance path below the top.
        let specs = memories::memories(func);
        let mut internal: Vec<(OpId, usize)> = Vec::new();
        for spec in &specs {
            if let MemoryKind::Internal(op) = spec.kind {
                let name = format!("{memory_prefix}{}", spec.name);
                internal.push((op, self.memory(func, &name, spec.depth, spec.width, &[])?));
            }
        }
        // Ops the interpreter does not model are reported before their result types are.
        for &op in &entry.ops {
            let data = &item.ops[op as usize];
            if let Err(reason) = model_of(data) {
                return Err(unsupported(func, data, reason));
            }
        }
        // A channel for every result of every op, but memrefs.
        for &op in &entry.ops {
            for &value in item.results(&item.ops[op as usize]) {
                let memref = func.ty(value).is_some_and(memref);
                if !memref {
                    channels[value as usize] = Some(self.channel(ctx, func, value)?);
                }
            }
        }
        // A value used more than once gets an eager fork, one unused a sink, as the netlist
        // materializes them (HS5002): each use reads its own channel.
        let mut use_channels: Vec<Option<usize>> = vec![None; item.uses.len()];
        let values: Vec<ValueId> = entry
            .args
            .iter()
            .copied()
            .chain(
                entry
                    .ops
                    .iter()
                    .flat_map(|&op| item.results(&item.ops[op as usize]).iter().copied()),
            )
            .collect();
        for value in values {
            let Some(c) = channels[value as usize] else { continue };
            let uses = item.value_uses(&item.values[value as usize]);
            let at = match item.values[value as usize].def {
                Def::Result { op, .. } => op,
                Def::Arg { .. } => 0,
            };
            match uses.len() {
                1 => use_channels[uses[0] as usize] = Some(c),
                0 => self.node(ctx, func, at, Kind::Sink, vec![c], Vec::new())?,
                _ => {
                    let mut copies = Vec::with_capacity(uses.len());
                    for &u in uses {
                        let copy = self.channel(ctx, func, value)?;
                        use_channels[u as usize] = Some(copy);
                        copies.push(copy);
                    }
                    self.node(ctx, func, at, Kind::Fork, vec![c], copies)?;
                }
            }
        }
        let terminator =
            entry.ops.last().copied().filter(|&op| {
                OpKind::of(&item.ops[op as usize]).is_some_and(OpKind::is_terminator)
            });
        for &id in &entry.ops {
            let op = &item.ops[id as usize];
            if op.broken {
                return Err(malformed(func, op.range, format!("`{}` is not well formed", op.name)));
            }
            if !op.regions.is_empty() {
                return Err(unsupported(func, op, "ops with regions are not dataflow"));
            }
            let operand_value = |i: usize| item.uses[item.operands(op)[i] as usize].value;
            let operand_channel = |i: usize| -> Result<usize, SimError> {
                let use_ = &item.uses[item.operands(op)[i] as usize];
                use_channels[item.operands(op)[i] as usize].ok_or_else(|| {
                    malformed(
                        func,
                        use_.range,
                        format!("`{}` is not a channel", item.str(use_.text())),
                    )
                })
            };
            let result_channel = |i: usize| -> Result<usize, SimError> {
                channels[item.results(op)[i] as usize].ok_or_else(|| {
                    malformed(func, op.name_range, format!("a result of `{}` is a memref", op.name))
                })
            };
            let all_inputs = || -> Result<Vec<usize>, SimError> {
                (0..op.operands.len()).map(operand_channel).collect()
            };
            let all_outputs = || -> Result<Vec<usize>, SimError> {
                (0..op.results.len()).map(result_channel).collect()
            };
            if OpKind::of(op) == Some(OpKind::Instance) {
                let mut args = Vec::with_capacity(op.operands.len());
                for i in 0..op.operands.len() {
                    let value = operand_value(i);
                    args.push(match value.and_then(|v| memories[v as usize]) {
                        Some(m) => Some(Binding::Memory(m)),
                        None => Some(Binding::Channel(operand_channel(i)?)),
                    });
                }
                let outputs: Vec<usize> = all_outputs()?;
                self.instance(ctx, id, &args, &outputs, memory_prefix, depth)?;
                continue;
            }
            let (kind, inputs, outputs) = if Some(id) == terminator {
                // Dynamatic 2024's `end` takes the memories' done tokens after the results.
                let returned = func.terminator_results(op);
                let done = op.operands.len() - returned;
                match results {
                    Some(outs) => {
                        if outs.len() != returned {
                            return Err(malformed(
                                func,
                                op.name_range,
                                format!(
                                    "`{}` returns {returned} values, but the instance binds {}",
                                    op.name,
                                    outs.len()
                                ),
                            ));
                        }
                        (Kind::Each { results: false, done }, all_inputs()?, outs.to_vec())
                    }
                    None => {
                        self.net.results = vec![Vec::new(); returned];
                        (Kind::Each { results: true, done }, all_inputs()?, Vec::new())
                    }
                }
            } else {
                let kind = self.kind(func, id, &memories, &internal)?;
                let (inputs, outputs) = match &kind {
                    // The memref operand is not a channel.
                    Kind::Memory(_) | Kind::Lsq(_) => {
                        let interface = memories::interface(func, id).ok_or_else(|| {
                            malformed(func, op.name_range, "not a memory interface")
                        })?;
                        let mut inputs = Vec::new();
                        for (i, port) in interface.operands.iter().enumerate() {
                            if *port != Port::Memref {
                                inputs.push(operand_channel(i)?);
                            }
                        }
                        (inputs, all_outputs()?)
                    }
                    _ => (all_inputs()?, all_outputs()?),
                };
                (kind, inputs, outputs)
            };
            // A done token that stays offered while the memory is idle (Dynamatic 2024's
            // `mem_controller` and `lsq`) is always there, as a source's token is.
            let steady = match &kind {
                Kind::Memory(memory) => {
                    memory.completion.as_ref().filter(|c| c.steady()).map(|c| outputs[c.end_out])
                }
                Kind::Lsq(lsq) => lsq.steady_done().map(|o| outputs[o]),
                _ => None,
            };
            self.node(ctx, func, id, kind, inputs, outputs)?;
            if let Some(channel) = steady {
                self.net.channels[channel].infinite = true;
            }
        }
        Ok(())
    }

    /// Adds a node and connects it to its channels.
    fn node(
        &mut self,
        ctx: usize,
        func: &Func,
        op: OpId,
        kind: Kind,
        inputs: Vec<usize>,
        outputs: Vec<usize>,
    ) -> Result<(), SimError> {
        let n = self.net.nodes.len();
        let data = &func.item.ops[op as usize];
        // Operand positions of the channels (a memory interface skips its memref operand).
        let positions: Vec<usize> = match &kind {
            Kind::Memory(_) | Kind::Lsq(_) => memories::interface(func, op)
                .map(|i| {
                    i.operands
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| **p != Port::Memref)
                        .map(|(k, _)| k)
                        .collect()
                })
                .unwrap_or_default(),
            _ => (0..inputs.len()).collect(),
        };
        for (k, &c) in inputs.iter().enumerate() {
            let channel = &mut self.net.channels[c];
            if channel.consumer.is_some() {
                let position = positions.get(k).copied().unwrap_or(k);
                let use_ = &func.item.uses[func.item.operands(data)[position] as usize];
                return Err(malformed(
                    func,
                    use_.range,
                    format!(
                        "`{}` is consumed more than once; a channel needs a `{}`",
                        func.item.str(use_.text()),
                        OpKind::Fork.key()
                    ),
                ));
            }
            channel.consumer = Some(n);
            channel.reader = Some((ctx, op, positions.get(k).copied().unwrap_or(k)));
        }
        for &c in &outputs {
            self.net.channels[c].producer = Some(n);
        }
        if let Kind::Pass = kind {
            // CIRCT's `initValues`: stage i holds value i, stage 0 nearest the input, so the
            // last value listed leaves first.
            if let Some(values) = init_values(&func.item, data) {
                let channel = &mut self.net.channels[outputs[0]];
                for v in values.into_iter().rev() {
                    channel.tokens.push_back(Token::new(v & channel.mask, Clock::new()));
                }
            }
        }
        self.net.nodes.push(Node {
            ctx,
            op,
            kind,
            inputs,
            outputs,
            source_driven: false,
            parts: Vec::new(),
        });
        Ok(())
    }

    fn instance(
        &mut self,
        ctx: usize,
        op: OpId,
        args: &[Option<Binding>],
        outputs: &[usize],
        memory_prefix: &str,
        depth: usize,
    ) -> Result<(), SimError> {
        let program = self.program;
        let caller = &program.funcs[self.net.contexts[ctx].func];
        let data = &caller.item.ops[op as usize];
        let symbol = data.symbol.map(|s| caller.item.str(s).trim_start_matches('@').to_string());
        let Some(&index) = symbol.as_ref().and_then(|s| caller.callees.get(s.trim_matches('"')))
        else {
            return Err(unsupported(
                caller,
                data,
                format!("its callee is not a `{}` of this file", OpKind::Func.full_name()),
            ));
        };
        let callee = &program.funcs[index];
        if callee.external {
            return Err(unsupported(
                caller,
                data,
                format!("`@{}` is a declaration; there is no body to run", callee.name),
            ));
        }
        if depth >= MAX_INSTANCE_DEPTH {
            return Err(SimError::TooDeep { func: caller.name.clone(), range: data.name_range });
        }
        if callee.args().len() != args.len() {
            return Err(malformed(
                caller,
                data.name_range,
                format!(
                    "`@{}` takes {} arguments, {} given",
                    callee.name,
                    callee.args().len(),
                    args.len()
                ),
            ));
        }
        let parent = &self.net.contexts[ctx];
        let mut instances = parent.site.instances.clone();
        instances.push(op);
        let label = caller
            .item
            .results(data)
            .first()
            .map(|&v| caller.item.str(caller.item.values[v as usize].name()).to_string())
            .unwrap_or_else(|| data.name.to_string());
        let prefix = format!(
            "{}in `@{}` (instance `{label}` in `@{}`): ",
            parent.prefix, callee.name, caller.name
        );
        self.net.contexts.push(Context {
            func: index,
            site: Site { func: callee.name.clone(), instances },
            prefix,
        });
        let inner = self.net.contexts.len() - 1;
        let memory_prefix = format!("{memory_prefix}inst{op}.");
        self.body(inner, args, Some(outputs), &memory_prefix, depth + 1)
    }

    /// The node kind of a non-terminator op.
    fn kind(
        &mut self,
        func: &Func,
        id: OpId,
        memories: &[Option<usize>],
        internal: &[(OpId, usize)],
    ) -> Result<Kind, SimError> {
        let item = &func.item;
        let op = &item.ops[id as usize];
        let model = model_of(op).map_err(|reason| unsupported(func, op, reason))?;
        let (ins, outs) = (op.operands.len(), op.results.len());
        let shape = |ok: bool| -> Result<(), SimError> {
            if ok {
                Ok(())
            } else {
                Err(malformed(
                    func,
                    op.name_range,
                    format!("`{}` with {ins} operands and {outs} results", op.name),
                ))
            }
        };
        let operand_value = |i: usize| item.uses[item.operands(op)[i] as usize].value;
        let width = |value: Option<ValueId>| -> Result<u32, SimError> {
            value
                .and_then(|v| data_width(func, v))
                .ok_or_else(|| unsupported(func, op, "its operands are not plain integer channels (extra signals, or an unknown width)"))
        };
        let kind = match model {
            Model::Fork => {
                shape(ins == 1 && outs >= 1)?;
                Kind::Fork
            }
            Model::Join => {
                shape(ins >= 1 && outs == 1)?;
                Kind::Join
            }
            Model::Sync => {
                shape(ins >= 1 && outs == ins)?;
                Kind::Sync
            }
            Model::Merge { index } => {
                shape(ins >= 1 && outs == if index { 2 } else { 1 })?;
                Kind::Merge(Merge { component: self.component(), last: vec![0; ins] })
            }
            Model::Mux => {
                shape(ins >= 2 && outs == 1)?;
                Kind::Mux
            }
            Model::Pass => {
                shape(ins == 1 && outs == 1)?;
                Kind::Pass
            }
            Model::Split | Model::Concat => {
                // Raw signals in order: the data in the low bits, then each extra signal.
                let split = model == Model::Split;
                let (signals, control): (Vec<Option<ValueId>>, bool) = if split {
                    (item.results(op).iter().skip(1).map(|&v| Some(v)).collect(), ins == 1)
                } else {
                    ((1..ins).map(operand_value).collect(), outs == 1)
                };
                if !control {
                    return Err(unsupported(
                        func,
                        op,
                        "upstream (`(U)`) signals have no token stream to interpret",
                    ));
                }
                let mut offsets = vec![0];
                let mut at = 0;
                for signal in signals {
                    offsets.push(at);
                    at += width(signal)?;
                }
                if split {
                    Kind::Split { offsets }
                } else {
                    Kind::Concat { offsets }
                }
            }
            // The proposals' `%out = return %x`, before `end`.
            Model::Each => {
                shape(ins == outs)?;
                Kind::Each { results: false, done: 0 }
            }
            Model::Terminator => {
                return Err(malformed(
                    func,
                    op.name_range,
                    format!("`{}` is not the last op of the body", op.name),
                ))
            }
            Model::Instance => {
                return Err(malformed(
                    func,
                    op.name_range,
                    format!("`{}` is elaborated with its callee, not as a node", op.name),
                ))
            }
            Model::CondBr => {
                shape(ins == 2 && outs == 2)?;
                Kind::CondBr
            }
            Model::Sink => {
                shape(ins == 1 && outs == 0)?;
                Kind::Sink
            }
            Model::Source => {
                shape(ins == 0 && outs == 1)?;
                Kind::Source
            }
            Model::Constant => {
                shape(ins <= 1 && outs == 1)?;
                let text = match item.attr_value(op, "value") {
                    Some(value) => value.to_string(),
                    None => constant_text(func, op),
                };
                // A float constant's value is its bit pattern.
                if let Some(format) = crate::float::format_of(func, item.results(op)[0]) {
                    let scalar = hsir_analysis::dataflow::attribute_scalar(&text);
                    let Some(bits) = format.literal(scalar) else {
                        return Err(unsupported(
                            func,
                            op,
                            format!("its value `{}` is not a number of `{format}`", text.trim()),
                        ));
                    };
                    return Ok(Kind::Constant(bits));
                }
                let Some(value) = parse_integer(&text) else {
                    return Err(unsupported(
                        func,
                        op,
                        format!("its value `{}` is not an integer", text.trim()),
                    ));
                };
                Kind::Constant(value & mask(width(Some(item.results(op)[0]))?))
            }
            Model::Float { binary } => {
                shape(ins == if binary { 2 } else { 1 } && outs == 1)?;
                match crate::float::unit(func, op) {
                    Some(Ok(unit)) => Kind::Float(unit),
                    Some(Err(why)) => {
                        return Err(unsupported(
                            func,
                            op,
                            format!("hsir has no float unit for it {why}"),
                        ))
                    }
                    None => return Err(unsupported(func, op, "hsir has no float unit for it")),
                }
            }
            Model::Binary(bin) => {
                shape(ins == 2 && outs == 1)?;
                Kind::Binary { op: bin, width: width(operand_value(0))? }
            }
            Model::Compare => {
                shape(ins == 2 && outs == 1)?;
                let text = predicate_text(item, op);
                let Some(pred) = Predicate::parse(&text) else {
                    return Err(unsupported(func, op, format!("unknown predicate `{text}`")));
                };
                Kind::Compare { pred, width: width(operand_value(0))? }
            }
            Model::Unary(unary) => {
                shape(ins == 1 && outs == 1)?;
                let from = width(operand_value(0))?;
                let to = width(Some(item.results(op)[0]))?;
                Kind::Unary { op: unary, from, to }
            }
            Model::Select => {
                shape(ins == 3 && outs == 1)?;
                Kind::Select
            }
            Model::Wait => {
                shape(ins >= 1 && outs == 1)?;
                Kind::Wait
            }
            Model::Load => access(func, op, true)?,
            Model::Store => access(func, op, false)?,
            Model::Memory => Kind::Memory(self.memory_node(func, id, memories, internal)?),
            Model::Lsq => {
                let memory = item
                    .operands(op)
                    .first()
                    .and_then(|&u| func.item.uses[u as usize].value)
                    .and_then(|v| memories[v as usize]);
                let component = self.component();
                Kind::Lsq(Box::new(super::lsq::Lsq::new(func, id, memory, component)?))
            }
            Model::Stream => {
                shape(ins == 3 && outs == 2)?;
                let attr = |keys: &[&str], default: &str| {
                    keys.iter()
                        .find_map(|k| item.attr_value(op, k))
                        .map(|a| hsir_analysis::dataflow::attribute_scalar(a).to_string())
                        .unwrap_or_else(|| default.to_string())
                };
                let step_op = attr(&["step_op"], "+=");
                let cond = attr(&["cont_cond", "stop_cond"], "<");
                if super::arith::step(&step_op, 8, 0, 0).is_none()
                    || super::arith::continues(&cond, 8, 0, 0).is_none()
                {
                    return Err(unsupported(
                        func,
                        op,
                        format!("unknown step `{step_op}` or condition `{cond}`"),
                    ));
                }
                Kind::Stream(Stream {
                    step_op,
                    cond,
                    width: width(Some(item.results(op)[0]))?,
                    state: None,
                })
            }
            Model::Gate => {
                shape(ins == 2 && outs == 2)?;
                Kind::Gate { held: None }
            }
            Model::Carry => {
                shape(ins == 3 && outs == 1)?;
                Kind::Carry { running: false }
            }
            Model::Invariant => {
                shape(ins == 2 && outs == 1)?;
                Kind::Invariant { kept: None }
            }
        };
        Ok(kind)
    }

    fn memory_node(
        &mut self,
        func: &Func,
        id: OpId,
        memories: &[Option<usize>],
        internal: &[(OpId, usize)],
    ) -> Result<MemoryNode, SimError> {
        let op = &func.item.ops[id as usize];
        let Some(interface) = memories::interface(func, id) else {
            return Err(malformed(func, op.name_range, "not a memory interface"));
        };
        let memory = match interface.kind {
            InterfaceKind::Memory => internal.iter().find(|(o, _)| *o == id).map(|(_, m)| *m),
            _ => func
                .item
                .operands(op)
                .first()
                .and_then(|&u| func.item.uses[u as usize].value)
                .and_then(|v| memories[v as usize]),
        };
        let Some(memory) = memory else {
            return Err(unsupported(func, op, "its memory has no static one-dimensional shape"));
        };
        let bad = |what: &str| {
            malformed(func, op.name_range, format!("`{}` lacks {what} (see HS1208)", op.name))
        };
        if interface.operands.contains(&Port::Unknown) || interface.results.contains(&Port::Unknown)
        {
            return Err(bad("a port layout that accounts for every operand and result"));
        }
        // Inputs are the operands without the memref, in order.
        let input = |port: Port| -> Option<usize> {
            let position = interface.operand(port)?;
            Some(interface.operands[..position].iter().filter(|p| **p != Port::Memref).count())
        };
        let mut stores = Vec::new();
        for k in 0..interface.stores {
            stores.push(StorePort {
                data_in: input(Port::StoreData(k)).ok_or_else(|| bad("a store's data"))?,
                addr_in: input(Port::StoreAddr(k)).ok_or_else(|| bad("a store's address"))?,
                done_out: interface.result(Port::StoreDone(k)),
                component: self.component(),
            });
        }
        let mut loads = Vec::new();
        for k in 0..interface.loads {
            // An `lsq [MC]`'s load port is one process with its store port.
            let component = match interface.lsq_ports {
                Some(p) if p.load == k => stores[p.store].component,
                _ => self.component(),
            };
            loads.push(LoadPort {
                addr_in: input(Port::LoadAddr(k)).ok_or_else(|| bad("a load's address"))?,
                data_out: interface
                    .result(Port::LoadData(k))
                    .ok_or_else(|| bad("a load's data result"))?,
                done_out: interface.result(Port::LoadDone(k)),
                component,
            });
        }
        let counts =
            (0..interface.store_counts).filter_map(|k| input(Port::StoreCount(k))).collect();
        let completion = match interface.kind {
            // Dynamatic 2024's `mem_controller` has no `memStart` / `ctrlEnd`: its done token
            // is offered whenever no announced store is still to be written.
            InterfaceKind::MemController if interface.steady_done => Some(Completion {
                start_in: None,
                end_in: None,
                end_out: interface.result(Port::MemEnd).ok_or_else(|| bad("a done token"))?,
                pending: 0,
            }),
            InterfaceKind::MemController => Some(Completion {
                start_in: Some(input(Port::MemStart).ok_or_else(|| bad("`memStart`"))?),
                end_in: Some(input(Port::CtrlEnd).ok_or_else(|| bad("`ctrlEnd`"))?),
                end_out: interface.result(Port::MemEnd).ok_or_else(|| bad("`memEnd`"))?,
                pending: 0,
            }),
            _ => None,
        };
        let lsq = interface.lsq_ports.map(|p| (p.load, p.store));
        Ok(MemoryNode { memory, stores, loads, counts, completion, lsq })
    }

    /// Fails when a result of the top function is fed by sources alone: an endless stream.
    fn endless_results(&self, func: &Func) -> Result<(), SimError> {
        let Some((node, done)) = self.net.nodes.iter().find_map(|n| match n.kind {
            Kind::Each { results: true, done } => Some((n, done)),
            _ => None,
        }) else {
            return Ok(());
        };
        let results = &node.inputs[..node.inputs.len() - done];
        match results.iter().position(|&c| self.net.channels[c].infinite) {
            Some(i) => Err(unsupported(
                func,
                &func.item.ops[node.op as usize],
                format!("result #{i} is fed by sources alone, an endless stream of tokens"),
            )),
            None => Ok(()),
        }
    }

    /// Marks the channels computed from the top function's arguments alone (and sources):
    /// forks, buffers, casts and constants of the start token, say.
    fn mark_once(&mut self) {
        let net = &mut self.net;
        loop {
            let mut changed = false;
            for node in &net.nodes {
                if node.source_driven
                    || node.inputs.is_empty()
                    || node.outputs.iter().all(|&c| net.channels[c].once)
                    || matches!(
                        node.kind,
                        Kind::Memory(_) | Kind::Lsq(_) | Kind::Each { results: true, .. }
                    )
                {
                    continue;
                }
                let channels = &net.channels;
                let fed = node.inputs.iter().all(|&c| channels[c].once || channels[c].infinite)
                    && node.inputs.iter().any(|&c| channels[c].once);
                if fed {
                    for &c in &node.outputs {
                        net.channels[c].once = true;
                    }
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Marks the nodes fed by sources alone, and their channels.
    fn mark_source_driven(&mut self) {
        let net = &mut self.net;
        loop {
            let mut changed = false;
            for n in 0..net.nodes.len() {
                let node = &net.nodes[n];
                if node.source_driven
                    || matches!(
                        node.kind,
                        Kind::Memory(_) | Kind::Lsq(_) | Kind::Each { results: true, .. }
                    )
                {
                    continue;
                }
                let fed = if node.inputs.is_empty() {
                    matches!(node.kind, Kind::Source | Kind::Constant(_))
                } else {
                    node.inputs.iter().all(|&c| {
                        net.channels[c].producer.is_some_and(|p| net.nodes[p].source_driven)
                    })
                };
                if fed {
                    net.nodes[n].source_driven = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for node in &net.nodes {
            if node.source_driven {
                for &c in &node.outputs {
                    net.channels[c].infinite = true;
                }
            }
        }
    }
}

/// What the interpreter does with an op, decided for every op of the table in `model`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Model {
    Fork,
    Join,
    Sync,
    /// `merge`, or `control_merge` (`index`: its second result says which input passed).
    Merge {
        index: bool,
    },
    Mux,
    /// The token passes unchanged: branches, buffers of every era (an untimed interpreter does
    /// not see their slots), `compose` / `decompose` (the same bits, retyped).
    Pass,
    /// `unbundle`.
    Split,
    /// `bundle`.
    Concat,
    /// A `return` before `end`: each operand to its result.
    Each,
    /// `end` (or a terminating `return`): fine as the last op only.
    Terminator,
    /// Elaborated inline with its callee.
    Instance,
    CondBr,
    Sink,
    Source,
    Constant,
    Float {
        binary: bool,
    },
    Binary(BinaryOp),
    Compare,
    Unary(UnaryOp),
    Select,
    Wait,
    Load,
    Store,
    Memory,
    Lsq,
    Stream,
    Gate,
    Carry,
    Invariant,
}

/// Why the interpreter has no model of an op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unmodelled {
    /// A float op without a float unit.
    Float,
    Op,
}

/// The interpreter's model of every op of the table: adding an op makes this match ask what
/// the interpreter does with it.
fn model(kind: OpKind) -> Result<Model, Unmodelled> {
    use OpKind as K;
    match kind {
        K::Fork | K::LazyFork => Ok(Model::Fork),
        K::Join => Ok(Model::Join),
        K::Sync => Ok(Model::Sync),
        K::Merge => Ok(Model::Merge { index: false }),
        K::ControlMerge => Ok(Model::Merge { index: true }),
        K::Mux => Ok(Model::Mux),
        K::Br | K::Buffer | K::Oehb | K::Tehb | K::Tfifo | K::Compose | K::Decompose => {
            Ok(Model::Pass)
        }
        K::Unbundle => Ok(Model::Split),
        K::Bundle => Ok(Model::Concat),
        K::Return => Ok(Model::Each),
        K::End => Ok(Model::Terminator),
        K::Instance => Ok(Model::Instance),
        K::CondBr => Ok(Model::CondBr),
        K::Sink => Ok(Model::Sink),
        K::Source => Ok(Model::Source),
        K::Constant | K::ArithConstant => Ok(Model::Constant),
        K::AddF | K::SubF | K::MulF | K::DivF | K::CmpF => Ok(Model::Float { binary: true }),
        K::NegF | K::ExtF | K::TruncF | K::SIToFP | K::UIToFP | K::FPToSI | K::FPToUI => {
            Ok(Model::Float { binary: false })
        }
        K::RemF | K::MaximumF | K::MinimumF | K::MaxNumF | K::MinNumF | K::AbsF => {
            Err(Unmodelled::Float)
        }
        K::AddI
        | K::SubI
        | K::MulI
        | K::DivSI
        | K::DivUI
        | K::RemSI
        | K::RemUI
        | K::AndI
        | K::OrI
        | K::XOrI
        | K::ShLI
        | K::ShRSI
        | K::ShRUI
        | K::MaxSI
        | K::MaxUI
        | K::MinSI
        | K::MinUI => BinaryOp::of(kind).map(Model::Binary).ok_or(Unmodelled::Op),
        K::CeilDivSI | K::CeilDivUI | K::FloorDivSI => Err(Unmodelled::Op),
        K::CmpI => Ok(Model::Compare),
        K::Not | K::ExtSI | K::IndexCast | K::ExtUI | K::TruncI | K::Bitcast | K::IndexCastUI => {
            UnaryOp::of(kind).map(Model::Unary).ok_or(Unmodelled::Op)
        }
        K::Select | K::ArithSelect => Ok(Model::Select),
        K::Wait => Ok(Model::Wait),
        K::Load | K::McLoad | K::LsqLoad => Ok(Model::Load),
        K::Store | K::McStore | K::LsqStore => Ok(Model::Store),
        K::Memory | K::ExtMemory | K::MemController => Ok(Model::Memory),
        K::Lsq => Ok(Model::Lsq),
        K::Stream => Ok(Model::Stream),
        K::Gate => Ok(Model::Gate),
        K::Carry => Ok(Model::Carry),
        K::Invariant => Ok(Model::Invariant),
        K::Func
        | K::EsiInstance
        | K::Init
        | K::Pack
        | K::Unpack
        | K::Reshape
        | K::SpecCommit
        | K::Speculator
        | K::SpecSave
        | K::SpecSaveCommit
        | K::SpeculatingBranch
        | K::NonSpec
        | K::Blocker
        | K::ReadyRemover
        | K::ValidMerger
        | K::PipelineScheduled
        | K::PipelineUnscheduled
        | K::PipelineStage
        | K::PipelineReturn
        | K::PipelineLatency
        | K::PipelineLatencyReturn
        | K::PipelineSrc => Err(Unmodelled::Op),
    }
}

/// The model of `op`, or why the interpreter has none.
fn model_of(op: &OpData) -> Result<Model, String> {
    let Some(kind) = OpKind::of(op) else {
        return Err("the interpreter models Handshake, arith and LOOM's dataflow ops only".into());
    };
    model(kind).map_err(|why| match why {
        Unmodelled::Float => {
            let units: Vec<&str> = crate::float::float_ops().map(OpKind::key).collect();
            format!("its floating-point ops are {} only", units.join(", "))
        }
        Unmodelled::Op => "the interpreter does not model this op".to_string(),
    })
}

fn memref(ty: &Type) -> bool {
    matches!(ty, Type::MemRef { .. })
}

/// Bits of a value's data, when it is an integer (or `index`) channel without extra signals,
/// or control (0 bits).
fn data_width(func: &Func, value: ValueId) -> Option<u32> {
    let ty = func.ty(value)?;
    let channel = match ty.as_channel(func.style == Style::Circt) {
        Some(c) => c,
        None => Type::Channel { data: Box::new(ty.clone()), extras: Vec::new() },
    };
    match channel {
        Type::Control { extras } if extras.is_empty() => Some(0),
        Type::Channel { data, extras } if extras.is_empty() => match *data {
            Type::Int { .. } | Type::Index => scalar_width(&data),
            _ => None,
        },
        _ => None,
    }
}

/// A load / store in CIRCT's form (`[addr...] data, ctrl : Taddr, Tdata`; results data,
/// addresses) or Dynamatic's of every era (`[addr] data`, two or four types; results address,
/// data; 2024's `mc_*` / `lsq_*` too, whose stores write the data type first).
fn access(func: &Func, op: &OpData, is_load: bool) -> Result<Kind, SimError> {
    let item = &func.item;
    let naddr = item
        .operands(op)
        .iter()
        .filter(|&&u| item.uses[u as usize].container == Container::Bracket)
        .count();
    let (ins, outs) = (op.operands.len(), op.results.len());
    let access = if naddr == 1 && ins == 2 && outs == 2 {
        Access { addr_in: vec![0], data_in: 1, ctrl_in: None, addr_out: vec![0], data_out: 1 }
    } else if naddr >= 1 && ins == naddr + 2 && outs == naddr + 1 {
        Access {
            addr_in: (0..naddr).collect(),
            data_in: naddr,
            ctrl_in: Some(naddr + 1),
            addr_out: (1..=naddr).collect(),
            data_out: 0,
        }
    } else {
        return Err(malformed(
            func,
            op.name_range,
            format!("`{}` with {ins} operands and {outs} results is neither CIRCT's nor Dynamatic's form", op.name),
        ));
    };
    Ok(if is_load { Kind::Load(access) } else { Kind::Store(access) })
}

/// A `cmpi`'s predicate as written: its first word, or its `predicate` attribute.
pub(crate) fn predicate_text(item: &Item, op: &OpData) -> String {
    item.words(op)
        .first()
        .map(|&w| item.str(w).to_string())
        .or_else(|| {
            item.attr_value(op, "predicate")
                .map(|a| hsir_analysis::dataflow::attribute_scalar(a).to_string())
        })
        .unwrap_or_default()
}

/// `arith.constant 5 : i32`: the text between the name and the type.
pub(crate) fn constant_text(func: &Func, op: &OpData) -> String {
    let start = usize::from(op.name_range.end());
    let end = usize::from(op.range.end());
    let rest = &func.text[start..end];
    rest.split(':').next().unwrap_or("").to_string()
}

#[cfg(test)]
mod tests {
    use super::parse_integer;

    #[test]
    fn integers() {
        assert_eq!(parse_integer("0 : index"), Some(0));
        assert_eq!(parse_integer("-1 : i32"), Some(u64::MAX));
        assert_eq!(parse_integer("0x1F"), Some(31));
        assert_eq!(parse_integer("true"), Some(1));
        assert_eq!(parse_integer("1.0 : f32"), None);
    }
}
