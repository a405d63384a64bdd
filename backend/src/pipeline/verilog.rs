//! Lowering a decoded module to one Verilog-2005 module: CIRCT's `pipeline-explicit-regs`
//! (registers wherever a value crosses a stage boundary) followed by `lower-pipeline-to-hw`
//! (stage enables, valids and clock enables), with the comb, arith and seq ops written as
//! continuous assignments and `always` blocks.
//!
//! One choice differs from CIRCT's RTL on purpose: the result of `pipeline.latency N` is
//! delayed by `N` registers (each clock-enabled like the stage data registers it stands in for)
//! instead of reaching later stages through wires as a multi-cycle path, so that the generated
//! RTL computes, cycle by cycle, what the schedule means. A `pass(...)` of such a value while it
//! is still on its way is one of those registers; a `pass(...)` of a ready value is a wire.

use std::collections::{BTreeSet, HashMap};

use hsir_analysis::ir::ValueId;

use super::design::{BinaryOp, Design, Exit, Kind, Node, Origin, Place, Predicate, StageKind};
use crate::program::{identifier, mask};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decl {
    Input,
    Output,
    Wire,
    Reg,
}

#[derive(Debug, Clone)]
struct Signal {
    name: String,
    width: u32,
    decl: Decl,
    /// Bits some expression reads.
    used: u64,
    /// Why the signal exists, for a comment on its declaration.
    comment: Option<String>,
}

/// A value in the netlist: a named signal or a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operand {
    Signal(usize),
    Literal { width: u32, value: u64 },
}

/// A register's update rule.
#[derive(Debug, Clone)]
struct Register {
    signal: usize,
    next: Operand,
    /// A 1-bit clock enable expression, rendered.
    enable: Option<String>,
    /// Synchronous reset: the condition and the value, rendered.
    reset: Option<(String, String)>,
}

/// Where one value crosses into a stage: the register holding it there.
#[derive(Debug, Clone, Copy)]
struct Route {
    value: ValueId,
    /// Whether CIRCT's `pipeline-explicit-regs` would register it (`regs`) rather than pass it
    /// (`pass`, a latency result still on its way); only names depend on it.
    circt_reg: bool,
}

struct Lowering<'d> {
    design: &'d Design,
    signals: Vec<Signal>,
    taken: BTreeSet<String>,
    /// Per value, its netlist operand where it is defined, once known.
    own: Vec<Option<Operand>>,
    resolving: Vec<bool>,
    /// The signal of each node result that is a wire or a register.
    node_signal: HashMap<ValueId, usize>,
    /// (pipeline, stage) -> the register holding `value` in that stage, for values read in a
    /// later stage than their own.
    routed: HashMap<(usize, usize, ValueId), usize>,
    /// Per pipeline: the enable register of each stage (index 0 unused).
    enables: Vec<Vec<usize>>,
    /// Per pipeline: the valid wire of each stage, when it differs from its enable.
    valids: Vec<Vec<Option<usize>>>,
    /// Per pipeline and stage: the register or wire of each data argument.
    stage_args: HashMap<ValueId, ArgSignal>,
    /// Per pipeline: when each value may be read.
    ready: Vec<HashMap<ValueId, usize>>,
    clock: Option<usize>,
    ports: HashMap<ValueId, usize>,
    sections: Vec<(String, Vec<String>)>,
    registers: Vec<Register>,
}

#[derive(Debug, Clone, Copy)]
enum ArgSignal {
    Register(usize),
    /// A pass-through of a ready value: the value of the previous stage.
    Wire,
}

/// Lowers a decoded module to Verilog text.
pub(crate) fn lower(design: &Design) -> String {
    let mut lowering = Lowering {
        design,
        signals: Vec::new(),
        taken: BTreeSet::new(),
        own: vec![None; design.width.len()],
        resolving: vec![false; design.width.len()],
        node_signal: HashMap::new(),
        routed: HashMap::new(),
        enables: Vec::new(),
        valids: Vec::new(),
        stage_args: HashMap::new(),
        ready: (0..design.pipelines.len()).map(|p| design.ready(p)).collect(),
        clock: None,
        ports: HashMap::new(),
        sections: Vec::new(),
        registers: Vec::new(),
    };
    // The lint sink's name is never a signal's.
    lowering.taken.insert("_unused".to_string());
    lowering.run();
    lowering.render()
}

