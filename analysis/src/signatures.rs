//! What each known op's written types say about its operands and results.
//!
//! Custom assembly writes fewer types than an op has operands and results (`merge %a, %b : i32`
//! types three values with one word); `typing` expands the written types into one type per
//! operand and per result, for Dynamatic's, CIRCT's and the proposals' spellings. The checks use
//! it to type results, to compare each use with its value's type, and to count results.

use std::borrow::Cow;
use std::sync::LazyLock;

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

    /// `control`, borrowed.
    fn control_ref(self) -> &'static Type {
        static CONTROL: Type = Type::Control { extras: Vec::new() };
        match self {
            Style::Circt => &Type::None,
            Style::Dynamatic => &CONTROL,
        }
    }

    /// `i1`, borrowed.
    fn i1_ref(self) -> &'static Type {
        static I1: Type = int(1);
        static CHANNEL: LazyLock<Type> = LazyLock::new(|| Style::Dynamatic.i1());
        match self {
            Style::Circt => &I1,
            Style::Dynamatic => &CHANNEL,
        }
    }
}

pub const fn int(width: u32) -> Type {
    Type::Int { width, signedness: Signedness::Signless }
}

/// One expected type per operand and per result; `None` where the op does not say. Types the
/// op writes are borrowed from its item, as are the usual implied ones (`none`, `control`,
/// `i1`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Typing<'a> {
    pub operands: Vec<Option<Cow<'a, Type>>>,
    pub results: Vec<Option<Cow<'a, Type>>>,
}

/// One expected type as the typing rules record it: not said, written in the item (or one of
/// the usual implied types), or made by the rule and kept in `Built::made` at this index. A
/// slot is a copy of a reference or an index, so that arrays of them are cheap to fill and
/// need nothing done to free them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot<'a> {
    Unsaid,
    Borrowed(&'a Type),
    Made(u32),
}

impl<'a> Slot<'a> {
    /// The type, with `made` the `Built::made` the slot was recorded with.
    #[inline]
    pub(crate) fn get<'b>(self, made: &'b [Type]) -> Option<&'b Type>
    where
        'a: 'b,
    {
        match self {
            Slot::Unsaid => None,
            Slot::Borrowed(ty) => Some(ty),
            Slot::Made(i) => made.get(i as usize),
        }
    }
}

/// Typings as the rules build them: the slots of operands and of results, and the types the
/// rules made (tuple elements, unbundled signals, ...), which slots name by index.
#[derive(Debug, Default)]
pub(crate) struct Built<'a> {
    pub(crate) operands: Types<'a>,
    pub(crate) results: Types<'a>,
    pub(crate) made: Vec<Type>,
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

fn flat(item: &Item, entries: &[TypeEntry]) -> Vec<Written> {
    if entries.is_empty() {
        return Vec::new();
    }
    // One entry a type, but for the rare `[T, U]` lists.
    let mut out = Vec::with_capacity(entries.len());
    for entry in entries {
        match *entry {
            TypeEntry::One(w) => out.push(w),
            TypeEntry::List(ws, _) => out.extend_from_slice(item.written(ws)),
            TypeEntry::Function(..) => {}
        }
    }
    out
}

/// The written types of an entry list of `item`, lists flattened, function types left out.
pub fn flat_types<'a>(item: &'a Item, entries: &[TypeEntry]) -> Vec<&'a Type> {
    flat(item, entries).into_iter().map(|w| item.ty(w.ty)).collect()
}

/// The inputs and outputs of the first function type of an entry list of `item`.
pub fn function<'a>(
    item: &'a Item,
    entries: &[TypeEntry],
) -> Option<(&'a [Written], &'a [Written])> {
    entries.iter().find_map(|e| match *e {
        TypeEntry::Function(ins, outs, _) => Some((item.written(ins), item.written(outs))),
        _ => None,
    })
}

