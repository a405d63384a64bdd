//! Writes a placement into the original text: new buffer ops go on their own lines after the op
//! producing the channel (for an argument, before the function's first op), the consumer's
//! operand is renamed to the last new buffer, and replaced buffers are deleted. Everything else,
//! comments and layout included, is left byte for byte.
//!
//! The buffers are written in the function's own syntax (`form`): its era's (Dynamatic 2024's
//! `oehb` / `tehb`, 2025's `NUM_SLOTS` + `TIMING`), else the syntax of a buffer it already has,
//! else Dynamatic's `hw.parameters` form for Dynamatic-style functions and CIRCT's
//! `buffer [N] seq|fifo` for CIRCT-style ones.

use std::collections::BTreeSet;

use hsir_analysis::dataflow::{self, BufferSyntax, BufferType};
use hsir_analysis::ir::{Def, OpId, ValueId};
use hsir_analysis::ops::{Era, OpKind};
use hsir_analysis::signatures::Style;
use hsir_analysis::TextRange;
use hsir_parser::TextSize;

use super::Placement;
use crate::program::Func;

/// One replacement of `range` (absolute in the file) by `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub range: TextRange,
    pub text: String,
}

/// How new buffers are written in a function: one of the analysis's buffer syntaxes, or an
/// older era's form that names no type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Syntax(BufferSyntax),
    /// Dynamatic 2025: `hw.parameters = {NUM_SLOTS, TIMING}` without `BUFFER_TYPE`, the form
    /// its RTL backend chose a component from (`dataflow::implied_by_timing` reads it back).
    Timing2025,
    /// Dynamatic 2024: `oehb [N]` and `tehb [N]` ops.
    Ops2024,
}

/// How new buffers are written in `func`: in its era's own form (2024's `oehb` / `tehb`, 2025's
/// `NUM_SLOTS` + `TIMING`), else in the syntax of a buffer it already has, else Dynamatic's
/// `hw.parameters` form for Dynamatic-style functions and CIRCT's `buffer [N] seq|fifo` for
/// CIRCT-style ones.
pub fn form(func: &Func) -> Form {
    match func.era {
        Era::Dynamatic2024 => return Form::Ops2024,
        Era::Dynamatic2025 => return Form::Timing2025,
        _ => {}
    }
    let buffers = dataflow::buffers(&func.item);
    if let Some(info) = buffers
        .iter()
        .flatten()
        .find(|b| OpKind::of(&func.item.ops[b.op as usize]) == Some(OpKind::Buffer))
    {
        return Form::Syntax(info.syntax);
    }
    match func.style {
        Style::Circt => Form::Syntax(BufferSyntax::Circt),
        Style::Dynamatic => Form::Syntax(BufferSyntax::HwParameters),
    }
}

/// The chain as `form` writes it: CIRCT's one op per channel (`circt_chain`); in the forms of
/// eras that have fewer buffer types (2024's `oehb` / `tehb`, 2025's `{D: 1, V: 1}` and
/// `{R: 1}`), a `ONE_SLOT_BREAK_DVR` is an opaque then a transparent slot, a shift register of
/// N slots N opaque ones; those eras had no one-slot FIFO (`{R: 1}` with one slot is a
/// transparent buffer, which breaks ready), so a one-slot transparent FIFO gets a second slot
/// (breaking no path, as placed) and a one-slot opaque FIFO is the opaque buffer it equals.
/// Placement compares a channel's old buffers with this, so placing what it wrote changes
/// nothing.
pub fn written(form: Form, chain: &[(BufferType, u32)]) -> Vec<(BufferType, u32)> {
    match form {
        Form::Syntax(BufferSyntax::Circt) => return circt_chain(chain),
        Form::Syntax(_) => return chain.to_vec(),
        Form::Timing2025 | Form::Ops2024 => {}
    }
    let mut out = Vec::new();
    for &(ty, slots) in chain {
        match (ty, slots) {
            (BufferType::OneSlotBreakDvr, _) => {
                out.push((BufferType::OneSlotBreakDv, 1));
                out.push((BufferType::OneSlotBreakR, 1));
            }
            (BufferType::ShiftRegBreakDv, _) => {
                out.extend((0..slots).map(|_| (BufferType::OneSlotBreakDv, 1)));
            }
            (BufferType::FifoBreakNone, 1) => out.push((BufferType::FifoBreakNone, 2)),
            (BufferType::FifoBreakDv, 1) => out.push((BufferType::OneSlotBreakDv, 1)),
            other => out.push(other),
        }
    }
    out
}