fn prefixed(prefix: &str, rest: &str) -> String {
    if prefix.is_empty() {
        rest.to_string()
    } else {
        format!("{prefix}_{rest}")
    }
}

fn literal(width: u32, value: u64) -> String {
    if width == 1 {
        format!("1'b{}", value & 1)
    } else {
        format!("{width}'d{}", value & mask(width))
    }
}

fn range(width: u32) -> String {
    if width == 1 {
        String::new()
    } else {
        format!("[{}:0] ", width - 1)
    }
}

impl<'d> Lowering<'d> {
    fn name(&mut self, base: &str) -> String {
        let base = if base.is_empty() { "_v".to_string() } else { identifier(base) };
        let mut name = base.clone();
        let mut n = 1;
        while self.taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }

    fn signal(&mut self, base: &str, width: u32, decl: Decl, comment: Option<String>) -> usize {
        let name = self.name(base);
        self.signals.push(Signal { name, width, decl, used: 0, comment });
        self.signals.len() - 1
    }

    fn width(&self, operand: Operand) -> u32 {
        match operand {
            Operand::Signal(s) => self.signals[s].width,
            Operand::Literal { width, .. } => width,
        }
    }

    /// Renders an operand read in full.
    fn read(&mut self, operand: Operand) -> String {
        match operand {
            Operand::Signal(s) => {
                let signal = &mut self.signals[s];
                signal.used |= mask(signal.width);
                signal.name.clone()
            }
            Operand::Literal { width, value } => literal(width, value),
        }
    }

    /// Renders bits `low .. low + width` of an operand.
    fn read_bits(&mut self, operand: Operand, low: u32, width: u32) -> String {
        match operand {
            Operand::Literal { value, .. } => literal(width, value >> low),
            Operand::Signal(s) => {
                let signal = &mut self.signals[s];
                signal.used |= mask(width) << low;
                if signal.width == width {
                    signal.name.clone()
                } else if width == 1 {
                    format!("{}[{low}]", signal.name)
                } else {
                    format!("{}[{}:{low}]", signal.name, low + width - 1)
                }
            }
        }
    }

    fn section(&mut self, header: String) {
        self.sections.push((header, Vec::new()));
    }

    fn line(&mut self, line: String) {
        if self.sections.is_empty() {
            self.section(String::new());
        }
        if let Some((_, lines)) = self.sections.last_mut() {
            lines.push(line);
        }
    }

    fn assign(&mut self, signal: usize, expression: String) {
        let name = self.signals[signal].name.clone();
        self.line(format!("assign {name} = {expression};"));
    }

    fn register(&mut self, register: Register) {
        self.registers.push(register.clone());
        let name = self.signals[register.signal].name.clone();
        let next = self.read(register.next);
        let mut text = String::from("always @(posedge ");
        let clock = self.clock.map(|c| self.read(Operand::Signal(c))).unwrap_or_default();
        text.push_str(&clock);
        text.push(')');
        match (&register.reset, &register.enable) {
            (None, None) => text.push_str(&format!(" {name} <= {next};")),
            (None, Some(enable)) => text.push_str(&format!(" if ({enable}) {name} <= {next};")),
            (Some((reset, value)), None) => text.push_str(&format!(
                "\n  if ({reset}) {name} <= {value};\n  else {name} <= {next};"
            )),
            (Some((reset, value)), Some(enable)) => text.push_str(&format!(
                "\n  if ({reset}) {name} <= {value};\n  else if ({enable}) {name} <= {next};"
            )),
        }
        self.line(text);
    }

    // ---- values ---------------------------------------------------------------------------

