//! What the pipeline backend reads from one `hw.module`: its ports, its ops decoded into the
//! few kinds the backend knows, and its `pipeline.scheduled` ops as stages in chain order with
//! what each stage boundary carries.
//!
//! Reading is shared; meaning is not. `verilog` and `eval` each give the decoded ops their
//! semantics on their own, so that the evaluator stays an independent reference for the RTL.
//! What both must agree on and is not a matter of semantics (which op, which operands, which
//! widths, which stage) is decided here once, with the problems that stop both: unsupported ops
//! (HS5001) and types (HS5003), and, through `rules`, widths that disagree and combinational
//! loops (HS2020). CIRCT's pipeline rules (stage chains, where and when values are read,
//! stallability: HS4xxx) are the analysis's: a module with errors is not read at all.

pub(crate) use crate::sim::Predicate;
use std::collections::HashMap;

use hsir_analysis::ir::{Container, Item, OpData, OpId, ValueId};
use hsir_analysis::ops::{Dialect, OpKind};
use hsir_analysis::types::{self, Type};
use hsir_analysis::{Diagnostic, DiagnosticCode, TextRange};
use hsir_parser::ast::{self, AstNode};
use hsir_parser::{SyntaxKind, SyntaxNode};

use super::rules;
use crate::program::{identifier, mask, HwModule, MAX_WIDTH};

/// One port of the module, in the order the `hw.module` declares its inputs, then its outputs.
#[derive(Debug, Clone)]
pub(crate) struct PortInfo {
    /// The Verilog name.
    pub name: String,
    /// Bits; 1 for the clock.
    pub width: u32,
    pub input: bool,
    pub clock: bool,
    /// Used as the reset of a pipeline or a register.
    pub reset: bool,
    /// Used as the stall signal of a pipeline.
    pub stall: bool,
    /// Used as the `go` signal of a pipeline.
    pub go: bool,
    /// The argument value of an input port.
    pub value: Option<ValueId>,
}

/// Where a value lives: the module body, or a stage of a pipeline (nested latency bodies count
/// as their stage).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Place {
    Module,
    Stage { pipeline: usize, stage: usize },
}

/// What defines a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Input port `n`.
    Input(usize),
    /// Result `index` of `nodes[node]`.
    Node { node: usize, index: usize },
    /// Output `index` of a pipeline; `index == outputs` is `done`.
    PipelineResult { pipeline: usize, index: usize },
    /// The inner name of pipeline input `index`.
    InnerInput { pipeline: usize, index: usize },
    /// `entryEn(...)`: stage 0's enable.
    EntryEnable { pipeline: usize },
    /// The enable argument of a stage after the first.
    StageEnable { pipeline: usize, stage: usize },
    /// Data argument `index` of a stage after the first (registers first, then pass-throughs).
    StageArg { pipeline: usize, stage: usize, index: usize },
    /// Nothing the backend reads defines it.
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryOp {
    Add,
    Sub,
    Mul,
    DivU,
    DivS,
    ModU,
    ModS,
    And,
    Or,
    Xor,
    Shl,
    ShrU,
    ShrS,
}

impl BinaryOp {
    /// Whether the op takes any number of operands (CIRCT's variadic comb ops).
    pub fn variadic(self) -> bool {
        matches!(self, BinaryOp::Add | BinaryOp::Mul | BinaryOp::And | BinaryOp::Or | BinaryOp::Xor)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    Constant(u64),
    Binary(BinaryOp),
    Compare(Predicate),
    /// Operands: condition, then true and false values.
    Mux,
    /// Operands most significant first, as `comb.concat` writes them.
    Concat,
    Extract {
        low: u32,
    },
    Replicate,
    Parity,
    Extend {
        signed: bool,
    },
    Truncate,
    /// Operands: input, clock. A clock enable and a synchronous reset (signal, value) when
    /// written.
    CompReg {
        enable: Option<ValueId>,
        reset: Option<(ValueId, ValueId)>,
    },
    /// `pipeline.latency`: its body's nodes run in the stage; its results are the returned
    /// values, ready `cycles` stages later.
    Latency {
        cycles: u32,
        body: Vec<usize>,
        returned: Vec<ValueId>,
    },
    /// `pipeline.src`: the operand, as the token in this stage computed it.
    Source,
}

#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub op: OpId,
    pub kind: Kind,
    pub operands: Vec<ValueId>,
    pub results: Vec<ValueId>,
    pub place: Place,
}

/// A value sent across a stage boundary by `regs(...)` or `pass(...)`, with its written name.
#[derive(Debug, Clone)]
pub(crate) struct Carry {
    pub value: ValueId,
    pub name: Option<String>,
}

#[derive(Debug, Clone)]
pub(crate) enum Exit {
    Next { regs: Vec<Carry>, pass: Vec<Carry> },
    Return(Vec<ValueId>),
}

#[derive(Debug, Clone)]
pub(crate) struct Stage {
    /// Top-level nodes of the stage, in text order (latency bodies are inside their node).
    pub nodes: Vec<usize>,
    /// Data arguments (stages after the first): registers first, then pass-throughs.
    pub args: Vec<ValueId>,
    pub exit: Exit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StageKind {
    Continuous,
    Stallable,
    NonStallable,
    Runoff,
}

#[derive(Debug, Clone)]
pub(crate) struct Pipeline {
    pub op: OpId,
    /// What CIRCT prefixes the pipeline's registers with: its name when written (possibly
    /// empty), else `p<N>` counting the module's pipelines.
    pub prefix: String,
    /// Inner input values and the outer values they stand for.
    pub inputs: Vec<(ValueId, ValueId)>,
    pub go: ValueId,
    pub stall: Option<ValueId>,
    pub reset: Option<ValueId>,
    pub clock: ValueId,
    pub stallability: Option<Vec<bool>>,
    pub stages: Vec<Stage>,
    /// The op's results: the outputs, then `done`.
    pub results: Vec<ValueId>,
}

impl Pipeline {
    /// The number of outputs (`done` not counted).
    pub fn outputs(&self) -> usize {
        self.results.len().saturating_sub(1)
    }
}

/// The decoded module.
#[derive(Debug, Clone)]
pub(crate) struct Design {
    /// The Verilog module name.
    pub name: String,
    pub ports: Vec<PortInfo>,
    /// What `hw.output` returns, one per output port.
    pub outputs: Vec<ValueId>,
    pub nodes: Vec<Node>,
    /// Nodes of the module body, in text order (pipelines are not nodes).
    pub module_nodes: Vec<usize>,
    pub pipelines: Vec<Pipeline>,
    /// Per value: bits (0 for clocks and values nothing reads).
    pub width: Vec<u32>,
    pub place: Vec<Place>,
    pub origin: Vec<Origin>,
    /// The clock port's value, when there is one.
    pub clock: Option<ValueId>,
    /// The `%name` of each value, for messages and signal names.
    pub value_names: Vec<String>,
}

impl Design {
    pub fn inputs(&self) -> impl Iterator<Item = (usize, &PortInfo)> {
        self.ports.iter().enumerate().filter(|(_, p)| p.input)
    }