/// A type, borrowed.
#[inline]
fn b(ty: Option<&Type>) -> Slot<'_> {
    ty.map_or(Slot::Unsaid, Slot::Borrowed)
}

/// A type made here, kept in `made`.
fn own<'a>(made: &mut Vec<Type>, ty: Type) -> Slot<'a> {
    made.push(ty);
    Slot::Made((made.len() - 1) as u32)
}

/// `i1` with the channel's extras, for the result of a comparison (`cmpi` keeps them).
fn i1_with_extras<'a>(ty: &Type, style: Style, made: &mut Vec<Type>) -> Slot<'a> {
    match (ty, style) {
        (Type::Channel { extras, .. } | Type::Control { extras }, Style::Dynamatic)
            if !extras.is_empty() =>
        {
            own(made, Type::Channel { data: Box::new(int(1)), extras: extras.clone() })
        }
        (Type::Channel { .. } | Type::Control { .. }, Style::Dynamatic) => {
            b(Some(Style::Dynamatic.i1_ref()))
        }
        _ => b(Some(Style::Circt.i1_ref())),
    }
}

/// The written types of an entry list, `[T, U]` lists flattened and function types left out,
/// read in place when every entry is one type (the usual case), so that reading them allocates
/// nothing.
struct Flat<'a> {
    item: &'a Item,
    entries: &'a [TypeEntry],
    /// The flattened list, when an entry is not one type.
    list: Option<Vec<Written>>,
}

impl<'a> Flat<'a> {
    fn of(item: &'a Item, entries: &'a [TypeEntry]) -> Flat<'a> {
        let simple = entries.iter().all(|e| matches!(e, TypeEntry::One(_)));
        Flat { item, entries, list: (!simple).then(|| flat(item, entries)) }
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

    fn get(&self, i: usize) -> Option<Written> {
        match &self.list {
            Some(list) => list.get(i).copied(),
            None => match self.entries.get(i) {
                Some(&TypeEntry::One(w)) => Some(w),
                _ => None,
            },
        }
    }

    /// The type at `i`, if written.
    fn ty(&self, i: usize) -> Option<&'a Type> {
        self.get(i).map(|w| self.item.ty(w.ty))
    }

    fn iter(&self) -> impl Iterator<Item = Written> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// The types, in order.
    fn types(&self) -> Vec<&'a Type> {
        self.iter().map(|w| self.item.ty(w.ty)).collect()
    }
}

/// The expected type of every operand and result of `op`, from its written types, by the
/// op's typing rule (`ops::OpDef::typing`) in the function's era. `None` when the op is
/// unknown or its types are not written in a form hsir reads.
pub fn typing<'a>(op: &OpData, item: &'a Item, era: Era) -> Option<Typing<'a>> {
    let mut built = Built::default();
    if !append_typing(op, item, era, &mut built) {
        return None;
    }
    let made = std::mem::take(&mut built.made);
    let cow = |slot: &Slot<'a>| match *slot {
        Slot::Unsaid => None,
        Slot::Borrowed(ty) => Some(Cow::Borrowed(ty)),
        Slot::Made(i) => Some(Cow::Owned(made[i as usize].clone())),
    };
    Some(Typing {
        operands: built.operands.iter().map(cow).collect(),
        results: built.results.iter().map(cow).collect(),
    })
}

/// `typing`, appended to `out`: a caller typing every op of an item keeps all their typings
/// in one `Built`. Returns whether the op has a typing (nothing is appended when not).
pub(crate) fn append_typing<'a>(
    op: &OpData,
    item: &'a Item,
    era: Era,
    out: &mut Built<'a>,
) -> bool {
    let had = (out.operands.len(), out.results.len(), out.made.len());
    let found = fill(op, item, era, out).is_some();
    if !found {
        out.operands.truncate(had.0);
        out.results.truncate(had.1);
        out.made.truncate(had.2);
    }
    found
}

/// Slots, one an operand or a result.
pub(crate) type Types<'a> = Vec<Slot<'a>>;