    /// A value read at `place`: its own operand, or the register holding it there when it
    /// comes from an earlier stage.
    fn at(&mut self, value: ValueId, place: Place) -> Operand {
        if let Some(c) = self.design.constant(value) {
            return Operand::Literal { width: self.design.width[value as usize], value: c };
        }
        match (self.design.place[value as usize], place) {
            (Place::Stage { pipeline, stage: d }, Place::Stage { stage: s, .. }) if d < s => {
                match self.routed.get(&(pipeline, s, value)) {
                    Some(&signal) => Operand::Signal(signal),
                    None => self.own(value),
                }
            }
            _ => self.own(value),
        }
    }

    fn own(&mut self, value: ValueId) -> Operand {
        if let Some(known) = self.own[value as usize] {
            return known;
        }
        if self.resolving[value as usize] {
            // The design reader rejects combinational loops, so this is never reached.
            return Operand::Literal { width: self.design.width[value as usize].max(1), value: 0 };
        }
        self.resolving[value as usize] = true;
        let design = self.design;
        let operand = match design.origin[value as usize] {
            Origin::Input(_) => match self.ports.get(&value) {
                Some(&s) => Operand::Signal(s),
                None => Operand::Literal { width: 1, value: 0 },
            },
            Origin::Node { node, index } => {
                let node_data = &design.nodes[node];
                match &node_data.kind {
                    Kind::Constant(c) => {
                        Operand::Literal { width: design.width[value as usize], value: *c }
                    }
                    Kind::Source => self.at(node_data.operands[0], node_data.place),
                    Kind::Latency { returned, .. } => self.at(returned[index], node_data.place),
                    _ => Operand::Signal(self.node_signal[&value]),
                }
            }
            Origin::PipelineResult { pipeline, index } => {
                let p = &design.pipelines[pipeline];
                let last = p.stages.len() - 1;
                if index < p.outputs() {
                    match &p.stages[last].exit {
                        Exit::Return(values) => {
                            self.at(values[index], Place::Stage { pipeline, stage: last })
                        }
                        Exit::Next { .. } => Operand::Literal { width: 1, value: 0 },
                    }
                } else {
                    self.valid(pipeline, last)
                }
            }
            Origin::InnerInput { pipeline, index } => {
                self.at(design.pipelines[pipeline].inputs[index].1, Place::Module)
            }
            Origin::EntryEnable { pipeline } => {
                self.at(design.pipelines[pipeline].go, Place::Module)
            }
            Origin::StageEnable { pipeline, stage } => {
                Operand::Signal(self.enables[pipeline][stage])
            }
            Origin::StageArg { pipeline, stage, index } => match self.stage_args.get(&value) {
                Some(ArgSignal::Register(s)) => Operand::Signal(*s),
                Some(ArgSignal::Wire) | None => {
                    let source = self.carry_source(pipeline, stage, index);
                    self.at(source, Place::Stage { pipeline, stage: stage - 1 })
                }
            },
            Origin::Unknown => Operand::Literal { width: 1, value: 0 },
        };
        self.resolving[value as usize] = false;
        self.own[value as usize] = Some(operand);
        operand
    }

    /// The value sent as data argument `index` of `stage`.
    fn carry_source(&self, pipeline: usize, stage: usize, index: usize) -> ValueId {
        match &self.design.pipelines[pipeline].stages[stage - 1].exit {
            Exit::Next { regs, pass } => regs.iter().chain(pass).nth(index).map_or(0, |c| c.value),
            Exit::Return(_) => 0,
        }
    }

    /// A stage's enable: `go` for the entry stage, its enable register after.
    fn enable(&mut self, pipeline: usize, stage: usize) -> Operand {
        if stage == 0 {
            self.at(self.design.pipelines[pipeline].go, Place::Module)
        } else {
            Operand::Signal(self.enables[pipeline][stage])
        }
    }

    /// A stage's valid: its enable, gated by the stall signal as its kind says.
    fn valid(&mut self, pipeline: usize, stage: usize) -> Operand {
        match self.valids[pipeline][stage] {
            Some(s) => Operand::Signal(s),
            None => self.enable(pipeline, stage),
        }
    }

