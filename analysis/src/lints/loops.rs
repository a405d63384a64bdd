//! Loop control of LOOM's `dataflow` ops (HS3001-HS3005).
//!
//! A `dataflow.stream` gives, per loop entry, N+1 indices and N+1 `raw_will_continue`
//! conditions (N times true, then false once); a `dataflow.gate` on those gives N values and N
//! `after_cond` conditions. Body-local control (what orders the body's loads and stores) must
//! run N times, so it is keyed by `after_cond`; loop-carried data (iter_args) runs N+1 times, so
//! it is keyed by `raw_will_continue`. Values are classified by their defining op and result
//! index, through forks, buffers and `br`, never by their names.
//!
//! Token rates: every channel gets a symbolic count of tokens per invocation of the function,
//! a sum of integer multiples of atoms (one invocation, the trips of a stream over all its
//! entries, the true tokens of a condition). Ops that take one token from every operand per
//! firing must see equal counts on their operands; where they do not, one operand is left with
//! tokens no firing consumes (the "extra latched ctrl" or "extra latched cond" symptom).
//! Unknown counts (cycles through merges, sources, instances, ops hsir does not model) never
//! produce a diagnostic.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use super::Context;
use crate::dataflow::{attribute_scalar, is_control};
use crate::ir::{group_len, Container, Def, Item, OpData, OpId, UseId, ValueId};
use crate::ops::OpKind;
use crate::signatures;
use crate::types::Type;
use crate::{Diagnostic, DiagnosticCode as Code, Fix, TextEdit};
use hsir_parser::{TextRange, TextSize};

pub(crate) fn check(cx: &Context<'_>, acc: &mut Vec<Diagnostic>) {
    // Without LOOM ops there is nothing for HS3001-HS3004 to judge and no value has a loop
    // class; the token rates are checked all the same.
    let loom = cx.kinds.any(OpKind::is_loom);
    if loom {
        for (id, op) in cx.item.ops.iter().enumerate().skip(1) {
            if op.broken {
                continue;
            }
            malformed(cx, id as OpId, op, acc);
        }
    }
    let classes = Classes::new(cx, loom);
    let rates = Rates::compute(cx, &classes);
    if loom {
        raw_body_control(cx, &classes, acc);
        data_carry_after_cond(cx, &classes, acc);
    }
    rates.check(cx, acc);
}

// ---- HS3001 / HS3002: the ops' own shape ----------------------------------------------------

const STEP_OPS: &[&str] = &["+=", "-=", "*=", "/=", "<<=", ">>="];
const CONT_CONDS: &[&str] = &["<", "<=", ">", ">=", "!="];

fn is_i1(ty: &Type) -> bool {
    match ty {
        Type::Int { width: 1, .. } => true,
        Type::Channel { data, .. } => matches!(**data, Type::Int { width: 1, .. }),
        _ => false,
    }
}

fn is_index(ty: &Type) -> bool {
    match ty {
        Type::Index => true,
        Type::Channel { data, .. } => **data == Type::Index,
        _ => false,
    }
}

/// `_` and aliases match anything, as in the type checks.
fn opaque(ty: &Type) -> bool {
    matches!(ty, Type::Other(t) if t == "_" || (t.starts_with('!') && !t.contains('<')))
}

fn malformed(cx: &Context<'_>, id: OpId, op: &OpData, acc: &mut Vec<Diagnostic>) {
    let Some(kind) = OpKind::of(op).filter(|k| k.is_loom()) else { return };
    let name = kind.key();
    let err = |msg: String| Diagnostic::new(Code::LoomOpMalformed, op.name_range, msg);
    if kind == OpKind::Stream {
        stream_attributes(cx.item, op, acc);
    }
    let (ins, outs) = signatures::loom_shape(kind);
    let (written_ins, written_outs) = written_counts(cx.item, op);
    let optional = kind == OpKind::Stream;
    if !optional && written_ins == 0 && written_outs == 0 && !op.generic {
        acc.push(err(format!(
            "`{name}` must write its types (`: {}`)",
            match kind {
                OpKind::Gate => "T, i1 -> T, i1",
                OpKind::Carry => "i1, T, T -> T",
                _ => "i1, T -> T",
            }
        )));
        return;
    }
    let ins_ok = written_ins == ins || (optional && (written_ins == 0 || written_ins == 1));
    let outs_ok = written_outs == outs || (optional && written_outs == 0);
    if !ins_ok || !outs_ok {
        acc.push(err(format!(
            "`{name}` has {ins} operands and {outs} result{}, but {written_ins} operand type{} and {written_outs} result type{} are written",
            if outs == 1 { "" } else { "s" },
            if written_ins == 1 { "" } else { "s" },
            if written_outs == 1 { "" } else { "s" },
        )));
        return;
    }
    let Some(typing) = signatures::typing(op, cx.item, cx.era) else { return };
    let operand = |i: usize| typing.operands.get(i).cloned().flatten().map(Cow::into_owned);
    let result = |i: usize| typing.results.get(i).cloned().flatten().map(Cow::into_owned);
    let _ = id;
    let not = |t: &Option<Type>, pred: fn(&Type) -> bool| {
        t.as_ref().is_some_and(|t| !pred(t) && !opaque(t))
    };
    let differ = |a: &Option<Type>, b: &Option<Type>| match (a, b) {
        (Some(a), Some(b)) => a != b && !opaque(a) && !opaque(b),
        _ => false,
    };
    let show = |t: &Option<Type>| t.as_ref().map_or(String::from("?"), |t| t.to_string());
    match kind {
        OpKind::Stream => {
            for (i, what) in ["start", "step", "bound"].iter().enumerate() {
                if not(&operand(i), is_index) {
                    acc.push(err(format!(
                        "the {what} operand of `dataflow.stream` must be `index`, not `{}`",
                        show(&operand(i))
                    )));
                }
            }
            if not(&result(0), is_index) {
                acc.push(err(format!(
                    "the index result of `dataflow.stream` must be `index`, not `{}`",
                    show(&result(0))
                )));
            }
            if not(&result(1), is_i1) {
                acc.push(err(format!(
                    "the raw_will_continue result of `dataflow.stream` must be `i1`, not `{}`",
                    show(&result(1))
                )));
            }
        }
        OpKind::Gate => {
            if not(&operand(1), is_i1) {
                acc.push(err(format!(
                    "the condition operand of `dataflow.gate` must be `i1`, not `{}`",
                    show(&operand(1))
                )));
            }
            if not(&result(1), is_i1) {
                acc.push(err(format!(
                    "the after_cond result of `dataflow.gate` must be `i1`, not `{}`",
                    show(&result(1))
                )));
            }
            if differ(&operand(0), &result(0)) {
                acc.push(err(format!(
                    "`dataflow.gate` passes its value through: the value is `{}` but the result is `{}`",
                    show(&operand(0)),
                    show(&result(0))
                )));
            }
        }
        _ => {
            if not(&operand(0), is_i1) {
                acc.push(err(format!(
                    "the key (first operand) of `{name}` must be an `i1` condition, not `{}`",
                    show(&operand(0))
                )));
            }
            let mut values = vec![operand(1)];
            if kind == OpKind::Carry {
                values.push(operand(2));
            }
            values.push(result(0));
            let first = values.iter().flatten().find(|t| !opaque(t)).cloned();
            if let Some(first) = first {
                if values.iter().flatten().any(|t| *t != first && !opaque(t)) {
                    let shown: Vec<String> = values.iter().map(show).collect();
                    let what = if kind == OpKind::Carry {
                        "its initial value, its carried value and its result"
                    } else {
                        "its value and its result"
                    };
                    acc.push(err(format!(
                        "`{name}` needs one type for {what}, but `{}` are written",
                        shown.join("`, `")
                    )));
                }
            }
        }
    }
}

