//! What each known op's written types say about its operands and results.
//!
//! Custom assembly writes fewer types than an op has operands and results (`merge %a, %b : i32`
//! types three values with one word); `typing` expands the written types into one type per
//! operand and per result, for Dynamatic's, CIRCT's and the proposals' spellings. The checks use
//! it to type results, to compare each use with its value's type, and to count results.

use crate::ir::{Container, Item, OpData, TypeEntry, Written};
use crate::ops::{Era, OpKind, Typing as Rule};
use crate::types::{Direction, ExtraSignal, Signedness, Type};

/// How a `handshake.func` writes channel types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// CIRCT: raw types are channels (`i32`), `none` is control.
    Circt,
    /// Dynamatic and the proposals: `<i32>`, `!handshake.channel<i32>`, `channel<i32>`,
    /// `control`.
    Dynamatic,
}

impl Style {
    pub fn control(self) -> Type {
        match self {
            Style::Circt => Type::None,
            Style::Dynamatic => Type::Control { extras: Vec::new() },
        }
    }

    pub fn i1(self) -> Type {
        match self {
            Style::Circt => int(1),
            Style::Dynamatic => Type::Channel { data: Box::new(int(1)), extras: Vec::new() },
        }
    }
}

pub fn int(width: u32) -> Type {
    Type::Int { width, signedness: Signedness::Signless }
}

/// One expected type per operand and per result; `None` where the op does not say.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Typing {
    pub operands: Vec<Option<Type>>,
    pub results: Vec<Option<Type>>,
}

// The backend's interpreter still asks for ops by key; nothing in the analysis does.
impl Era {
    /// How functions of this era write channel types.
    pub fn style(self) -> Style {
        if self.is_dynamatic_style() {
            Style::Dynamatic
        } else {
            Style::Circt
        }
    }
}

fn flat(entries: &[TypeEntry]) -> Vec<&Written> {
    if entries.is_empty() {
        return Vec::new();
    }
    // One entry a type, but for the rare `[T, U]` lists.
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        match entry {
            TypeEntry::One(w) => out.push(w),
            TypeEntry::List(ws, _) => out.extend(ws.iter()),
            TypeEntry::Function(..) => {}
        }
    }
    out
}

/// The written types of an entry list, lists flattened, function types left out.
pub fn flat_types(entries: &[TypeEntry]) -> Vec<&Type> {
    flat(entries).into_iter().map(|w| &w.ty).collect()
}

fn function(entries: &[TypeEntry]) -> Option<(&[Written], &[Written])> {
    entries.iter().find_map(|e| match e {
        TypeEntry::Function(ins, outs, _) => Some((ins.as_slice(), outs.as_slice())),
        _ => None,
    })
}

fn tys(ws: &[&Written]) -> Vec<Option<Type>> {
    ws.iter().map(|w| Some(w.ty.clone())).collect()
}

/// The channel's extras, for result types derived from an operand's (`cmpi` keeps them).
fn with_data(ty: &Type, data: Type, style: Style) -> Type {
    match (ty, style) {
        (Type::Channel { extras, .. } | Type::Control { extras }, Style::Dynamatic) => {
            Type::Channel { data: Box::new(data), extras: extras.clone() }
        }
        _ => data,
    }
}

/// The written types of an entry list, `[T, U]` lists flattened and function types left out,
/// read in place when every entry is one type (the usual case), so that reading them allocates
/// nothing.
struct Flat<'a> {
    entries: &'a [TypeEntry],
    /// The flattened list, when an entry is not one type.
    list: Option<Vec<&'a Written>>,
}

impl<'a> Flat<'a> {
    fn of(entries: &'a [TypeEntry]) -> Flat<'a> {
        let simple = entries.iter().all(|e| matches!(e, TypeEntry::One(_)));
        Flat { entries, list: (!simple).then(|| flat(entries)) }
    }

    fn len(&self) -> usize {
        match &self.list {
            Some(list) => list.len(),
            None => self.entries.len(),
        }
    }

    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn get(&self, i: usize) -> Option<&'a Written> {
        match &self.list {
            Some(list) => list.get(i).copied(),
            None => match self.entries.get(i) {
                Some(TypeEntry::One(w)) => Some(w),
                _ => None,
            },
        }
    }

    /// The type at `i`, if written.
    fn ty(&self, i: usize) -> Option<&'a Type> {
        self.get(i).map(|w| &w.ty)
    }

    fn iter(&self) -> impl Iterator<Item = &'a Written> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    fn to_vec(&self) -> Vec<&'a Written> {
        self.iter().collect()
    }
}