    /// The enable of the last non-stallable stage before `stage` (CIRCT's `lnsEn`).
    fn last_nonstallable(&mut self, pipeline: usize, stage: usize) -> Option<Operand> {
        let last = (0..stage)
            .rev()
            .find(|&s| self.design.stage_kind(pipeline, s) == StageKind::NonStallable)?;
        Some(self.enable(pipeline, last))
    }

    fn not_stall(&mut self, pipeline: usize) -> String {
        let stall = self.design.pipelines[pipeline].stall.map(|s| self.at(s, Place::Module));
        match stall {
            Some(Operand::Literal { value, .. }) => literal(1, !value & 1),
            Some(operand) => format!("~{}", self.read(operand)),
            None => literal(1, 1),
        }
    }

    // ---- the lowering ---------------------------------------------------------------------

    fn run(&mut self) {
        let design = self.design;
        for port in &design.ports {
            let decl = if port.input { Decl::Input } else { Decl::Output };
            let name = self.name(&port.name);
            self.signals.push(Signal { name, width: port.width, decl, used: 0, comment: None });
            let signal = self.signals.len() - 1;
            if let Some(v) = port.value {
                self.ports.insert(v, signal);
                if port.clock {
                    self.clock = Some(signal);
                }
            }
        }

        // Text order: module ops and pipelines as they are written.
        enum Item {
            Node(usize),
            Pipeline(usize),
        }
        let mut items: Vec<(u32, Item)> = design
            .module_nodes
            .iter()
            .map(|&n| (design.nodes[n].op, Item::Node(n)))
            .chain(design.pipelines.iter().enumerate().map(|(i, p)| (p.op, Item::Pipeline(i))))
            .collect();
        items.sort_by_key(|(op, _)| *op);

        // Signals first, so that any expression can name any signal.
        for (_, item) in &items {
            match item {
                Item::Node(n) => self.declare_node(*n, None),
                Item::Pipeline(p) => self.declare_pipeline(*p),
            }
        }
        let mut module_section = false;
        for (_, item) in &items {
            match item {
                Item::Node(n) => {
                    if !module_section {
                        self.section("Module body.".to_string());
                        module_section = true;
                    }
                    self.lower_node(*n);
                }
                Item::Pipeline(p) => {
                    module_section = false;
                    self.lower_pipeline(*p);
                }
            }
        }
        self.section("Outputs.".to_string());
        let outputs: Vec<usize> =
            (0..self.signals.len()).filter(|&s| self.signals[s].decl == Decl::Output).collect();
        for (signal, &value) in outputs.into_iter().zip(&design.outputs) {
            let operand = self.at(value, Place::Module);
            let text = self.read(operand);
            self.assign(signal, text);
        }
    }

    /// Declares the wires and registers of a node (and of a latency body).
    fn declare_node(&mut self, node: usize, comment: Option<String>) {
        let design = self.design;
        let node_data = &design.nodes[node];
        match &node_data.kind {
            Kind::Constant(_) | Kind::Source => {}
            Kind::Latency { body, cycles, .. } => {
                for &inner in body {
                    let comment = format!("in `pipeline.latency {cycles}`");
                    self.declare_node(inner, Some(comment));
                }
            }
            kind => {
                let decl =
                    if matches!(kind, Kind::CompReg { .. }) { Decl::Reg } else { Decl::Wire };
                for &r in &node_data.results {
                    let base = design.value_name(r).trim_start_matches('%').replace('#', "_");
                    let signal =
                        self.signal(&base, design.width[r as usize], decl, comment.clone());
                    self.node_signal.insert(r, signal);
                }
            }
        }
    }