/// Operand and result types written (a function type, or the lists around `->`).
fn written_counts(item: &Item, op: &OpData) -> (usize, usize) {
    if let Some((ins, outs)) = signatures::function(item, item.types(op)) {
        return (ins.len(), outs.len());
    }
    (
        signatures::flat_types(item, item.types(op)).len(),
        signatures::flat_types(item, item.types_after(op)).len(),
    )
}

fn stream_attributes(item: &Item, op: &OpData, acc: &mut Vec<Diagnostic>) {
    for (key, allowed) in
        [("step_op", STEP_OPS), ("cont_cond", CONT_CONDS), ("stop_cond", CONT_CONDS)]
    {
        let Some(attr) = item.attr(op, key) else { continue };
        let value = attribute_scalar(item.str(attr.value));
        if !allowed.contains(&value) {
            acc.push(Diagnostic::new(
                Code::StreamAttribute,
                attr.range,
                format!(
                    "`{key}` of `dataflow.stream` is `{}`; it must be one of {}",
                    item.str(attr.value).trim(),
                    allowed.iter().map(|a| format!("\"{a}\"")).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    }
}

// ---- Loop-control classes -----------------------------------------------------------------------

/// What a value is to a loop, by the op that defines it (through forks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LoopClass {
    /// Result #0 of a `dataflow.stream`: N+1 indices per loop entry.
    RawIndex { stream: OpId },
    /// Result #1 of a `dataflow.stream`: N+1 conditions per loop entry.
    RawWillContinue { stream: OpId },
    /// Result #0 of a `dataflow.gate`: N values per loop entry.
    AfterValue { gate: OpId },
    /// Result #1 of a `dataflow.gate`: N conditions per loop entry.
    AfterCond { gate: OpId },
}

/// Ops whose result is their operand's token sequence unchanged.
fn is_identity(item: &Item, op: &OpData) -> bool {
    match OpKind::of(op) {
        Some(OpKind::Fork | OpKind::LazyFork | OpKind::Br) => op.operands.len() == 1,
        Some(OpKind::Buffer) => {
            item.operands(op).len() == 1 && item.attr(op, "initValues").is_none()
        }
        _ => false,
    }
}

struct Classes {
    /// Each value's root: the value it copies through identity ops (itself if none). Empty in
    /// a function without LOOM ops, where `root` walks to it when asked (only conditions are).
    root: Vec<ValueId>,
    /// Each value's class; empty in a function without LOOM ops, where no value has one.
    class: Vec<Option<LoopClass>>,
}

/// The value `v` copies through identity ops: the walk `Classes::new` makes for every value,
/// made for one, with the same bound.
fn walk_to_root(item: &Item, v: ValueId) -> ValueId {
    let mut current = v;
    for _ in 0..item.values.len() {
        let Def::Result { op, .. } = item.values[current as usize].def else { break };
        let op = &item.ops[op as usize];
        if !is_identity(item, op) {
            break;
        }
        match item.uses[item.operands(op)[0] as usize].value {
            Some(next) if next != current => current = next,
            _ => break,
        }
    }
    current
}

impl Classes {
    /// The classes of a function's values; `loom` says whether it has LOOM ops (streams and
    /// gates), without which no value has a class.
    fn new(cx: &Context<'_>, loom: bool) -> Classes {
        if !loom {
            return Classes { root: Vec::new(), class: Vec::new() };
        }
        let item = cx.item;
        let n = item.values.len();
        let mut root: Vec<ValueId> = Vec::with_capacity(n);
        // Whether the walk from each value ended at a root rather than at the bound; the walk
        // from a later value that reaches such a value ends where it does.
        let mut ended = Vec::with_capacity(n);
        for v in 0..n as ValueId {
            let mut current = v;
            let mut end = false;
            // Bounded: a cycle of forks has no root outside it.
            for _ in 0..n {
                if current < v && ended[current as usize] {
                    current = root[current as usize];
                    end = true;
                    break;
                }
                let Def::Result { op, .. } = item.values[current as usize].def else {
                    end = true;
                    break;
                };
                let op = &item.ops[op as usize];
                if !is_identity(item, op) {
                    end = true;
                    break;
                }
                match item.uses[cx.item.operands(op)[0] as usize].value {
                    Some(next) if next != current => current = next,
                    _ => {
                        end = true;
                        break;
                    }
                }
            }
            root.push(current);
            ended.push(end);
        }
        let class = root
            .iter()
            .map(|&r| {
                let Def::Result { op, n } = item.values[r as usize].def else { return None };
                match (OpKind::of(&item.ops[op as usize]), n) {
                    (Some(OpKind::Stream), 0) => Some(LoopClass::RawIndex { stream: op }),
                    (Some(OpKind::Stream), 1) => Some(LoopClass::RawWillContinue { stream: op }),
                    (Some(OpKind::Gate), 0) => Some(LoopClass::AfterValue { gate: op }),
                    (Some(OpKind::Gate), 1) => Some(LoopClass::AfterCond { gate: op }),
                    _ => None,
                }
            })
            .collect();
        Classes { root, class }
    }

    fn of(&self, v: ValueId) -> Option<LoopClass> {
        self.class.get(v as usize).copied().flatten()
    }

    fn root(&self, item: &Item, v: ValueId) -> ValueId {
        match self.root.get(v as usize) {
            Some(&root) => root,
            None => walk_to_root(item, v),
        }
    }

    /// The stream whose raw streams a gate takes, if its operands come from one.
    fn gate_stream(&self, cx: &Context<'_>, gate: OpId) -> Option<OpId> {
        let op = &cx.item.ops[gate as usize];
        cx.item.operands(op).iter().find_map(|&u| {
            match self.of(cx.item.uses[u as usize].value?)? {
                LoopClass::RawWillContinue { stream } | LoopClass::RawIndex { stream } => {
                    Some(stream)
                }
                _ => None,
            }
        })
    }

    /// The first gate on a stream's values.
    fn gate_of(&self, cx: &Context<'_>, stream: OpId) -> Option<OpId> {
        (1..cx.item.ops.len() as OpId).find(|&g| {
            OpKind::of(&cx.item.ops[g as usize]) == Some(OpKind::Gate)
                && self.gate_stream(cx, g) == Some(stream)
        })
    }
}

fn operand_value(cx: &Context<'_>, op: &OpData, i: usize) -> Option<ValueId> {
    cx.item.uses[*cx.item.operands(op).get(i)? as usize].value
}

fn display(cx: &Context<'_>, v: ValueId) -> String {
    cx.item.values[v as usize].display(cx.item, group_len(cx.item, v))
}

/// The operand position of a CIRCT load's or store's ctrl: after its addresses and data.
fn ctrl_operand(cx: &Context<'_>, op: &OpData) -> Option<usize> {
    if !matches!(OpKind::of(op), Some(OpKind::Load | OpKind::Store)) {
        return None;
    }
    let addresses = cx
        .item
        .operands(op)
        .iter()
        .filter(|&&u| cx.item.uses[u as usize].container == Container::Bracket)
        .count();
    (addresses > 0 && op.operands.len() == addresses + 2).then_some(addresses + 1)
}

// ---- HS3003: body control keyed by raw_will_continue -----------------------------------------------

fn raw_body_control(cx: &Context<'_>, classes: &Classes, acc: &mut Vec<Diagnostic>) {
    let item = cx.item;
    for (id, op) in item.ops.iter().enumerate().skip(1) {
        let id = id as OpId;
        if op.broken {
            continue;
        }
        let kind = OpKind::of(op);
        let Some(&key_use) = cx.item.operands(op).first() else { continue };
        let Some(key) = item.uses[key_use as usize].value else { continue };
        let Some(LoopClass::RawWillContinue { stream }) = classes.of(key) else { continue };
        let key_text = item.str(item.uses[key_use as usize].text());
        match kind {
            Some(loop_op @ (OpKind::Carry | OpKind::Invariant)) => {
                let short = loop_op.key();
                let Some(&out) = cx.item.results(op).first() else { continue };
                if !cx.ty(out).is_some_and(is_control) {
                    continue;
                }
                let Some((access, ctrl_use)) = reaches_access(cx, classes, out, stream) else {
                    continue;
                };
                let access_name = item.ops[access as usize].short_name().to_string();
                let d = Diagnostic::new(
                    Code::RawWillContinueBodyControl,
                    item.uses[key_use as usize].range,
                    format!(
                        "control `{short}` `{}` is keyed by `{key_text}`, a stream's raw_will_continue, and drives the ctrl of a `{access_name}` without a `cond_br` on that condition: the loop body runs N times per loop entry but the raw stream has N+1 events, so the `{access_name}` gets one extra ctrl token; key body control by the gate's after_cond",
                        display(cx, out)
                    ),
                )
                .with_related(item.uses[ctrl_use as usize].range, format!("ctrl of the `{access_name}`"));
                acc.push(finish(cx, classes, d, id, key_use, stream));
            }
            Some(OpKind::CondBr) => {
                let Some(data) = operand_value(cx, op, 1) else { continue };
                let Some(done) = done_token_source(cx, data) else { continue };
                let data_text = item.str(item.uses[cx.item.operands(op)[1] as usize].text());
                let d = Diagnostic::new(
                    Code::RawWillContinueBodyControl,
                    item.uses[key_use as usize].range,
                    format!(
                        "`cond_br` splits the loop-body done token `{data_text}` by `{key_text}`, a stream's raw_will_continue: the body runs N times per loop entry but the raw stream has N+1 events, so one condition token is left latched in the `cond_br`; split the body's done token by the gate's after_cond"
                    ),
                )
                .with_related(item.ops[done as usize].name_range, "the done token comes from this memory");
                acc.push(finish(cx, classes, d, id, key_use, stream));
            }
            _ => {}
        }
    }
}

/// Adds the notes on the stream and its gate, and the fix that rewires the key.
fn finish(
    cx: &Context<'_>,
    classes: &Classes,
    mut d: Diagnostic,
    op: OpId,
    key_use: UseId,
    stream: OpId,
) -> Diagnostic {
    let item = cx.item;
    d = d.with_related(
        item.ops[stream as usize].name_range,
        "the stream: raw_will_continue has N+1 events per loop entry (N true, then one false)",
    );
    if let Some(gate) = classes.gate_of(cx, stream) {
        d = d.with_related(
            item.ops[gate as usize].name_range,
            "the gate: its after_cond has N events per loop entry, one per body iteration",
        );
        if let Some(fix) = rewire_fix(cx, op, key_use, gate) {
            d.fixes.push(fix);
        }
    }
    d
}

/// Walks control forward from `start` and returns the first load or store whose ctrl it
/// reaches without a `cond_br` keyed by the same stream's raw_will_continue.
fn reaches_access(
    cx: &Context<'_>,
    classes: &Classes,
    start: ValueId,
    stream: OpId,
) -> Option<(OpId, UseId)> {
    let item = cx.item;
    let mut seen = BTreeSet::new();
    let mut stack = vec![start];
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        // The graph's edges are every use, `wait`'s awaited operand included.
        for (op_id, position) in cx.graph.consumers(item, v) {
            let op = &item.ops[op_id as usize];
            let position = position as usize;
            if ctrl_operand(cx, op) == Some(position) {
                return Some((op_id, cx.item.operands(op)[position]));
            }
            let next: &[ValueId] = match OpKind::of(op) {
                Some(OpKind::CondBr) if position == 1 => {
                    let cond = operand_value(cx, op, 0).and_then(|c| classes.of(c));
                    if cond == Some(LoopClass::RawWillContinue { stream }) {
                        continue;
                    }
                    cx.item.results(op)
                }
                Some(
                    OpKind::Fork
                    | OpKind::LazyFork
                    | OpKind::Buffer
                    | OpKind::Br
                    | OpKind::Join
                    | OpKind::Sync
                    | OpKind::Wait
                    | OpKind::Merge
                    | OpKind::Mux,
                ) => cx.item.results(op),
                Some(OpKind::ControlMerge) => &cx.item.results(op)[..op.results.len().min(1)],
                _ => &[],
            };
            stack.extend(next.iter().rev());
        }
    }
    None
}

/// The memory op whose done token `v` is, through forks, buffers, joins and waits.
fn done_token_source(cx: &Context<'_>, v: ValueId) -> Option<OpId> {
    let item = cx.item;
    let mut seen = BTreeSet::new();
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        let Def::Result { op: id, n } = item.values[v as usize].def else { continue };
        let op = &item.ops[id as usize];
        match OpKind::of(op) {
            Some(OpKind::Memory | OpKind::ExtMemory) => {
                let loads = memory_ports(cx.item, op).map_or(0, |(loads, _)| loads);
                if n as usize >= loads {
                    return Some(id);
                }
            }
            Some(
                OpKind::Fork
                | OpKind::LazyFork
                | OpKind::Buffer
                | OpKind::Br
                | OpKind::Join
                | OpKind::Sync
                | OpKind::Wait,
            ) => {
                stack.extend(
                    cx.item.operands(op).iter().filter_map(|&u| item.uses[u as usize].value),
                );
            }
            _ => {}
        }
    }
    None
}

/// `[ld = L, st = S]` of a memory op.
fn memory_ports(item: &Item, op: &OpData) -> Option<(usize, usize)> {
    let get = |key: &str| item.bracket_entry(op, key).and_then(|v| v.trim().parse().ok());
    Some((get("ld")?, get("st")?))
}

/// The fix: key the op by the gate's after_cond, keeping every channel used once.
fn rewire_fix(cx: &Context<'_>, op: OpId, key_use: UseId, gate: OpId) -> Option<Fix> {
    let item = cx.item;
    let text = cx.text;
    let after = *item.results(&item.ops[gate as usize]).get(1)?;
    let after_name = display(cx, after);
    let after_ty = cx.ty(after).cloned().unwrap_or_else(|| cx.style.i1());
    let key = &item.uses[key_use as usize];
    let old = key.value?;
    let mut edits = Vec::new();
    let uses = item.value_uses(&item.values[after as usize]);
    let new_key = match uses {
        [] => after_name.clone(),
        [only] => {
            let consumer = &item.ops[item.uses[*only as usize].op as usize];
            match widen_fork(cx, consumer) {
                Some((widen, new_name)) => {
                    edits.extend(widen);
                    new_name
                }
                None => {
                    let base = after_name.replace('#', "_");
                    let mut fork = format!("{base}_fork");
                    let mut k = 1;
                    while item.values.iter().any(|v| cx.item.str(v.name()) == fork) {
                        fork = format!("{base}_fork{k}");
                        k += 1;
                    }
                    let gate_op = &item.ops[gate as usize];
                    edits.push(line_after(
                        text,
                        gate_op.range.end(),
                        &format!("{fork}:2 = fork [2] {after_name} : {after_ty}"),
                    ));
                    edits.push(TextEdit {
                        range: item.uses[*only as usize].range,
                        new_text: format!("{fork}#0"),
                    });
                    format!("{fork}#1")
                }
            }
        }
        // Already used more than once (HS1108 says so): one more use.
        _ => after_name.clone(),
    };
    edits.push(TextEdit { range: key.range, new_text: new_key.clone() });
    // The raw condition loses this use: consume it with a sink so it does not stall.
    if item.values[old as usize].uses.len() == 1 {
        let ty = cx.ty(old).cloned().unwrap_or_else(|| cx.style.i1());
        edits.push(line_before(
            text,
            item.ops[op as usize].range.start(),
            &format!("sink {} : {ty}", cx.item.str(key.text())),
        ));
    }
    Some(Fix {
        label: format!(
            "Key `{}` by the gate's after_cond `{new_key}`",
            item.ops[op as usize].short_name()
        ),
        edits,
    })
}

/// Edits that give a `fork [k]` one more result; the new result's name.
fn widen_fork(cx: &Context<'_>, fork: &OpData) -> Option<(Vec<TextEdit>, String)> {
    if OpKind::of(fork) != Some(OpKind::Fork) || fork.result_groups.len() != 1 {
        return None;
    }
    let group = &cx.item.result_groups(fork)[0];
    let k = group.count as u64;
    if !group.explicit_count || cx.item.bracket_ints(fork).first() != Some(&k) {
        return None;
    }
    let text = cx.text;
    // `%f:k`: the count follows the name.
    let after_name: usize = group.range.end().into();
    let rest = &text[after_name..];
    let colon = rest.find(':')?;
    let digits_start = after_name + colon + 1;
    let digits_len = text[digits_start..].chars().take_while(|c| c.is_ascii_digit()).count();
    if digits_len == 0 || !rest[..colon].trim().is_empty() {
        return None;
    }
    // `[k]` after the op name.
    let name_end: usize = fork.name_range.end().into();
    let op_end: usize = fork.range.end().into();
    let open = name_end + text[name_end..op_end].find('[')?;
    let close = open + text[open..op_end].find(']')?;
    let range =
        |a: usize, b: usize| TextRange::new(TextSize::from(a as u32), TextSize::from(b as u32));
    Some((
        vec![
            TextEdit {
                range: range(digits_start, digits_start + digits_len),
                new_text: (k + 1).to_string(),
            },
            TextEdit { range: range(open + 1, close), new_text: (k + 1).to_string() },
        ],
        format!("{}#{k}", cx.item.str(group.name())),
    ))
}

/// A new line after the line holding `at`, indented like it.
fn line_after(text: &str, at: TextSize, line: &str) -> TextEdit {
    let at: usize = at.into();
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent: String = text[start..].chars().take_while(|c| *c == ' ' || *c == '\t').collect();
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    TextEdit {
        range: TextRange::empty(TextSize::from(end as u32)),
        new_text: format!("\n{indent}{line}"),
    }
}

/// A new line before the line holding `at`, indented like it.
fn line_before(text: &str, at: TextSize, line: &str) -> TextEdit {
    let at: usize = at.into();
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent: String = text[start..].chars().take_while(|c| *c == ' ' || *c == '\t').collect();
    TextEdit {
        range: TextRange::empty(TextSize::from(start as u32)),
        new_text: format!("{indent}{line}\n"),
    }
}

// ---- HS3004: loop-carried data keyed by after_cond -------------------------------------------------

fn data_carry_after_cond(cx: &Context<'_>, classes: &Classes, acc: &mut Vec<Diagnostic>) {
    let item = cx.item;
    for op in item.ops.iter().skip(1) {
        if op.broken || OpKind::of(op) != Some(OpKind::Carry) {
            continue;
        }
        let (Some(&key_use), Some(&out)) =
            (cx.item.operands(op).first(), cx.item.results(op).first())
        else {
            continue;
        };
        let Some(key) = item.uses[key_use as usize].value else { continue };
        let Some(LoopClass::AfterCond { gate }) = classes.of(key) else { continue };
        let Some(ty) = cx.ty(out) else { continue };
        if is_control(ty) || opaque(ty) {
            continue;
        }
        let d = Diagnostic::new(
            Code::DataCarryAfterCond,
            item.uses[key_use as usize].range,
            format!(
                "loop-carried `{ty}` value `{}` is keyed by `{}`, a gate's after_cond: after_cond has N events per loop entry (none when the loop runs zero times), but a loop-carried value takes N+1 (its initial value, then one per iteration); key it by the stream's raw_will_continue",
                display(cx, out),
                item.str(item.uses[key_use as usize].text())
            ),
        )
        .with_related(item.ops[gate as usize].name_range, "the gate giving after_cond");
        acc.push(d);
    }
}

// ---- HS3005: token rates -------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Atom {
    /// One token per invocation.
    Invocation,
    /// The body iterations of a stream, summed over its loop entries.
    Trips(OpId),
    /// The true tokens of a condition (by its root value).
    True(ValueId),
}

