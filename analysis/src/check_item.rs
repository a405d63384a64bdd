//! Checks of one lowered item: names (SSA), op signatures, the single-use rule, and the
//! function-level rules of `handshake.func` (HS11xx, HS12xx).
//!
//! Everything here reads the `Item` and its text only, plus the signatures of the functions it
//! calls, which it asks for through `Symbols` so that the database can record them. Ranges are
//! relative to the item, as in the `Item`.

use std::sync::Arc;

use crate::ir::{self, Container, Def, Item, NameProblem, OpData, OpId, ValueId};
use crate::ops::{Dialect, Era, OpKind};
use crate::signatures::{self, int, Slot, Style};
use crate::types::{Direction, ExtraSignal, Type};
use crate::{Diagnostic, DiagnosticCode as Code, Fix, TextEdit};
use hsir_parser::{TextRange, TextSize};

/// What a caller may know of a function it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Callee {
    /// The defining op: `handshake.func`, `func.func`, `hw.module`, ...
    pub kind: String,
    pub args: Vec<Option<Type>>,
    pub results: Vec<Option<Type>>,
}

/// Looks up functions by name (without `@`); a callee is shared, not copied, with the table
/// that holds it.
pub trait Symbols {
    fn callee(&mut self, name: &str) -> Option<Arc<Callee>>;
}

impl<F: FnMut(&str) -> Option<Arc<Callee>>> Symbols for F {
    fn callee(&mut self, name: &str) -> Option<Arc<Callee>> {
        self(name)
    }
}

/// The callee a function-like item offers its callers.
pub fn callee_of(item: &Item) -> Option<(String, Callee)> {
    let op = item.ops.first()?;
    let signature = op.signature.as_ref()?;
    let (name, _) = signature.name.as_ref()?;
    let name = name.trim_start_matches('@').trim_matches('"').to_string();
    Some((
        name,
        Callee {
            kind: op.name.to_string(),
            args: signature.args.iter().map(|p| item.port_ty(p).cloned()).collect(),
            results: signature.results.iter().map(|p| item.port_ty(p).cloned()).collect(),
        },
    ))
}

/// The type checks and then the dataflow lints of one item. Returns what the type checks
/// learnt of a `handshake.func`, for hover and the other IDE features.
pub fn check_item(
    item: &Item,
    text: &str,
    symbols: &mut dyn Symbols,
    acc: &mut Vec<Diagnostic>,
) -> Option<Typed> {
    let typed = check_types(item, text, symbols, acc)?;
    crate::lints::run(item, text, &typed.types, typed.era, acc);
    Some(typed)
}

/// What the type checks of a `handshake.func` learn, for the lints that follow them.
#[derive(Debug, Clone)]
pub struct Typed {
    /// Each value's type: written, or given by its defining op's typing.
    pub types: ValueTypes,
    pub style: Style,
    /// The syntax era the function is written in (`ops::Era::of`).
    pub era: Era,
}

/// The type checks of one item: names, op signatures, function rules, single use. Returns the
/// value types for a `handshake.func`, `None` for other items.
pub fn check_types(
    item: &Item,
    text: &str,
    symbols: &mut dyn Symbols,
    acc: &mut Vec<Diagnostic>,
) -> Option<Typed> {
    let mut checker = Checker {
        item,
        text,
        acc,
        types: ValueTypes::written(item),
        typings: Typings::default(),
        style: Style::Circt,
        era: Era::Circt,
    };
    checker.names();
    let top = item.ops.first()?;
    if OpKind::of(top) == Some(OpKind::Func) {
        checker.era = Era::of(item, text, style_of(item) == Style::Dynamatic);
        checker.style = checker.era.style();
        checker.handshake_func(symbols);
        Some(Typed { types: checker.types, style: checker.style, era: checker.era })
    } else {
        checker.outside_handshake();
        None
    }
}

/// Dynamatic's spelling if any port or written type is a channel or control type.
fn style_of(item: &Item) -> Style {
    let is_handshake = |t: &Type| matches!(t, Type::Channel { .. } | Type::Control { .. });
    let top = &item.ops[0];
    if let Some(sig) = &top.signature {
        if sig.args.iter().chain(&sig.results).any(|p| item.port_ty(p).is_some_and(is_handshake)) {
            return Style::Dynamatic;
        }
    }
    // Types decide, not `end`: early Dynamatic IR writes raw types and ends in `end`.
    let is_handshake_entry = |e: &ir::TypeEntry| match *e {
        ir::TypeEntry::One(w) => is_handshake(item.ty(w.ty)),
        ir::TypeEntry::List(ws, _) => item.written(ws).iter().any(|w| is_handshake(item.ty(w.ty))),
        ir::TypeEntry::Function(..) => false,
    };
    // Every op's types are a run of the item's one array: read it once, leaving out the
    // function's own.
    let own = |i: usize| {
        [top.types, top.types_after]
            .iter()
            .any(|s| (s.start as usize..(s.start + s.len) as usize).contains(&i))
    };
    let dynamatic_op =
        item.arrays.types.iter().enumerate().any(|(i, e)| is_handshake_entry(e) && !own(i));
    if dynamatic_op {
        Style::Dynamatic
    } else {
        Style::Circt
    }
}

/// Each value's type, when known: an index into a table of types, which starts with the item's
/// own (`Item::type_table`, at their ids) and holds the others given (the implied `control`,
/// a type a typing made) once each, so that a value's type is a copy of an index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ValueTypes {
    /// Per value: its type's index in `table`, or `UNKNOWN`.
    ids: Vec<u32>,
    table: Vec<Type>,
}

impl ValueTypes {
    const UNKNOWN: u32 = u32::MAX;

    /// The types `item`'s values are written with (`Item::value_ty`).
    pub fn written(item: &Item) -> ValueTypes {
        let ids = item.values.iter().map(|v| v.ty.map_or(Self::UNKNOWN, |t| t.index())).collect();
        ValueTypes { ids, table: item.type_table.clone() }
    }

    /// The type of `value`, if known.
    #[inline]
    pub fn get(&self, value: ValueId) -> Option<&Type> {
        let id = *self.ids.get(value as usize)?;
        self.table.get(id as usize)
    }

    /// Gives `value` the type `ty`, one of `item`'s own (`Item::ty`) or any other.
    fn set(&mut self, item: &Item, value: ValueId, ty: &Type) {
        // One of the item's types is at its own index: found by where it is, not compared.
        let own = item.type_table.as_ptr_range();
        let at = ty as *const Type;
        let id = if own.contains(&at) {
            (at as usize - own.start as usize) / std::mem::size_of::<Type>()
        } else {
            match self.table.iter().position(|t| t == ty) {
                Some(i) => i,
                None => {
                    self.table.push(ty.clone());
                    self.table.len() - 1
                }
            }
        };
        self.ids[value as usize] = id as u32;
    }
}