    /// The values crossing into each stage of a pipeline that are read there (or further) but
    /// defined earlier, in the order CIRCT's `pipeline-explicit-regs` adds them: stages in
    /// order, each stage's ops visited after the ops nested in them, operands in order, and a
    /// value routed back stage by stage from where it is read.
    fn routes(&self, pipeline: usize) -> Vec<Vec<Route>> {
        let design = self.design;
        let p = &design.pipelines[pipeline];
        let mut routes: Vec<Vec<Route>> = vec![Vec::new(); p.stages.len()];
        fn post_order(design: &Design, node: usize, out: &mut Vec<ValueId>) {
            let n = &design.nodes[node];
            if let Kind::Latency { body, returned, .. } = &n.kind {
                for &inner in body {
                    post_order(design, inner, out);
                }
                out.extend(returned.iter().copied());
            }
            out.extend(n.operands.iter().copied());
        }
        for (s, stage) in p.stages.iter().enumerate() {
            let mut operands = Vec::new();
            for &node in &stage.nodes {
                post_order(design, node, &mut operands);
            }
            match &stage.exit {
                Exit::Next { regs, pass } => {
                    operands.extend(regs.iter().chain(pass).map(|c| c.value));
                }
                Exit::Return(values) => operands.extend(values.iter().copied()),
            }
            for v in operands {
                let Some(d) = design.stage_of(v, pipeline) else { continue };
                if d >= s || design.constant(v).is_some() {
                    continue;
                }
                let latency = match design.origin[v as usize] {
                    Origin::Node { node, .. } => match design.nodes[node].kind {
                        Kind::Latency { cycles, .. } => cycles as usize,
                        _ => 0,
                    },
                    _ => 0,
                };
                let mut at = s;
                while at > d {
                    if routes[at].iter().any(|r| r.value == v) {
                        break;
                    }
                    routes[at].push(Route { value: v, circt_reg: latency < at - d });
                    at -= 1;
                }
            }
        }
        routes
    }

    fn declare_pipeline(&mut self, pipeline: usize) {
        let design = self.design;
        let p = &design.pipelines[pipeline];
        let prefix = p.prefix.clone();
        let stages = p.stages.len();
        let mut enables = vec![usize::MAX; stages];
        let mut valids = vec![None; stages];
        for s in 0..stages {
            if s > 0 {
                let name = prefixed(&prefix, &format!("stage{s}_enable"));
                enables[s] = self.signal(&name, 1, Decl::Reg, None);
            }
            if matches!(design.stage_kind(pipeline, s), StageKind::Stallable | StageKind::Runoff) {
                let name = prefixed(&prefix, &format!("stage{s}_valid"));
                valids[s] = Some(self.signal(&name, 1, Decl::Wire, None));
            }
        }
        self.enables.push(enables);
        self.valids.push(valids);
        let routes = self.routes(pipeline);
        for s in 0..stages {
            for &node in &p.stages[s].nodes {
                self.declare_node(node, None);
            }
            let Exit::Next { regs, pass } = &p.stages[s].exit else { continue };
            let next = &p.stages[s + 1];
            // Explicit registers and pass-throughs (a register-materialized pipeline).
            for (k, (carry, &arg)) in regs.iter().zip(&next.args).enumerate() {
                let name = match &carry.name {
                    Some(n) => prefixed(&prefix, n),
                    None => prefixed(&prefix, &format!("stage{s}_reg{k}")),
                };
                let width = design.width[arg as usize];
                let signal = self.signal(&name, width, Decl::Reg, None);
                self.stage_args.insert(arg, ArgSignal::Register(signal));
            }
            for (k, (carry, &arg)) in pass.iter().zip(&next.args[regs.len()..]).enumerate() {
                let pending = self.ready[pipeline].get(&carry.value).is_some_and(|&r| r > s);
                if pending {
                    let name = match &carry.name {
                        Some(n) => prefixed(&prefix, n),
                        None => prefixed(&prefix, &format!("stage{s}_pass{k}")),
                    };
                    let width = design.width[arg as usize];
                    let comment = Some(format!(
                        "`{}` on its way (latency), passed to stage {}",
                        design.value_name(carry.value),
                        s + 1
                    ));
                    let signal = self.signal(&name, width, Decl::Reg, comment);
                    self.stage_args.insert(arg, ArgSignal::Register(signal));
                } else {
                    self.stage_args.insert(arg, ArgSignal::Wire);
                }
            }
            // Registers for values read in a later stage than their own.
            let (mut reg_index, mut pass_index) = (0, 0);
            for route in &routes[s + 1] {
                let rest = if route.circt_reg {
                    reg_index += 1;
                    format!("stage{s}_reg{}", reg_index - 1)
                } else {
                    pass_index += 1;
                    format!("stage{s}_pass{}", pass_index - 1)
                };
                let name = prefixed(&prefix, &rest);
                let width = design.width[route.value as usize];
                let comment =
                    Some(format!("`{}` in stage {}", design.value_name(route.value), s + 1));
                let signal = self.signal(&name, width, Decl::Reg, comment);
                self.routed.insert((pipeline, s + 1, route.value), signal);
            }
        }
    }