/// Tokens per invocation: a sum of integer multiples of atoms.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Rate(Terms);

/// A rate's terms, by atom in ascending order, none with a zero coefficient, so that equal
/// sums are equal values. The common rates (one token per invocation, one atom) are held
/// without allocating.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
enum Terms {
    #[default]
    Zero,
    One((Atom, i64)),
    /// Two terms or more.
    Many(Vec<(Atom, i64)>),
}

impl Rate {
    fn atom(atom: Atom) -> Rate {
        Rate(Terms::One((atom, 1)))
    }

    /// The terms, by atom in ascending order.
    fn terms(&self) -> &[(Atom, i64)] {
        match &self.0 {
            Terms::Zero => &[],
            Terms::One(term) => std::slice::from_ref(term),
            Terms::Many(terms) => terms,
        }
    }

    fn is_zero(&self) -> bool {
        self.0 == Terms::Zero
    }

    fn combine(&self, other: &Rate, sign: i64) -> Rate {
        let (a, b) = (self.terms(), other.terms());
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let term = match (a.get(i), b.get(j)) {
                (Some(&(x, k)), Some(&(y, _))) if x < y => {
                    i += 1;
                    (x, k)
                }
                (Some(&(x, k)), Some(&(y, l))) if x == y => {
                    i += 1;
                    j += 1;
                    (x, k + sign * l)
                }
                (_, Some(&(y, l))) => {
                    j += 1;
                    (y, sign * l)
                }
                (Some(&(x, k)), None) => {
                    i += 1;
                    (x, k)
                }
                (None, None) => break,
            };
            if term.1 != 0 {
                out.push(term);
            }
        }
        Rate(match out.len() {
            0 => Terms::Zero,
            1 => Terms::One(out[0]),
            _ => Terms::Many(out),
        })
    }

    fn plus(&self, other: &Rate) -> Rate {
        self.combine(other, 1)
    }

    fn minus(&self, other: &Rate) -> Rate {
        self.combine(other, -1)
    }

    fn render(&self, cx: &Context<'_>) -> String {
        if self.is_zero() {
            return "0".to_string();
        }
        let mut out = String::new();
        // Positive terms first, loop terms before the per-invocation constant:
        // `trips(%i) + 1`, `1 - true(%c)`.
        let mut terms: Vec<(&Atom, &i64)> = self.terms().iter().map(|(a, k)| (a, k)).collect();
        terms.sort_by_key(|(a, k)| (**k < 0, **a == Atom::Invocation));
        for (i, (atom, &k)) in terms.into_iter().enumerate() {
            let name = match atom {
                Atom::Invocation => None,
                Atom::Trips(stream) => Some(format!(
                    "trips({})",
                    cx.item
                        .results(&cx.item.ops[*stream as usize])
                        .first()
                        .map_or("?".into(), |&v| display(cx, v))
                )),
                Atom::True(v) => Some(format!("true({})", display(cx, *v))),
            };
            let term = match (name, k.unsigned_abs()) {
                (None, m) => m.to_string(),
                (Some(n), 1) => n,
                (Some(n), m) => format!("{m}*{n}"),
            };
            match (i, k < 0) {
                (0, true) => out.push('-'),
                (0, false) => {}
                (_, true) => out.push_str(" - "),
                (_, false) => out.push_str(" + "),
            }
            out.push_str(&term);
        }
        out
    }
}