/// The expected type of every operand and result of `op`, from its written types, by the
/// op's typing rule (`ops::OpDef::typing`) in the function's era. `None` when the op is
/// unknown or its types are not written in a form hsir reads.
pub fn typing(op: &OpData, item: &Item, era: Era) -> Option<Typing> {
    let mut typing = Typing::default();
    typing_into(op, item, era, &mut typing).then_some(typing)
}

/// `typing` into `out`, whose vectors are cleared and reused: a caller typing many ops
/// allocates once. Returns whether the op has a typing (`out` is left empty when not).
pub fn typing_into(op: &OpData, item: &Item, era: Era, out: &mut Typing) -> bool {
    out.operands.clear();
    out.results.clear();
    let found = fill(op, item, era, &mut out.operands, &mut out.results).is_some();
    if !found {
        out.operands.clear();
        out.results.clear();
    }
    found
}

/// Pushes `ty` `count` times.
fn push_n(out: &mut Vec<Option<Type>>, ty: Option<&Type>, count: usize) {
    out.extend(std::iter::repeat_n(ty, count).map(|t| t.cloned()));
}

/// Pushes every written type.
fn push_all<'a>(out: &mut Vec<Option<Type>>, ws: impl Iterator<Item = &'a Written>) {
    out.extend(ws.map(|w| Some(w.ty.clone())));
}