    fn lower_pipeline(&mut self, pipeline: usize) {
        let design = self.design;
        let p = &design.pipelines[pipeline];
        let label = if p.prefix.is_empty() { "(unnamed)".to_string() } else { p.prefix.clone() };
        let reset = p.reset.map(|r| self.at(r, Place::Module));
        for s in 0..p.stages.len() {
            let kind = design.stage_kind(pipeline, s);
            self.section(format!("Pipeline {label}, stage {s} ({}).", describe(kind)));
            let place = Place::Stage { pipeline, stage: s };
            // The enable register: the previous stage's valid, held while this stage may not
            // advance.
            if s > 0 {
                let next = self.valid(pipeline, s - 1);
                let enable = match kind {
                    StageKind::Continuous | StageKind::NonStallable => None,
                    StageKind::Stallable => Some(self.not_stall(pipeline)),
                    StageKind::Runoff => {
                        let lns = self.last_nonstallable(pipeline, s);
                        let lns = lns.map(|l| self.read(l)).unwrap_or_else(|| literal(1, 0));
                        Some(format!("{lns} | {}", self.not_stall(pipeline)))
                    }
                };
                let reset = reset.map(|r| (self.read(r), literal(1, 0)));
                let signal = self.enables[pipeline][s];
                self.register(Register { signal, next, enable, reset });
            }
            if let Some(valid) = self.valids[pipeline][s] {
                let enable = self.enable(pipeline, s);
                let enable = self.read(enable);
                let gate = match kind {
                    StageKind::Runoff => {
                        let lns = self.last_nonstallable(pipeline, s);
                        let lns = lns.map(|l| self.read(l)).unwrap_or_else(|| literal(1, 0));
                        format!("({lns} | {})", self.not_stall(pipeline))
                    }
                    _ => self.not_stall(pipeline),
                };
                self.assign(valid, format!("{enable} & {gate}"));
            }
            for &node in &p.stages[s].nodes {
                self.lower_node(node);
            }
            let Exit::Next { regs, pass } = &p.stages[s].exit else { continue };
            // Data registers load when the stage's valid says its contents move on (always,
            // in a pipeline without a stall signal).
            let data_enable = if kind == StageKind::Continuous {
                None
            } else {
                let valid = self.valid(pipeline, s);
                Some(self.read(valid))
            };
            let next = &p.stages[s + 1];
            for (carry, &arg) in regs.iter().chain(pass).zip(&next.args) {
                if let Some(ArgSignal::Register(signal)) = self.stage_args.get(&arg).copied() {
                    let input = self.at(carry.value, place);
                    self.register(Register {
                        signal,
                        next: input,
                        enable: data_enable.clone(),
                        reset: None,
                    });
                }
            }
            let mut routed: Vec<(ValueId, usize)> = self
                .routed
                .iter()
                .filter(|((q, t, _), _)| *q == pipeline && *t == s + 1)
                .map(|((_, _, v), &signal)| (*v, signal))
                .collect();
            routed.sort_by_key(|&(_, signal)| signal);
            for (value, signal) in routed {
                let input = self.at(value, place);
                self.register(Register {
                    signal,
                    next: input,
                    enable: data_enable.clone(),
                    reset: None,
                });
            }
        }
    }