/// The edits that write `placement` into the text of `func` (a function of `file_text`).
pub fn edits(func: &Func, placement: &Placement, file_text: &str) -> Vec<TextEdit> {
    let item = &func.item;
    let graph = &placement.graph;
    let form = form(func);
    let named = item.ops.iter().skip(1).any(|op| item.attr(op, "handshake.name").is_some());
    let mut names: BTreeSet<String> =
        item.values.iter().map(|v| item.str(v.name()).to_string()).collect();
    let mut op_names: BTreeSet<String> = item
        .ops
        .iter()
        .filter_map(|op| item.attr_value(op, "handshake.name"))
        .map(|a| dataflow::attribute_scalar(a).trim_matches('"').to_string())
        .collect();
    let fresh = |set: &mut BTreeSet<String>, stem: &str| {
        let mut n = 0;
        loop {
            let candidate = format!("{stem}{n}");
            if set.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    };
    let mut inserts: Vec<(TextSize, String)> = Vec::new();
    let mut replaces: Vec<TextEdit> = Vec::new();
    let removed: BTreeSet<OpId> = placement.removed.iter().copied().collect();
    let mut rewired: BTreeSet<usize> = BTreeSet::new();
    for p in &placement.placed {
        let ch = &graph.channels[p.channel];
        rewired.insert(p.channel);
        let (anchor, indent) = insertion_point(func, ch.value, file_text);
        let ty = func.ty(ch.value).map(|t| t.to_string()).unwrap_or_else(|| "<>".into());
        let mut input = reference(func, ch.value);
        let mut text = String::new();
        let chain = written(form, &p.chain);
        for &(ty_buf, slots) in &chain {
            let name = fresh(&mut names, "%buf");
            let attrs_name = named.then(|| fresh(&mut op_names, OpKind::Buffer.key()));
            text.push_str(&indent);
            text.push_str(&buffer_op(
                form,
                &name,
                &input,
                ty_buf,
                slots,
                &ty,
                attrs_name.as_deref(),
            ));
            text.push('\n');
            input = name;
        }
        inserts.push((anchor, text));
        let use_ = &item.uses[ch.use_ as usize];
        replaces.push(TextEdit { range: func.absolute(use_.range), text: input });
    }
    // Channels whose old buffers go and get nothing new: the consumer reads the producer.
    for (c, ch) in graph.channels.iter().enumerate() {
        if rewired.contains(&c) || ch.old.is_empty() || !ch.old.iter().all(|b| removed.contains(b))
        {
            continue;
        }
        let use_ = &item.uses[ch.use_ as usize];
        replaces
            .push(TextEdit { range: func.absolute(use_.range), text: reference(func, ch.value) });
    }
    for &op in &removed {
        replaces.push(TextEdit { range: line_range(func, op, file_text), text: String::new() });
    }
    // One edit per position: an insertion where a deletion starts joins it.
    let mut out: Vec<TextEdit> = Vec::new();
    replaces.sort_by_key(|e| (e.range.start(), e.range.end()));
    inserts.sort_by_key(|(at, _)| *at);
    let mut merged_inserts: Vec<(TextSize, String)> = Vec::new();
    for (at, text) in inserts {
        match merged_inserts.last_mut() {
            Some((last, acc)) if *last == at => acc.push_str(&text),
            _ => merged_inserts.push((at, text)),
        }
    }
    for (at, text) in merged_inserts {
        if let Some(edit) =
            replaces.iter_mut().find(|e| e.range.start() == at && !e.range.is_empty())
        {
            edit.text = format!("{text}{}", edit.text);
        } else {
            out.push(TextEdit { range: TextRange::empty(at), text });
        }
    }
    out.extend(replaces);
    out.sort_by_key(|e| (e.range.start(), e.range.end()));
    out
}

/// Applies non-overlapping edits.
pub fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut sorted: Vec<&TextEdit> = edits.iter().collect();
    sorted.sort_by_key(|e| (e.range.start(), e.range.end()));
    let mut out = String::with_capacity(text.len() + 256);
    let mut at = 0usize;
    for e in sorted {
        let start = usize::from(e.range.start());
        let end = usize::from(e.range.end());
        if start < at {
            continue; // overlapping: never produced by `edits`
        }
        out.push_str(&text[at..start]);
        out.push_str(&e.text);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// How to write a reference to `value`: as one of its uses writes it, else its name (with
/// `#i` for a result of a group).
fn reference(func: &Func, value: ValueId) -> String {
    let item = &func.item;
    let data = &item.values[value as usize];
    if let Some(&u) = item.value_uses(data).first() {
        return item.str(item.uses[u as usize].text()).to_string();
    }
    match data.def {
        Def::Result { op, .. } => {
            let group_len = item
                .results(&item.ops[op as usize])
                .iter()
                .filter(|&&v| item.str(item.values[v as usize].name()) == item.str(data.name()))
                .count();
            if group_len > 1 {
                format!("{}#{}", item.str(data.name()), data.index)
            } else {
                item.str(data.name()).to_string()
            }
        }
        Def::Arg { .. } => item.str(data.name()).to_string(),
    }
}

/// Where the buffers of a channel from `value` go: the start of the line after the producing op
/// (after the last line it spans), or before the first op of the body for an argument; and that
/// line's indentation.
fn insertion_point(func: &Func, value: ValueId, text: &str) -> (TextSize, String) {
    let item = &func.item;
    let op = match item.values[value as usize].def {
        Def::Result { op, .. } => Some(op),
        Def::Arg { .. } => None,
    };
    let range = match op {
        Some(op) => func.absolute(item.ops[op as usize].range),
        None => {
            // Before the first op of the body.
            let first = item.ops.iter().skip(1).find(|o| o.block.is_some());
            match first {
                Some(first) => {
                    let start = func.absolute(first.range).start();
                    let line_start = text[..usize::from(start)].rfind('\n').map_or(0, |i| i + 1);
                    let indent = text[line_start..usize::from(start)].to_string();
                    let indent = if indent.trim().is_empty() { indent } else { "  ".into() };
                    return (TextSize::from(line_start as u32), indent);
                }
                None => func.absolute(item.ops[0].range),
            }
        }
    };
    let start = usize::from(range.start());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let indent: String =
        text[line_start..start].chars().take_while(|c| c.is_whitespace()).collect();
    let end = usize::from(range.end());
    let after = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    (TextSize::from(after as u32), indent)
}

/// The range to delete for op `op`: its whole lines when it is alone on them, else itself.
fn line_range(func: &Func, op: OpId, text: &str) -> TextRange {
    let range = func.absolute(func.item.ops[op as usize].range);
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    let before_blank = text[line_start..start].trim().is_empty();
    let after = &text[end..line_end];
    let after_blank = after.trim().is_empty();
    if before_blank && after_blank {
        TextRange::new(TextSize::from(line_start as u32), TextSize::from(line_end as u32))
    } else {
        range
    }
}

fn buffer_op(
    form: Form,
    name: &str,
    input: &str,
    ty: BufferType,
    slots: u32,
    channel_type: &str,
    op_name: Option<&str>,
) -> String {
    let timing = ty.timing();
    let buffer = OpKind::Buffer.key();
    let name_attr = |rest: &str| match (op_name, rest.is_empty()) {
        (Some(n), true) => format!(" {{handshake.name = \"{n}\"}}"),
        (Some(n), false) => format!(" {{handshake.name = \"{n}\", {rest}}}"),
        (None, true) => String::new(),
        (None, false) => format!(" {{{rest}}}"),
    };
    let syntax = match form {
        Form::Syntax(syntax) => syntax,
        Form::Timing2025 => {
            // The latencies of the type, written out as Dynamatic 2025 did: `{D: 1, V: 1, R: 0}`
            // for opaque slots, `{R: 1}` for transparent ones.
            let latencies = if timing.d > 0 { "D: 1, V: 1, R: 0" } else { "R: 1" };
            return format!(
                "{name} = {buffer} {input}{} : {channel_type}",
                name_attr(&format!(
                    "hw.parameters = {{NUM_SLOTS = {slots} : ui32, TIMING = #handshake<timing {{{latencies}}}>}}"
                ))
            );
        }
        Form::Ops2024 => {
            let op = if timing.d > 0 { OpKind::Oehb } else { OpKind::Tehb };
            return format!(
                "{name} = {} [{slots}] {input}{} : {channel_type}",
                op.key(),
                name_attr("")
            );
        }
    };
    match syntax {
        BufferSyntax::HwParameters => format!(
            "{name} = {buffer} {input}{} : {channel_type}",
            name_attr(&format!(
                "hw.parameters = {{BUFFER_TYPE = \"{}\", NUM_SLOTS = {slots} : ui32, TIMING = #handshake<timing {{D: {}, V: {}, R: {}}}>}}",
                ty.name(),
                timing.d,
                timing.v,
                timing.r
            ))
        ),
        BufferSyntax::Inline => format!(
            "{name} = {buffer} {input}, bufferType = {}, numSlots = {slots}{}{} : {channel_type}",
            ty.name(),
            if timing.d > 0 { ", dvLatency = 1" } else { "" },
            name_attr("")
        ),
        BufferSyntax::Circt => {
            // CIRCT has two kinds: `seq` breaks data, valid and ready; `fifo` breaks data and
            // valid. It has no transparent buffer, so transparent slots become a `fifo`.
            let kind = if timing.r > 0 { "seq" } else { "fifo" };
            format!("{name} = {buffer} [{slots}] {kind} {input} : {channel_type}")
        }
    }
}

/// For CIRCT syntax a whole chain becomes one op: `seq` when anything in it breaks ready, else
/// `fifo`, with the chain's slots.
pub fn circt_chain(chain: &[(BufferType, u32)]) -> Vec<(BufferType, u32)> {
    if chain.is_empty() {
        return Vec::new();
    }
    let slots = chain.iter().map(|&(_, s)| s).sum();
    let breaks_r = chain.iter().any(|&(t, _)| t.timing().r > 0);
    vec![(if breaks_r { BufferType::OneSlotBreakDvr } else { BufferType::FifoBreakDv }, slots)]
}