struct Checker<'a> {
    item: &'a Item,
    text: &'a str,
    acc: &'a mut Vec<Diagnostic>,
    /// Value types: the written ones, then those the ops' typings give.
    types: ValueTypes,
    typings: Typings<'a>,
    style: Style,
    era: Era,
}

/// Every op's typing (`signatures::typing`), kept in two arrays of slots, operand types and
/// result types, each op's at its span, with the types the typings made.
#[derive(Default)]
struct Typings<'a> {
    built: signatures::Built<'a>,
    /// Per op: where its operand types start and how many there are, then the same of its
    /// result types; `None` for an op without a typing.
    spans: Vec<Option<[u32; 4]>>,
}

impl Typings<'_> {
    fn get(&self, op: OpId) -> Option<TypingRef<'_>> {
        let [operands, operand_count, results, result_count] = (*self.spans.get(op as usize)?)?;
        let (operands, results) = (operands as usize, results as usize);
        Some(TypingRef {
            operands: &self.built.operands[operands..operands + operand_count as usize],
            results: &self.built.results[results..results + result_count as usize],
            made: &self.built.made,
        })
    }
}

/// One op's typing, read from `Typings`.
#[derive(Clone, Copy)]
struct TypingRef<'t> {
    operands: &'t [Slot<'t>],
    results: &'t [Slot<'t>],
    /// The types the slots' `Slot::Made` name.
    made: &'t [Type],
}

impl<'t> TypingRef<'t> {
    const EMPTY: TypingRef<'static> = TypingRef { operands: &[], results: &[], made: &[] };

    fn operand(self, i: usize) -> Option<&'t Type> {
        self.operands.get(i).and_then(|s| s.get(self.made))
    }

    fn result(self, i: usize) -> Option<&'t Type> {
        self.results.get(i).and_then(|s| s.get(self.made))
    }

    /// The types of `slots` (some of this typing's), `None` where not said.
    fn types(self, slots: &'t [Slot<'t>]) -> impl Iterator<Item = Option<&'t Type>> + Clone {
        slots.iter().map(move |s| s.get(self.made))
    }
}

/// Types equal for checking. `_` (Dynamatic's placeholder) and type aliases (`!t`, which an
/// item does not resolve) match anything.
#[inline(always)]
fn same(a: &Type, b: &Type) -> bool {
    match (a, b) {
        // The usual cases, decided in place without the general comparison.
        (Type::Int { width: x, signedness: s }, Type::Int { width: y, signedness: t }) => {
            x == y && s == t
        }
        (Type::None, Type::None) => true,
        _ => same_in_general(a, b),
    }
}

fn same_in_general(a: &Type, b: &Type) -> bool {
    a == b || opaque(a) || opaque(b)
}

fn opaque(t: &Type) -> bool {
    matches!(t, Type::Other(t) if t == "_" || (t.starts_with('!') && !t.contains('<')))
}

fn data_of(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Channel { data, .. } => Some(data),
        Type::Control { .. } | Type::None => None,
        other => Some(other),
    }
}

fn extras_of(ty: &Type) -> &[ExtraSignal] {
    match ty {
        Type::Channel { extras, .. } | Type::Control { extras } => extras,
        _ => &[],
    }
}