    fn lower_node(&mut self, node: usize) {
        let design = self.design;
        let node_data: &Node = &design.nodes[node];
        let place = node_data.place;
        let operands: Vec<Operand> =
            node_data.operands.iter().map(|&v| self.at(v, place)).collect();
        let Some(&result) = node_data.results.first() else { return };
        let width = design.width[result as usize];
        let expression = match &node_data.kind {
            Kind::Constant(_) | Kind::Source => return,
            Kind::Latency { body, .. } => {
                for &inner in body {
                    self.lower_node(inner);
                }
                return;
            }
            Kind::CompReg { enable, reset } => {
                let enable = enable.map(|e| {
                    let e = self.at(e, place);
                    self.read(e)
                });
                let reset = reset.map(|(r, value)| {
                    let r = self.at(r, place);
                    let value = self.at(value, place);
                    (self.read(r), self.read(value))
                });
                let signal = self.node_signal[&result];
                self.register(Register { signal, next: operands[0], enable, reset });
                return;
            }
            Kind::Binary(op) => self.binary(*op, &operands, width),
            Kind::Compare(predicate) => {
                let a = self.read(operands[0]);
                let b = self.read(operands[1]);
                let (symbol, signed) = match predicate {
                    Predicate::Eq => ("==", false),
                    Predicate::Ne => ("!=", false),
                    Predicate::Slt => ("<", true),
                    Predicate::Sle => ("<=", true),
                    Predicate::Sgt => (">", true),
                    Predicate::Sge => (">=", true),
                    Predicate::Ult => ("<", false),
                    Predicate::Ule => ("<=", false),
                    Predicate::Ugt => (">", false),
                    Predicate::Uge => (">=", false),
                };
                if signed {
                    format!("$signed({a}) {symbol} $signed({b})")
                } else {
                    format!("{a} {symbol} {b}")
                }
            }
            Kind::Mux => {
                let c = self.read(operands[0]);
                let a = self.read(operands[1]);
                let b = self.read(operands[2]);
                format!("{c} ? {a} : {b}")
            }
            Kind::Concat => {
                let parts: Vec<String> = operands.iter().map(|&o| self.read(o)).collect();
                format!("{{{}}}", parts.join(", "))
            }
            Kind::Extract { low } => self.read_bits(operands[0], *low, width),
            Kind::Replicate => {
                let times = width / self.width(operands[0]).max(1);
                let a = self.read(operands[0]);
                format!("{{{times}{{{a}}}}}")
            }
            Kind::Parity => format!("^{}", self.read(operands[0])),
            Kind::Extend { signed } => {
                let from = self.width(operands[0]);
                let fill = width - from;
                let top = if *signed {
                    let sign = self.read_bits(operands[0], from - 1, 1);
                    format!("{{{fill}{{{sign}}}}}")
                } else {
                    literal(fill, 0)
                };
                let a = self.read(operands[0]);
                format!("{{{top}, {a}}}")
            }
            Kind::Truncate => self.read_bits(operands[0], 0, width),
        };
        let signal = self.node_signal[&result];
        self.assign(signal, expression);
    }