/// Pushes `ty` `count` times.
fn push_n<'a>(out: &mut Types<'a>, ty: Option<&'a Type>, count: usize) {
    out.extend(std::iter::repeat_n(ty, count).map(b));
}

/// Pushes every written type of `item`.
fn push_all<'a>(out: &mut Types<'a>, item: &'a Item, ws: impl IntoIterator<Item = Written>) {
    out.extend(ws.into_iter().map(|w| Slot::Borrowed(item.ty(w.ty))));
}

/// Appends `op`'s typing to `out` (what it holds already is left alone);
/// `None` when it has none, possibly after appending part of it.
fn fill<'a>(op: &OpData, item: &'a Item, era: Era, out: &mut Built<'a>) -> Option<()> {
    let kind = OpKind::of(op)?;
    let Built { operands, results, made } = out;
    // Where this op's typing starts in each array.
    let (base, results_base) = (operands.len(), results.len());
    // The generic form and function-typed ops say everything.
    if op.generic {
        let (ins, outs) = function(item, item.types(op))?;
        push_all(operands, item, ins.iter().copied());
        push_all(results, item, outs.iter().copied());
        return Some(());
    }
    let style = era.style();
    let t = Flat::of(item, item.types(op));
    // The types after `to` / `->`, read by the few rules that have them.
    let after = || Flat::of(item, item.types_after(op));
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
            operands.push(b(first));
            push_n(results, first, count);
        }
        Rule::Merge => {
            per_operand(&t, n, operands)?;
            results.push(b(first));
        }
        Rule::Join => {
            per_operand(&t, n, operands)?;
            let after = after();
            if after.is_empty() {
                results.push(b(Some(style.control_ref())));
            } else {
                push_all(results, item, after.iter());
            }
        }
        Rule::Sync => {
            per_operand(&t, n, operands)?;
            results.extend_from_slice(&operands[base..]);
        }
        Rule::Mux => {
            // `%s [%a, %b] : Ts, T` or Dynamatic's `: Ts, [Ta, Tb] to T`.
            operands.push(b(first));
            match item.types(op).get(1) {
                Some(&TypeEntry::List(ws, _)) => {
                    push_all(operands, item, item.written(ws).to_vec())
                }
                Some(&TypeEntry::One(w)) => {
                    push_n(operands, Some(item.ty(w.ty)), n.saturating_sub(1))
                }
                _ => return None,
            }
            results.push(b(after().ty(0).or(t.ty(1))));
        }
        Rule::ControlMerge => {
            let after = after();
            if after.is_empty() {
                // CIRCT: `%a, %b : T, Tindex`.
                push_n(operands, first, n);
                results.push(b(first));
                results.push(b(t.ty(1)));
            } else {
                per_operand(&t, n, operands)?;
                push_all(results, item, after.iter());
            }
        }
        Rule::Sink => operands.push(b(first)),
        Rule::Source => results.push(b(Some(first.unwrap_or(style.control_ref())))),
        Rule::CondBr => {
            let (cond, data) =
                if t.len() >= 2 { (t.ty(0), t.ty(1)) } else { (Some(style.i1_ref()), first) };
            operands.push(b(cond));
            operands.push(b(data));
            push_n(results, data, 2);
        }
        Rule::Constant => {
            let (ctrl, result) =
                if t.len() >= 2 { (t.ty(0), t.ty(1)) } else { (Some(style.control_ref()), first) };
            operands.push(b(ctrl));
            results.push(b(result));
        }
        Rule::ArithConstant => results.push(b(first)),
        Rule::Access => {
            // Dynamatic 2024's stores write the data type first.
            let mut t = t.types();
            if matches!(kind, OpKind::McStore | OpKind::LsqStore) && t.len() == 2 {
                t.swap(0, 1);
            }
            access(op, item, &t, style, operands, results)?;
        }
        Rule::Terminator => {
            per_operand(&t, n, operands)?;
            // The proposals' `%out = return %x : T` passes its operands on to `end`.
            if kind == OpKind::Return && written_results() > 0 {
                results.extend_from_slice(&operands[base..]);
            }
        }
        Rule::FunctionType => {
            let (ins, outs) = function(item, item.types(op))?;
            if kind == OpKind::ExtMemory {
                // `(%mem : memref<...>)` comes first and is typed in place.
                operands.push(Slot::Unsaid);
            }
            push_all(operands, item, ins.iter().copied());
            push_all(results, item, outs.iter().copied());
        }
        Rule::Pack => {
            let tuple = first?;
            let elements = tuple_elements(tuple)?;
            operands.extend(elements.into_iter().map(|t| own(made, t)));
            results.push(b(Some(tuple)));
        }
        Rule::Unpack => {
            let tuple = first?;
            let elements = tuple_elements(tuple)?;
            operands.push(b(Some(tuple)));
            results.extend(elements.into_iter().map(|t| own(made, t)));
        }
        Rule::Binary => {
            push_n(operands, first, 2);
            results.push(b(first));
        }
        Rule::Compare => {
            let ty = first?;
            push_n(operands, Some(ty), 2);
            results.push(i1_with_extras(ty, style, made));
        }
        Rule::Cast => {
            operands.push(b(first));
            results.push(b(after().ty(0)));
        }
        Rule::Select => {
            // Dynamatic: `%c [%a, %b] : Tc, T`.
            let data = t.ty(1);
            operands.push(b(first));
            push_n(operands, data, 2);
            results.push(b(data));
        }
        Rule::ArithSelect => {
            let (cond, data) = if t.len() >= 2 {
                (t.ty(0), t.ty(1))
            } else {
                (Some(Style::Circt.i1_ref()), first)
            };
            operands.push(b(cond));
            push_n(operands, data, 2);
            results.push(b(data));
        }
        Rule::SpecCommit => {
            // `[%ctrl] %dataIn : Tin, Tout, Tctrl`.
            if t.len() < 3 {
                return None;
            }
            operands.push(b(t.ty(2)));
            operands.push(b(t.ty(0)));
            results.push(b(t.ty(1)));
        }
        Rule::Unbundle => {
            let channel = match (t.ty(0), after().is_empty()) {
                (Some(ty), false) => ty,
                _ => return None,
            };
            let (ups, downs) = unbundled(channel, style)?;
            operands.push(b(Some(channel)));
            operands.extend(ups.into_iter().map(|t| own(made, t)));
            results.extend(downs.into_iter().map(|t| own(made, t)));
        }
        Rule::Bundle => {
            // Dynamatic's `: _ to <T>`, or the proposal's `: channel<T>`.
            let channel = after().ty(0).or(first)?;
            let (ups, downs) = unbundled(channel, style)?;
            results.push(b(Some(channel)));
            results.extend(ups.into_iter().map(|t| own(made, t)));
            operands.extend(downs.into_iter().map(|t| own(made, t)));
        }
        // Dynamatic's memory interfaces: `lsq[%mem : memref<..>] (%ctrl, %addr, ...)` with the
        // function type of the parenthesized operands. The results take the written types; the
        // operands' roles depend on the interface's configuration, which the memory lints check.
        // `mem_controller` binds one more result than its type lists: the interface's done
        // token (`%memEnd`), a control. Results beyond what is known stay untyped, so the
        // typing never disagrees with how many the op binds.
        Rule::Interface => {
            let (_, outs) = function(item, item.types(op))?;
            push_all(results, item, outs.iter().copied());
            let written = written_results() as usize;
            if kind == OpKind::MemController && written > outs.len() {
                results.push(b(Some(style.control_ref())));
            }
            results.resize(results_base + written, Slot::Unsaid);
            operands.resize(base + n, Slot::Unsaid);
        }
        Rule::Loom => loom_typing(item, op, kind, style, out),
        Rule::Untyped => return None,
    }
    Some(())
}