fn fill(
    op: &OpData,
    item: &Item,
    era: Era,
    operands: &mut Vec<Option<Type>>,
    results: &mut Vec<Option<Type>>,
) -> Option<()> {
    let kind = OpKind::of(op)?;
    // The generic form and function-typed ops say everything.
    if op.generic {
        let (ins, outs) = function(item.types(op))?;
        push_all(operands, ins.iter());
        push_all(results, outs.iter());
        return Some(());
    }
    let style = era.style();
    let t = Flat::of(item.types(op));
    let after = Flat::of(item.types_after(op));
    let n = op.operands.len();
    let first = t.ty(0);
    let written_results = || -> u32 { item.result_groups(op).iter().map(|g| g.count).sum() };
    match kind.def().typing {
        Rule::Forward => {
            // `fork [N]` gives N results (or as many as are bound); the others one.
            let count = match kind {
                OpKind::Fork | OpKind::LazyFork => item
                    .bracket_ints(op)
                    .first()
                    .map_or(written_results() as usize, |&c| c as usize),
                _ => 1,
            };
            operands.push(first.cloned());
            push_n(results, first, count);
        }
        Rule::Merge => {
            per_operand(&t, n, operands)?;
            results.push(first.cloned());
        }
        Rule::Join => {
            per_operand(&t, n, operands)?;
            if after.is_empty() {
                results.push(Some(style.control()));
            } else {
                push_all(results, after.iter());
            }
        }
        Rule::Sync => {
            per_operand(&t, n, operands)?;
            results.extend(operands.iter().cloned());
        }
        Rule::Mux => {
            // `%s [%a, %b] : Ts, T` or Dynamatic's `: Ts, [Ta, Tb] to T`.
            operands.push(first.cloned());
            match item.types(op).get(1) {
                Some(TypeEntry::List(ws, _)) => push_all(operands, ws.iter()),
                Some(TypeEntry::One(w)) => push_n(operands, Some(&w.ty), n.saturating_sub(1)),
                _ => return None,
            }
            results.push(after.ty(0).or(t.ty(1)).cloned());
        }
        Rule::ControlMerge => {
            if after.is_empty() {
                // CIRCT: `%a, %b : T, Tindex`.
                push_n(operands, first, n);
                results.push(first.cloned());
                results.push(t.ty(1).cloned());
            } else {
                per_operand(&t, n, operands)?;
                push_all(results, after.iter());
            }
        }
        Rule::Sink => operands.push(first.cloned()),
        Rule::Source => results.push(Some(first.cloned().unwrap_or(style.control()))),
        Rule::CondBr => {
            let (cond, data) =
                if t.len() >= 2 { (t.ty(0).cloned(), t.ty(1)) } else { (Some(style.i1()), first) };
            operands.push(cond);
            operands.push(data.cloned());
            push_n(results, data, 2);
        }
        Rule::Constant => {
            let (ctrl, result) = if t.len() >= 2 {
                (t.ty(0).cloned(), t.ty(1))
            } else {
                (Some(style.control()), first)
            };
            operands.push(ctrl);
            results.push(result.cloned());
        }
        Rule::ArithConstant => results.push(first.cloned()),
        Rule::Access => {
            // Dynamatic 2024's stores write the data type first.
            let mut t = t.to_vec();
            if matches!(kind, OpKind::McStore | OpKind::LsqStore) && t.len() == 2 {
                t.swap(0, 1);
            }
            let typing = access(op, item, &t, style)?;
            *operands = typing.operands;
            *results = typing.results;
        }
        Rule::Terminator => {
            per_operand(&t, n, operands)?;
            // The proposals' `%out = return %x : T` passes its operands on to `end`.
            if kind == OpKind::Return && written_results() > 0 {
                results.extend(operands.iter().cloned());
            }
        }
        Rule::FunctionType => {
            let (ins, outs) = function(item.types(op))?;
            if kind == OpKind::ExtMemory {
                // `(%mem : memref<...>)` comes first and is typed in place.
                operands.push(None);
            }
            push_all(operands, ins.iter());
            push_all(results, outs.iter());
        }
        Rule::Pack => {
            let tuple = first?;
            let elements = tuple_elements(tuple)?;
            operands.extend(elements.into_iter().map(Some));
            results.push(Some(tuple.clone()));
        }
        Rule::Unpack => {
            let tuple = first?;
            let elements = tuple_elements(tuple)?;
            operands.push(Some(tuple.clone()));
            results.extend(elements.into_iter().map(Some));
        }
        Rule::Binary => {
            push_n(operands, first, 2);
            results.push(first.cloned());
        }
        Rule::Compare => {
            let ty = first?;
            push_n(operands, Some(ty), 2);
            results.push(Some(with_data(ty, int(1), style)));
        }
        Rule::Cast => {
            operands.push(first.cloned());
            results.push(after.ty(0).cloned());
        }
        Rule::Select => {
            // Dynamatic: `%c [%a, %b] : Tc, T`.
            let data = t.ty(1);
            operands.push(first.cloned());
            push_n(operands, data, 2);
            results.push(data.cloned());
        }
        Rule::ArithSelect => {
            let (cond, data) =
                if t.len() >= 2 { (t.ty(0).cloned(), t.ty(1)) } else { (Some(int(1)), first) };
            operands.push(cond);
            push_n(operands, data, 2);
            results.push(data.cloned());
        }
        Rule::SpecCommit => {
            // `[%ctrl] %dataIn : Tin, Tout, Tctrl`.
            if t.len() < 3 {
                return None;
            }
            operands.push(t.ty(2).cloned());
            operands.push(t.ty(0).cloned());
            results.push(t.ty(1).cloned());
        }
        Rule::Unbundle => {
            let channel = match (t.ty(0), after.is_empty()) {
                (Some(ty), false) => ty,
                _ => return None,
            };
            let (ups, downs) = unbundled(channel, style)?;
            operands.push(Some(channel.clone()));
            operands.extend(ups.into_iter().map(Some));
            results.extend(downs.into_iter().map(Some));
        }
        Rule::Bundle => {
            // Dynamatic's `: _ to <T>`, or the proposal's `: channel<T>`.
            let channel = after.ty(0).or(first)?;
            let (ups, downs) = unbundled(channel, style)?;
            results.push(Some(channel.clone()));
            results.extend(ups.into_iter().map(Some));
            operands.extend(downs.into_iter().map(Some));
        }
        // Dynamatic's memory interfaces: `lsq[%mem : memref<..>] (%ctrl, %addr, ...)` with the
        // function type of the parenthesized operands. The results take the written types; the
        // operands' roles depend on the interface's configuration, which the memory lints check.
        // `mem_controller` binds one more result than its type lists: the interface's done
        // token (`%memEnd`), a control. Results beyond what is known stay untyped, so the
        // typing never disagrees with how many the op binds.
        Rule::Interface => {
            let (_, outs) = function(item.types(op))?;
            push_all(results, outs.iter());
            let written = written_results() as usize;
            if kind == OpKind::MemController && written > outs.len() {
                results.push(Some(style.control()));
            }
            results.resize(written, None);
            operands.resize(n, None);
        }
        Rule::Loom => {
            let typing = loom_typing(item, op, kind, style);
            *operands = typing.operands;
            *results = typing.results;
        }
        Rule::Untyped => return None,
    }
    Some(())
}

/// A memory access, by how many types are written: Dynamatic's four (2026: `[%addr] %data :
/// Ta, Td, Ta, Td`, results address then data), Dynamatic's two (2024's `mc_load` and 2025's
/// `load[%addr] %data : Ta, Td`: the same ports, each type written once), or CIRCT's two with a
/// control operand (`[%addr...] %data, %ctrl : Ta, Td`, results data then addresses). A
/// Dynamatic-style function reads two types Dynamatic's way.
fn access(op: &OpData, item: &Item, t: &[&Written], style: Style) -> Option<Typing> {
    let addresses = item
        .operands(op)
        .iter()
        .filter(|&&u| item.uses[u as usize].container == Container::Bracket)
        .count();
    let dynamatic_pair = t.len() == 2 && style == Style::Dynamatic;
    if t.len() == 4 || dynamatic_pair {
        let (addr, data) = (t[0].ty.clone(), t[1].ty.clone());
        let (addr_out, data_out) = if t.len() == 4 {
            (t[2].ty.clone(), t[3].ty.clone())
        } else {
            (addr.clone(), data.clone())
        };
        Some(Typing {
            operands: vec![Some(addr), Some(data)],
            results: vec![Some(addr_out), Some(data_out)],
        })
    } else if t.len() == 2 {
        let addr = Some(t[0].ty.clone());
        let data = Some(t[1].ty.clone());
        let mut operands = vec![addr.clone(); addresses];
        operands.push(data.clone());
        operands.push(Some(style.control()));
        let mut results = vec![data];
        results.extend(vec![addr; addresses]);
        Some(Typing { operands, results })
    } else {
        None
    }
}