struct Rates<'c> {
    /// Each value's rate, by `ValueId`, as an index into `known`; `UNKNOWN` when it has none
    /// (most values), so that the table is filled and dropped without a `Rate` per value.
    rate: Vec<u32>,
    /// The rates set, each once.
    known: Vec<Rate>,
    classes: &'c Classes,
    gate_stream: BTreeMap<OpId, OpId>,
    /// In a function without LOOM ops, the mismatch of each op's last evaluation, which is
    /// final: there an op's mismatch depends only on its operands' rates, and an op is
    /// evaluated again whenever one of them becomes known. `None` in a function with LOOM
    /// ops, where a loop op's mismatch also reads the rates of its stream's results.
    mismatches: Option<Mismatches>,
}

/// `Rates::rate` of a value whose rate is not known.
const UNKNOWN: u32 = u32::MAX;

/// The mismatches of ops, by `OpId`, with a flag per op saying whether it has one, so that the
/// ops without one (most) are not looked up.
struct Mismatches {
    of: BTreeMap<OpId, Box<Mismatch>>,
    has: Vec<bool>,
}

/// What an op does with counts: the rates of its results, and the operand groups that must
/// agree.
struct Eval {
    results: Results,
    /// Operands whose counts disagree (with each other, or with `expected`); boxed, as few ops
    /// have one.
    mismatch: Option<Box<Mismatch>>,
}