    pub fn output_ports(&self) -> impl Iterator<Item = &PortInfo> {
        self.ports.iter().filter(|p| !p.input)
    }

    /// Whether a value is a constant, which every stage may read directly.
    pub fn constant(&self, value: ValueId) -> Option<u64> {
        match self.origin[value as usize] {
            Origin::Node { node, .. } => match self.nodes[node].kind {
                Kind::Constant(c) => Some(c),
                _ => None,
            },
            _ => None,
        }
    }

    /// The stage a value lives in, for a value of pipeline `pipeline`.
    pub fn stage_of(&self, value: ValueId, pipeline: usize) -> Option<usize> {
        match self.place[value as usize] {
            Place::Stage { pipeline: p, stage } if p == pipeline => Some(stage),
            _ => None,
        }
    }

    /// CIRCT's `ScheduledPipelineOp::getStageKind`, rule for rule. Note its walk back over
    /// earlier stages stops before stage 0, so a non-stallable entry stage makes no stage a
    /// runoff stage.
    pub fn stage_kind(&self, pipeline: usize, stage: usize) -> StageKind {
        let p = &self.pipelines[pipeline];
        if p.stall.is_none() {
            return StageKind::Continuous;
        }
        let Some(stallability) = &p.stallability else { return StageKind::Stallable };
        if stallability.get(stage) == Some(&false) {
            return StageKind::NonStallable;
        }
        if stage == 0 {
            return StageKind::Stallable;
        }
        for earlier in (1..stage).rev() {
            if self.stage_kind(pipeline, earlier) == StageKind::NonStallable {
                return StageKind::Runoff;
            }
        }
        StageKind::Stallable
    }

    /// The stage from which each value of a pipeline may be read: its own stage, or for the
    /// results of `pipeline.latency N` in stage `d`, stage `d + N`. Values carried across a
    /// boundary keep the later of the two.
    pub fn ready(&self, pipeline: usize) -> HashMap<ValueId, usize> {
        let mut ready = HashMap::new();
        let p = &self.pipelines[pipeline];
        for (value, place) in self.place.iter().enumerate() {
            if let Place::Stage { pipeline: q, stage } = *place {
                if q == pipeline {
                    ready.insert(value as ValueId, stage);
                }
            }
        }
        // Stages in order, so a carried value's source is settled before its argument.
        for (s, stage) in p.stages.iter().enumerate() {
            for &node in &stage.nodes {
                let node = &self.nodes[node];
                match &node.kind {
                    Kind::Latency { cycles, .. } => {
                        for &r in &node.results {
                            ready.insert(r, s + *cycles as usize);
                        }
                    }
                    Kind::Source => {
                        let from = node.operands.first().and_then(|v| ready.get(v)).copied();
                        if let (Some(from), Some(&r)) = (from, node.results.first()) {
                            ready.insert(r, from.max(s));
                        }
                    }
                    _ => {}
                }
            }
            if let Exit::Next { regs, pass } = &stage.exit {
                let next = &p.stages[s + 1];
                for (carry, &arg) in regs.iter().chain(pass).zip(&next.args) {
                    let from = ready.get(&carry.value).copied().unwrap_or(0);
                    ready.insert(arg, from.max(s + 1));
                }
            }
        }
        ready
    }

