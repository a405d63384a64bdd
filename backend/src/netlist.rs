//! Lowering of a `handshake.func` to a netlist: instances of the component library
//! (`backend/rtl/`) wired by channels.
//!
//! A channel is a data bus (data bits and downstream extra signals), `valid` and `ready`. Every
//! value that is a channel gets one channel from its producer; a value used more than once gets
//! an eager fork, and an unused one a sink, so that every channel has exactly one producer and
//! one consumer, and the user is told (HS5002). Ops that only rename channels (`br`, Dynamatic's
//! load and store, which pass address and data through to the memory interface) add no cell:
//! their results are their operands' channels. `instance` instantiates the callee's module.
//!
//! Names are deterministic: channels are named after their values (`_` for `#`, `_u<N>` for
//! the copies a fork makes), cells after their op's first result or its kind and index.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use hsir_analysis::dataflow::{self, BufferKind, BufferType};
use hsir_analysis::ir::{Def, Item, OpData, OpId, UseId, ValueId};
use hsir_analysis::ops::OpKind;
use hsir_analysis::{Diagnostic, DiagnosticCode as Code};

use crate::program::{identifier, init_values, memref_shape, Func, Program, Shape, MAX_WIDTH};

mod float;
pub mod lsq;

pub type ChannelId = usize;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channel {
    /// The wire prefix: `<name>_data`, `<name>_valid`, `<name>_ready`.
    pub name: String,
    pub shape: Shape,
    /// The IR value it carries, for messages (`%x#1`).
    pub label: String,
    /// Whether some cell or port drives its data bus (control channels produced by a cell
    /// without data get a constant 0).
    pub data_driven: bool,
    /// Fed by `source`s alone: always full in hardware, so never a leftover.
    pub from_sources: bool,
    /// A raw signal (a result of `unbundle`): a data bus only, no valid or ready, read by any
    /// number of consumers.
    pub raw: bool,
}

/// One connection of a cell to channels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pins {
    /// The port prefix: `in`, `ins`, `out`.
    pub port: Cow<'static, str>,
    /// The channels, in port order (flattened groups: channel `i` at bits `i*W`).
    pub channels: Vec<ChannelId>,
    /// The cell drives data and valid (an output).
    pub output: bool,
    /// The port has a data bus.
    pub data: bool,
    /// A group port (`ins_valid [N-1:0]`) even with one channel.
    pub group: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    /// The library module or the callee's module.
    pub module: Cow<'static, str>,
    pub name: String,
    pub params: Vec<(&'static str, String)>,
    pub clocked: bool,
    pub pins: Vec<Pins>,
    /// Other connections: `(port, expression)`.
    pub raw: Vec<(String, String)>,
}

/// A channel port of a module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub channel: ChannelId,
    pub shape: Shape,
}

/// A memory a module reaches through BRAM-style ports (a memref argument).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryPort {
    pub name: String,
    pub depth: u64,
    pub width: u32,
    pub addr_width: u32,
    /// The argument it is.
    pub arg: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Module {
    pub name: String,
    /// The function it lowers.
    pub func: String,
    pub inputs: Vec<Port>,
    pub outputs: Vec<Port>,
    pub memories: Vec<MemoryPort>,
    pub channels: Vec<Channel>,
    pub cells: Vec<Cell>,
    /// Wiring: `assign left = right;`.
    pub assigns: Vec<(String, String)>,
    /// Ops lowered to wiring (`bundle`, `unbundle`, `sync`'s data): the channels each reads
    /// and the ones it drives, for the testbench's view of where tokens wait.
    pub wiring: Vec<(Vec<ChannelId>, Vec<ChannelId>)>,
    /// Signals nothing reads (a control channel's data bit, `clk` in a design without
    /// registers), gathered into one `_unused` wire as Verilator's lint expects.
    pub unused: Vec<String>,
}

/// The modules of a design, callees first, the top last.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Netlist {
    pub modules: Vec<Module>,
}

impl Netlist {
    pub fn top(&self) -> &Module {
        self.modules.last().expect("a netlist has its top module")
    }

    /// The library modules the design instantiates, sorted.
    pub fn library_modules(&self) -> Vec<&str> {
        let own: HashSet<&str> = self.modules.iter().map(|m| m.name.as_str()).collect();
        let used: HashSet<&str> = self
            .modules
            .iter()
            .flat_map(|m| m.cells.iter().map(|c| c.module.as_ref()))
            .filter(|m| !own.contains(m))
            .collect();
        let mut used: Vec<&str> = used.into_iter().collect();
        used.sort_unstable();
        used
    }
}

/// What lowering says: the netlist, or why there is none, and notes either way.
#[derive(Debug, Clone, Default)]
pub struct Lowered {
    pub netlist: Option<Netlist>,
    /// Errors (no netlist) and notes (forks and sinks added), with ranges in the file.
    pub diagnostics: Vec<Diagnostic>,
}

/// Lowers `top` and every function it instantiates.
pub fn lower(program: &Program, top: &str) -> Lowered {
    let mut out = Lowered::default();
    let Some(func) = program.func(top) else {
        out.diagnostics.push(Diagnostic::new(
            Code::BackendNoTop,
            Default::default(),
            format!("no `{}` named `@{top}` in this file", OpKind::Func.full_name()),
        ));
        return out;
    };
    let mut order = Vec::new();
    if let Err(d) = callees_first(program, func, &mut order, &mut Vec::new()) {
        out.diagnostics.push(d);
        return out;
    }
    let mut netlist = Netlist::default();
    let mut failed = false;
    // Each function lowers on its own; on every core.
    let lowered = crate::program::par_map(&order, |func| {
        let mut lowering = Lowering::new(program, func);
        lowering.run();
        (lowering.module, lowering.diagnostics)
    });
    for (module, mut diagnostics) in lowered {
        failed |= diagnostics.iter().any(|d| d.severity == hsir_analysis::Severity::Error);
        out.diagnostics.append(&mut diagnostics);
        netlist.modules.push(module);
    }
    if !failed {
        out.netlist = Some(netlist);
    }
    out
}

/// Orders the functions `func` reaches through `instance`, callees before callers.
fn callees_first<'p>(
    program: &'p Program,
    func: &'p Func,
    order: &mut Vec<&'p Func>,
    stack: &mut Vec<String>,
) -> Result<(), Diagnostic> {
    if order.iter().any(|f| f.name == func.name) {
        return Ok(());
    }
    if func.external {
        let range = func.absolute(func.op().name_range);
        return Err(Diagnostic::new(
            Code::BackendNoBody,
            range,
            format!(
                "`@{}` is a declaration without a body: there is nothing to generate",
                func.name
            ),
        ));
    }
    stack.push(func.name.clone());
    for op in &func.item.ops {
        if OpKind::of(op) != Some(OpKind::Instance) {
            continue;
        }
        let range = func.absolute(op.name_range);
        let Some(callee) = op.symbol else { continue };
        let callee = func.item.str(callee).trim_start_matches('@').trim_matches('"');
        let Some(target) = program.callee(func, callee) else {
            return Err(Diagnostic::new(
                Code::BackendNoBody,
                range,
                format!(
                    "`{}` of `@{callee}`, which is not a `{}` of this file",
                    op.name,
                    OpKind::Func.full_name()
                ),
            ));
        };
        if target.external {
            return Err(Diagnostic::new(
                Code::BackendNoBody,
                range,
                format!("`{}` of `@{callee}`, a declaration without a body: hsir cannot generate its module", op.name),
            ));
        }
        if stack.iter().any(|s| s == callee) {
            return Err(Diagnostic::new(
                Code::BackendNoBody,
                range,
                format!(
                    "`@{callee}` instantiates itself: recursive hardware has no finite netlist"
                ),
            ));
        }
        callees_first(program, target, order, stack)?;
    }
    stack.pop();
    order.push(func);
    Ok(())
}