/// The rates of an op's results.
enum Results {
    /// The same rate on every result (the usual case, held without allocating).
    All(Option<Rate>),
    /// Result by result; results past the end are unknown.
    Each(Vec<Option<Rate>>),
}

impl Results {
    fn get(&self, i: usize) -> Option<&Rate> {
        match self {
            Results::All(rate) => rate.as_ref(),
            Results::Each(rates) => rates.get(i).and_then(Option::as_ref),
        }
    }
}

struct Mismatch {
    what: String,
    operands: Vec<(UseId, Rate)>,
    /// What the op takes instead, when it is not simply "all the same".
    expected: Option<String>,
}

impl<'c> Rates<'c> {
    fn compute(cx: &Context<'_>, classes: &'c Classes) -> Rates<'c> {
        let item = cx.item;
        // Gates are LOOM ops: a function without them (no classes) has none.
        let gate_stream = if classes.class.is_empty() {
            BTreeMap::new()
        } else {
            (1..item.ops.len() as OpId)
                .filter(|&g| OpKind::of(&item.ops[g as usize]) == Some(OpKind::Gate))
                .filter_map(|g| Some((g, classes.gate_stream(cx, g)?)))
                .collect()
        };
        let mut rates = Rates {
            rate: vec![UNKNOWN; item.values.len()],
            known: Vec::new(),
            classes,
            gate_stream,
            mismatches: classes
                .class
                .is_empty()
                .then(|| Mismatches { of: BTreeMap::new(), has: vec![false; item.ops.len()] }),
        };
        // Whether some use of each op, by `OpId`, reads a value whose rate is known.
        let mut fed = vec![false; item.ops.len()];
        // Function arguments: one token each per invocation (memrefs carry none).
        if let Some(region) = item.ops.first().and_then(|f| cx.item.op_regions(f).first()) {
            if let Some(&block) = item.regions[*region as usize].blocks.first() {
                for &v in &item.blocks[block as usize].args {
                    let memref = matches!(cx.ty(v), Some(Type::MemRef { .. }));
                    if !memref {
                        rates.set(v, Rate::atom(Atom::Invocation));
                        for &u in item.value_uses(&item.values[v as usize]) {
                            fed[item.uses[u as usize].op as usize] = true;
                        }
                    }
                }
            }
        }
        // A worklist: a value's rate is set once, from known operand rates; consumers of a
        // value that becomes known are evaluated again. It is a stack that starts with every
        // op, the first on top: the ops not yet taken from that start are `next..`, taken in
        // order, and `pushed` holds those pushed since, above them.
        let mut next: OpId = 1;
        let mut pushed: Vec<OpId> = Vec::new();
        let mut queued = vec![false; item.ops.len()];
        loop {
            // An op none of whose operands has a count yet has nothing to give or compare:
            // every case of `eval` then finds no rate and no mismatch (and, counts being set
            // once, it had none before), so it is not evaluated until one becomes known. Most
            // ops never have one, and `fed` says so without reading their operands: those
            // taken from the start are passed over.
            let id = match pushed.pop() {
                Some(id) => {
                    queued[id as usize] = false;
                    id
                }
                None => {
                    while (next as usize) < item.ops.len() && !fed[next as usize] {
                        next += 1;
                    }
                    if next as usize == item.ops.len() {
                        break;
                    }
                    next += 1;
                    next - 1
                }
            };
            let op = &item.ops[id as usize];
            if op.broken || !item.operands(op).iter().any(|&u| rates.of_use(cx, u).is_some()) {
                continue;
            }
            let Eval { results, mismatch } = rates.eval(cx, id, op);
            if let Some(mismatches) = &mut rates.mismatches {
                match mismatch {
                    Some(m) => {
                        mismatches.of.insert(id, m);
                        mismatches.has[id as usize] = true;
                    }
                    None if mismatches.has[id as usize] => {
                        mismatches.of.remove(&id);
                        mismatches.has[id as usize] = false;
                    }
                    None => {}
                }
            }
            for (i, &v) in cx.item.results(op).iter().enumerate() {
                let Some(r) = results.get(i) else { continue };
                // A count of zero (an op with no inputs) says nothing useful.
                if r.is_zero() {
                    continue;
                }
                if rates.rate[v as usize] != UNKNOWN {
                    continue;
                }
                rates.set(v, r.clone());
                for &u in item.value_uses(&item.values[v as usize]) {
                    let consumer = item.uses[u as usize].op;
                    fed[consumer as usize] = true;
                    // An op not yet taken from the start is still on the stack (as is the
                    // function, op 0, which never leaves it).
                    if consumer >= 1 && consumer < next && !queued[consumer as usize] {
                        queued[consumer as usize] = true;
                        pushed.push(consumer);
                    }
                }
            }
        }
        rates
    }

    /// Sets the rate of `v`, which has none yet.
    fn set(&mut self, v: ValueId, rate: Rate) {
        self.rate[v as usize] = self.known.len() as u32;
        self.known.push(rate);
    }

    /// The rate of `v`, if known.
    fn of(&self, v: ValueId) -> Option<&Rate> {
        self.known.get(self.rate[v as usize] as usize)
    }

    fn of_use(&self, cx: &Context<'_>, u: UseId) -> Option<&Rate> {
        self.of(cx.item.uses[u as usize].value?)
    }

    /// The true and false tokens of a condition.
    fn split(&self, cx: &Context<'_>, u: UseId) -> Option<(Rate, Rate)> {
        self.split_of(cx, u, true)
    }

    /// The true and false tokens of a loop condition (raw_will_continue or after_cond); `None`
    /// for other conditions.
    fn loop_split(&self, cx: &Context<'_>, u: UseId) -> Option<(Rate, Rate)> {
        self.split_of(cx, u, false)
    }

    fn split_of(&self, cx: &Context<'_>, u: UseId, generic: bool) -> Option<(Rate, Rate)> {
        let v = cx.item.uses[u as usize].value?;
        let total = self.of(v)?;
        let raw_split = |stream: OpId| -> Option<(Rate, Rate)> {
            let raw = cx.item.results(&cx.item.ops[stream as usize]).get(1)?;
            let trips = Rate::atom(Atom::Trips(stream));
            let entries = self.of(*raw)?.minus(&trips);
            Some((trips, entries))
        };
        match self.classes.of(v) {
            Some(LoopClass::RawWillContinue { stream }) => raw_split(stream),
            Some(LoopClass::AfterCond { gate }) if self.gate_stream.contains_key(&gate) => {
                let (trips, entries) = raw_split(self.gate_stream[&gate])?;
                Some((trips.minus(&entries), entries))
            }
            _ if !generic => None,
            _ => {
                let t = Rate::atom(Atom::True(self.classes.root(cx.item, v)));
                Some((t.clone(), total.minus(&t)))
            }
        }
    }

    /// What each op does with token counts: one exhaustive decision per op of the table.
    fn eval(&self, cx: &Context<'_>, id: OpId, op: &OpData) -> Eval {
        self.eval_for(cx, id, op, true)
    }

    /// `eval`, with the results' rates left out (mostly unknown) unless `results` is set: the
    /// mismatch does not depend on them.
    fn eval_for(&self, cx: &Context<'_>, id: OpId, op: &OpData, results: bool) -> Eval {
        use OpKind::*;
        let n_results = if results { op.results.len() } else { 0 };
        let none = |mismatch| Eval { results: Results::All(None), mismatch };
        let Some(kind) = OpKind::of(op) else { return none(None) };
        // Every operand's position, without allocating for the usual few.
        const POSITIONS: [usize; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
        let many: Vec<usize>;
        let all: &[usize] = match POSITIONS.get(..op.operands.len()) {
            Some(all) => all,
            None => {
                many = (0..op.operands.len()).collect();
                &many
            }
        };
        match kind {
            // No inputs, an instance's own behaviour, or a token held from the start.
            Sink | Source | Instance | Init | ArithConstant => none(None),
            Buffer if cx.item.attr(op, "initValues").is_some() => none(None),
            // Results leave through independent ports: `return` does not synchronize them.
            End | Return => none(None),
            Merge | ControlMerge if op.operands.is_empty() => none(None),
            Merge | ControlMerge => {
                let sum = cx
                    .item
                    .operands(op)
                    .iter()
                    .try_fold(Rate::default(), |acc, &u| Some(acc.plus(self.of_use(cx, u)?)));
                Eval { results: Results::All(sum), mismatch: None }
            }
            Mux => {
                let select =
                    cx.item.operands(op).first().and_then(|&u| self.of_use(cx, u)).cloned();
                let data = cx
                    .item
                    .operands(op)
                    .iter()
                    .skip(1)
                    .try_fold(Rate::default(), |acc, &u| Some(acc.plus(self.of_use(cx, u)?)));
                // Only a mux inside branch or loop structure is checked: one whose data comes
                // from a split or a loop. A mux of per-invocation values alone (an op-level
                // test) has nothing to compare against.
                let structured = cx.item.operands(op).iter().skip(1).any(|&u| {
                    self.of_use(cx, u)
                        .is_some_and(|r| r.terms().iter().any(|(a, _)| *a != Atom::Invocation))
                });
                let mismatch = match (&select, &data) {
                    (Some(s), Some(d)) if s != d && structured => Some(Box::new(Mismatch {
                        what: "`mux`".into(),
                        operands: cx
                            .item
                            .operands(op)
                            .iter()
                            .skip(1)
                            .filter_map(|&u| Some((u, self.of_use(cx, u)?.clone())))
                            .collect(),
                        expected: Some(format!(
                            "its select `{}` picks {} data tokens in all",
                            cx.item.str(cx.item.uses[cx.item.operands(op)[0] as usize].text()),
                            s.render(cx)
                        )),
                    })),
                    _ => None,
                };
                Eval { results: Results::All(select.or(data)), mismatch }
            }
            CondBr => {
                let (rate, mismatch) = self.same(cx, op, all, all);
                let split = match rate {
                    Some(_) => cx.item.operands(op).first().and_then(|&u| self.split(cx, u)),
                    None => None,
                };
                let results = match split {
                    Some((t, f)) if n_results > 0 => Results::Each(vec![Some(t), Some(f)]),
                    _ => Results::All(None),
                };
                Eval { results, mismatch }
            }
            Stream => {
                let (rate, mismatch) = self.same(cx, op, all, all);
                let raw = rate.map(|e| e.plus(&Rate::atom(Atom::Trips(id))));
                Eval { results: Results::All(raw), mismatch }
            }
            Gate => {
                let (rate, mismatch) = self.same(cx, op, all, all);
                let after = match rate {
                    Some(_) => {
                        cx.item.operands(op).get(1).and_then(|&u| self.split(cx, u)).map(|(t, _)| t)
                    }
                    None => None,
                };
                Eval { results: Results::All(after), mismatch }
            }
            Carry | Invariant => {
                let key = cx.item.operands(op).first().and_then(|&u| self.of_use(cx, u)).cloned();
                let split = cx.item.operands(op).first().and_then(|&u| self.loop_split(cx, u));
                let mut mismatch = None;
                if let Some((t, f)) = split {
                    // The initial value once per loop entry (per false key), the carried value
                    // once per true key.
                    let expect = [
                        (1, f, "its initial value once per loop entry, one per false key"),
                        (2, t, "one carried value per true key"),
                    ];
                    for (i, want, why) in expect {
                        let Some(&u) = cx.item.operands(op).get(i) else { continue };
                        if i == 2 && kind == Invariant {
                            continue;
                        }
                        let Some(got) = self.of_use(cx, u) else { continue };
                        if *got != want && mismatch.is_none() {
                            mismatch = Some(Box::new(Mismatch {
                                what: format!("`{}`", kind.key()),
                                operands: vec![(u, got.clone())],
                                expected: Some(format!("it takes {} ({why})", want.render(cx))),
                            }));
                        }
                    }
                }
                Eval { results: Results::All(key), mismatch }
            }
            Memory | ExtMemory => self.memory(cx, op, kind),
            Load => {
                // The data from memory is excluded from the result's rate: it depends on the
                // load's own address result (a cycle through the memory op).
                let data = cx
                    .item
                    .operands(op)
                    .iter()
                    .filter(|&&u| cx.item.uses[u as usize].container == Container::Bracket)
                    .count();
                let drive: Vec<usize> = all.iter().copied().filter(|&i| i != data).collect();
                let (rate, mismatch) = self.same(cx, op, &drive, all);
                Eval { results: Results::All(rate), mismatch }
            }
            // One token from every operand per firing, one on every result.
            Fork | LazyFork | Br | Not | Join | Sync | Wait | Pack | Unpack | Constant | Select
            | ArithSelect | Buffer | Oehb | Tehb | Tfifo | Store | McStore | LsqStore | Compose
            | Decompose | CmpI | CmpF | NegF | AbsF | AddI | SubI | MulI | DivSI | DivUI
            | RemSI | RemUI | AndI | OrI | XOrI | ShLI | ShRSI | ShRUI | AddF | SubF | MulF
            | DivF | RemF | MaxSI | MaxUI | MinSI | MinUI | MaximumF | MinimumF | MaxNumF
            | MinNumF | CeilDivSI | CeilDivUI | FloorDivSI | ExtSI | ExtUI | TruncI | ExtF
            | TruncF | SIToFP | UIToFP | FPToSI | FPToUI | IndexCast | IndexCastUI | Bitcast => {
                let (rate, mismatch) = self.same(cx, op, all, all);
                Eval { results: Results::All(rate), mismatch }
            }
            // Not modelled: Dynamatic's memory ports and interfaces, signals, speculation,
            // pipelines.
            Func
            | EsiInstance
            | McLoad
            | LsqLoad
            | MemController
            | Lsq
            | Bundle
            | Unbundle
            | Reshape
            | SpecCommit
            | Speculator
            | SpecSave
            | SpecSaveCommit
            | SpeculatingBranch
            | NonSpec
            | Blocker
            | ReadyRemover
            | ValidMerger
            | PipelineScheduled
            | PipelineUnscheduled
            | PipelineStage
            | PipelineReturn
            | PipelineLatency
            | PipelineLatencyReturn
            | PipelineSrc => none(None),
        }
    }

    /// Operands `checked` must agree; the result is their common rate when every operand of
    /// `drive` is known.
    fn same(
        &self,
        cx: &Context<'_>,
        op: &OpData,
        drive: &[usize],
        checked: &[usize],
    ) -> (Option<Rate>, Option<Box<Mismatch>>) {
        let operands = cx.item.operands(op);
        let rate_at = |i: usize| operands.get(i).and_then(|&u| self.of_use(cx, u));
        if let [i] = checked {
            if std::ptr::eq(drive, checked) {
                // One operand (a fork, a branch, a buffer, a constant): nothing to disagree.
                return (rate_at(*i).cloned(), None);
            }
        }
        // The checked operands agree when each known rate equals the first known one.
        let mut first: Option<&Rate> = None;
        let mut known_count = 0;
        let disagree = checked.iter().filter_map(|&i| rate_at(i)).any(|rate| {
            known_count += 1;
            match first {
                None => {
                    first = Some(rate);
                    false
                }
                Some(p) => p != rate,
            }
        });
        if disagree {
            let known = checked
                .iter()
                .filter_map(|&i| {
                    let u = *operands.get(i)?;
                    Some((u, self.of_use(cx, u)?.clone()))
                })
                .collect();
            let mismatch = Mismatch {
                what: format!("`{}`", op.short_name()),
                operands: known,
                expected: None,
            };
            return (None, Some(Box::new(mismatch)));
        }
        if std::ptr::eq(drive, checked) {
            // The usual call: what drives is what is checked, all known when each was, and
            // then the first is the common rate.
            let rate = if known_count == drive.len() { first.cloned() } else { None };
            return (rate, None);
        }
        let all_known = drive.iter().all(|&i| rate_at(i).is_some());
        let rate = match drive.first() {
            Some(&i) if all_known => rate_at(i).cloned(),
            _ => None,
        };
        (rate, None)
    }

    /// CIRCT's memory ops: operands (after extmemory's memref) are data and address per store,
    /// then an address per load; results are data per load, then done per store, then done per
    /// load.
    fn memory(&self, cx: &Context<'_>, op: &OpData, kind: OpKind) -> Eval {
        let n_results = op.results.len();
        let unknown = Eval { results: Results::All(None), mismatch: None };
        let Some((loads, stores)) = memory_ports(cx.item, op) else { return unknown };
        let base = usize::from(kind == OpKind::ExtMemory);
        if op.operands.len() != base + 2 * stores + loads || n_results != 2 * loads + stores {
            return unknown;
        }
        let mut results = vec![None; n_results];
        let mut mismatch = None;
        for j in 0..stores {
            let pair = [base + 2 * j, base + 2 * j + 1];
            let (rate, m) = self.same(cx, op, &pair, &pair);
            results[loads + j] = rate;
            mismatch = mismatch.or(m);
        }
        for i in 0..loads {
            let rate = self.of_use(cx, cx.item.operands(op)[base + 2 * stores + i]).cloned();
            results[i] = rate.clone();
            results[loads + stores + i] = rate;
        }
        Eval { results: Results::Each(results), mismatch }
    }

    fn check(&self, cx: &Context<'_>, acc: &mut Vec<Diagnostic>) {
        match &self.mismatches {
            Some(mismatches) => {
                for (&id, m) in &mismatches.of {
                    let op = &cx.item.ops[id as usize];
                    if self.may_mismatch(cx, op) {
                        acc.push(self.diagnostic(cx, op, m));
                    }
                }
            }
            None => {
                for (id, op) in cx.item.ops.iter().enumerate().skip(1) {
                    if op.broken || !self.may_mismatch(cx, op) {
                        continue;
                    }
                    let Some(m) = self.eval_for(cx, id as OpId, op, false).mismatch else {
                        continue;
                    };
                    acc.push(self.diagnostic(cx, op, &m));
                }
            }
        }
    }

    /// Every mismatch compares two known rates of the op's operands (two operands that `same`
    /// checks; a carry's key and another operand; a mux's select and its data).
    fn may_mismatch(&self, cx: &Context<'_>, op: &OpData) -> bool {
        let known = cx.item.operands(op).iter().filter(|&&u| self.of_use(cx, u).is_some());
        op.operands.len() >= 2 && known.take(2).count() == 2
    }

    fn diagnostic(&self, cx: &Context<'_>, op: &OpData, m: &Mismatch) -> Diagnostic {
        let shown: Vec<String> = m
            .operands
            .iter()
            .map(|(u, r)| {
                format!("`{}` gets {}", cx.item.str(cx.item.uses[*u as usize].text()), r.render(cx))
            })
            .collect();
        let message = match &m.expected {
            None => format!(
                "the operands of {} receive different numbers of tokens per invocation: {}; the extra tokens of one operand are never consumed (left latched in the op) or the op waits forever",
                m.what,
                shown.join(", ")
            ),
            Some(why) => format!(
                "{} receives the wrong number of tokens per invocation: {}, but {why}",
                m.what,
                shown.join(", "),
            ),
        };
        let mut d = Diagnostic::new(Code::TokenRateMismatch, op.name_range, message);
        for (u, r) in &m.operands {
            if let Some(v) = cx.item.uses[*u as usize].value {
                let count = if *r == Rate::atom(Atom::Invocation) {
                    "1 token".to_string()
                } else {
                    format!("{} tokens", r.render(cx))
                };
                d = d.with_related(
                    cx.item.values[v as usize].range,
                    format!("`{}` receives {count} per invocation", display(cx, v)),
                );
            }
        }
        d
    }
}