    /// For the Verilog and the messages: the written `%name` of a value.
    pub fn value_name(&self, value: ValueId) -> &str {
        &self.value_names[value as usize]
    }
}

/// Facts read from an op's own tokens (not its regions) that the lowered item does not keep.
#[derive(Debug, Default, Clone)]
struct OpFacts {
    /// An integer (with its sign) or `true` / `false` written on the op.
    literal: Option<i128>,
    /// The integer after `from` (`comb.extract`).
    from: Option<u64>,
    /// `^bb1` of `pipeline.stage`.
    successor: Option<String>,
    /// The string written after the op name (`pipeline.scheduled "name"`).
    string: Option<String>,
    /// Type names in `-> (...)` (`pipeline.latency N -> (i32)`).
    arrow_types: Vec<String>,
    /// For each keyword group (`regs`, `pass`): the names written before its operands.
    carry_names: Vec<(String, Vec<Option<String>>)>,
    /// Pipeline output names and types.
    outputs: Vec<(String, Option<Type>)>,
}

fn unquote(text: &str) -> String {
    text.trim_matches('"').to_string()
}

fn read_facts(node: SyntaxNode<'_>) -> OpFacts {
    let mut facts = OpFacts::default();
    let mut negative = false;
    let mut after_from = false;
    let mut after_arrow = false;
    for element in node.children_with_tokens() {
        match element.kind() {
            SyntaxKind::MINUS => negative = true,
            SyntaxKind::INT => {
                let Some(token) = element.into_token() else { continue };
                let text = token.text();
                let value = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
                    Some(hex) => i128::from_str_radix(hex, 16).ok(),
                    None => text.parse::<i128>().ok(),
                };
                if after_from {
                    facts.from = value.and_then(|v| u64::try_from(v).ok());
                    after_from = false;
                } else if facts.literal.is_none() {
                    facts.literal = value.map(|v| if negative { -v } else { v });
                }
                negative = false;
            }
            SyntaxKind::IDENT => {
                let Some(token) = element.into_token() else { continue };
                match token.text() {
                    "true" if facts.literal.is_none() => facts.literal = Some(1),
                    "false" if facts.literal.is_none() => facts.literal = Some(0),
                    "from" => after_from = true,
                    _ => {}
                }
            }
            SyntaxKind::STRING if facts.string.is_none() => {
                if let Some(token) = element.into_token() {
                    facts.string = Some(unquote(token.text()));
                }
            }
            SyntaxKind::ARROW => after_arrow = true,
            SyntaxKind::PAREN_GROUP if after_arrow => {
                if let Some(group) = element.into_node() {
                    facts.arrow_types = group
                        .descendants_with_tokens()
                        .filter_map(|e| e.into_token())
                        .filter(|t| t.kind() == SyntaxKind::IDENT)
                        .map(|t| t.text().to_string())
                        .collect();
                }
            }
            SyntaxKind::SUCCESSOR => {
                if let Some(group) = element.into_node() {
                    facts.successor = group
                        .tokens()
                        .find(|t| t.kind() == SyntaxKind::CARET_ID)
                        .map(|t| t.text().to_string());
                }
            }
            SyntaxKind::KEYWORD_GROUP => {
                let Some(group) = element.into_node() else { continue };
                let keyword = ast::KeywordGroup::cast(group)
                    .and_then(|g| g.keyword())
                    .unwrap_or("")
                    .to_string();
                let mut names = Vec::new();
                let mut pending = None;
                for child in group.children_with_tokens() {
                    match child.kind() {
                        SyntaxKind::STRING => {
                            pending = child.into_token().map(|t| unquote(t.text()));
                        }
                        SyntaxKind::OPERAND => names.push(pending.take()),
                        _ => {}
                    }
                }
                facts.carry_names.push((keyword, names));
            }
            _ => {}
        }
    }
    if let Some(op) = ast::Op::cast(node) {
        for output in op.pipeline_outputs() {
            let name = output.name().map_or(String::new(), |t| t.text().to_string());
            let ty = output.ty().map(|t| types::lower(t.syntax(), &mut Vec::new()));
            facts.outputs.push((name, ty));
        }
    }
    facts
}

/// Bits of a type the backend carries: integers up to 64 bits and `index`; `Err` for the rest
/// (clocks are read separately).
fn bits(ty: &Type) -> Option<u32> {
    match ty {
        Type::Int { width, .. } if (1..=MAX_WIDTH).contains(width) => Some(*width),
        Type::Index => Some(crate::program::INDEX_WIDTH),
        _ => None,
    }
}

fn is_clock(ty: &Type) -> bool {
    matches!(ty, Type::Other(text) if text.trim() == "!seq.clock")
}

fn type_text(ty: &Type) -> String {
    match ty {
        Type::Int { width, .. } => format!("i{width}"),
        Type::Index => "index".to_string(),
        Type::Other(text) => text.clone(),
        other => format!("{other:?}"),
    }
}

struct Reader<'m> {
    module: &'m HwModule,
    facts: HashMap<(u32, u32), OpFacts>,
    design: Design,
    diagnostics: Vec<Diagnostic>,
}

/// Reads a module. Every problem is reported; nothing is returned unless there are none. A
/// module the analysis found errors in (`HwModule::errors`: its types, names, CIRCT's pipeline
/// rules) is refused with them, unread: the rules are the analysis's, and the reader relies on
/// them.
pub(crate) fn read(module: &HwModule) -> Result<Design, Vec<Diagnostic>> {
    if !module.errors.is_empty() {
        return Err(module.errors.clone());
    }
    let parse = hsir_parser::parse(module.text.clone());
    let mut facts = HashMap::new();
    for node in parse.root().descendants().filter(|n| n.kind() == SyntaxKind::OP) {
        let range = node.text_range();
        facts.insert((u32::from(range.start()), u32::from(range.end())), read_facts(node));
    }
    let output_names = output_port_names(&parse);
    let values = module.item.values.len();
    let mut reader = Reader {
        module,
        facts,
        design: Design {
            name: identifier(&module.name),
            ports: Vec::new(),
            outputs: Vec::new(),
            nodes: Vec::new(),
            module_nodes: Vec::new(),
            pipelines: Vec::new(),
            width: vec![0; values],
            place: vec![Place::Module; values],
            origin: vec![Origin::Unknown; values],
            clock: None,
            value_names: module.item.values.iter().map(|v| v.display(&module.item, 1)).collect(),
        },
        diagnostics: Vec::new(),
    };
    for (v, data) in module.item.values.iter().enumerate() {
        let len = hsir_analysis::ir::group_len(&module.item, v as ValueId);
        reader.design.value_names[v] = data.display(&module.item, len);
    }
    reader.read_module(&output_names);
    if reader.diagnostics.is_empty() {
        for (op, code, message) in rules::validate(&reader.design, module) {
            reader.error(code, op, message);
        }
    }
    if reader.diagnostics.is_empty() {
        for (op, code, message) in rules::check_loops(&reader.design) {
            reader.error(code, op, message);
        }
    }
    if reader.diagnostics.is_empty() {
        Ok(reader.design)
    } else {
        Err(reader.diagnostics)
    }
}

/// The names of the first item's `out` ports, in order.
fn output_port_names(parse: &hsir_parser::Parse) -> Vec<String> {
    let Some(file) = ast::SourceFile::cast(parse.root()) else { return Vec::new() };
    let Some(top) = file.ops().next() else { return Vec::new() };
    let Some(signature) = top.signature() else { return Vec::new() };
    signature
        .args()
        .into_iter()
        .filter(|a| a.direction().is_some_and(|d| d.text() == "out"))
        .map(|a| a.name().map_or(String::new(), |t| unquote(t.text())))
        .collect()
}