impl Checker<'_> {
    fn op(&self, id: OpId) -> &OpData {
        &self.item.ops[id as usize]
    }

    fn value_name(&self, v: ValueId) -> String {
        self.item.values[v as usize].display(self.item, ir::group_len(self.item, v))
    }

    fn push(&mut self, d: Diagnostic) {
        self.acc.push(d);
    }

    fn names(&mut self) {
        for problem in &self.item.name_problems {
            let d = match problem {
                NameProblem::Undefined { use_ } => {
                    let u = &self.item.uses[*use_ as usize];
                    Diagnostic::new(
                        Code::UndefinedValue,
                        u.range,
                        format!("use of undefined value `{}`", self.item.str(u.text())),
                    )
                }
                NameProblem::Redefined { range, name, first } => Diagnostic::new(
                    Code::RedefinedValue,
                    *range,
                    format!("redefinition of `{name}`"),
                )
                .with_related(*first, format!("`{name}` first defined here")),
                NameProblem::IndexOutOfRange { use_, len } => {
                    let u = &self.item.uses[*use_ as usize];
                    let group = self.item.str(u.text()).split('#').next().unwrap_or("");
                    Diagnostic::new(
                        Code::ResultIndexOutOfRange,
                        u.range,
                        format!(
                            "`{}` is out of range: `{group}` has {len} result{}",
                            self.item.str(u.text()),
                            if *len == 1 { "" } else { "s" }
                        ),
                    )
                }
                NameProblem::UsedBeforeDefined { use_ } => {
                    let u = &self.item.uses[*use_ as usize];
                    let mut d = Diagnostic::new(
                        Code::UseBeforeDefinition,
                        u.range,
                        format!(
                            "`{}` is used before it is defined, in a region where definitions must dominate their uses",
                            self.item.str(u.text())
                        ),
                    );
                    if let Some(v) = u.value {
                        d = d.with_related(self.item.values[v as usize].range, "defined here");
                    }
                    d
                }
            };
            self.acc.push(d);
        }
    }

    fn outside_handshake(&mut self) {
        for (id, op) in self.item.ops.iter().enumerate() {
            // `esi_instance` is how a hardware module instantiates a `handshake.func`.
            let allowed = matches!(OpKind::of(op), Some(OpKind::Func | OpKind::EsiInstance))
                || ir::in_dataflow_region(self.item, id as OpId);
            if op.name.starts_with(Dialect::Handshake.prefix()) && !allowed {
                let d = Diagnostic::new(
                    Code::HandshakeOpOutsideFunc,
                    op.name_range,
                    format!("`{}` may only appear inside a `handshake.func`", op.name),
                );
                self.acc.push(d);
            }
        }
    }

    fn handshake_func(&mut self, symbols: &mut dyn Symbols) {
        // Pass 1: what each op's written types say; results take their types from it.
        let mut typings = std::mem::take(&mut self.typings);
        typings.spans.resize(self.item.ops.len(), None);
        let built = &mut typings.built;
        // About a type per use and per value, so that the arrays grow rarely.
        built.operands.reserve(self.item.uses.len());
        built.results.reserve(self.item.values.len());
        for id in 1..self.item.ops.len() {
            let op = &self.item.ops[id];
            let (operands, results) = (built.operands.len(), built.results.len());
            if !signatures::append_typing(op, self.item, self.era, built) {
                continue;
            }
            for (&v, slot) in self.item.results(op).iter().zip(&built.results[results..]) {
                if let Some(ty) = slot.get(&built.made) {
                    self.types.set(self.item, v, ty);
                }
            }
            typings.spans[id] = Some([
                operands as u32,
                (built.operands.len() - operands) as u32,
                results as u32,
                (built.results.len() - results) as u32,
            ]);
        }
        // Pass 2: counts, uses, and each op's own rules.
        for id in 1..self.item.ops.len() as OpId {
            if self.item.ops[id as usize].broken {
                continue;
            }
            let typing = typings.get(id);
            if let Some(typing) = typing {
                self.counts_and_uses_typed(id, typing);
            }
            self.op_rules(id, typing.unwrap_or(TypingRef::EMPTY), symbols);
        }
        self.typings = typings;
        self.function_rules();
        self.single_use();
    }

    fn counts_and_uses_typed(&mut self, id: OpId, typing: TypingRef<'_>) {
        let item = self.item;
        let op = &item.ops[id as usize];
        let written = op.results.len();
        if written > 0 && written != typing.results.len() {
            let range = self.item.result_groups(op).first().map_or(op.name_range, |g| g.range);
            let d = Diagnostic::new(
                Code::ResultCountMismatch,
                range,
                format!(
                    "`{}` defines {} result{} but {} {} bound",
                    op.short_name(),
                    typing.results.len(),
                    if typing.results.len() == 1 { "" } else { "s" },
                    written,
                    if written == 1 { "is" } else { "are" },
                ),
            );
            self.push(d);
        }
        let operands = item.operands(op);
        if operands.len() != typing.operands.len() && arity_is_fixed(op) {
            let d = Diagnostic::new(
                Code::OperandCount,
                op.name_range,
                format!(
                    "`{}` takes {} operand{} here, {} given",
                    op.short_name(),
                    typing.operands.len(),
                    if typing.operands.len() == 1 { "" } else { "s" },
                    operands.len()
                ),
            );
            self.push(d);
        }
        for (i, &u) in operands.iter().enumerate() {
            let Some(expected) = typing.operand(i) else { continue };
            let Some(v) = self.item.uses[u as usize].value else { continue };
            let Some(actual) = self.types.get(v) else { continue };
            if !same(expected, actual) {
                let use_ = &self.item.uses[u as usize];
                let d = Diagnostic::new(
                    Code::UseTypeMismatch,
                    use_.range,
                    format!(
                        "`{}` is used as `{expected}` here, but its type is `{actual}`",
                        self.item.str(use_.text())
                    ),
                )
                .with_related(self.item.values[v as usize].range, "defined here");
                self.push(d);
            }
        }
    }

    fn op_rules(&mut self, id: OpId, typing: TypingRef<'_>, symbols: &mut dyn Symbols) {
        let item = self.item;
        let op = &item.ops[id as usize];
        if op.name.is_empty() {
            // A statement the parser could not name: its syntax error says enough.
            return;
        }
        let Some(kind) = OpKind::of(op) else {
            self.unknown(op);
            return;
        };
        let operand_ty = |i: usize| typing.operand(i);
        let result_ty = |i: usize| typing.result(i);
        match kind {
            OpKind::Merge if op.operands.is_empty() => {
                self.push(Diagnostic::new(
                    Code::OperandCount,
                    op.name_range,
                    "`merge` needs at least one data operand",
                ));
            }
            OpKind::Mux => {
                let data = op.operands.len().saturating_sub(1);
                if data == 0 {
                    self.push(Diagnostic::new(
                        Code::OperandCount,
                        op.name_range,
                        "`mux` needs at least one data operand",
                    ));
                }
                if let Some(select) = operand_ty(0) {
                    self.index_type(op, select, data, "select operand");
                }
                let data = typing.types(&typing.operands[1.min(typing.operands.len())..]);
                self.equal_data(op, data, result_ty(0));
                self.equal_extras(op, typing.types(typing.operands).chain([result_ty(0)]));
            }
            OpKind::ControlMerge => {
                if let Some(index) = result_ty(1) {
                    self.index_type(op, index, op.operands.len(), "index result");
                }
            }
            OpKind::CondBr => {
                if let Some(cond) = operand_ty(0) {
                    if data_of(cond) != Some(&int(1)) {
                        let d = Diagnostic::new(
                            Code::BadOperandType,
                            op.name_range,
                            format!("the condition of `cond_br` must be `i1`, not `{cond}`"),
                        );
                        self.push(d);
                    }
                }
                self.equal_extras(op, [operand_ty(0), operand_ty(1)]);
            }
            OpKind::Constant => {
                self.constant_value(op, result_ty(0));
                self.equal_extras(op, [operand_ty(0), result_ty(0)]);
            }
            OpKind::Select | OpKind::ArithSelect => {
                if let Some(cond) = operand_ty(0) {
                    if data_of(cond) != Some(&int(1)) {
                        let d = Diagnostic::new(
                            Code::BadOperandType,
                            op.name_range,
                            format!(
                                "the condition of `{}` must be `i1`, not `{cond}`",
                                op.short_name()
                            ),
                        );
                        self.push(d);
                    }
                }
                // The condition's extras are its own; the data and the result share theirs.
                self.equal_extras(op, [operand_ty(1), operand_ty(2), result_ty(0)]);
            }
            OpKind::Buffer => self.circt_buffer(op),
            OpKind::Memory | OpKind::ExtMemory => self.memory(op, kind),
            OpKind::MemController | OpKind::Lsq => self.memory_interface(op, kind.key()),
            OpKind::Instance => self.instance(op, typing, symbols),
            OpKind::End | OpKind::Return if op.results.is_empty() => self.returns(op, kind),
            OpKind::Pack | OpKind::Unpack => self.tuple(op, kind, typing),
            OpKind::Compose | OpKind::Decompose => {
                if let (Some(from), Some(to)) = (operand_ty(0), result_ty(0)) {
                    self.compose(op, kind, from, to);
                }
            }
            OpKind::Wait => {
                if let (Some(second), Some(result)) = (operand_ty(1), result_ty(0)) {
                    if !same(second, result) {
                        let d = Diagnostic::new(
                            Code::WaitResultType,
                            op.name_range,
                            format!(
                                "`wait` gives the second operand's type `{second}`, not `{result}`"
                            ),
                        );
                        self.push(d);
                    }
                }
            }
            OpKind::SpecCommit => self.spec_commit(op, typing),
            // The proposal's `unbundle %ch, %up : control, i32` writes the results' types;
            // the channel's type is the operand's.
            OpKind::Unbundle if op.types_after.is_empty() => self.seed_unbundle(op),
            OpKind::ExtSI | OpKind::ExtUI | OpKind::ExtF | OpKind::TruncI | OpKind::TruncF => {
                if let (Some(from), Some(to)) = (operand_ty(0), result_ty(0)) {
                    self.cast(op, kind, from, to);
                }
            }
            _ => {}
        }
    }

    fn seed_unbundle(&mut self, op: &OpData) {
        let Some(v) =
            self.item.operands(op).first().and_then(|&u| self.item.uses[u as usize].value)
        else {
            return;
        };
        let Some(channel) = self.types.get(v).cloned() else { return };
        let Some((ups, downs)) = signatures::unbundled(&channel, self.style) else { return };
        if op.operands.len() != 1 + ups.len() {
            let d = Diagnostic::new(
                Code::OperandCount,
                op.name_range,
                format!(
                    "unbundling `{channel}` takes the channel and {} upstream signal{}, {} operand{} given",
                    ups.len(),
                    plural(ups.len() as u64),
                    op.operands.len(),
                    plural(op.operands.len() as u64)
                ),
            );
            self.push(d);
        }
        let written: Vec<&Type> = signatures::flat_types(self.item, self.item.types(op));
        if !written.is_empty() && written.len() != downs.len() {
            let d = Diagnostic::new(
                Code::ResultCountMismatch,
                op.name_range,
                format!(
                    "unbundling `{channel}` gives {} value{}, {} type{} written",
                    downs.len(),
                    plural(downs.len() as u64),
                    written.len(),
                    plural(written.len() as u64)
                ),
            );
            self.push(d);
        } else if let Some((want, got)) =
            downs.iter().zip(&written).find(|(want, got)| !same(want, got))
        {
            let d = Diagnostic::new(
                Code::OperandTypesDiffer,
                op.name_range,
                format!("unbundling `{channel}` gives `{want}` where `{got}` is written"),
            );
            self.push(d);
        }
    }

    fn unknown(&mut self, op: &OpData) {
        let d = Diagnostic::new(
            Code::UnknownOp,
            op.name_range,
            format!("hsir does not know `{}`; its operands and results are not checked", op.name),
        );
        self.push(d);
    }

    /// A select or index: an integer (or `index`) wide enough to pick one of `count` inputs.
    fn index_type(&mut self, op: &OpData, ty: &Type, count: usize, what: &str) {
        let data = data_of(ty);
        let width = match data {
            Some(Type::Int { width, .. }) => *width,
            Some(Type::Index) => return,
            _ => {
                let d = Diagnostic::new(
                    Code::BadIndexType,
                    op.name_range,
                    format!("the {what} of `{}` must be an integer, not `{ty}`", op.short_name()),
                );
                self.push(d);
                return;
            }
        };
        let capacity: u128 = if width >= 64 { u128::MAX } else { 1u128 << width };
        if (count as u128) > capacity {
            let d = Diagnostic::new(
                Code::BadIndexType,
                op.name_range,
                format!(
                    "the {what} of `{}` is {width} bit{} wide and can pick one of {capacity} inputs, but there are {count}",
                    op.short_name(),
                    if width == 1 { "" } else { "s" },
                ),
            );
            self.push(d);
        }
    }

    fn equal_data<'t>(
        &mut self,
        op: &OpData,
        data: impl Iterator<Item = Option<&'t Type>>,
        result: Option<&'t Type>,
    ) {
        let mut all = data.flatten().chain(result);
        let Some(first) = all.next() else { return };
        if let Some(other) = all.find(|t| data_of(t) != data_of(first)) {
            let d = Diagnostic::new(
                Code::OperandTypesDiffer,
                op.name_range,
                format!(
                    "the data inputs and the result of `{}` must carry one data type: `{first}` and `{other}` differ",
                    op.short_name()
                ),
            );
            self.push(d);
        }
    }

    /// Dynamatic's rule: ops that forward extra signals see the same ones everywhere.
    fn equal_extras<'t>(&mut self, op: &OpData, types: impl IntoIterator<Item = Option<&'t Type>>) {
        if self.style != Style::Dynamatic {
            return;
        }
        let all: Vec<&Type> = types.into_iter().flatten().collect();
        let Some(first) = all.first().copied() else { return };
        if let Some(other) = all.iter().find(|t| extras_of(t) != extras_of(first)) {
            let d = Diagnostic::new(
                Code::ExtraSignalsDiffer,
                op.name_range,
                format!(
                    "`{}` forwards extra signals, so its operands and results must carry the same ones: `{first}` and `{other}` differ",
                    op.short_name()
                ),
            );
            self.push(d);
        }
    }

    fn constant_value(&mut self, op: &OpData, result: Option<&Type>) {
        let (Some(attr), Some(result)) = (self.item.attr(op, "value"), result) else { return };
        // The type after the last `:` (`42 : i32`); found byte by byte, the values being short.
        let value = self.item.str(attr.value);
        let Some(colon) = value.bytes().rposition(|b| b == b':') else { return };
        let Some(value_ty) = crate::types::builtin(value[colon + 1..].trim()) else { return };
        let result_data = data_of(result);
        if result_data != Some(&value_ty) {
            let d = Diagnostic::new(
                Code::ConstantValueType,
                attr.range,
                format!(
                    "the value is `{value_ty}` but the constant's result carries `{}`",
                    result_data.map_or("no data".to_string(), |t| t.to_string())
                ),
            );
            self.push(d);
        }
    }

    /// CIRCT's `buffer [N] seq|fifo`.
    fn circt_buffer(&mut self, op: &OpData) {
        let Some(&slots) = self.item.bracket_ints(op).first() else { return };
        if slots == 0 {
            let d = Diagnostic::new(
                Code::BufferConfig,
                op.name_range,
                "`buffer [0]` has no slot; a buffer holds at least one",
            );
            self.push(d);
        }
        let kind = self
            .item
            .words(op)
            .iter()
            .map(|&w| (self.item.str(w), w.range()))
            .find(|(w, _)| w.eq_ignore_ascii_case("seq") || w.eq_ignore_ascii_case("fifo"));
        match kind {
            Some((w, range)) if w != "seq" && w != "fifo" => {
                let d = Diagnostic::new(
                    Code::BufferConfig,
                    range,
                    format!("the buffer kind is `seq` or `fifo` (lowercase), not `{w}`"),
                );
                self.push(d);
            }
            None => {
                let d = Diagnostic::new(
                    Code::BufferConfig,
                    op.name_range,
                    "`buffer [N]` needs its kind after the slot count: `seq` or `fifo`",
                );
                self.push(d);
            }
            _ => {}
        }
        let Some(init) = self.item.attr(op, "initValues") else { return };
        if kind.is_none_or(|(w, _)| w != "seq") {
            let d = Diagnostic::new(
                Code::BufferConfig,
                init.range,
                "only `seq` buffers may have initial values",
            );
            self.push(d);
            return;
        }
        let count = crate::attrs::array(self.item.str(init.value)).unwrap_or_default().len();
        if count as u64 != slots {
            let d = Diagnostic::new(
                Code::BufferConfig,
                init.range,
                format!(
                    "a buffer of {slots} slot{} needs {slots} initial value{}, not {count}",
                    plural(slots),
                    plural(slots)
                ),
            );
            self.push(d);
        }
    }

    fn memory(&mut self, op: &OpData, kind: OpKind) {
        let name = kind.key();
        let get = |key: &str| {
            self.item.bracket_entry(op, key).and_then(|v| v.trim().parse::<usize>().ok())
        };
        let (Some(ld), Some(st)) = (get("ld"), get("st")) else { return };
        if kind == OpKind::Memory {
            if self.item.attr(op, "lsq").is_none() {
                self.push(Diagnostic::new(
                    Code::MemoryPorts,
                    op.name_range,
                    "`memory` needs an `lsq` attribute (`lsq = false` for a plain memory)",
                ));
            }
            if let Some(&ir::TypeEntry::One(w)) = self.item.types(op).first() {
                self.memref_shape(op, self.item.ty(w.ty));
            }
        }
        let mem_operand = usize::from(kind == OpKind::ExtMemory);
        let operands = op.operands.len().saturating_sub(mem_operand);
        if operands != 2 * st + ld {
            let d = Diagnostic::new(
                Code::MemoryPorts,
                op.name_range,
                format!(
                    "`{name}` with {ld} load port{} and {st} store port{} takes {} operand{} (data and address per store, address per load), {operands} given",
                    plural(ld as u64),
                    plural(st as u64),
                    2 * st + ld,
                    plural((2 * st + ld) as u64)
                ),
            );
            self.push(d);
        }
        let results = op.results.len();
        if results > 0 && results != ld + st + ld {
            let d = Diagnostic::new(
                Code::MemoryPorts,
                op.name_range,
                format!(
                    "`{name}` with {ld} load port{} and {st} store port{} gives {} result{} (data per load, then a done token per port), {results} bound",
                    plural(ld as u64),
                    plural(st as u64),
                    2 * ld + st,
                    plural((2 * ld + st) as u64)
                ),
            );
            self.push(d);
        }
    }

    fn memref_shape(&mut self, op: &OpData, ty: &Type) {
        let Type::MemRef { dims, .. } = ty else { return };
        if dims.len() != 1 {
            let d = Diagnostic::new(
                Code::MemoryPorts,
                op.name_range,
                format!("a Handshake memory has one dimension; `{ty}` has {}", dims.len()),
            );
            self.push(d);
        } else if dims[0].is_none() {
            let d = Diagnostic::new(
                Code::MemoryPorts,
                op.name_range,
                format!("a Handshake memory has a static size; `{ty}` has a dynamic one"),
            );
            self.push(d);
        }
    }

    /// `mem_controller` / `lsq`: the function type lists the parenthesised ports.
    fn memory_interface(&mut self, op: &OpData, name: &str) {
        let Some(ir::TypeEntry::Function(ins, _, _)) =
            self.item.types(op).iter().find(|e| matches!(e, ir::TypeEntry::Function(..)))
        else {
            return;
        };
        let ports = self
            .item
            .operands(op)
            .iter()
            .filter(|&&u| self.item.uses[u as usize].container == Container::Paren)
            .count();
        if ports != ins.len() {
            let d = Diagnostic::new(
                Code::MemoryPorts,
                op.name_range,
                format!(
                    "`{name}` lists {} port type{} for {ports} port operand{}",
                    ins.len(),
                    plural(ins.len() as u64),
                    plural(ports as u64)
                ),
            );
            self.push(d);
        }
    }

    fn instance(&mut self, op: &OpData, typing: TypingRef<'_>, symbols: &mut dyn Symbols) {
        let Some(symbol_name) = op.symbol else { return };
        let (symbol, symbol_range) = (self.item.str(symbol_name), &symbol_name.range());
        let name = symbol.trim_start_matches('@').trim_matches('"');
        let Some(callee) = symbols.callee(name) else {
            let d = Diagnostic::new(
                Code::UnknownCallee,
                *symbol_range,
                format!("no function named `{symbol}` in the workspace"),
            );
            self.push(d);
            return;
        };
        if OpKind::from_name(&callee.kind) != Some(OpKind::Func) {
            let d = Diagnostic::new(
                Code::UnknownCallee,
                *symbol_range,
                format!("`{symbol}` is a `{}`, not a `handshake.func`", callee.kind),
            );
            self.push(d);
            return;
        }
        let mut problems = Vec::new();
        // The count messages are written only when a count differs.
        let operand_count = || {
            format!("`{symbol}` takes {} operands, {} given", callee.args.len(), op.operands.len())
        };
        let result_count = || {
            format!(
                "`{symbol}` gives {} results, the instance lists {}",
                callee.results.len(),
                typing.results.len()
            )
        };
        let ports: [(_, _, _, _, &dyn Fn() -> String); 2] = [
            (
                "operand",
                callee.args.as_slice(),
                op.operands.len(),
                typing.types(typing.operands),
                &operand_count,
            ),
            (
                "result",
                callee.results.as_slice(),
                typing.results.len(),
                typing.types(typing.results),
                &result_count,
            ),
        ];
        for (what, wants, count, gots, count_message) in ports {
            if wants.len() != count {
                problems.push(count_message());
                continue;
            }
            for (i, (want, got)) in wants.iter().zip(gots).enumerate() {
                if let (Some(want), Some(got)) = (want, got) {
                    if !same(want, got) {
                        problems.push(format!("{what} {i} of `{symbol}` is `{want}`, not `{got}`"));
                    }
                }
            }
        }
        for message in problems {
            self.push(Diagnostic::new(Code::InstanceMismatch, op.name_range, message));
        }
    }

    /// `end` / `return` against the function's results. In Dynamatic's 2024 IR, `end` takes
    /// the memory interfaces' done tokens after the results.
    fn returns(&mut self, op: &OpData, kind: OpKind) {
        if op.block.is_none_or(|b| {
            self.item.regions[self.item.blocks[b as usize].region as usize].owner != 0
        }) {
            return;
        }
        let Some(sig) = &self.item.ops[0].signature else { return };
        let expected = sig.results.len();
        let done_tokens = if kind == OpKind::End { self.memory_done_tokens(op) } else { 0 };
        let given = op.operands.len() - done_tokens;
        if given != expected {
            let d = Diagnostic::new(
                Code::ReturnMismatch,
                op.name_range,
                format!(
                    "the function has {expected} result{}, but `{}` gives {}",
                    plural(expected as u64),
                    op.short_name(),
                    given
                ),
            )
            .with_related(sig.range, "the function's signature");
            self.push_return_problem(d);
            return;
        }
        let results: Vec<Option<&Type>> =
            sig.results.iter().map(|p| self.item.port_ty(p)).collect();
        for (i, (&u, want)) in self.item.operands(op).iter().zip(&results).enumerate() {
            let Some(want) = want else { continue };
            let Some(v) = self.item.uses[u as usize].value else { continue };
            let Some(got) = self.types.get(v) else { continue };
            if !same(want, got) {
                let d = Diagnostic::new(
                    Code::ReturnMismatch,
                    self.item.uses[u as usize].range,
                    format!(
                        "result {i} of the function is `{want}`, but `{}` is `{got}`",
                        self.item.str(self.item.uses[u as usize].text())
                    ),
                )
                .with_related(sig.results[i].range, "declared here");
                self.push_return_problem(d);
            }
        }
    }

    /// How many of `end`'s last operands are memory interfaces' done tokens (Dynamatic 2024
    /// passes them to `end` after the results): the trailing operands defined as the last
    /// result of a `mem_controller`, `lsq`, `memory` or `extmemory`.
    /// Dynamatic 2024 did not verify `end` against the function (its verifier accepts any
    /// operands), so there a mismatch is a warning; in every later era it is an error.
    fn push_return_problem(&mut self, mut d: Diagnostic) {
        if self.era == Era::Dynamatic2024 {
            d.severity = crate::Severity::Warning;
        }
        self.push(d);
    }

    fn memory_done_tokens(&self, op: &OpData) -> usize {
        if self.era != Era::Dynamatic2024 {
            return 0;
        }
        self.item
            .operands(op)
            .iter()
            .rev()
            .take_while(|&&u| {
                let Some(v) = self.item.uses[u as usize].value else { return false };
                let Def::Result { op: def, .. } = self.item.values[v as usize].def else {
                    return false;
                };
                let def = self.op(def);
                OpKind::of(def).is_some_and(|k| k.is_interface() || k.is_memory())
                    && self.item.results(def).last() == Some(&v)
            })
            .count()
    }

    fn tuple(&mut self, op: &OpData, kind: OpKind, typing: TypingRef<'_>) {
        let name = kind.key();
        let pack = kind == OpKind::Pack;
        if !op.generic {
            let tuple = self.item.types(op).first().and_then(|e| match *e {
                ir::TypeEntry::One(w) => Some(self.item.ty(w.ty)),
                _ => None,
            });
            let is_tuple =
                tuple.is_some_and(|t| signatures::tuple_elements(t).is_some() || opaque(t));
            if !is_tuple || op.types.len() != 1 {
                let d = Diagnostic::new(
                    Code::TupleMismatch,
                    self.item.types(op).first().map_or(op.name_range, |e| e.range()),
                    format!(
                        "`{name}` is written with the one tuple type it {}: `: tuple<...>`",
                        if pack { "builds" } else { "splits" }
                    ),
                );
                self.push(d);
            }
            return;
        }
        let (tuple, elements) = if pack {
            (typing.result(0), typing.operands)
        } else {
            (typing.operand(0), typing.results)
        };
        let Some(tuple) = tuple else { return };
        let Some(expected) = signatures::tuple_elements(tuple) else { return };
        let got: Vec<Type> = typing.types(elements).flatten().cloned().collect();
        if got != expected {
            let list = got.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ");
            let d = Diagnostic::new(
                Code::TupleMismatch,
                op.name_range,
                format!(
                    "`{tuple}` has elements that differ from the {} ({list})",
                    if pack { "inputs" } else { "results" }
                ),
            );
            self.push(d);
        }
    }

    fn compose(&mut self, op: &OpData, kind: OpKind, from: &Type, to: &Type) {
        let name = kind.key();
        let (wide, narrow) = if kind == OpKind::Compose { (to, from) } else { (from, to) };
        let Some(w) = narrow.widths() else { return };
        let Type::Channel { data, extras } = narrow else { return };
        let whole = Type::Channel {
            data: Box::new(int(w.data + w.down)),
            extras: extras.iter().filter(|e| e.direction == Direction::Up).cloned().collect(),
        };
        let mut grouped_extras = Vec::new();
        if w.down > 0 {
            grouped_extras.push(ExtraSignal {
                name: None,
                ty: int(w.down),
                direction: Direction::Down,
            });
        }
        if w.up > 0 {
            grouped_extras.push(ExtraSignal {
                name: None,
                ty: int(w.up),
                direction: Direction::Up,
            });
        }
        let grouped = Type::Channel { data: data.clone(), extras: grouped_extras };
        let plain_whole =
            Type::Channel { data: Box::new(int(w.data + w.down)), extras: Vec::new() };
        if wide != &whole && wide != &grouped && !(w.up == 0 && wide == &plain_whole) {
            let d = Diagnostic::new(
                Code::ComposeWidth,
                op.name_range,
                format!(
                    "`{name}` of `{narrow}` gives `{whole}` (data and downstream signals in one bus) or `{grouped}` (signals grouped by direction), not `{wide}`"
                ),
            );
            self.push(d);
        }
    }

    fn spec_commit(&mut self, op: &OpData, typing: TypingRef<'_>) {
        let (Some(ctrl), Some(input)) = (typing.operand(0), typing.operand(1)) else {
            return;
        };
        let Some(output) = typing.result(0) else { return };
        let is_spec = |e: &ExtraSignal| e.name.as_deref() == Some("spec");
        if !matches!(ctrl, Type::Channel { data, .. } if **data == int(1)) {
            self.push(Diagnostic::new(
                Code::BadOperandType,
                op.name_range,
                format!("the control of `spec_commit` must be a channel of `i1`, not `{ctrl}`"),
            ));
        }
        let spec_in = extras_of(input).iter().find(|e| is_spec(e));
        if spec_in.is_none_or(|e| e.ty != int(1)) {
            self.push(Diagnostic::new(
                Code::ExtraSignalsDiffer,
                op.name_range,
                format!(
                    "the input of `spec_commit` must carry a `spec: i1` signal; `{input}` does not"
                ),
            ));
        } else if extras_of(output).iter().any(is_spec) {
            self.push(Diagnostic::new(
                Code::ExtraSignalsDiffer,
                op.name_range,
                format!("the output of `spec_commit` must not carry `spec`; `{output}` does"),
            ));
        } else {
            let kept: Vec<&ExtraSignal> = extras_of(input).iter().filter(|e| !is_spec(e)).collect();
            let out: Vec<&ExtraSignal> = extras_of(output).iter().collect();
            if kept != out {
                self.push(Diagnostic::new(Code::ExtraSignalsDiffer, op.name_range, format!("`spec_commit` removes only `spec`: `{input}` and `{output}` differ in other signals")));
            }
        }
        if data_of(input) != data_of(output) {
            self.push(Diagnostic::new(
                Code::OperandTypesDiffer,
                op.name_range,
                format!("`spec_commit` keeps the data type: `{input}` and `{output}` differ"),
            ));
        }
    }

    fn cast(&mut self, op: &OpData, kind: OpKind, from: &Type, to: &Type) {
        let name = kind.key();
        let (Some(a), Some(b)) =
            (data_of(from).and_then(|t| t.bit_width()), data_of(to).and_then(|t| t.bit_width()))
        else {
            return;
        };
        let widens = matches!(kind, OpKind::ExtSI | OpKind::ExtUI | OpKind::ExtF);
        if a == b && kind != OpKind::ExtF && kind != OpKind::TruncF {
            // Dynamatic's CfToHandshake writes same-width integer casts on purpose and its
            // verifier accepts them; they cost nothing in hardware.
            let mut d = Diagnostic::new(
                Code::CastWidth,
                op.name_range,
                format!("`{name}` from `{from}` to `{to}` keeps the width; it changes nothing"),
            );
            d.severity = crate::Severity::Hint;
            self.push(d);
            return;
        }
        let wrong = if widens { b <= a } else { b >= a };
        if wrong {
            let verb = if widens { "widen" } else { "narrow" };
            let d = Diagnostic::new(
                Code::CastWidth,
                op.name_range,
                format!("`{name}` must {verb}: `{from}` to `{to}` is {a} to {b} bits"),
            );
            self.push(d);
        }
    }

    fn function_rules(&mut self) {
        // The item outlives the checker, so the signature is read in place while diagnostics
        // are pushed.
        let item = self.item;
        let top = &item.ops[0];
        let Some(sig) = top.signature.as_deref() else { return };
        for (key, expected) in [("argNames", sig.args.len()), ("resNames", sig.results.len())] {
            let Some(attr) = self.item.attr(top, key) else { continue };
            let entries = crate::attrs::array(self.item.str(attr.value)).unwrap_or_default();
            if entries.len() != expected {
                let d = Diagnostic::new(
                    Code::PortNamesCount,
                    attr.range,
                    format!(
                        "`{key}` has {} entr{} for {expected} {}",
                        entries.len(),
                        if entries.len() == 1 { "y" } else { "ies" },
                        if key == "argNames" { "arguments" } else { "results" }
                    ),
                );
                self.push(d);
            } else if entries.iter().any(|e| !e.trim().starts_with('"')) {
                let d = Diagnostic::new(
                    Code::PortNamesCount,
                    attr.range,
                    format!("every entry of `{key}` must be a string"),
                );
                self.push(d);
            }
        }
        if self.style == Style::Circt && !sig.external {
            for (i, port) in sig.args.iter().enumerate() {
                let Some(Type::MemRef { .. }) = self.item.port_ty(port) else { continue };
                let Some(v) = port.value else { continue };
                let by_memory =
                    self.item.value_uses(&self.item.values[v as usize]).iter().any(|&u| {
                        let op = self.op(self.item.uses[u as usize].op);
                        matches!(
                            OpKind::of(op),
                            Some(OpKind::ExtMemory | OpKind::MemController | OpKind::Lsq)
                        )
                    });
                if !by_memory {
                    let d = Diagnostic::new(
                        Code::MemrefArgUnused,
                        port.range,
                        format!("memref argument #{i} must be used by an `extmemory` op, which gives the function its memory ports"),
                    );
                    self.push(d);
                }
            }
        }
    }

    /// Every channel defined in the function is consumed exactly once.
    fn single_use(&mut self) {
        // A value consumed once (most) is fine whatever else holds: the rest decide only
        // whether the others are held to the rule.
        let body_values = self.item.values.iter().enumerate().filter(|(_, v)| {
            v.uses.len() != 1
                && match v.def {
                    Def::Arg { block, .. } => {
                        let region = self.item.blocks[block as usize].region;
                        self.item.regions[region as usize].owner == 0
                    }
                    Def::Result { .. } => true,
                }
        });
        let mut unused = Vec::new();
        let mut multi = Vec::new();
        for (v, value) in body_values {
            let v = v as ValueId;
            let ty = self.types.get(v);
            if matches!(ty, Some(Type::MemRef { .. })) {
                continue;
            }
            if let Def::Result { op, .. } = value.def {
                let kind = OpKind::of(self.op(op));
                // Unknown ops, unnamed (broken) statements and memories' done tokens are not
                // held to the rule.
                if kind.is_none_or(|k| !k.def().single_use || k == OpKind::Memory)
                    || self.op(op).short_name().is_empty()
                {
                    continue;
                }
            }
            match value.uses.len() {
                1 => {}
                0 => unused.push((v, ty.cloned())),
                n => multi.push((v, ty.cloned(), n)),
            }
        }
        let forked = self
            .item
            .ops
            .iter()
            .any(|op| matches!(OpKind::of(op), Some(OpKind::Fork | OpKind::LazyFork)));
        if !forked && !multi.is_empty() {
            // Before fork and sink materialization (Dynamatic's `handshake.mlir`, CIRCT before
            // `handshake-materialize-forks-sinks`): one note for the function, one fix for all.
            let d = self.not_materialized(&unused, &multi);
            self.acc.push(d);
            return;
        }
        let mut diagnostics = Vec::new();
        for (v, ty) in unused {
            let name = self.value_name(v);
            diagnostics.push(self.unused(v, &name, ty.as_ref()));
        }
        for (v, ty, n) in multi {
            let name = self.value_name(v);
            diagnostics.push(self.multi_use(v, &name, ty.as_ref(), n));
        }
        diagnostics.sort_by_key(|d| d.range.start());
        self.acc.extend(diagnostics);
    }

    /// The single-use rule on a function that has not been through fork and sink
    /// materialization: one diagnostic at the function's name, with one fix that inserts every
    /// fork and sink.
    fn not_materialized(
        &self,
        unused: &[(ValueId, Option<Type>)],
        multi: &[(ValueId, Option<Type>, usize)],
    ) -> Diagnostic {
        let top = &self.item.ops[0];
        let range =
            top.signature.as_ref().and_then(|s| s.name.as_ref()).map_or(top.name_range, |n| n.1);
        let mut d = Diagnostic::new(
            Code::NotMaterialized,
            range,
            format!(
                "this function has not been through fork and sink materialization: {} value{} consumed several times and {} never consumed; the single-use rule applies once forks and sinks are in place",
                multi.len(),
                if multi.len() == 1 { " is" } else { "s are" },
                unused.len(),
            ),
        );
        let mut edits = Vec::new();
        let mut taken: Vec<String> = Vec::new();
        for (v, ty, n) in multi {
            let Some(ty) = ty else { continue };
            let name = self.value_name(*v);
            let fork = self.fork_name(&name, &taken);
            taken.push(fork.clone());
            edits.extend(self.fork_edits(*v, &name, &fork, ty, *n));
        }
        for (v, ty) in unused {
            let Some(ty) = ty else { continue };
            let name = self.value_name(*v);
            edits.push(self.insert_line(*v, &format!("sink {name} : {ty}")));
        }
        if !edits.is_empty() {
            // Several lines inserted after one definition keep their order.
            edits.sort_by_key(|e| e.range.start());
            d.fixes.push(Fix { label: "Materialize forks and sinks".to_string(), edits });
        }
        d
    }

    /// A fresh name for the fork of `name`: valid MLIR (a numbered value's fork is
    /// `%fork12`, not `%12_fork`), not taken in the item nor by `taken`.
    fn fork_name(&self, name: &str, taken: &[String]) -> String {
        let bare = name.trim_start_matches('%').replace('#', "_");
        let base = if bare.starts_with(|c: char| c.is_ascii_digit()) {
            format!("%fork{bare}")
        } else {
            format!("%{bare}_fork")
        };
        let mut fork = base.clone();
        let mut k = 1;
        while self.item.values.iter().any(|v| self.item.str(v.name()) == fork)
            || taken.contains(&fork)
        {
            fork = format!("{base}{k}");
            k += 1;
        }
        fork
    }

    /// The edits that put a `fork [n]` on `v` and send each use to one of its results.
    fn fork_edits(&self, v: ValueId, name: &str, fork: &str, ty: &Type, n: usize) -> Vec<TextEdit> {
        let value = &self.item.values[v as usize];
        let mut edits =
            vec![self.insert_line(v, &format!("{fork}:{n} = fork [{n}] {name} : {ty}"))];
        for (i, &u) in self.item.value_uses(value).iter().enumerate() {
            edits.push(TextEdit {
                range: self.item.uses[u as usize].range,
                new_text: format!("{fork}#{i}"),
            });
        }
        edits
    }

    /// Where a new line after the value's definition goes, and its indentation.
    fn after_definition(&self, v: ValueId) -> (TextSize, String) {
        let value = &self.item.values[v as usize];
        let (anchor, fallback_indent) = match value.def {
            Def::Result { op, .. } => (self.op(op).range.end(), None),
            Def::Arg { block, .. } => {
                // After the function's `{` line: before the first op of the block.
                let first =
                    self.item.blocks[block as usize].ops.first().map(|&o| self.op(o).range.start());
                match first {
                    Some(start) => {
                        let line_start = self.text[..start.into()].rfind('\n').map_or(0, |i| i + 1);
                        let indent = self.text[line_start..start.into()].to_string();
                        return (TextSize::from(line_start as u32), format!("{indent}\0"));
                    }
                    None => (value.range.end(), Some("  ".to_string())),
                }
            }
        };
        let end: usize = anchor.into();
        let line_start = self.text[..end.min(self.text.len())].rfind('\n').map_or(0, |i| i + 1);
        let indent: String =
            self.text[line_start..].chars().take_while(|c| *c == ' ' || *c == '\t').collect();
        let line_end =
            self.text[end.min(self.text.len())..].find('\n').map_or(self.text.len(), |i| end + i);
        (TextSize::from(line_end as u32), fallback_indent.unwrap_or(indent))
    }

    fn insert_line(&self, v: ValueId, line: &str) -> TextEdit {
        let (at, indent) = self.after_definition(v);
        let new_text = match indent.strip_suffix('\0') {
            // Before the first op of the block: the line goes first, with that op's indent.
            Some(indent) => format!("{indent}{line}\n"),
            None => format!("\n{indent}{line}"),
        };
        TextEdit { range: TextRange::empty(at), new_text }
    }

    fn unused(&self, v: ValueId, name: &str, ty: Option<&Type>) -> Diagnostic {
        let range = self.item.values[v as usize].range;
        let mut d = Diagnostic::new(
            Code::UnusedValue,
            range,
            format!("`{name}` is never consumed; a Handshake channel must be consumed exactly once, or its producer stalls"),
        );
        if let Some(ty) = ty {
            d.fixes.push(Fix {
                label: format!("Consume `{name}` with a `sink`"),
                edits: vec![self.insert_line(v, &format!("sink {name} : {ty}"))],
            });
        }
        d
    }

    fn multi_use(&self, v: ValueId, name: &str, ty: Option<&Type>, n: usize) -> Diagnostic {
        let value = &self.item.values[v as usize];
        let mut d = Diagnostic::new(
            Code::MultipleUses,
            value.range,
            format!("`{name}` is consumed {n} times; a Handshake channel must be consumed exactly once, through a `fork` when several ops need it"),
        );
        for &u in self.item.value_uses(value) {
            d = d.with_related(self.item.uses[u as usize].range, "consumed here");
        }
        if let Some(ty) = ty {
            let fork = self.fork_name(name, &[]);
            let edits = self.fork_edits(v, name, &fork, ty, n);
            d.fixes.push(Fix { label: format!("Insert `fork [{n}]` for `{name}`"), edits });
        }
        d
    }
}

/// Whether an op's operand count is fixed by its typing (rather than read from it).
fn arity_is_fixed(op: &OpData) -> bool {
    OpKind::of(op).is_some_and(|k| !k.def().variadic)
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