/// LOOM's `dataflow` ops have a fixed shape: the typing always has it, with the written types
/// in place where as many are written as the shape has (the lints report other counts).
fn loom_typing(item: &Item, op: &OpData, kind: OpKind, style: Style) -> Typing {
    let index = match style {
        Style::Circt => Type::Index,
        Style::Dynamatic => Type::Channel { data: Box::new(Type::Index), extras: Vec::new() },
    };
    let (ins, outs) = loom_shape(kind);
    let (written_ins, written_outs): (Vec<&Written>, Vec<&Written>) = match function(item.types(op))
    {
        Some((i, o)) => (i.iter().collect(), o.iter().collect()),
        None => (flat(item.types(op)), flat(item.types_after(op))),
    };
    let place = |written: &[&Written], count: usize| -> Vec<Option<Type>> {
        if written.len() == count {
            tys(written)
        } else {
            vec![None; count]
        }
    };
    let mut operands = place(&written_ins, ins);
    let mut results = place(&written_outs, outs);
    if kind == OpKind::Stream {
        // Types are optional on a stream: `index` operands, `(index, i1)` results.
        if written_ins.len() == 1 {
            operands = vec![Some(written_ins[0].ty.clone()); ins];
        } else if written_ins.is_empty() {
            operands = vec![Some(index.clone()); ins];
        }
        if written_outs.is_empty() {
            results = vec![Some(index), Some(style.i1())];
        }
    }
    Typing { operands, results }
}

/// Operand and result counts of LOOM's `dataflow` ops, from their layout.
pub fn loom_shape(kind: OpKind) -> (usize, usize) {
    let layout = kind.def().layout(Era::Loom);
    (layout.operands.len(), layout.results.len())
}

/// Types for `n` operands from a list written either once for all or once per operand, pushed
/// onto `out`.
fn per_operand(t: &Flat<'_>, n: usize, out: &mut Vec<Option<Type>>) -> Option<()> {
    match t.len() {
        0 if n == 0 => {}
        1 => push_n(out, t.ty(0), n),
        len if len == n => push_all(out, t.iter()),
        _ => return None,
    }
    Some(())
}

/// The elements of `tuple<A, B>`.
pub fn tuple_elements(ty: &Type) -> Option<Vec<Type>> {
    let Type::Other(text) = ty else { return None };
    let inner = text.strip_prefix("tuple<")?.strip_suffix('>')?;
    if inner.is_empty() {
        return Some(Vec::new());
    }
    // Elements of nested tuples are kept whole.
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, b) in inner.bytes().enumerate() {
        match b {
            b'<' | b'(' => depth += 1,
            b'>' | b')' => depth -= 1,
            b',' if depth == 0 => {
                out.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&inner[start..]);
    Some(
        out.into_iter()
            .map(|word| {
                crate::types::builtin(word).unwrap_or_else(|| Type::Other(word.to_string()))
            })
            .collect(),
    )
}

/// What unbundling a channel or control type gives: the upstream values it takes in (after
/// the channel) and the downstream values it gives out. A channel gives a control token, its
/// data and its downstream extras; a control token gives `valid` (`i1`) and its downstream
/// extras and takes `ready` (`i1`); upstream extras are taken in, in order.
pub fn unbundled(channel: &Type, style: Style) -> Option<(Vec<Type>, Vec<Type>)> {
    let _ = style;
    let (data, extras): (Option<&Type>, &[ExtraSignal]) = match channel {
        Type::Channel { data, extras } => (Some(data), extras),
        Type::Control { extras } => (None, extras),
        _ => return None,
    };
    let mut ups = Vec::new();
    let mut downs = Vec::new();
    match data {
        Some(data) => {
            downs.push(Type::Control { extras: Vec::new() });
            downs.push((*data).clone());
        }
        None => {
            downs.push(int(1));
            ups.push(int(1));
        }
    }
    for extra in extras {
        match extra.direction {
            Direction::Down => downs.push(extra.ty.clone()),
            Direction::Up => ups.push(extra.ty.clone()),
        }
    }
    Some((ups, downs))
}