/// A memory access, by how many types are written: Dynamatic's four (2026: `[%addr] %data :
/// Ta, Td, Ta, Td`, results address then data), Dynamatic's two (2024's `mc_load` and 2025's
/// `load[%addr] %data : Ta, Td`: the same ports, each type written once), or CIRCT's two with a
/// control operand (`[%addr...] %data, %ctrl : Ta, Td`, results data then addresses). A
/// Dynamatic-style function reads two types Dynamatic's way.
fn access<'a>(
    op: &OpData,
    item: &Item,
    t: &[&'a Type],
    style: Style,
    operands: &mut Types<'a>,
    results: &mut Types<'a>,
) -> Option<()> {
    let addresses = item
        .operands(op)
        .iter()
        .filter(|&&u| item.uses[u as usize].container == Container::Bracket)
        .count();
    let dynamatic_pair = t.len() == 2 && style == Style::Dynamatic;
    if t.len() == 4 || dynamatic_pair {
        let (addr, data) = (t[0], t[1]);
        let (addr_out, data_out) = if t.len() == 4 { (t[2], t[3]) } else { (addr, data) };
        operands.extend([b(Some(addr)), b(Some(data))]);
        results.extend([b(Some(addr_out)), b(Some(data_out))]);
        Some(())
    } else if t.len() == 2 {
        let (addr, data) = (t[0], t[1]);
        push_n(operands, Some(addr), addresses);
        operands.push(b(Some(data)));
        operands.push(b(Some(style.control_ref())));
        results.push(b(Some(data)));
        push_n(results, Some(addr), addresses);
        Some(())
    } else {
        None
    }
}