impl Reader<'_> {
    fn op(&self, op: OpId) -> &OpData {
        &self.module.item.ops[op as usize]
    }

    fn facts(&self, op: OpId) -> OpFacts {
        let range = self.op(op).range;
        self.facts
            .get(&(u32::from(range.start()), u32::from(range.end())))
            .cloned()
            .unwrap_or_default()
    }

    fn absolute(&self, range: TextRange) -> TextRange {
        range + self.module.offset
    }

    fn error(&mut self, code: DiagnosticCode, op: OpId, message: String) {
        let range = self.absolute(self.op(op).name_range);
        self.diagnostics.push(Diagnostic::new(code, range, message));
    }

    /// A pipeline whose stages the reader cannot order or time. The analysis's pipeline rules
    /// (HS4xxx) refuse such modules before they get here (`read` starts from the module's
    /// errors); this is the reader's own guard, so that nothing is guessed should one slip
    /// through.
    fn malformed(&mut self, op: OpId, message: String) {
        self.error(
            DiagnosticCode::BackendUnsupportedOp,
            op,
            format!("the pipeline backend cannot lower this pipeline: {message}"),
        );
    }

    fn unsupported(&mut self, op: OpId, why: &str) {
        let name = self.op(op).name.clone();
        self.error(
            DiagnosticCode::BackendUnsupportedOp,
            op,
            format!("the pipeline backend cannot lower `{name}`{why}"),
        );
    }

    /// The values of an op's operands, all of them resolved.
    fn operands(
        &mut self,
        op: OpId,
        filter: impl Fn(&Item, &Container) -> bool,
    ) -> Option<Vec<ValueId>> {
        let item = &self.module.item;
        let mut out = Vec::new();
        for &u in item.operands(&item.ops[op as usize]) {
            let use_ = &item.uses[u as usize];
            if !filter(item, &use_.container) {
                continue;
            }
            match use_.value {
                Some(v) => out.push(v),
                None => {
                    let text = self.module.item.str(use_.text()).to_string();
                    self.error(
                        DiagnosticCode::BackendUnsupportedOp,
                        op,
                        format!("operand `{text}` of `{}` names no value", self.op(op).name),
                    );
                    return None;
                }
            }
        }
        Some(out)
    }

    /// The width of a written type; reports types the backend does not carry.
    fn type_width(&mut self, op: OpId, ty: Option<&Type>) -> Option<u32> {
        match ty {
            Some(ty) => match bits(ty) {
                Some(w) => Some(w),
                None => {
                    let text = type_text(ty);
                    self.error(
                        DiagnosticCode::BackendUnsupportedType,
                        op,
                        format!(
                            "`{}` has type `{text}`; the pipeline backend carries integers of 1 to \
                             {MAX_WIDTH} bits",
                            self.op(op).name
                        ),
                    );
                    None
                }
            },
            None => {
                self.error(
                    DiagnosticCode::BackendUnsupportedType,
                    op,
                    format!("`{}` has no type the pipeline backend can read", self.op(op).name),
                );
                None
            }
        }
    }

    fn read_module(&mut self, output_names: &[String]) {
        let item = &self.module.item;
        let Some(top) = item.ops.first() else { return };
        let Some(signature) = top.signature.clone() else {
            self.unsupported(0, " without a signature");
            return;
        };
        let mut taken: Vec<String> = Vec::new();
        let mut unique = |base: String| {
            let mut name = base.clone();
            let mut n = 1;
            while taken.contains(&name) {
                name = format!("{base}_{n}");
                n += 1;
            }
            taken.push(name.clone());
            name
        };
        for port in &signature.args {
            let Some(value) = port.value else { continue };
            let name = unique(identifier(
                item.str(item.values[value as usize].name()).trim_start_matches('%'),
            ));
            let (width, clock) = match item.port_ty(port) {
                Some(ty) if is_clock(ty) => (1, true),
                ty => match ty.and_then(bits) {
                    Some(w) => (w, false),
                    None => {
                        let text = ty.map_or("?".to_string(), type_text);
                        let range = self.absolute(port.range);
                        self.diagnostics.push(Diagnostic::new(
                            DiagnosticCode::BackendUnsupportedType,
                            range,
                            format!(
                                "input port `{name}` has type `{text}`; the pipeline backend \
                                 carries integers of 1 to {MAX_WIDTH} bits and `!seq.clock`"
                            ),
                        ));
                        continue;
                    }
                },
            };
            if clock {
                if self.design.clock.is_some() {
                    let range = self.absolute(port.range);
                    self.diagnostics.push(Diagnostic::new(
                        DiagnosticCode::BackendUnsupportedType,
                        range,
                        format!("`{name}` is a second clock; the pipeline backend takes one clock"),
                    ));
                }
                self.design.clock = Some(value);
            } else {
                self.design.width[value as usize] = width;
            }
            self.design.origin[value as usize] = Origin::Input(self.design.ports.len());
            self.design.ports.push(PortInfo {
                name,
                width,
                input: true,
                clock,
                reset: false,
                stall: false,
                go: false,
                value: Some(value),
            });
        }
        for (index, port) in signature.results.iter().enumerate() {
            let written = output_names.get(index).cloned().unwrap_or_default();
            let base =
                if written.is_empty() { format!("out{index}") } else { identifier(&written) };
            let name = unique(base);
            let Some(width) = item.port_ty(port).and_then(bits) else {
                let text = item.port_ty(port).map_or("?".to_string(), type_text);
                let range = self.absolute(port.range);
                self.diagnostics.push(Diagnostic::new(
                    DiagnosticCode::BackendUnsupportedType,
                    range,
                    format!(
                        "output port `{name}` has type `{text}`; the pipeline backend carries \
                         integers of 1 to {MAX_WIDTH} bits"
                    ),
                ));
                continue;
            };
            self.design.ports.push(PortInfo {
                name,
                width,
                input: false,
                clock: false,
                reset: false,
                stall: false,
                go: false,
                value: None,
            });
        }

        let Some(&region) = item.op_regions(top).first() else { return };
        let Some(&block) = item.regions[region as usize].blocks.first() else { return };
        let body: Vec<OpId> = item.blocks[block as usize].ops.clone();
        let mut saw_output = false;
        for op in body {
            let data = self.op(op);
            match (dialect_op(data), &*data.name) {
                (_, "hw.output") => {
                    saw_output = true;
                    if let Some(values) = self.operands(op, |_, _| true) {
                        self.design.outputs = values;
                    }
                }
                (Some(OpKind::PipelineScheduled), _) => self.read_pipeline(op),
                _ => {
                    if let Some(node) = self.read_node(op, Place::Module) {
                        self.design.module_nodes.push(node);
                    }
                }
            }
        }
        // Registers' resets are resets too (the testbench holds them at the start).
        let resets: Vec<ValueId> = self
            .design
            .nodes
            .iter()
            .filter_map(|n| match n.kind {
                Kind::CompReg { reset: Some((r, _)), .. } => Some(r),
                _ => None,
            })
            .collect();
        for port in &mut self.design.ports {
            if port.value.is_some_and(|v| resets.contains(&v)) {
                port.reset = true;
            }
        }
        let outputs = self.design.output_ports().count();
        if !saw_output && outputs > 0 {
            self.unsupported(0, " without an `hw.output`");
        }
    }

    /// Decodes one op into a node; `None` (with a diagnostic) when it is not supported.
    fn read_node(&mut self, op: OpId, place: Place) -> Option<usize> {
        let data = self.op(op).clone();
        let name = &*data.name;
        let kind = dialect_op(&data);
        if !data.regions.is_empty() && kind != Some(OpKind::PipelineLatency) {
            self.unsupported(op, ": ops with regions are not supported here");
            return None;
        }
        let item = &self.module.item;
        let one = |t: &hsir_analysis::ir::TypeEntry| match *t {
            hsir_analysis::ir::TypeEntry::One(w) => Some(item.ty(w.ty).clone()),
            _ => None,
        };
        let first_type = item.types(&data).first().and_then(one);
        let last_type = item.types(&data).last().and_then(one);
        let function_out = item.types(&data).first().and_then(|t| match *t {
            hsir_analysis::ir::TypeEntry::Function(_, outs, _) => {
                item.written(outs).first().map(|w| item.ty(w.ty).clone())
            }
            _ => None,
        });
        let after_type = item.types_after(&data).first().and_then(one);
        // `comb`'s ops are not in the op table; `arith`'s are.
        let binary = match kind {
            Some(kind) => arith_binary(kind),
            None => comb_binary(name),
        };
        let operands = self.operands(op, |_, _| true)?;
        let (node, widths): (Kind, Vec<u32>) = if let Some(b) = binary {
            let w = self.type_width(op, first_type.as_ref())?;
            let arity_ok = if b.variadic() && name.starts_with("comb.") {
                !operands.is_empty()
            } else {
                operands.len() == 2
            };
            if !arity_ok {
                self.unsupported(op, &format!(" with {} operands", operands.len()));
                return None;
            }
            (Kind::Binary(b), vec![w])
        } else {
            match (kind, name) {
                (Some(OpKind::CmpI), _) | (None, "comb.icmp") => {
                    let item = &self.module.item;
                    let predicate = item.words(&data).iter().find_map(|&w| {
                        Some(match item.str(w) {
                            "eq" | "ceq" | "weq" => Predicate::Eq,
                            "ne" | "cne" | "wne" => Predicate::Ne,
                            "slt" => Predicate::Slt,
                            "sle" => Predicate::Sle,
                            "sgt" => Predicate::Sgt,
                            "sge" => Predicate::Sge,
                            "ult" => Predicate::Ult,
                            "ule" => Predicate::Ule,
                            "ugt" => Predicate::Ugt,
                            "uge" => Predicate::Uge,
                            _ => return None,
                        })
                    });
                    let Some(predicate) = predicate else {
                        self.unsupported(op, " without a predicate it knows");
                        return None;
                    };
                    self.type_width(op, first_type.as_ref())?;
                    if operands.len() != 2 {
                        self.unsupported(op, &format!(" with {} operands", operands.len()));
                        return None;
                    }
                    (Kind::Compare(predicate), vec![1])
                }
                (Some(OpKind::ArithSelect), _) | (None, "comb.mux") => {
                    let w = self.type_width(op, last_type.as_ref())?;
                    if operands.len() != 3 {
                        self.unsupported(op, &format!(" with {} operands", operands.len()));
                        return None;
                    }
                    (Kind::Mux, vec![w])
                }
                (None, "comb.concat") => {
                    let mut total = 0;
                    for entry in self.module.item.types(&data) {
                        let &hsir_analysis::ir::TypeEntry::One(w) = entry else {
                            self.unsupported(op, " with a type list it cannot read");
                            return None;
                        };
                        let ty = self.module.item.ty(w.ty).clone();
                        total += self.type_width(op, Some(&ty))?;
                    }
                    if total == 0 || total > MAX_WIDTH || data.types.len() != operands.len() {
                        self.error(
                            DiagnosticCode::BackendUnsupportedType,
                            op,
                            format!(
                                "`comb.concat` makes {total} bits from {} operands; the pipeline \
                                 backend carries 1 to {MAX_WIDTH} bits",
                                operands.len()
                            ),
                        );
                        return None;
                    }
                    (Kind::Concat, vec![total])
                }
                (None, "comb.extract") => {
                    let w = self.type_width(op, function_out.as_ref())?;
                    let Some(low) = self.facts(op).from else {
                        self.unsupported(op, " without `from N`");
                        return None;
                    };
                    (Kind::Extract { low: low.min(u32::MAX as u64) as u32 }, vec![w])
                }
                (None, "comb.replicate") => {
                    let w = self.type_width(op, function_out.as_ref())?;
                    (Kind::Replicate, vec![w])
                }
                (None, "comb.parity") => {
                    self.type_width(op, first_type.as_ref())?;
                    (Kind::Parity, vec![1])
                }
                (Some(OpKind::ExtSI | OpKind::ExtUI), _) => {
                    let w = self.type_width(op, after_type.as_ref())?;
                    (Kind::Extend { signed: kind == Some(OpKind::ExtSI) }, vec![w])
                }
                (Some(OpKind::TruncI), _) => {
                    let w = self.type_width(op, after_type.as_ref())?;
                    (Kind::Truncate, vec![w])
                }
                (Some(OpKind::ArithConstant), _) | (None, "hw.constant") => {
                    let facts = self.facts(op);
                    let Some(literal) = facts.literal else {
                        self.unsupported(op, " without an integer or boolean value");
                        return None;
                    };
                    let w = match &first_type {
                        Some(ty) => self.type_width(op, Some(ty))?,
                        None => 1,
                    };
                    let value = (literal as u128 as u64) & mask(w);
                    (Kind::Constant(value), vec![w])
                }
                (None, "seq.compreg" | "seq.compreg.ce") => {
                    if self.module.item.word(&data, "initial")
                        || self.module.item.word(&data, "powerOn")
                    {
                        self.unsupported(op, " with a power-on value");
                        return None;
                    }
                    let w = self.type_width(op, first_type.as_ref())?;
                    let ce = name == "seq.compreg.ce";
                    let with_reset = self.module.item.word(&data, "reset");
                    let expected = 2 + ce as usize + 2 * with_reset as usize;
                    if operands.len() != expected {
                        self.unsupported(op, &format!(" with {} operands", operands.len()));
                        return None;
                    }
                    let enable = ce.then(|| operands[2]);
                    let reset = with_reset.then(|| {
                        let n = operands.len();
                        (operands[n - 2], operands[n - 1])
                    });
                    (Kind::CompReg { enable, reset }, vec![w])
                }
                (Some(OpKind::PipelineSrc), _) => {
                    if !matches!(place, Place::Stage { .. }) {
                        self.unsupported(op, " outside a pipeline stage");
                        return None;
                    }
                    let w = self.type_width(op, first_type.as_ref())?;
                    if operands.len() != 1 {
                        self.unsupported(op, &format!(" with {} operands", operands.len()));
                        return None;
                    }
                    (Kind::Source, vec![w])
                }
                (Some(OpKind::PipelineLatency), _) => return self.read_latency(op, place),
                _ => {
                    self.unsupported(op, "");
                    return None;
                }
            }
        };
        let arity_ok = match node {
            Kind::Extract { .. }
            | Kind::Replicate
            | Kind::Parity
            | Kind::Extend { .. }
            | Kind::Truncate => operands.len() == 1,
            Kind::Concat => !operands.is_empty(),
            Kind::Constant(_) => operands.is_empty(),
            _ => true,
        };
        if !arity_ok {
            self.unsupported(op, &format!(" with {} operands", operands.len()));
            return None;
        }
        if data.results.len() != widths.len() {
            self.unsupported(op, &format!(" with {} results", data.results.len()));
            return None;
        }
        let index = self.design.nodes.len();
        for (n, (&r, &w)) in self.module.item.results(&data).iter().zip(&widths).enumerate() {
            self.design.width[r as usize] = w;
            self.design.place[r as usize] = place;
            self.design.origin[r as usize] = Origin::Node { node: index, index: n };
        }
        self.design.nodes.push(Node {
            op,
            kind: node,
            operands,
            results: self.module.item.results(&data).to_vec(),
            place,
        });
        Some(index)
    }

    fn read_latency(&mut self, op: OpId, place: Place) -> Option<usize> {
        if !matches!(place, Place::Stage { .. }) {
            self.unsupported(op, " outside a pipeline stage");
            return None;
        }
        let data = self.op(op).clone();
        let facts = self.facts(op);
        let cycles = match facts.literal {
            Some(n) if n >= 1 && n <= u32::MAX as i128 => n as u32,
            _ => {
                self.malformed(op, format!("`{}` needs a latency of at least 1 cycle", data.name));
                return None;
            }
        };
        let item = &self.module.item;
        let Some(&block) =
            item.op_regions(&data).first().and_then(|r| item.regions[*r as usize].blocks.first())
        else {
            self.unsupported(op, " without a body");
            return None;
        };
        let ops = item.blocks[block as usize].ops.clone();
        let mut body = Vec::new();
        let mut returned = None;
        for inner in ops {
            match dialect_op(self.op(inner)) {
                Some(OpKind::PipelineLatencyReturn) => returned = self.operands(inner, |_, _| true),
                Some(OpKind::PipelineLatency) => {
                    self.unsupported(inner, &format!(" nested in another `{}`", data.name));
                    return None;
                }
                _ => body.push(self.read_node(inner, place)?),
            }
        }
        let Some(returned) = returned else {
            let end = OpKind::PipelineLatencyReturn.full_name();
            self.unsupported(op, &format!(" without a `{end}`"));
            return None;
        };
        if returned.len() != data.results.len() || facts.arrow_types.len() != data.results.len() {
            self.malformed(
                op,
                format!(
                    "`{}` declares {} results and returns {}",
                    data.name,
                    facts.arrow_types.len(),
                    returned.len()
                ),
            );
            return None;
        }
        let index = self.design.nodes.len();
        for (n, (&r, ty)) in item.results(&data).iter().zip(&facts.arrow_types).enumerate() {
            let ty = types::builtin(ty);
            let w = self.type_width(op, ty.as_ref())?;
            self.design.width[r as usize] = w;
            self.design.place[r as usize] = place;
            self.design.origin[r as usize] = Origin::Node { node: index, index: n };
        }
        self.design.nodes.push(Node {
            op,
            kind: Kind::Latency { cycles, body, returned },
            operands: Vec::new(),
            results: item.results(&data).to_vec(),
            place,
        });
        Some(index)
    }

    fn read_pipeline(&mut self, op: OpId) {
        let pipeline = self.design.pipelines.len();
        let data = self.op(op).clone();
        let facts = self.facts(op);
        let item = &self.module.item;
        let Some(plain) = self.operands(op, |_, c| *c == Container::Plain) else { return };
        let keyword = |this: &mut Self, key: &str| -> Option<Option<ValueId>> {
            let values = this.operands(op, in_keyword(key))?;
            Some(values.first().copied())
        };
        let (Some(go), Some(stall), Some(reset), Some(clock)) = (
            keyword(self, "go"),
            keyword(self, "stall"),
            keyword(self, "reset"),
            keyword(self, "clock"),
        ) else {
            return;
        };
        let (Some(go), Some(clock)) = (go, clock) else {
            self.unsupported(op, " without `clock(...)` and `go(...)`");
            return;
        };
        let prefix = match facts.string {
            Some(name) => identifier_or_empty(&name),
            None => format!("p{pipeline}"),
        };
        let stallability = match item.attr(&data, "stallability") {
            None => None,
            Some(attr) => {
                let entries = hsir_analysis::attrs::array(item.str(attr.value)).unwrap_or_default();
                let parsed: Option<Vec<bool>> = entries
                    .iter()
                    .map(|e| match *e {
                        "true" => Some(true),
                        "false" => Some(false),
                        _ => None,
                    })
                    .collect();
                match parsed {
                    Some(p) => Some(p),
                    None => {
                        self.malformed(
                            op,
                            "`stallability` must be an array of `true` / `false`".to_string(),
                        );
                        return;
                    }
                }
            }
        };

        // The stages: the chain of `pipeline.stage` targets from the entry block.
        let Some(&region) = item.op_regions(&data).first() else {
            self.unsupported(op, " without a body");
            return;
        };
        let blocks = item.regions[region as usize].blocks.clone();
        let mut order = Vec::new();
        let mut current = 0usize;
        loop {
            if order.contains(&current) {
                self.malformed(op, "the stages of this pipeline form a cycle".to_string());
                return;
            }
            order.push(current);
            let block = &item.blocks[blocks[current] as usize];
            let Some(&last) = block.ops.last() else {
                self.malformed(
                    op,
                    format!("stage {} of this pipeline has no terminator", order.len() - 1),
                );
                return;
            };
            let terminator = self.op(last);
            match dialect_op(terminator) {
                Some(OpKind::PipelineReturn) => break,
                Some(OpKind::PipelineStage) => {
                    let target = self.facts(last).successor.unwrap_or_default();
                    let next = blocks.iter().position(|&b| {
                        item.blocks[b as usize].label.is_some_and(|l| item.str(l) == target)
                    });
                    let Some(next) = next else {
                        self.malformed(last, format!("`{target}` is not a stage of this pipeline"));
                        return;
                    };
                    current = next;
                }
                _ => {
                    let other = terminator.name.clone();
                    self.malformed(
                        last,
                        format!(
                            "a stage ends in `{other}`, not `{}` or `{}`",
                            OpKind::PipelineStage.full_name(),
                            OpKind::PipelineReturn.full_name()
                        ),
                    );
                    return;
                }
            }
        }
        if order.len() != blocks.len() {
            self.malformed(
                op,
                format!(
                    "{} of this pipeline's {} blocks are not on the chain of stages",
                    blocks.len() - order.len(),
                    blocks.len()
                ),
            );
            return;
        }

        // Inputs, entry enable and results.
        let entry_args = item.blocks[blocks[0] as usize].args.clone();
        if entry_args.len() < plain.len() {
            self.unsupported(op, " whose inputs it cannot read");
            return;
        }
        let inputs: Vec<(ValueId, ValueId)> =
            entry_args.iter().copied().zip(plain.iter().copied()).collect();
        let entry_enable = entry_args.get(plain.len()).copied();
        for (index, &(inner, _)) in inputs.iter().enumerate() {
            self.design.origin[inner as usize] = Origin::InnerInput { pipeline, index };
            self.design.place[inner as usize] = Place::Stage { pipeline, stage: 0 };
            let ty = item.value_ty(&item.values[inner as usize]).cloned();
            if let Some(w) = self.type_width(op, ty.as_ref()) {
                self.design.width[inner as usize] = w;
            }
        }
        if let Some(enable) = entry_enable {
            self.design.origin[enable as usize] = Origin::EntryEnable { pipeline };
            self.design.place[enable as usize] = Place::Stage { pipeline, stage: 0 };
            self.design.width[enable as usize] = 1;
        }
        if data.results.len() != facts.outputs.len() + 1 {
            self.malformed(
                op,
                format!(
                    "the pipeline has {} outputs and `done`, but {} results are bound",
                    facts.outputs.len(),
                    data.results.len()
                ),
            );
            return;
        }
        for (index, &r) in item.results(&data).iter().enumerate() {
            let w = match facts.outputs.get(index) {
                Some((_, ty)) => match self.type_width(op, ty.as_ref()) {
                    Some(w) => w,
                    None => return,
                },
                None => 1,
            };
            self.design.width[r as usize] = w;
            self.design.origin[r as usize] = Origin::PipelineResult { pipeline, index };
        }

        // Stages: arguments first (their places), then ops.
        let mut stages: Vec<Stage> = Vec::new();
        for (s, &b) in order.iter().enumerate() {
            let block = &item.blocks[blocks[b] as usize];
            let (enable, args) = if s == 0 {
                (entry_enable, Vec::new())
            } else {
                let mut args = block.args.clone();
                let enable = args.pop();
                (enable, args)
            };
            if s > 0 {
                let Some(enable) = enable else {
                    self.malformed(
                        op,
                        format!("stage {s} of this pipeline has no enable argument"),
                    );
                    return;
                };
                self.design.origin[enable as usize] = Origin::StageEnable { pipeline, stage: s };
                self.design.place[enable as usize] = Place::Stage { pipeline, stage: s };
                self.design.width[enable as usize] = 1;
                for (index, &arg) in args.iter().enumerate() {
                    self.design.origin[arg as usize] =
                        Origin::StageArg { pipeline, stage: s, index };
                    self.design.place[arg as usize] = Place::Stage { pipeline, stage: s };
                    let ty = item.value_ty(&item.values[arg as usize]).cloned();
                    if let Some(w) = self.type_width(op, ty.as_ref()) {
                        self.design.width[arg as usize] = w;
                    }
                }
            }
            stages.push(Stage { nodes: Vec::new(), args, exit: Exit::Return(Vec::new()) });
        }
        self.design.pipelines.push(Pipeline {
            op,
            prefix,
            inputs,
            go,
            stall,
            reset,
            clock,
            stallability,
            stages: Vec::new(),
            results: item.results(&data).to_vec(),
        });
        for (s, &b) in order.iter().enumerate() {
            let block_ops = item.blocks[blocks[b] as usize].ops.clone();
            let Some((&terminator, body)) = block_ops.split_last() else { continue };
            let place = Place::Stage { pipeline, stage: s };
            for &inner in body {
                if let Some(node) = self.read_node(inner, place) {
                    stages[s].nodes.push(node);
                }
            }
            let facts = self.facts(terminator);
            stages[s].exit = if dialect_op(self.op(terminator)) == Some(OpKind::PipelineReturn) {
                match self.operands(terminator, |_, _| true) {
                    Some(values) => Exit::Return(values),
                    None => return,
                }
            } else {
                let names = |key: &str| {
                    facts
                        .carry_names
                        .iter()
                        .find(|(k, _)| k == key)
                        .map(|(_, n)| n.clone())
                        .unwrap_or_default()
                };
                let (regs_names, pass_names) = (names("regs"), names("pass"));
                let regs = self.operands(terminator, in_keyword("regs"));
                let pass = self.operands(terminator, in_keyword("pass"));
                let (Some(regs), Some(pass)) = (regs, pass) else { return };
                let carry = |values: Vec<ValueId>, names: Vec<Option<String>>| -> Vec<Carry> {
                    values
                        .into_iter()
                        .enumerate()
                        .map(|(i, value)| Carry { value, name: names.get(i).cloned().flatten() })
                        .collect()
                };
                let regs = carry(regs, regs_names);
                let pass = carry(pass, pass_names);
                let sent = regs.len() + pass.len();
                let takes = stages[s + 1].args.len();
                if sent != takes {
                    self.malformed(
                        terminator,
                        format!(
                            "`pipeline.stage` sends {sent} values to stage {}, which takes {takes} \
                             besides its enable",
                            s + 1
                        ),
                    );
                    return;
                }
                Exit::Next { regs, pass }
            };
        }
        self.design.pipelines[pipeline].stages = stages;
        let mark = |ports: &mut Vec<PortInfo>, value: Option<ValueId>, f: fn(&mut PortInfo)| {
            if let Some(v) = value {
                if let Some(port) = ports.iter_mut().find(|p| p.value == Some(v)) {
                    f(port);
                }
            }
        };
        mark(&mut self.design.ports, reset, |p| p.reset = true);
        mark(&mut self.design.ports, stall, |p| p.stall = true);
        mark(&mut self.design.ports, Some(go), |p| p.go = true);
    }
}

