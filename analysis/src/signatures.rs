//! What each known op's written types say about its operands and results.
//!
//! Custom assembly writes fewer types than an op has operands and results (`merge %a, %b : i32`
//! types three values with one word); `typing` expands the written types into one type per
//! operand and per result, for Dynamatic's, CIRCT's and the proposals' spellings. The checks use
//! it to type results, to compare each use with its value's type, and to count results.

use crate::ir::{Container, Item, OpData, TypeEntry, Written};
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

/// Dataflow ops of Handshake (Dynamatic's, CIRCT's and the proposals') that hsir knows, by
/// short name; the arithmetic ones are `SAME_TYPE_BINARY`, `CASTS` and `OTHER_ARITH`.
pub const DATAFLOW_OPS: &[&str] = &[
    "func",
    "end",
    "return",
    "fork",
    "lazy_fork",
    "join",
    "merge",
    "mux",
    "control_merge",
    "br",
    "cond_br",
    "sink",
    "source",
    "constant",
    "buffer",
    "load",
    "store",
    "memory",
    "extmemory",
    "mem_controller",
    "lsq",
    "instance",
    "sync",
    "pack",
    "unpack",
    "bundle",
    "unbundle",
    "compose",
    "decompose",
    "wait",
    "init",
    "not",
    "select",
    "spec_commit",
    "speculator",
    "spec_save",
    "spec_save_commit",
    "speculating_branch",
    "non_spec",
    "blocker",
    "ready_remover",
    "valid_merger",
    "esi_instance",
];

/// LOOM's loop-stream ops, known by their full (dotted) names.
pub const LOOM_OPS: &[&str] =
    &["dataflow.stream", "dataflow.gate", "dataflow.carry", "dataflow.invariant"];

/// Arithmetic that is neither a same-type binary op nor a cast.
pub const OTHER_ARITH: &[&str] = &["cmpi", "cmpf", "negf", "absf"];

/// Whether hsir knows the op a short name (as `known_name` gives it) names.
pub fn is_known(name: &str) -> bool {
    [DATAFLOW_OPS, SAME_TYPE_BINARY, CASTS, OTHER_ARITH, LOOM_OPS]
        .iter()
        .any(|list| list.contains(&name))
}

/// Binary ops whose operands and result share one type.
pub const SAME_TYPE_BINARY: &[&str] = &[
    "addi",
    "subi",
    "muli",
    "divsi",
    "divui",
    "remsi",
    "remui",
    "andi",
    "ori",
    "xori",
    "shli",
    "shrsi",
    "shrui",
    "addf",
    "subf",
    "mulf",
    "divf",
    "remf",
    "maxsi",
    "maxui",
    "minsi",
    "minui",
    "maximumf",
    "minimumf",
    "maxnumf",
    "minnumf",
    "ceildivsi",
    "ceildivui",
    "floordivsi",
];

/// Conversions written `: T to U`.
pub const CASTS: &[&str] = &[
    "extsi",
    "extui",
    "trunci",
    "extf",
    "truncf",
    "sitofp",
    "uitofp",
    "fptosi",
    "fptoui",
    "index_cast",
    "index_castui",
    "bitcast",
];

/// The op's name with a `handshake.` or `arith.` prefix removed, when the rest is an op hsir
/// types; `None` for ops of other dialects.
pub fn known_name(op: &OpData) -> Option<&str> {
    let name = op.name.as_str();
    if let Some(rest) = name.strip_prefix("handshake.") {
        return Some(rest);
    }
    if let Some(rest) = name.strip_prefix("arith.") {
        return Some(match rest {
            "select" => "arith.select",
            "constant" => "arith.constant",
            other => other,
        });
    }
    if let Some(loom) = LOOM_OPS.iter().find(|&&l| l == name) {
        return Some(loom);
    }
    if name.contains('.') {
        return None;
    }
    Some(name)
}