    fn binary(&mut self, op: BinaryOp, operands: &[Operand], width: u32) -> String {
        let parts: Vec<String> = operands.iter().map(|&o| self.read(o)).collect();
        let zero = literal(width, 0);
        let (a, b) = (&parts[0], parts.get(1).cloned().unwrap_or_default());
        match op {
            BinaryOp::Add => parts.join(" + "),
            BinaryOp::Mul => parts.join(" * "),
            BinaryOp::And => parts.join(" & "),
            BinaryOp::Or => parts.join(" | "),
            BinaryOp::Xor => parts.join(" ^ "),
            BinaryOp::Sub => format!("{a} - {b}"),
            // Division and remainder by zero give zero (Verilog would give x), here and in the
            // evaluator alike.
            BinaryOp::DivU => format!("{b} == {zero} ? {zero} : {a} / {b}"),
            BinaryOp::ModU => format!("{b} == {zero} ? {zero} : {a} % {b}"),
            BinaryOp::DivS => {
                format!("{b} == {zero} ? {zero} : $unsigned($signed({a}) / $signed({b}))")
            }
            BinaryOp::ModS => {
                format!("{b} == {zero} ? {zero} : $unsigned($signed({a}) % $signed({b}))")
            }
            BinaryOp::Shl => format!("{a} << {b}"),
            BinaryOp::ShrU => format!("{a} >> {b}"),
            BinaryOp::ShrS => format!("$unsigned($signed({a}) >>> {b})"),
        }
    }

    // ---- text -----------------------------------------------------------------------------

    fn render(&mut self) -> String {
        let design = self.design;
        let mut out = String::new();
        out.push_str(&format!(
            "// Generated by hsir from `hw.module @{}`. Pipelines follow CIRCT's\n\
             // pipeline-explicit-regs and lower-pipeline-to-hw; every register starts at zero.\n",
            design.name
        ));
        let ports: Vec<String> = self
            .signals
            .iter()
            .filter(|s| matches!(s.decl, Decl::Input | Decl::Output))
            .map(|s| {
                let direction = if s.decl == Decl::Input { "input " } else { "output" };
                format!("  {direction} wire {}{}", range(s.width), s.name)
            })
            .collect();
        if ports.is_empty() {
            out.push_str(&format!("module {};\n", design.name));
        } else {
            out.push_str(&format!("module {} (\n{}\n);\n", design.name, ports.join(",\n")));
        }
        let declarations: Vec<String> = self
            .signals
            .iter()
            .filter(|s| matches!(s.decl, Decl::Wire | Decl::Reg))
            .map(|s| {
                let kind = if s.decl == Decl::Reg { "reg " } else { "wire" };
                let comment = s.comment.as_ref().map(|c| format!("  // {c}")).unwrap_or_default();
                format!("  {kind} {}{};{comment}", range(s.width), s.name)
            })
            .collect();
        if !declarations.is_empty() {
            out.push('\n');
            for d in declarations {
                out.push_str(&d);
                out.push('\n');
            }
        }
        for (header, lines) in &self.sections {
            if lines.is_empty() {
                continue;
            }
            out.push('\n');
            if !header.is_empty() {
                out.push_str(&format!("  // {header}\n"));
            }
            for line in lines {
                for part in line.split('\n') {
                    out.push_str("  ");
                    out.push_str(part);
                    out.push('\n');
                }
            }
        }
        let registers: Vec<usize> = self.registers.iter().map(|r| r.signal).collect();
        if !registers.is_empty() {
            out.push_str("\n  // Power-on values: every register starts at zero, as the evaluator assumes.\n");
            out.push_str("  initial begin\n");
            for signal in registers {
                let s = &self.signals[signal];
                out.push_str(&format!("    {} = {};\n", s.name, literal(s.width, 0)));
            }
            out.push_str("  end\n");
        }
        let unused: Vec<String> = self
            .signals
            .iter()
            .filter(|s| s.decl != Decl::Output && s.used != mask(s.width))
            .map(|s| s.name.clone())
            .collect();
        if !unused.is_empty() {
            out.push_str(
                "\n  // Signals (or bits) nothing reads, gathered by Verilator's `unused` naming\n  \
                 // convention so that lint stays quiet about them.\n",
            );
            out.push_str(&format!("  wire _unused = &{{1'b0, {}, 1'b0}};\n", unused.join(", ")));
        }
        out.push_str("endmodule\n");
        out
    }
}

fn describe(kind: StageKind) -> &'static str {
    match kind {
        StageKind::Continuous => "continuous",
        StageKind::Stallable => "stallable",
        StageKind::NonStallable => "non-stallable",
        StageKind::Runoff => "runoff",
    }
}