/// Where a value's channel comes from.
#[derive(Debug, Clone, Copy)]
enum Source {
    /// Its own channel, driven by its producer.
    Own(ChannelId),
    /// The channel of a use: the value renames its operand (`br`).
    Alias(UseId),
    /// Not a channel (a memref).
    None,
}

struct Lowering<'p> {
    program: &'p Program,
    func: &'p Func,
    module: Module,
    sources: Vec<Source>,
    use_channels: Vec<Option<ChannelId>>,
    diagnostics: Vec<Diagnostic>,
    names: HashMap<String, usize>,
    /// Channels that always hold a token in hardware, as a source's do: never left over.
    steady: Vec<ChannelId>,
    /// Per `lsq [MC]`: the `mem_controller`'s store-done channel back to it (`lsq.rs`).
    controller_done: Vec<(OpId, ChannelId)>,
}

impl<'p> Lowering<'p> {
    fn new(program: &'p Program, func: &'p Func) -> Lowering<'p> {
        Lowering {
            program,
            func,
            module: Module {
                name: module_name(&func.name),
                func: func.name.clone(),
                ..Module::default()
            },
            sources: vec![Source::None; func.item.values.len()],
            use_channels: vec![None; func.item.uses.len()],
            diagnostics: Vec::new(),
            names: HashMap::new(),
            steady: Vec::new(),
            controller_done: Vec::new(),
        }
    }

    fn error(&mut self, code: Code, range: hsir_analysis::TextRange, message: String) {
        self.diagnostics.push(Diagnostic::new(code, self.func.absolute(range), message));
    }

    /// `base` as an identifier no other wire or cell of the module has: `x`, then `x_1`, ...
    fn unique(&mut self, base: &str) -> String {
        let base = identifier(base);
        if !self.names.contains_key(&base) {
            self.names.insert(base.clone(), 1);
            return base;
        }
        loop {
            let n = self.names.get_mut(&base).expect("present");
            let candidate = format!("{base}_{n}");
            *n += 1;
            if !self.names.contains_key(&candidate) {
                self.names.insert(candidate.clone(), 1);
                return candidate;
            }
        }
    }

    fn value_label(&self, value: ValueId) -> String {
        let item = &self.func.item;
        item.values[value as usize].display(item, hsir_analysis::ir::group_len(item, value))
    }

    fn new_channel(&mut self, base: &str, shape: Shape, label: String) -> ChannelId {
        let name = self.unique(base);
        self.module.channels.push(Channel {
            name,
            shape,
            label,
            data_driven: false,
            from_sources: false,
            raw: false,
        });
        self.module.channels.len() - 1
    }

    /// The channel shape of a value, or an HS5003 error.
    fn shape(&mut self, value: ValueId, range: hsir_analysis::TextRange) -> Option<Shape> {
        match self.func.shape(value) {
            Some(shape) if shape.data <= MAX_WIDTH => Some(shape),
            Some(shape) => {
                let label = self.value_label(value);
                self.error(
                    Code::BackendUnsupportedType,
                    range,
                    format!(
                        "`{label}` carries {} bits; the backend carries at most {MAX_WIDTH}",
                        shape.data
                    ),
                );
                None
            }
            None => {
                let label = self.value_label(value);
                let ty =
                    self.func.ty(value).map_or("an unknown type".to_string(), |t| format!("`{t}`"));
                self.error(
                    Code::BackendUnsupportedType,
                    range,
                    format!("`{label}` has {ty}, which the backend cannot carry on a channel (upstream signals, or a width it does not know)"),
                );
                None
            }
        }
    }

    fn run(&mut self) {
        let item = &self.func.item;
        // Port names come first: no wire may take one.
        for name in self.func.arg_names().into_iter().chain(self.func.result_names()) {
            self.names.insert(name, 1);
        }
        for name in crate::program::RESERVED_PORTS {
            self.names.insert(name.to_string(), 1);
        }
        // Every value's source.
        for (index, value) in item.values.iter().enumerate() {
            let v = index as ValueId;
            let is_memref = self.func.ty(v).is_some_and(|t| memref_shape(t).is_some());
            match value.def {
                Def::Arg { block, .. } if block != 0 => continue,
                Def::Arg { .. } if is_memref => continue,
                Def::Result { op, n } => {
                    let op_data = &item.ops[op as usize];
                    if let Some(u) = alias_of(item, op_data, n) {
                        self.sources[index] = Source::Alias(u);
                        continue;
                    }
                    if is_memref {
                        continue;
                    }
                }
                _ => {}
            }
            let Some(shape) = self.shape(v, value.range) else { continue };
            let raw = matches!(value.def, Def::Result { op, n } if n > 0 && OpKind::of(&item.ops[op as usize]) == Some(OpKind::Unbundle));
            let label = self.value_label(v);
            let base = label.trim_start_matches('%').replace('#', "_");
            let channel = self.new_channel(&base, shape, label);
            self.module.channels[channel].raw = raw;
            self.sources[index] = Source::Own(channel);
        }
        // Forks and sinks where a channel does not have exactly one use.
        for (index, value) in item.values.iter().enumerate() {
            let Source::Own(channel) = self.sources[index] else { continue };
            let uses: Vec<UseId> = item.value_uses(value).to_vec();
            if self.module.channels[channel].raw {
                // Wires: every use reads the same bus.
                for &u in &uses {
                    self.use_channels[u as usize] = Some(channel);
                }
                continue;
            }
            self.fan_out(index as ValueId, channel, &uses, value.range);
        }
        // Aliased values (br): their uses read the operand's channel.
        for index in 0..item.values.len() {
            if let Source::Alias(_) = self.sources[index] {
                let Some(channel) = self.resolve(index as ValueId, 0) else { continue };
                // Before fork materialization (HS5002) a load's data, say, may have several
                // uses: they read the operand's channel through a fork.
                let uses = item.value_uses(&item.values[index]).to_vec();
                self.fan_out(index as ValueId, channel, &uses, item.values[index].range);
            }
        }
        self.ports();
        let body: Vec<OpId> = item.blocks.first().map(|b| b.ops.clone()).unwrap_or_default();
        for op in body {
            self.op(op);
        }
        // Control channels whose producer has no data bus get a constant 0.
        let mut driven = vec![false; self.module.channels.len()];
        for cell in &self.module.cells {
            for p in &cell.pins {
                if p.output && p.data {
                    for &c in &p.channels {
                        driven[c] = true;
                    }
                }
            }
        }
        for port in &self.module.inputs {
            driven[port.channel] = !port.shape.control;
        }
        for (channel, driven) in self.module.channels.iter_mut().zip(driven) {
            channel.data_driven |= driven;
        }
        self.finish();
    }

    /// Connects the uses of `value` to `channel`: directly when it has one, through a sink
    /// when it has none, through an eager fork when it has several (HS5002 notes both).
    fn fan_out(
        &mut self,
        value: ValueId,
        channel: ChannelId,
        uses: &[UseId],
        range: hsir_analysis::TextRange,
    ) {
        match uses.len() {
            1 => self.use_channels[uses[0] as usize] = Some(channel),
            0 => {
                let label = self.value_label(value);
                let sink = OpKind::Sink.key();
                self.note(range, format!("`{label}` is never used: hsir adds a `{sink}`"));
                let name = self.unique(&format!("sink_{}", self.module.channels[channel].name));
                self.module.cells.push(Cell {
                    module: "hsir_sink".into(),
                    name,
                    params: Vec::new(),
                    clocked: false,
                    pins: vec![pins("in", vec![channel], false, false)],
                    raw: Vec::new(),
                });
            }
            n => {
                let label = self.value_label(value);
                let fork = OpKind::Fork.key();
                self.note(range, format!("`{label}` has {n} uses: hsir adds a `{fork} [{n}]`"));
                let shape = self.module.channels[channel].shape;
                let base = self.module.channels[channel].name.clone();
                let mut outs = Vec::new();
                for (k, &u) in uses.iter().enumerate() {
                    let out = self.new_channel(&format!("{base}_u{k}"), shape, label.clone());
                    self.use_channels[u as usize] = Some(out);
                    outs.push(out);
                }
                let name = self.unique(&format!("fork_{base}"));
                self.module.cells.push(Cell {
                    module: "hsir_fork".into(),
                    name,
                    params: vec![("N", n.to_string()), ("W", shape.bits().to_string())],
                    clocked: true,
                    pins: vec![
                        pins("in", vec![channel], false, true),
                        group("out", outs, true, true),
                    ],
                    raw: Vec::new(),
                });
            }
        }
    }

    /// What nothing reads, and what only sources feed.
    fn finish(&mut self) {
        let module = &mut self.module;
        let mut read = vec![false; module.channels.len()];
        for cell in &module.cells {
            for p in cell.pins.iter().filter(|p| !p.output && p.data) {
                for &c in &p.channels {
                    read[c] = true;
                }
            }
        }
        for port in &module.outputs {
            if !port.shape.control {
                read[port.channel] = true;
            }
        }
        let assigned_from: Vec<&str> =
            module.assigns.iter().map(|(_, right)| right.as_str()).collect();
        for (c, channel) in module.channels.iter().enumerate() {
            if !read[c] && !assigned_from.contains(&format!("{}_data", channel.name).as_str()) {
                module.unused.push(format!("{}_data", channel.name));
            }
        }
        if !module.cells.iter().any(|c| c.clocked) {
            module.unused.push("clk".into());
            module.unused.push("rst".into());
        }
        // Source-fed channels: a fixpoint over cells whose every input is source-fed (or
        // always holds a token).
        let mut from = vec![false; module.channels.len()];
        for &c in &self.steady {
            from[c] = true;
        }
        loop {
            let mut changed = false;
            for cell in &module.cells {
                let inputs: Vec<usize> = cell
                    .pins
                    .iter()
                    .filter(|p| !p.output)
                    .flat_map(|p| p.channels.iter().copied())
                    .collect();
                let fed = cell.module == "hsir_source"
                    || (!inputs.is_empty() && inputs.iter().all(|&c| from[c]));
                if fed && cell.raw.is_empty() {
                    for p in cell.pins.iter().filter(|p| p.output) {
                        for &c in &p.channels {
                            if !from[c] {
                                from[c] = true;
                                changed = true;
                            }
                        }
                    }
                }
            }
            if !changed {
                break;
            }
        }
        for (channel, from) in module.channels.iter_mut().zip(from) {
            channel.from_sources = from;
        }
    }

    fn note(&mut self, range: hsir_analysis::TextRange, message: String) {
        self.diagnostics.push(Diagnostic::new(
            Code::BackendMaterialized,
            self.func.absolute(range),
            message,
        ));
    }

    /// The channel an aliased value reads.
    fn resolve(&mut self, value: ValueId, depth: u32) -> Option<ChannelId> {
        if depth > 64 {
            let range = self.func.item.values[value as usize].range;
            self.error(
                Code::BackendUnsupportedOp,
                range,
                format!(
                    "a cycle of pass-through ops (`{}`) with no other op: it carries no token",
                    OpKind::Br.key()
                ),
            );
            return None;
        }
        match self.sources[value as usize] {
            Source::Own(c) => Some(c),
            Source::None => None,
            Source::Alias(u) => {
                let operand = self.func.item.uses[u as usize].value?;
                match self.sources[operand as usize] {
                    Source::Own(c) => {
                        // The operand's single use is this one.
                        if self.func.item.values[operand as usize].uses.len() == 1 {
                            Some(c)
                        } else {
                            self.use_channels[u as usize]
                        }
                    }
                    Source::Alias(_) => self.resolve(operand, depth + 1),
                    Source::None => None,
                }
            }
        }
    }

    /// Module ports: one per channel argument and result; BRAM ports per memref argument.
    fn ports(&mut self) {
        let func = self.func;
        let names = func.arg_names();
        for spec in crate::memories::memories(func) {
            if let crate::memories::MemoryKind::Argument(arg) = spec.kind {
                self.module.memories.push(MemoryPort {
                    name: spec.name.clone(),
                    depth: spec.depth,
                    width: spec.width,
                    addr_width: address_width(spec.depth),
                    arg,
                });
            }
        }
        for (i, &arg) in func.args().iter().enumerate() {
            let name = names.get(i).cloned().unwrap_or_else(|| format!("in{i}"));
            if func.ty(arg).and_then(memref_shape).is_some() {
                continue;
            }
            if let Source::Own(channel) = self.sources[arg as usize] {
                let shape = self.module.channels[channel].shape;
                self.module.channels[channel].name = name.clone();
                self.module.inputs.push(Port { name, channel, shape });
            }
        }
    }

    fn chan_of_use(&self, u: UseId) -> Option<ChannelId> {
        self.use_channels[u as usize]
    }

    fn chan_of_value(&self, v: ValueId) -> Option<ChannelId> {
        match self.sources[v as usize] {
            Source::Own(c) => Some(c),
            _ => None,
        }
    }

    fn op(&mut self, id: OpId) {
        let func = self.func;
        let op = &func.item.ops[id as usize];
        if op.broken {
            return;
        }
        let ins: Option<Vec<ChannelId>> =
            self.func.item.operands(op).iter().map(|&u| self.chan_of_use(u)).collect();
        let outs: Option<Vec<ChannelId>> =
            self.func.item.results(op).iter().map(|&v| self.chan_of_value(v)).collect();
        let unsupported = |this: &mut Self, why: &str| {
            this.error(
                Code::BackendUnsupportedOp,
                op.name_range,
                format!("the backend has no RTL for `{}`{why}", op.name),
            );
        };
        let Some(kind) = OpKind::of(op) else { return unsupported(self, "") };
        let last = func.item.blocks.first().and_then(|b| b.ops.last()) == Some(&id);
        let width = |this: &Self, c: ChannelId| this.module.channels[c].shape.bits();
        let base = self.cell_name(op, id);
        macro_rules! need {
            ($e:expr) => {
                match $e {
                    Some(x) => x,
                    None => return,
                }
            };
        }
        use OpKind as K;
        // Every op of the table, so that a new op needs a decision here.
        match kind {
            K::End | K::Return if last => {
                let ins = need!(ins);
                self.terminator(op, base, ins);
            }
            // A `return` before `end` (the proposals', Dynamatic 2024's): its results are its
            // operands' channels (`alias_of`).
            K::Return => {}
            K::End => unsupported(self, " before the last op of the body"),
            // Renames: the results are the operands' channels (`alias_of`).
            K::Br | K::Compose | K::Decompose => {}
            K::Unbundle | K::Bundle => {
                let (ins, outs) = (need!(ins), need!(outs));
                let split = kind == K::Unbundle;
                let (channel, control, signals) = if split {
                    (ins[0], outs[0], outs[1..].to_vec())
                } else {
                    (outs[0], ins[0], ins[1..].to_vec())
                };
                if ins.len() + outs.len() != signals.len() + 2
                    || !self.module.channels[control].shape.control
                    || self.module.channels[channel].shape.control
                {
                    return unsupported(self, " of a control token into its valid and ready wires");
                }
                let c = self.module.channels[channel].name.clone();
                let k = self.module.channels[control].name.clone();
                if split {
                    self.module.assigns.push((format!("{k}_valid"), format!("{c}_valid")));
                    self.module.assigns.push((format!("{c}_ready"), format!("{k}_ready")));
                    let mut at = 0;
                    for &signal in &signals {
                        let width = self.module.channels[signal].shape.bits();
                        let slice = if width == 1 {
                            format!("{c}_data[{at}]")
                        } else {
                            format!("{c}_data[{}:{at}]", at + width - 1)
                        };
                        let sig = self.module.channels[signal].name.clone();
                        self.module.assigns.push((format!("{sig}_data"), slice));
                        self.module.channels[signal].data_driven = true;
                        at += width;
                    }
                    self.module.wiring.push((vec![channel], vec![control]));
                } else {
                    self.module.assigns.push((format!("{c}_valid"), format!("{k}_valid")));
                    self.module.assigns.push((format!("{k}_ready"), format!("{c}_ready")));
                    let parts: Vec<String> = signals
                        .iter()
                        .rev()
                        .map(|&s| format!("{}_data", self.module.channels[s].name))
                        .collect();
                    self.module
                        .assigns
                        .push((format!("{c}_data"), format!("{{{}}}", parts.join(", "))));
                    self.module.channels[channel].data_driven = true;
                    self.module.wiring.push((vec![control], vec![channel]));
                }
            }
            K::Fork | K::LazyFork => {
                let (ins, outs) = (need!(ins), need!(outs));
                let w = width(self, ins[0]);
                let (module, clocked) =
                    if kind == K::Fork { ("hsir_fork", true) } else { ("hsir_lazy_fork", false) };
                self.cell(
                    module,
                    base,
                    &[("N", outs.len().to_string()), ("W", w.to_string())],
                    clocked,
                    vec![pins("in", ins, false, true), group("out", outs, true, true)],
                );
            }
            K::Join => {
                let (ins, outs) = (need!(ins), need!(outs));
                self.cell(
                    "hsir_join",
                    base,
                    &[("N", ins.len().to_string())],
                    false,
                    vec![group("ins", ins, false, false), pins("out", outs, true, false)],
                );
            }
            K::Sync => {
                // All inputs arrive, then each output leaves with its input's data: a join of
                // the inputs drives an eager fork (as CIRCT lowers `sync`), whose copies give
                // the outputs their valid and are taken independently. A lazy fork would make
                // each output's valid wait for the other outputs' ready, so outputs that meet
                // again at a join (whose ready waits for valid) would wait on each other
                // combinationally and never move.
                let (ins, outs) = (need!(ins), need!(outs));
                let control = Shape { data: 0, control: true };
                let joined = self.new_channel(&format!("{base}_joined"), control, String::new());
                let copies: Vec<ChannelId> = (0..outs.len())
                    .map(|i| self.new_channel(&format!("{base}_go{i}"), control, String::new()))
                    .collect();
                self.cell(
                    "hsir_join",
                    format!("{base}_join"),
                    &[("N", ins.len().to_string())],
                    false,
                    vec![
                        group("ins", ins.clone(), false, false),
                        pins("out", vec![joined], true, false),
                    ],
                );
                self.cell(
                    "hsir_fork",
                    format!("{base}_fork"),
                    &[("N", outs.len().to_string()), ("W", "1".into())],
                    true,
                    vec![
                        pins("in", vec![joined], false, true),
                        group("out", copies.clone(), true, true),
                    ],
                );
                for ((&input, &output), &copy) in ins.iter().zip(&outs).zip(&copies) {
                    let (i, o, c) = (
                        self.module.channels[input].name.clone(),
                        self.module.channels[output].name.clone(),
                        self.module.channels[copy].name.clone(),
                    );
                    self.module.assigns.push((format!("{o}_data"), format!("{i}_data")));
                    self.module.assigns.push((format!("{o}_valid"), format!("{c}_valid")));
                    self.module.assigns.push((format!("{c}_ready"), format!("{o}_ready")));
                    self.module.channels[output].data_driven = true;
                }
            }
            K::Merge => {
                let (ins, outs) = (need!(ins), need!(outs));
                let w = width(self, outs[0]);
                self.cell(
                    "hsir_merge",
                    base,
                    &[("N", ins.len().to_string()), ("W", w.to_string())],
                    true,
                    vec![group("ins", ins, false, true), pins("out", outs, true, true)],
                );
            }
            K::Mux => {
                let (ins, outs) = (need!(ins), need!(outs));
                let (sel, data) = ins.split_first().expect("mux has a select");
                let w = width(self, outs[0]);
                let sw = width(self, *sel);
                self.cell(
                    "hsir_mux",
                    base,
                    &[("N", data.len().to_string()), ("W", w.to_string()), ("SW", sw.to_string())],
                    false,
                    vec![
                        pins("sel", vec![*sel], false, true),
                        group("ins", data.to_vec(), false, true),
                        pins("out", vec![outs[0]], true, true),
                    ],
                );
            }
            K::ControlMerge => {
                let (ins, outs) = (need!(ins), need!(outs));
                if outs.len() != 2 {
                    return unsupported(self, " with other than two results");
                }
                let w = width(self, outs[0]);
                let iw = width(self, outs[1]);
                self.cell(
                    "hsir_control_merge",
                    base,
                    &[("N", ins.len().to_string()), ("W", w.to_string()), ("IW", iw.to_string())],
                    true,
                    vec![
                        group("ins", ins, false, true),
                        pins("out", vec![outs[0]], true, true),
                        pins("index", vec![outs[1]], true, true),
                    ],
                );
            }
            K::CondBr => {
                let (ins, outs) = (need!(ins), need!(outs));
                let w = width(self, ins[1]);
                self.cell(
                    "hsir_cond_br",
                    base,
                    &[("W", w.to_string())],
                    false,
                    vec![
                        pins("cond", vec![ins[0]], false, true),
                        pins("in", vec![ins[1]], false, true),
                        pins("true", vec![outs[0]], true, true),
                        pins("false", vec![outs[1]], true, true),
                    ],
                );
            }
            K::Sink => {
                let ins = need!(ins);
                self.cell("hsir_sink", base, &[], false, vec![pins("in", ins, false, false)]);
            }
            K::Source => {
                let outs = need!(outs);
                self.cell("hsir_source", base, &[], false, vec![pins("out", outs, true, false)]);
            }
            K::Constant => {
                let (ins, outs) = (need!(ins), need!(outs));
                let w = width(self, outs[0]);
                let value = match crate::float::format_of(func, self.func.item.results(op)[0]) {
                    Some(format) => float::constant_bits(&self.func.item, op, format),
                    None => constant_value(
                        &self.func.item,
                        op,
                        self.module.channels[outs[0]].shape.data,
                    ),
                };
                let Some(value) = value else {
                    return unsupported(
                        self,
                        " with this `value` (hsir reads integers, booleans and f32 / f64 numbers)",
                    );
                };
                self.cell(
                    "hsir_constant",
                    base,
                    &[("W", w.to_string()), ("VALUE", format!("{w}'d{value}"))],
                    false,
                    vec![pins("ctrl", ins, false, false), pins("out", outs, true, true)],
                );
            }
            K::Buffer | K::Oehb | K::Tehb | K::Tfifo => {
                let (ins, outs) = (need!(ins), need!(outs));
                self.buffer(op, id, base, ins[0], outs[0]);
            }
            K::Wait => {
                let (ins, outs) = (need!(ins), need!(outs));
                let (data, tokens) = ins.split_last().expect("wait has operands");
                let w = width(self, outs[0]);
                self.cell(
                    "hsir_wait",
                    base,
                    &[("NT", tokens.len().to_string()), ("W", w.to_string())],
                    false,
                    vec![
                        group("tok", tokens.to_vec(), false, false),
                        pins("in", vec![*data], false, true),
                        pins("out", outs, true, true),
                    ],
                );
            }
            K::Select | K::ArithSelect => {
                let (ins, outs) = (need!(ins), need!(outs));
                let w = width(self, outs[0]);
                self.cell(
                    "hsir_select",
                    base,
                    &[("W", w.to_string())],
                    false,
                    vec![
                        pins("cond", vec![ins[0]], false, true),
                        pins("t", vec![ins[1]], false, true),
                        pins("f", vec![ins[2]], false, true),
                        pins("out", outs, true, true),
                    ],
                );
            }
            K::Load | K::McLoad | K::LsqLoad | K::Store | K::McStore | K::LsqStore
                if op.operands.len() == 3 =>
            {
                // CIRCT: load [%addr] %memData, %ctrl -> (data, addr);
                // store [%addr] %data, %ctrl -> (data, addr).
                let (ins, outs) = (need!(ins), need!(outs));
                let aw = width(self, ins[0]);
                let w = width(self, ins[1]);
                if kind.is_load() {
                    self.cell(
                        "hsir_load",
                        base,
                        &[("AW", aw.to_string()), ("W", w.to_string())],
                        false,
                        vec![
                            pins("addr_in", vec![ins[0]], false, true),
                            pins("mem_data", vec![ins[1]], false, true),
                            pins("ctrl", vec![ins[2]], false, false),
                            pins("data_out", vec![outs[0]], true, true),
                            pins("addr_out", vec![outs[1]], true, true),
                        ],
                    );
                } else {
                    self.cell(
                        "hsir_store",
                        base,
                        &[("AW", aw.to_string()), ("W", w.to_string())],
                        false,
                        vec![
                            pins("addr_in", vec![ins[0]], false, true),
                            pins("data_in", vec![ins[1]], false, true),
                            pins("ctrl", vec![ins[2]], false, false),
                            pins("data_out", vec![outs[0]], true, true),
                            pins("addr_out", vec![outs[1]], true, true),
                        ],
                    );
                }
            }
            // Dynamatic's loads and stores (of every era) pass address and data through:
            // aliases, no cell.
            K::Load | K::McLoad | K::LsqLoad | K::Store | K::McStore | K::LsqStore => {}
            K::Memory | K::ExtMemory | K::MemController => self.memory(id, base),
            K::Lsq => self.lsq(id, base),
            K::Instance => {
                let (ins, outs) = (need!(ins), need!(outs));
                let Some(callee) = op.symbol else { return };
                let callee = self.func.item.str(callee).trim_start_matches('@').trim_matches('"');
                let Some(target) = self.program.callee(self.func, callee) else { return };
                let arg_names = target.arg_names();
                let result_names = target.result_names();
                let mut all = Vec::new();
                for (i, c) in ins.into_iter().enumerate() {
                    let shape = self.module.channels[c].shape;
                    all.push(pins(
                        arg_names[i.min(arg_names.len().saturating_sub(1))].clone(),
                        vec![c],
                        false,
                        !shape.control,
                    ));
                }
                for (i, c) in outs.into_iter().enumerate() {
                    let shape = self.module.channels[c].shape;
                    all.push(pins(
                        result_names[i.min(result_names.len().saturating_sub(1))].clone(),
                        vec![c],
                        true,
                        !shape.control,
                    ));
                }
                self.cell(module_name(callee), base, &[], true, all);
            }
            K::Stream => {
                let (ins, outs) = (need!(ins), need!(outs));
                let w = width(self, outs[0]);
                let step =
                    attr_string(&self.func.item, op, "step_op").unwrap_or_else(|| "+=".into());
                let cond =
                    attr_string(&self.func.item, op, "cont_cond").unwrap_or_else(|| "<".into());
                self.cell(
                    "hsir_stream",
                    base,
                    &[
                        ("W", w.to_string()),
                        ("STEP_OP", format!("\"{step}\"")),
                        ("COND", format!("\"{cond}\"")),
                    ],
                    true,
                    vec![
                        pins("start", vec![ins[0]], false, true),
                        pins("step", vec![ins[1]], false, true),
                        pins("bound", vec![ins[2]], false, true),
                        pins("idx", vec![outs[0]], true, true),
                        pins("cont", vec![outs[1]], true, true),
                    ],
                );
            }
            K::Gate => {
                let (ins, outs) = (need!(ins), need!(outs));
                let w = width(self, outs[0]);
                self.cell(
                    "hsir_gate",
                    base,
                    &[("W", w.to_string())],
                    true,
                    vec![
                        pins("in", vec![ins[0]], false, true),
                        pins("cond", vec![ins[1]], false, true),
                        pins("out", vec![outs[0]], true, true),
                        pins("after", vec![outs[1]], true, true),
                    ],
                );
            }
            K::Carry => {
                let (ins, outs) = (need!(ins), need!(outs));
                let w = width(self, outs[0]);
                self.cell(
                    "hsir_carry",
                    base,
                    &[("W", w.to_string())],
                    true,
                    vec![
                        pins("cond", vec![ins[0]], false, true),
                        pins("init", vec![ins[1]], false, true),
                        pins("next", vec![ins[2]], false, true),
                        pins("out", outs, true, true),
                    ],
                );
            }
            K::Invariant => {
                let (ins, outs) = (need!(ins), need!(outs));
                let w = width(self, outs[0]);
                self.cell(
                    "hsir_invariant",
                    base,
                    &[("W", w.to_string())],
                    true,
                    vec![
                        pins("cond", vec![ins[0]], false, true),
                        pins("in", vec![ins[1]], false, true),
                        pins("out", outs, true, true),
                    ],
                );
            }
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
            | K::FPToUI => {
                let (ins, outs) = (need!(ins), need!(outs));
                self.float(op, base, ins, outs);
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
            | K::MinUI
            | K::CmpI => {
                let Some(opname) = binary_op(&self.func.item, op) else {
                    return unsupported(self, "");
                };
                let (ins, outs) = (need!(ins), need!(outs));
                let w = width(self, ins[0]);
                let ow = width(self, outs[0]);
                self.cell(
                    "hsir_binary",
                    base,
                    &[
                        ("W", w.to_string()),
                        ("OW", ow.to_string()),
                        ("OP", format!("\"{opname}\"")),
                        ("LATENCY", unit_latency(kind, w).to_string()),
                    ],
                    true,
                    vec![
                        pins("lhs", vec![ins[0]], false, true),
                        pins("rhs", vec![ins[1]], false, true),
                        pins("out", outs, true, true),
                    ],
                );
            }
            K::Not
            | K::ExtSI
            | K::ExtUI
            | K::TruncI
            | K::Bitcast
            | K::IndexCast
            | K::IndexCastUI => {
                let (ins, outs) = (need!(ins), need!(outs));
                let iw = width(self, ins[0]);
                let ow = width(self, outs[0]);
                let Some(opname) = unary_op(kind, iw, ow) else { return unsupported(self, "") };
                self.cell(
                    "hsir_unary",
                    base,
                    &[
                        ("IW", iw.to_string()),
                        ("OW", ow.to_string()),
                        ("OP", format!("\"{opname}\"")),
                    ],
                    false,
                    vec![pins("in", ins, false, true), pins("out", outs, true, true)],
                );
            }
            K::Func
            | K::EsiInstance
            | K::Init
            | K::Pack
            | K::Unpack
            | K::Reshape
            | K::ArithConstant
            | K::SpecCommit
            | K::Speculator
            | K::SpecSave
            | K::SpecSaveCommit
            | K::SpeculatingBranch
            | K::NonSpec
            | K::Blocker
            | K::ReadyRemover
            | K::ValidMerger
            | K::RemF
            | K::MaximumF
            | K::MinimumF
            | K::MaxNumF
            | K::MinNumF
            | K::AbsF
            | K::CeilDivSI
            | K::CeilDivUI
            | K::FloorDivSI
            | K::PipelineScheduled
            | K::PipelineUnscheduled
            | K::PipelineStage
            | K::PipelineReturn
            | K::PipelineLatency
            | K::PipelineLatencyReturn
            | K::PipelineSrc => unsupported(self, ""),
        }
    }

    /// An op's instance name: its `handshake.name` where it has one (Dynamatic names every op,
    /// and its reports, timing and waveforms use those names), else its kind and result.
    fn cell_name(&mut self, op: &OpData, id: OpId) -> String {
        if let Some(name) = self.func.item.attr(op, "handshake.name") {
            let name = dataflow::attribute_scalar(self.func.item.str(name.value)).trim_matches('"');
            if !name.is_empty() {
                return self.unique(name);
            }
        }
        let kind = op.short_name().rsplit('.').next().unwrap_or("op").to_string();
        match self.func.item.result_groups(op).first() {
            Some(group) => self.unique(&format!(
                "{kind}_{}",
                self.func.item.str(group.name()).trim_start_matches('%')
            )),
            None => self.unique(&format!("{kind}_{id}")),
        }
    }

    fn cell(
        &mut self,
        module: impl Into<Cow<'static, str>>,
        name: String,
        params: &[(&'static str, String)],
        clocked: bool,
        pins: Vec<Pins>,
    ) {
        self.module.cells.push(Cell {
            module: module.into(),
            name,
            params: params.to_vec(),
            clocked,
            pins,
            raw: Vec::new(),
        });
    }

    fn buffer(&mut self, op: &OpData, id: OpId, base: String, input: ChannelId, output: ChannelId) {
        let Some(info) = dataflow::buffer_info(&self.func.item, op, id) else {
            self.error(
                Code::BackendUnsupportedOp,
                op.name_range,
                "a buffer hsir cannot read".into(),
            );
            return;
        };
        let w = self.module.channels[output].shape.bits();
        let shape = self.module.channels[output].shape;
        let slots = info.slot_count().unwrap_or(1);
        let chain = |this: &mut Self,
                     module: &'static str,
                     count: u32,
                     params: &dyn Fn(u32) -> Vec<(&'static str, String)>| {
            let mut from = input;
            for k in 0..count {
                let to = if k + 1 == count {
                    output
                } else {
                    this.new_channel(&format!("{base}_s{k}"), shape, String::new())
                };
                let name = if count == 1 { base.clone() } else { format!("{base}_{k}") };
                this.cell(
                    module,
                    name,
                    &params(k),
                    true,
                    vec![pins("in", vec![from], false, true), pins("out", vec![to], true, true)],
                );
                from = to;
            }
        };
        let wp = move |_k: u32| vec![("W", w.to_string())];
        match info.kind {
            BufferKind::Known(t) | BufferKind::Legacy(t, _) | BufferKind::Implied(t) => match t {
                BufferType::OneSlotBreakDv => chain(self, "hsir_one_slot_break_dv", slots, &|_| {
                    vec![
                        ("W", w.to_string()),
                        ("INIT_VALID", "0".into()),
                        ("INIT_DATA", format!("{w}'d0")),
                    ]
                }),
                BufferType::OneSlotBreakR => chain(self, "hsir_one_slot_break_r", slots, &wp),
                BufferType::OneSlotBreakDvr => chain(self, "hsir_one_slot_break_dvr", slots, &wp),
                BufferType::FifoBreakDv
                | BufferType::FifoBreakNone
                | BufferType::ShiftRegBreakDv => {
                    let module = match t {
                        BufferType::FifoBreakDv => "hsir_fifo_break_dv",
                        BufferType::FifoBreakNone => "hsir_fifo_break_none",
                        _ => "hsir_shift_reg_break_dv",
                    };
                    chain(self, module, 1, &|_| {
                        vec![("W", w.to_string()), ("SLOTS", slots.to_string())]
                    });
                }
            },
            BufferKind::CirctSeq => {
                if self.func.item.attr(op, "initValues").is_some()
                    && init_values(&self.func.item, op).is_none()
                {
                    self.error(
                        Code::BackendUnsupportedOp,
                        op.name_range,
                        format!("`{}` with `initValues` that are not all integers: the backend gives a `seq` buffer integer initial tokens only", op.name),
                    );
                    return;
                }
                let init = init_values(&self.func.item, op).unwrap_or_default();
                let slots =
                    self.func.item.bracket_ints(op).first().map_or(slots, |&n| n as u32).max(1);
                chain(self, "hsir_seq_stage", slots, &|k| {
                    let value = init.get(k as usize).copied();
                    vec![
                        ("W", w.to_string()),
                        ("INIT_VALID", u32::from(value.is_some()).to_string()),
                        (
                            "INIT_DATA",
                            format!("{w}'d{}", value.unwrap_or(0) & crate::program::mask(w)),
                        ),
                    ]
                });
            }
            BufferKind::CirctFifo => {
                if self.func.item.attr(op, "initValues").is_some() {
                    self.error(Code::BackendUnsupportedOp, op.name_range, format!("`{} ... fifo` with `initValues`: hsir gives initial tokens to `seq` buffers only", op.name));
                    return;
                }
                let slots =
                    self.func.item.bracket_ints(op).first().map_or(slots, |&n| n as u32).max(1);
                chain(self, "hsir_fifo_break_dv", 1, &|_| {
                    vec![("W", w.to_string()), ("SLOTS", slots.to_string())]
                });
            }
            BufferKind::Unknown(name) => {
                self.error(
                    Code::BackendUnsupportedOp,
                    op.name_range,
                    format!("the backend has no RTL for buffer type `{name}`"),
                );
            }
            BufferKind::Missing => {
                // A buffer without a type: Dynamatic's default is a transparent FIFO.
                chain(self, "hsir_fifo_break_none", 1, &|_| {
                    vec![("W", w.to_string()), ("SLOTS", slots.to_string())]
                });
            }
        }
    }

    /// A memory interface (CIRCT's `memory` and `extmemory`, Dynamatic's `mem_controller`),
    /// its ports' roles as `memories.rs` reads them. An internal memory is a `hsir_memory`; a
    /// memref argument is reached through `hsir_ext_memory` and the module's BRAM ports, and a
    /// `mem_controller` adds `hsir_mc_control` for its end token. Port groups an interface does
    /// not have are tied off.
    fn memory(&mut self, id: OpId, base: String) {
        use crate::memories::{self, InterfaceKind, MemoryKind, Port as Role};
        let func = self.func;
        let op = &func.item.ops[id as usize];
        let Some(iface) = memories::interface(func, id) else { return };
        let Some(spec) =
            memories::memories(func).into_iter().find(|m| m.interfaces.iter().any(|i| i.op == id))
        else {
            self.error(
                Code::BackendUnsupportedOp,
                op.name_range,
                format!(
                    "`{}` whose memory hsir cannot size (a memref with a static shape is needed)",
                    op.short_name()
                ),
            );
            return;
        };
        if iface.operands.contains(&Role::Unknown) || iface.results.contains(&Role::Unknown) {
            self.error(
                Code::BackendUnsupportedOp,
                op.name_range,
                format!("`{}` whose ports hsir cannot tell apart", op.short_name()),
            );
            return;
        }
        let operand = |this: &Self, role: Role| {
            iface
                .operand(role)
                .and_then(|i| self.func.item.operands(op).get(i))
                .and_then(|&u| this.chan_of_use(u))
        };
        let result = |this: &Self, role: Role| {
            iface
                .result(role)
                .and_then(|i| self.func.item.results(op).get(i))
                .and_then(|&v| this.chan_of_value(v))
        };
        let (ld, st) = (iface.loads, iface.stores);
        let ld_addr: Option<Vec<_>> = (0..ld).map(|k| operand(self, Role::LoadAddr(k))).collect();
        let st_addr: Option<Vec<_>> = (0..st).map(|k| operand(self, Role::StoreAddr(k))).collect();
        let st_data: Option<Vec<_>> = (0..st).map(|k| operand(self, Role::StoreData(k))).collect();
        let ld_data: Option<Vec<_>> = (0..ld).map(|k| result(self, Role::LoadData(k))).collect();
        let (Some(ld_addr), Some(st_addr), Some(st_data), Some(ld_data)) =
            (ld_addr, st_addr, st_data, ld_data)
        else {
            return;
        };
        let aw = ld_addr
            .iter()
            .chain(&st_addr)
            .map(|&c| self.module.channels[c].shape.bits())
            .max()
            .unwrap_or(1);
        let w = spec.width;
        let dynamatic = iface.kind == InterfaceKind::MemController;
        let st_done: Vec<ChannelId> = if dynamatic {
            // An `lsq [MC]` hears when its stores are written.
            (0..st)
                .map(|k| match iface.lsq_ports {
                    Some(p) if p.store == k => self.controller_done(p.lsq),
                    _ => self.tie_output(&base, 1),
                })
                .collect()
        } else {
            match (0..st).map(|k| result(self, Role::StoreDone(k))).collect::<Option<Vec<_>>>() {
                Some(v) => v,
                None => return,
            }
        };
        let ld_done: Vec<ChannelId> = if dynamatic {
            (0..ld).map(|_| self.tie_output(&base, 1)).collect()
        } else {
            match (0..ld).map(|k| result(self, Role::LoadDone(k))).collect::<Option<Vec<_>>>() {
                Some(v) => v,
                None => return,
            }
        };
        // Groups without ports get one port that never asks (inputs) or always takes (outputs).
        let fill_in = |this: &mut Self, v: Vec<ChannelId>, width: u32| {
            if v.is_empty() {
                vec![this.tie_input(&base, width)]
            } else {
                v
            }
        };
        let st_data = fill_in(self, st_data, w);
        let st_addr = fill_in(self, st_addr, aw);
        let ld_addr = fill_in(self, ld_addr, aw);
        let fill_out = |this: &mut Self, v: Vec<ChannelId>, width: u32| {
            if v.is_empty() {
                vec![this.tie_output(&base, width)]
            } else {
                v
            }
        };
        let ld_data = fill_out(self, ld_data, w);
        let st_done = fill_out(self, st_done, 1);
        let ld_done = fill_out(self, ld_done, 1);
        let pins_list = vec![
            group("st_data", st_data, false, true),
            group("st_addr", st_addr, false, true),
            group("ld_addr", ld_addr, false, true),
            group("ld_data", ld_data, true, true),
            group("st_done", st_done, true, false),
            group("ld_done", ld_done, true, false),
        ];
        let mut params = vec![
            ("NLD", ld.max(1).to_string()),
            ("NST", st.max(1).to_string()),
            ("W", w.to_string()),
            ("AW", aw.to_string()),
        ];
        match spec.kind {
            MemoryKind::Internal(_) => {
                params.push(("DEPTH", spec.depth.to_string()));
                self.module.cells.push(Cell {
                    module: "hsir_memory".into(),
                    name: base,
                    params,
                    clocked: true,
                    pins: pins_list,
                    raw: Vec::new(),
                });
            }
            MemoryKind::Argument(arg) => {
                let Some(mem) = self.module.memories.iter_mut().find(|m| m.arg == arg) else {
                    return;
                };
                mem.addr_width = aw;
                let n = mem.name.clone();
                let raw: Vec<(String, String)> =
                    ["loadEn", "loadAddr", "loadData", "storeEn", "storeAddr", "storeData"]
                        .iter()
                        .map(|p| (p.to_string(), format!("{n}_{p}")))
                        .collect();
                self.module.cells.push(Cell {
                    module: "hsir_ext_memory".into(),
                    name: base.clone(),
                    params,
                    clocked: true,
                    pins: pins_list,
                    raw,
                });
                if dynamatic {
                    // Dynamatic 2024's `mem_controller` has no `memStart` / `ctrlEnd`: both are
                    // always there, so its done token is offered while no announced store is
                    // pending (and taken again and again: it is never left over).
                    let steady = iface.steady_done;
                    let (start, end) = if steady {
                        (Some(self.tie_valid(&base)), Some(self.tie_valid(&base)))
                    } else {
                        (operand(self, Role::MemStart), operand(self, Role::CtrlEnd))
                    };
                    let (Some(start), Some(end), Some(mem_end)) =
                        (start, end, result(self, Role::MemEnd))
                    else {
                        self.error(
                            Code::BackendUnsupportedOp,
                            op.name_range,
                            format!("`{}` without its start, end and done tokens", op.short_name()),
                        );
                        return;
                    };
                    if steady {
                        self.steady.push(mem_end);
                    }
                    let counts: Option<Vec<ChannelId>> = (0..iface.store_counts)
                        .map(|k| operand(self, Role::StoreCount(k)))
                        .collect();
                    let Some(counts) = counts else { return };
                    let cw = counts
                        .iter()
                        .map(|&c| self.module.channels[c].shape.bits())
                        .max()
                        .unwrap_or(1);
                    let counts =
                        if counts.is_empty() { vec![self.tie_input(&base, cw)] } else { counts };
                    self.module.cells.push(Cell {
                        module: "hsir_mc_control".into(),
                        name: format!("{base}_control"),
                        params: vec![
                            ("NCTRL", iface.store_counts.max(1).to_string()),
                            ("CW", cw.to_string()),
                        ],
                        clocked: true,
                        pins: vec![
                            pins("mem_start", vec![start], false, false),
                            group("ctrl", counts, false, true),
                            pins("ctrl_end", vec![end], false, false),
                            pins("mem_end", vec![mem_end], true, false),
                        ],
                        raw: vec![("st_issued".into(), format!("{n}_storeEn"))],
                    });
                }
            }
        }
    }

    /// A channel into a port group that has no real port: never valid.
    fn tie_input(&mut self, base: &str, width: u32) -> ChannelId {
        let c = self.new_channel(
            &format!("{base}_none"),
            Shape { data: width, control: false },
            String::new(),
        );
        let name = self.module.channels[c].name.clone();
        self.module.assigns.push((format!("{name}_valid"), "1'b0".into()));
        self.module.assigns.push((format!("{name}_data"), format!("{}'d0", width.max(1))));
        self.module.channels[c].data_driven = true;
        self.module.unused.push(format!("{name}_ready"));
        c
    }

    /// A control channel that always holds a token (nothing takes it away).
    fn tie_valid(&mut self, base: &str) -> ChannelId {
        let c = self.new_channel(
            &format!("{base}_always"),
            Shape { data: 0, control: true },
            String::new(),
        );
        let name = self.module.channels[c].name.clone();
        self.module.assigns.push((format!("{name}_valid"), "1'b1".into()));
        self.module.assigns.push((format!("{name}_data"), "1'b0".into()));
        self.module.channels[c].data_driven = true;
        self.module.unused.push(format!("{name}_ready"));
        self.steady.push(c);
        c
    }

    /// The function's results, from the terminator's operands: each a port of the module. In
    /// Dynamatic 2024, `end`'s operands after the results are the memories' done tokens, and a
    /// result leaves only while every done token is offered (a `hsir_wait` per result, each
    /// with its own copy of every done token).
    fn terminator(&mut self, op: &OpData, base: String, ins: Vec<ChannelId>) {
        let names = self.func.result_names();
        let (results, done) = ins.split_at(self.func.terminator_results(op).min(ins.len()));
        if results.is_empty() {
            for &d in done {
                let name = self.unique(&format!("{base}_done"));
                self.cell("hsir_sink", name, &[], false, vec![pins("in", vec![d], false, false)]);
            }
        }
        // Copies of each done token, one per result.
        let mut copies: Vec<Vec<ChannelId>> = vec![Vec::new(); results.len()];
        for &d in done {
            if results.len() == 1 {
                copies[0].push(d);
                continue;
            }
            let shape = self.module.channels[d].shape;
            let label = self.module.channels[d].label.clone();
            let outs: Vec<ChannelId> = (0..results.len())
                .map(|i| self.new_channel(&format!("{base}_done{i}"), shape, label.clone()))
                .collect();
            for (i, &o) in outs.iter().enumerate() {
                copies[i].push(o);
            }
            let name = self.unique(&format!("{base}_fork"));
            self.cell(
                "hsir_fork",
                name,
                &[("N", outs.len().to_string()), ("W", shape.bits().to_string())],
                true,
                vec![pins("in", vec![d], false, true), group("out", outs, true, true)],
            );
        }
        for (i, &result) in results.iter().enumerate() {
            let name = names.get(i).cloned().unwrap_or_else(|| format!("out{i}"));
            let shape = self.module.channels[result].shape;
            let channel = if done.is_empty() {
                result
            } else {
                let label = self.module.channels[result].label.clone();
                let out = self.new_channel(&format!("{base}_{name}"), shape, label);
                let cell = self.unique(&format!("{base}_wait{i}"));
                self.cell(
                    "hsir_wait",
                    cell,
                    &[("NT", done.len().to_string()), ("W", shape.bits().to_string())],
                    false,
                    vec![
                        group("tok", std::mem::take(&mut copies[i]), false, false),
                        pins("in", vec![result], false, true),
                        pins("out", vec![out], true, true),
                    ],
                );
                out
            };
            self.module.outputs.push(Port { name, channel, shape });
        }
    }

    /// A channel out of a port group that has no real port: always taken.
    fn tie_output(&mut self, base: &str, width: u32) -> ChannelId {
        let c = self.new_channel(
            &format!("{base}_none"),
            Shape { data: width, control: false },
            String::new(),
        );
        let name = self.module.channels[c].name.clone();
        self.module.assigns.push((format!("{name}_ready"), "1'b1".into()));
        self.module.unused.push(format!("{name}_valid"));
        c
    }
}

/// A result that is its operand renamed: `br`'s, a `return`'s before `end`, and Dynamatic's
/// loads and stores (address and data pass through to the memory interface).
fn alias_of(item: &Item, op: &OpData, n: u32) -> Option<UseId> {
    match OpKind::of(op)? {
        // compose and decompose retype the same bits: data low, downstream signals above.
        OpKind::Br | OpKind::Compose | OpKind::Decompose => item.operands(op).first().copied(),
        // Result `n` of a `return` is its operand `n`.
        OpKind::Return => item.operands(op).get(n as usize).copied(),
        // Dynamatic: `load[%addr] %data` -> (addressResult, dataResult); stores alike, and
        // 2024's `mc_*` / `lsq_*` (whose operands are address, data too).
        kind if kind.is_access() && op.operands.len() == 2 => {
            item.operands(op).get(n.min(1) as usize).copied()
        }
        _ => None,
    }
}

fn pins(
    port: impl Into<Cow<'static, str>>,
    channels: Vec<ChannelId>,
    output: bool,
    data: bool,
) -> Pins {
    Pins { port: port.into(), channels, output, data, group: false }
}

fn group(
    port: impl Into<Cow<'static, str>>,
    channels: Vec<ChannelId>,
    output: bool,
    data: bool,
) -> Pins {
    Pins { port: port.into(), channels, output, data, group: true }
}

/// The Verilog module of a function: its name as an identifier, out of the library's namespace
/// (`hsir_*`), so that no function takes a library module's name, or `hsir_lib.v`'s.
pub fn module_name(func: &str) -> String {
    let name = identifier(func);
    if name.starts_with("hsir_") || name == "hsir" {
        format!("{name}_fn")
    } else {
        name
    }
}

/// Bits to address `depth` words (at least 1).
pub fn address_width(depth: u64) -> u32 {
    let mut bits = 1;
    while bits < 64 && (1u64 << bits) < depth {
        bits += 1;
    }
    bits
}

/// The `value` of a constant as an unsigned word of `width` bits.
pub fn constant_value(item: &Item, op: &OpData, width: u32) -> Option<u64> {
    Some(
        crate::program::parse_integer(item.attr_value(op, "value")?)? & crate::program::mask(width),
    )
}

fn attr_string(item: &Item, op: &OpData, key: &str) -> Option<String> {
    item.attr_value(op, key).map(|a| dataflow::attribute_scalar(a).to_string())
}

/// Pipeline stages of the library unit for an integer op of `width` bits: the built-in timing
/// model's latency at its default period (Dynamatic's: `muli` 4, the dividers 35, others 0).
pub fn unit_latency(kind: OpKind, width: u32) -> u32 {
    let model = crate::buffers::timing::TimingModel::builtin();
    model
        .op_at_period(kind.key(), width, crate::buffers::timing::DEFAULT_PERIOD)
        .map_or(0, |timing| timing.latency)
}

/// The library's name for an integer op with two operands (`hsir_binary`'s `OP`): the op's key
/// (`addi`), or for `cmpi` the key and its predicate (`cmpi_slt`).
pub fn binary_op(item: &Item, op: &OpData) -> Option<String> {
    let kind = OpKind::of(op)?;
    if kind == OpKind::CmpI {
        const PREDICATES: &[&str] =
            &["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"];
        let predicate =
            item.words(op).iter().map(|&w| item.str(w)).find(|w| PREDICATES.contains(w))?;
        return Some(format!("{}_{predicate}", kind.key()));
    }
    crate::sim::BinaryOp::of(kind).map(|_| kind.key().to_string())
}

/// The library's name for a one-operand op from `iw` to `ow` bits (`hsir_unary`'s `OP`): the
/// op's key, and for `index_cast` / `index_castui` the cast it is at those widths.
pub fn unary_op(kind: OpKind, iw: u32, ow: u32) -> Option<&'static str> {
    let cast = match kind {
        OpKind::Not | OpKind::ExtSI | OpKind::ExtUI | OpKind::TruncI | OpKind::Bitcast => kind,
        // `index_cast` sign-extends or truncates, `index_castui` zero-extends.
        OpKind::IndexCast | OpKind::IndexCastUI if ow < iw => OpKind::TruncI,
        OpKind::IndexCast if ow > iw => OpKind::ExtSI,
        OpKind::IndexCastUI if ow > iw => OpKind::ExtUI,
        OpKind::IndexCast | OpKind::IndexCastUI => OpKind::Bitcast,
        _ => return None,
    };
    Some(cast.key())
}

#[cfg(test)]
mod tests {
    use super::module_name;

    #[test]
    fn functions_stay_out_of_the_library_namespace() {
        assert_eq!(module_name("kernel"), "kernel");
        assert_eq!(module_name("hsir_fork"), "hsir_fork_fn");
        assert_eq!(module_name("hsir_lib"), "hsir_lib_fn");
        assert_eq!(module_name("a.b"), "a_b");
    }
}