fn flat(entries: &[TypeEntry]) -> Vec<&Written> {
    let mut out = Vec::new();
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

/// The expected type of every operand and result of `op`, from its written types. `None` when
/// the op is unknown or its types are not written in a form hsir reads.
pub fn typing(op: &OpData, item: &Item, style: Style) -> Option<Typing> {
    let name = known_name(op)?;
    let t = flat(&op.types);
    let after = flat(&op.types_after);
    let n = op.operands.len();
    let first = t.first().map(|w| w.ty.clone());
    let written_results: u32 = op.result_groups.iter().map(|g| g.count).sum();
    // The generic form and function-typed ops say everything.
    if op.generic {
        let (ins, outs) = function(&op.types)?;
        return Some(Typing {
            operands: ins.iter().map(|w| Some(w.ty.clone())).collect(),
            results: outs.iter().map(|w| Some(w.ty.clone())).collect(),
        });
    }
    let same = |ty: Option<Type>, count: usize| vec![ty; count];
    let typing = match name {
        "fork" | "lazy_fork" => {
            let count = op.bracket_ints.first().map_or(written_results as usize, |&c| c as usize);
            Typing { operands: vec![first.clone()], results: same(first, count) }
        }
        "merge" => Typing { operands: per_operand(&t, n)?, results: vec![first] },
        "join" => {
            let results = if after.is_empty() { vec![Some(style.control())] } else { tys(&after) };
            Typing { operands: per_operand(&t, n)?, results }
        }
        "sync" => {
            let operands = per_operand(&t, n)?;
            Typing { results: operands.clone(), operands }
        }
        "mux" => {
            // `%s [%a, %b] : Ts, T` or Dynamatic's `: Ts, [Ta, Tb] to T`.
            let select = first.clone();
            let data: Vec<Option<Type>> = match op.types.get(1) {
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
        "control_merge" => {
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
        "br" | "buffer" | "init" | "not" | "negf" | "absf" => {
            Typing { operands: vec![first.clone()], results: vec![first] }
        }
        "sink" => Typing { operands: vec![first], results: Vec::new() },
        "source" => {
            Typing { operands: Vec::new(), results: vec![Some(first.unwrap_or(style.control()))] }
        }
        "cond_br" => {
            let (cond, data) = if t.len() >= 2 {
                (Some(t[0].ty.clone()), Some(t[1].ty.clone()))
            } else {
                (Some(style.i1()), first)
            };
            Typing { operands: vec![cond, data.clone()], results: vec![data.clone(), data] }
        }
        "constant" => {
            let (ctrl, result) = if t.len() >= 2 {
                (Some(t[0].ty.clone()), Some(t[1].ty.clone()))
            } else {
                (Some(style.control()), first)
            };
            Typing { operands: vec![ctrl], results: vec![result] }
        }
        "arith.constant" => Typing { operands: Vec::new(), results: vec![first] },
        "load" | "store" => {
            let addresses = op
                .operands
                .iter()
                .filter(|&&u| item.uses[u as usize].container == Container::Bracket)
                .count();
            if t.len() == 4 {
                // Dynamatic: `[%addr] %data : Taddr, Tdata, Taddr, Tdata`, results (addr, data).
                Typing {
                    operands: vec![Some(t[0].ty.clone()), Some(t[1].ty.clone())],
                    results: vec![Some(t[2].ty.clone()), Some(t[3].ty.clone())],
                }
            } else if t.len() == 2 {
                // CIRCT: `[%addr...] %data, %ctrl : Taddr, Tdata`, results (data, addr...).
                let addr = Some(t[0].ty.clone());
                let data = Some(t[1].ty.clone());
                let mut operands = same(addr.clone(), addresses);
                operands.push(data.clone());
                operands.push(Some(style.control()));
                let mut results = vec![data];
                results.extend(same(addr, addresses));
                Typing { operands, results }
            } else {
                return None;
            }
        }
        "return" | "end" => {
            let operands = per_operand(&t, n)?;
            // The proposals' `%out = return %x : T` passes its operands on to `end`.
            let results =
                if name == "return" && written_results > 0 { operands.clone() } else { Vec::new() };
            Typing { operands, results }
        }
        "instance" | "call" | "wait" | "memory" | "extmemory" => {
            let (ins, outs) = function(&op.types)?;
            let mut operands: Vec<Option<Type>> = ins.iter().map(|w| Some(w.ty.clone())).collect();
            if name == "extmemory" {
                // `(%mem : memref<...>)` comes first and is typed in place.
                operands.insert(0, None);
            }
            Typing { operands, results: outs.iter().map(|w| Some(w.ty.clone())).collect() }
        }
        "pack" => {
            let tuple = first?;
            let elements = tuple_elements(&tuple)?;
            Typing {
                operands: elements.into_iter().map(Some).collect(),
                results: vec![Some(tuple)],
            }
        }
        "unpack" => {
            let tuple = first?;
            let elements = tuple_elements(&tuple)?;
            Typing {
                operands: vec![Some(tuple)],
                results: elements.into_iter().map(Some).collect(),
            }
        }
        _ if SAME_TYPE_BINARY.contains(&name) => {
            Typing { operands: same(first.clone(), 2), results: vec![first] }
        }
        "cmpi" | "cmpf" => {
            let ty = first?;
            let result = with_data(&ty, int(1), style);
            Typing { operands: same(Some(ty), 2), results: vec![Some(result)] }
        }
        _ if CASTS.contains(&name) => {
            let to = after.first().map(|w| w.ty.clone());
            Typing { operands: vec![first], results: vec![to] }
        }
        "select" => {
            // Dynamatic: `%c [%a, %b] : Tc, T`.
            let data = t.get(1).map(|w| w.ty.clone());
            Typing { operands: vec![first, data.clone(), data.clone()], results: vec![data] }
        }
        "arith.select" => {
            let (cond, data) = if t.len() >= 2 {
                (Some(t[0].ty.clone()), Some(t[1].ty.clone()))
            } else {
                (Some(int(1)), first)
            };
            Typing { operands: vec![cond, data.clone(), data.clone()], results: vec![data] }
        }
        "spec_commit" => {
            // `[%ctrl] %dataIn : Tin, Tout, Tctrl`.
            if t.len() < 3 {
                return None;
            }
            Typing {
                operands: vec![Some(t[2].ty.clone()), Some(t[0].ty.clone())],
                results: vec![Some(t[1].ty.clone())],
            }
        }
        "unbundle" => {
            let channel = match (t.first(), after.is_empty()) {
                (Some(w), false) => w.ty.clone(),
                _ => return None,
            };
            let (ups, downs) = unbundled(&channel, style)?;
            let mut operands = vec![Some(channel)];
            operands.extend(ups.into_iter().map(Some));
            Typing { operands, results: downs.into_iter().map(Some).collect() }
        }
        "bundle" => {
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
        "lsq" | "mem_controller" => {
            let (_, outs) = function(&op.types)?;
            let mut results: Vec<Option<Type>> = outs.iter().map(|w| Some(w.ty.clone())).collect();
            if name == "mem_controller" {
                results.push(Some(style.control()));
            }
            results.resize(written_results as usize, None);
            Typing { operands: vec![None; n], results }
        }
        "compose" | "decompose" => {
            let from = first?;
            let to = after.first()?.ty.clone();
            Typing { operands: vec![Some(from)], results: vec![Some(to)] }
        }
        "dataflow.stream" | "dataflow.gate" | "dataflow.carry" | "dataflow.invariant" => {
            loom_typing(op, name, style)
        }
        _ => return None,
    };
    Some(typing)
}

/// LOOM's `dataflow` ops have a fixed shape: the typing always has it, with the written types
/// in place where as many are written as the shape has (the lints report other counts).
fn loom_typing(op: &OpData, name: &str, style: Style) -> Typing {
    let index = match style {
        Style::Circt => Type::Index,
        Style::Dynamatic => Type::Channel { data: Box::new(Type::Index), extras: Vec::new() },
    };
    let (ins, outs) = loom_shape(name);
    let (written_ins, written_outs): (Vec<&Written>, Vec<&Written>) = match function(&op.types) {
        Some((i, o)) => (i.iter().collect(), o.iter().collect()),
        None => (flat(&op.types), flat(&op.types_after)),
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
    if name == "dataflow.stream" {
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

/// Operand and result counts of LOOM's `dataflow` ops.
pub fn loom_shape(name: &str) -> (usize, usize) {
    match name {
        "dataflow.stream" => (3, 2),
        "dataflow.gate" => (2, 2),
        "dataflow.carry" => (3, 1),
        _ => (2, 1),
    }
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