/// A pipeline name as a prefix: a Verilog identifier, or empty when written empty.
fn identifier_or_empty(name: &str) -> String {
    if name.is_empty() {
        String::new()
    } else {
        identifier(name)
    }
}

/// The op of the table `op` is, when written with its `arith.` or `pipeline.` prefix, as an
/// `hw.module` holds them (Handshake's spellings of the same ops are not pipeline ops).
fn dialect_op(op: &OpData) -> Option<OpKind> {
    let prefixed =
        [Dialect::Arith, Dialect::Pipeline].iter().any(|d| op.name.starts_with(d.prefix()));
    if prefixed {
        OpKind::of(op)
    } else {
        None
    }
}

/// `arith`'s integer op with two operands, as a pipeline node.
fn arith_binary(kind: OpKind) -> Option<BinaryOp> {
    Some(match kind {
        OpKind::AddI => BinaryOp::Add,
        OpKind::SubI => BinaryOp::Sub,
        OpKind::MulI => BinaryOp::Mul,
        OpKind::DivUI => BinaryOp::DivU,
        OpKind::DivSI => BinaryOp::DivS,
        OpKind::RemUI => BinaryOp::ModU,
        OpKind::RemSI => BinaryOp::ModS,
        OpKind::AndI => BinaryOp::And,
        OpKind::OrI => BinaryOp::Or,
        OpKind::XOrI => BinaryOp::Xor,
        OpKind::ShLI => BinaryOp::Shl,
        OpKind::ShRUI => BinaryOp::ShrU,
        OpKind::ShRSI => BinaryOp::ShrS,
        _ => return None,
    })
}

/// `comb`'s binary ops (not in the op table), as pipeline nodes.
fn comb_binary(name: &str) -> Option<BinaryOp> {
    Some(match name {
        "comb.add" => BinaryOp::Add,
        "comb.sub" => BinaryOp::Sub,
        "comb.mul" => BinaryOp::Mul,
        "comb.divu" => BinaryOp::DivU,
        "comb.divs" => BinaryOp::DivS,
        "comb.modu" => BinaryOp::ModU,
        "comb.mods" => BinaryOp::ModS,
        "comb.and" => BinaryOp::And,
        "comb.or" => BinaryOp::Or,
        "comb.xor" => BinaryOp::Xor,
        "comb.shl" => BinaryOp::Shl,
        "comb.shru" => BinaryOp::ShrU,
        "comb.shrs" => BinaryOp::ShrS,
        _ => return None,
    })
}

/// An `operands` filter: the operands written in `key(...)`.
fn in_keyword(key: &str) -> impl Fn(&Item, &Container) -> bool + '_ {
    move |item, c| matches!(c, Container::Keyword(k) if item.str(*k) == key)
}