/// LOOM's `dataflow` ops have a fixed shape: the typing always has it, with the written types
/// in place where as many are written as the shape has (the lints report other counts).
fn loom_typing<'a>(item: &'a Item, op: &OpData, kind: OpKind, style: Style, out: &mut Built<'a>) {
    let index = match style {
        Style::Circt => Type::Index,
        Style::Dynamatic => Type::Channel { data: Box::new(Type::Index), extras: Vec::new() },
    };
    let (ins, outs) = loom_shape(kind);
    let (written_ins, written_outs): (Vec<Written>, Vec<Written>) =
        match function(item, item.types(op)) {
            Some((i, o)) => (i.to_vec(), o.to_vec()),
            None => (flat(item, item.types(op)), flat(item, item.types_after(op))),
        };
    let place = |written: &[Written], count: usize, slots: &mut Types<'a>| {
        if written.len() == count {
            push_all(slots, item, written.iter().copied());
        } else {
            push_n(slots, None, count);
        }
    };
    let Built { operands, results, made } = out;
    // Types are optional on a stream: `index` operands, `(index, i1)` results.
    let stream = kind == OpKind::Stream;
    match written_ins.as_slice() {
        [one] if stream => push_n(operands, Some(item.ty(one.ty)), ins),
        [] if stream && ins > 0 => {
            let index = own(made, index.clone());
            operands.resize(operands.len() + ins, index);
        }
        written => place(written, ins, operands),
    }
    if stream && written_outs.is_empty() {
        results.push(own(made, index));
        results.push(b(Some(style.i1_ref())));
    } else {
        place(&written_outs, outs, results);
    }
}

/// Operand and result counts of LOOM's `dataflow` ops, from their layout.
pub fn loom_shape(kind: OpKind) -> (usize, usize) {
    let layout = kind.def().layout(Era::Loom);
    (layout.operands.len(), layout.results.len())
}

/// Types for `n` operands from a list written either once for all or once per operand, pushed
/// onto `out`.
fn per_operand<'a>(t: &Flat<'a>, n: usize, out: &mut Types<'a>) -> Option<()> {
    match t.len() {
        0 if n == 0 => {}
        1 => push_n(out, t.ty(0), n),
        len if len == n => push_all(out, t.item, t.iter()),
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
