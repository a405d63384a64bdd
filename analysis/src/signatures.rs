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

/// The expected type of every operand and result of `op`, from its written types, by the
/// op's typing rule (`ops::OpDef::typing`) in the function's era. `None` when the op is
/// unknown or its types are not written in a form hsir reads.
pub fn typing(op: &OpData, item: &Item, era: Era) -> Option<Typing> {
    let kind = OpKind::of(op)?;
    let style = era.style();
    let t = flat(item.types(op));
    let after = flat(item.types_after(op));
    let n = op.operands.len();
    let first = t.first().map(|w| w.ty.clone());
    let written_results: u32 = item.result_groups(op).iter().map(|g| g.count).sum();
    // The generic form and function-typed ops say everything.
    if op.generic {
        let (ins, outs) = function(item.types(op))?;
        return Some(Typing {
            operands: ins.iter().map(|w| Some(w.ty.clone())).collect(),
            results: outs.iter().map(|w| Some(w.ty.clone())).collect(),
        });
    }
    let same = |ty: Option<Type>, count: usize| vec![ty; count];
    let typing = match kind.def().typing {
        Rule::Forward => {
            // `fork [N]` gives N results (or as many as are bound); the others one.
            let count = match kind {
                OpKind::Fork | OpKind::LazyFork => {
                    item.bracket_ints(op).first().map_or(written_results as usize, |&c| c as usize)
                }
                _ => 1,
            };
            Typing { operands: vec![first.clone()], results: same(first, count) }
        }
        Rule::Merge => Typing { operands: per_operand(&t, n)?, results: vec![first] },
        Rule::Join => {
            let results = if after.is_empty() { vec![Some(style.control())] } else { tys(&after) };
            Typing { operands: per_operand(&t, n)?, results }
        }
        Rule::Sync => {
            let operands = per_operand(&t, n)?;
            Typing { results: operands.clone(), operands }
        }
        Rule::Mux => {
            // `%s [%a, %b] : Ts, T` or Dynamatic's `: Ts, [Ta, Tb] to T`.
            let select = first.clone();
            let data: Vec<Option<Type>> = match item.types(op).get(1) {
                Some(TypeEntry::List(ws, _)) => ws.iter().map(|w| Some(w.ty.clone())).collect(),
                Some(TypeEntry::One(w)) => vec![Some(w.ty.clone()); n.saturating_sub(1)],
                _ => return None,
            };
            let result = match after.first() {
                Some(w) => Some(w.ty.clone()),
                None => t.get(1).map(|w| w.ty.clone()),
            };
            let mut operands = vec![select];
            operands.extend(data);
            Typing { operands, results: vec![result] }
        }
        Rule::ControlMerge => {
            if after.is_empty() {
                // CIRCT: `%a, %b : T, Tindex`.
                let data = first.clone();
                Typing {
                    operands: same(data.clone(), n),
                    results: vec![data, t.get(1).map(|w| w.ty.clone())],
                }
            } else {
                Typing { operands: per_operand(&t, n)?, results: tys(&after) }
            }
        }
        Rule::Sink => Typing { operands: vec![first], results: Vec::new() },
        Rule::Source => {
            Typing { operands: Vec::new(), results: vec![Some(first.unwrap_or(style.control()))] }
        }
        Rule::CondBr => {
            let (cond, data) = if t.len() >= 2 {
                (Some(t[0].ty.clone()), Some(t[1].ty.clone()))
            } else {
                (Some(style.i1()), first)
            };
            Typing { operands: vec![cond, data.clone()], results: vec![data.clone(), data] }
        }
        Rule::Constant => {
            let (ctrl, result) = if t.len() >= 2 {
                (Some(t[0].ty.clone()), Some(t[1].ty.clone()))
            } else {
                (Some(style.control()), first)
            };
            Typing { operands: vec![ctrl], results: vec![result] }
        }
        Rule::ArithConstant => Typing { operands: Vec::new(), results: vec![first] },
        Rule::Access => {
            // Dynamatic 2024's stores write the data type first.
            let mut t = t.clone();
            if matches!(kind, OpKind::McStore | OpKind::LsqStore) && t.len() == 2 {
                t.swap(0, 1);
            }
            access(op, item, &t, style)?
        }
        Rule::Terminator => {
            let operands = per_operand(&t, n)?;
            // The proposals' `%out = return %x : T` passes its operands on to `end`.
            let results = if kind == OpKind::Return && written_results > 0 {
                operands.clone()
            } else {
                Vec::new()
            };
            Typing { operands, results }
        }
        Rule::FunctionType => {
            let (ins, outs) = function(item.types(op))?;
            let mut operands: Vec<Option<Type>> = ins.iter().map(|w| Some(w.ty.clone())).collect();
            if kind == OpKind::ExtMemory {
                // `(%mem : memref<...>)` comes first and is typed in place.
                operands.insert(0, None);
            }
            Typing { operands, results: outs.iter().map(|w| Some(w.ty.clone())).collect() }
        }
        Rule::Pack => {
            let tuple = first?;
            let elements = tuple_elements(&tuple)?;
            Typing {
                operands: elements.into_iter().map(Some).collect(),
                results: vec![Some(tuple)],
            }
        }
        Rule::Unpack => {
            let tuple = first?;
            let elements = tuple_elements(&tuple)?;
            Typing {
                operands: vec![Some(tuple)],
                results: elements.into_iter().map(Some).collect(),
            }
        }
        Rule::Binary => Typing { operands: same(first.clone(), 2), results: vec![first] },
        Rule::Compare => {
            let ty = first?;
            let result = with_data(&ty, int(1), style);
            Typing { operands: same(Some(ty), 2), results: vec![Some(result)] }
        }
        Rule::Cast => {
            let to = after.first().map(|w| w.ty.clone());
            Typing { operands: vec![first], results: vec![to] }
        }
        Rule::Select => {
            // Dynamatic: `%c [%a, %b] : Tc, T`.
            let data = t.get(1).map(|w| w.ty.clone());
            Typing { operands: vec![first, data.clone(), data.clone()], results: vec![data] }
        }
        Rule::ArithSelect => {
            let (cond, data) = if t.len() >= 2 {
                (Some(t[0].ty.clone()), Some(t[1].ty.clone()))
            } else {
                (Some(int(1)), first)
            };
            Typing { operands: vec![cond, data.clone(), data.clone()], results: vec![data] }
        }
        Rule::SpecCommit => {
            // `[%ctrl] %dataIn : Tin, Tout, Tctrl`.
            if t.len() < 3 {
                return None;
            }
            Typing {
                operands: vec![Some(t[2].ty.clone()), Some(t[0].ty.clone())],
                results: vec![Some(t[1].ty.clone())],
            }
        }
        Rule::Unbundle => {
            let channel = match (t.first(), after.is_empty()) {
                (Some(w), false) => w.ty.clone(),
                _ => return None,
            };
            let (ups, downs) = unbundled(&channel, style)?;
            let mut operands = vec![Some(channel)];
            operands.extend(ups.into_iter().map(Some));
            Typing { operands, results: downs.into_iter().map(Some).collect() }
        }
        Rule::Bundle => {
            // Dynamatic's `: _ to <T>`, or the proposal's `: channel<T>`.
            let channel = after.first().or(t.first())?.ty.clone();
            let (ups, downs) = unbundled(&channel, style)?;
            let mut results = vec![Some(channel)];
            results.extend(ups.into_iter().map(Some));
            Typing { operands: downs.into_iter().map(Some).collect(), results }
        }
        // Dynamatic's memory interfaces: `lsq[%mem : memref<..>] (%ctrl, %addr, ...)` with the
        // function type of the parenthesized operands. The results take the written types; the
        // operands' roles depend on the interface's configuration, which the memory lints check.
        // `mem_controller` binds one more result than its type lists: the interface's done
        // token (`%memEnd`), a control. Results beyond what is known stay untyped, so the
        // typing never disagrees with how many the op binds.
        Rule::Interface => {
            let (_, outs) = function(item.types(op))?;
            let mut results: Vec<Option<Type>> = outs.iter().map(|w| Some(w.ty.clone())).collect();
            if kind == OpKind::MemController && written_results as usize > outs.len() {
                results.push(Some(style.control()));
            }
            results.resize(written_results as usize, None);
            Typing { operands: vec![None; n], results }
        }
        Rule::Loom => loom_typing(item, op, kind, style),
        Rule::Untyped => return None,
    };
    Some(typing)
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

/// Types for `n` operands from a list written either once for all or once per operand.
fn per_operand(t: &[&Written], n: usize) -> Option<Vec<Option<Type>>> {
    match t.len() {
        0 if n == 0 => Some(Vec::new()),
        1 => Some(vec![Some(t[0].ty.clone()); n]),
        len if len == n => Some(tys(t)),
        _ => None,
    }
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
