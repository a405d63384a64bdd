//! Hover: what the thing under the cursor is, as Markdown.
//!
//! Things that answer: an SSA value (its type written out wire by wire, who produces it and
//! who consumes it, and for values of a scheduled pipeline how they cross stages), an op name
//! (what the op does and its signature as typed here), a buffer op (its type, slots and
//! latencies, and the latency accumulated along its channel), an `@symbol` (the signature of
//! the function it names, resolved as calls resolve it), a type (its wires, its spelling and
//! the function's era), an attribute (what the op table's `ATTRS` says it means for the op,
//! and its value as the analysis reads it), a buffer-type name or CIRCT's `seq` / `fifo`, and a
//! block label (arguments, predecessors, the loop it heads, its pipeline stage). Everything is
//! read from the lowered item (`ir::Item`) and the type checks' results; the syntax tree is
//! used only to find the token under the cursor, types, and successors.

use std::fmt::Write as _;

use hsir_parser::ast::{AstNode, Op};
use hsir_parser::{SyntaxKind, TextRange, TextSize};

use crate::dataflow::{BufferType, Timing};
use crate::db::{Analysis, ItemView};
use crate::ide::{token_at, FilePosition};
use crate::ir::{self, BlockId, Container, Def, Item, OpId, TypeEntry, ValueId};
use crate::lints::{buffer_hover, BufferHover, Signal};
use crate::ops::{Dialect, OpKind};
use crate::signatures::{self, Style};
use crate::types::{Direction, Type};

/// A hover: the range hovered (absolute) and what to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hover {
    pub range: TextRange,
    pub markdown: String,
}

/// The hover at `pos`; `None` on whitespace, comments and tokens that name nothing.
pub fn hover(analysis: &Analysis<'_>, pos: FilePosition) -> Option<Hover> {
    let item = analysis.item_at(pos.file, pos.offset)?;
    let token = token_at(&item, pos.offset)?;
    if token.kind().is_trivia() {
        return None;
    }
    let local = item.syntax_abs(token.text_range()).checked_sub(item.start)?;
    let ir = &item.lowered.item;
    match token.kind() {
        SyntaxKind::VALUE_ID => {
            if let Some(use_) = ir.uses.iter().find(|u| u.range == local) {
                let value = use_.value?;
                let markdown = value_markdown(&item, &[value]);
                return Some(Hover { range: item.abs(use_.range), markdown });
            }
            let defined: Vec<ValueId> = (0..ir.values.len() as ValueId)
                .filter(|&v| ir.values[v as usize].range == local)
                .collect();
            if defined.is_empty() {
                return None;
            }
            Some(Hover { range: item.abs(local), markdown: value_markdown(&item, &defined) })
        }
        SyntaxKind::AT_ID => symbol_hover(analysis, &item, local),
        SyntaxKind::CARET_ID => block_hover(&item, token.text(), local),
        _ if buffer_type_named(token.text()).is_some() => {
            let ty = buffer_type_named(token.text())?;
            Some(Hover { range: item.abs(local), markdown: buffer_type_markdown(ty) })
        }
        // A type, unless it is part of an attribute's value that only parses as one
        // (`{R: 1}` of a `TIMING`).
        _ if token.parent().ancestors().any(|n| n.kind() == SyntaxKind::TYPE)
            && !(attribute_at(ir, local).is_some()
                && token
                    .parent()
                    .ancestors()
                    .filter(|n| n.kind() == SyntaxKind::TYPE)
                    .last()
                    .is_some_and(|n| {
                        matches!(crate::types::lower(n, &mut Vec::new()), Type::Other(_))
                    })) =>
        {
            let node =
                token.parent().ancestors().filter(|n| n.kind() == SyntaxKind::TYPE).last()?;
            let ty = crate::types::lower(node, &mut Vec::new());
            let range = item.syntax_abs(node.text_range());
            let written: String = node.text().split_whitespace().collect();
            let mut markdown =
                format!("```mlir\n{ty}\n```\n\n{}", type_explanation(&ty, style(&item)));
            let in_function = item.typed.is_some();
            if let Some(spelling) = spelling(&written, &ty, style(&item), in_function) {
                let _ = write!(markdown, "\n{spelling}");
            }
            if let Some(era) = item.typed.map(|t| t.era) {
                let _ = writeln!(markdown, "\nthe function is written in {}'s syntax", era.label());
            }
            Some(Hover { range, markdown })
        }
        _ if attribute_at(ir, local).is_some() => attribute_hover(&item, local),
        _ if buffer_word_at(ir, local).is_some() => {
            // CIRCT's `seq` / `fifo`: the buffer they configure.
            let (op, range) = buffer_word_at(ir, local)?;
            let buffer = buffer_hover(ir, op)?;
            let markdown = buffer_markdown(ir, &buffer);
            Some(Hover { range: item.abs(range), markdown })
        }
        _ => {
            // The innermost op whose name holds the token.
            let op = (0..ir.ops.len() as OpId)
                .filter(|&op| ir.ops[op as usize].name_range.contains_range(local))
                .filter(|&op| !ir.ops[op as usize].name_range.is_empty())
                .min_by_key(|&op| ir.ops[op as usize].range.len())?;
            let range = item.abs(ir.ops[op as usize].name_range);
            Some(Hover { range, markdown: op_markdown(analysis, &item, op) })
        }
    }
}

/// The buffer op whose configuring word (CIRCT's `seq`, `fifo`) is at `local`, and the word.
fn buffer_word_at(ir: &Item, local: TextRange) -> Option<(OpId, TextRange)> {
    (0..ir.ops.len() as OpId).find_map(|op| {
        let data = &ir.ops[op as usize];
        if !OpKind::of(data).is_some_and(OpKind::is_buffer) {
            return None;
        }
        let word = ir.words(data).iter().find(|w| w.range().contains_range(local))?;
        Some((op, word.range()))
    })
}

/// The buffer type a word names (`ONE_SLOT_BREAK_DV`, `"FIFO_BREAK_NONE"`, a legacy `OEHB`).
fn buffer_type_named(word: &str) -> Option<BufferType> {
    let word = word.trim_matches('"');
    BufferType::from_name(word).or_else(|| BufferType::from_legacy_name(word))
}

/// What a buffer type does: its latencies, the paths it breaks, its slots.
fn buffer_type_markdown(ty: BufferType) -> String {
    let t = ty.timing();
    let mut out = format!("**buffer type** `{}`", ty.name());
    if let Some(legacy) = ty.legacy_name() {
        let _ = write!(out, " (legacy name `{legacy}`)");
    }
    let breaks: Vec<&str> = [(t.d > 0, "data"), (t.v > 0, "valid"), (t.r > 0, "ready")]
        .into_iter()
        .filter_map(|(b, name)| b.then_some(name))
        .collect();
    let _ = write!(
        out,
        "\n\n- latency: D{} V{} R{}\n- breaks: {}\n- slots: {}\n",
        t.d,
        t.v,
        t.r,
        if breaks.is_empty() { "nothing".to_string() } else { breaks.join(", ") },
        if ty.one_slot() { "exactly one" } else { "any number" }
    );
    out
}

/// A block label, where it is defined or named as a successor: its arguments and ops.
fn block_hover(item: &ItemView<'_>, label: &str, local: TextRange) -> Option<Hover> {
    let ir = &item.lowered.item;
    // The block defined here, else (a successor) the one of that name (labels are scoped to
    // their region; the first region that has it).
    let named = |b: &&crate::ir::BlockData| b.label.is_some_and(|l| ir.str(l) == label);
    let block = ir
        .blocks
        .iter()
        .find(|b| b.label.is_some_and(|l| l.range() == local))
        .or_else(|| ir.blocks.iter().find(named))?;
    let owner = &ir.ops[ir.regions[block.region as usize].owner as usize];
    let args: Vec<String> = block
        .args
        .iter()
        .map(|&v| {
            let value = &ir.values[v as usize];
            match ir.value_ty(value) {
                Some(ty) => format!("`{} : {ty}`", ir.str(value.name())),
                None => format!("`{}`", ir.str(value.name())),
            }
        })
        .collect();
    let mut markdown = format!("**block** `{label}` of `{}`", owner.name);
    let _ = write!(
        markdown,
        "\n\n{} op{}; arguments: {}\n",
        block.ops.len(),
        if block.ops.len() == 1 { "" } else { "s" },
        if args.is_empty() { "none".to_string() } else { args.join(", ") }
    );
    let id = ir.blocks.iter().position(|b| std::ptr::eq(b, block))? as BlockId;
    let region = &ir.regions[block.region as usize];
    let here = region.blocks.iter().position(|&b| b == id).unwrap_or(0);
    // Who branches here: the terminators of the region's blocks that name it.
    let mut preds: Vec<(usize, BlockId, OpId)> = Vec::new();
    for (i, &b) in region.blocks.iter().enumerate() {
        let Some(&last) = ir.blocks[b as usize].ops.last() else { continue };
        if successors(item, last).iter().any(|s| s == label) {
            preds.push((i, b, last));
        }
    }
    let name_of = |b: BlockId| -> String {
        match ir.blocks[b as usize].label {
            Some(l) => format!("`{}`", ir.str(l)),
            None => "the entry block".to_string(),
        }
    };
    if preds.is_empty() {
        let entry = region.blocks.first() == Some(&id);
        markdown.push_str(if entry {
            "\n**predecessors**: none, the region's entry block\n"
        } else {
            "\n**predecessors**: none; no terminator branches here\n"
        });
    } else {
        let list: Vec<String> = preds
            .iter()
            .map(|&(_, b, op)| format!("{} (`{}`)", name_of(b), ir.ops[op as usize].name))
            .collect();
        let _ = writeln!(markdown, "\n**predecessors**: {}", list.join(", "));
    }
    if OpKind::of(owner) == Some(OpKind::PipelineScheduled) {
        let stage = Stages::of(item, region.owner).and_then(|stages| stages.stage(id));
        match stage {
            Some(n) => {
                let _ = writeln!(markdown, "\n**pipeline stage** {n}");
            }
            None => {
                markdown.push_str("\n**pipeline stage**: none, no `pipeline.stage` reaches it\n")
            }
        }
    } else {
        // A branch from this block or a later one (in text order) closes a loop here.
        let back: Vec<String> =
            preds.iter().filter(|(i, _, _)| *i >= here).map(|&(_, b, _)| name_of(b)).collect();
        if !back.is_empty() {
            let _ = writeln!(
                markdown,
                "\n**loop header**: the loop closes with the branch from {}",
                back.join(", ")
            );
        }
    }
    Some(Hover { range: item.abs(local), markdown })
}

/// The block labels an op's successor list names, in order.
fn successors(item: &ItemView<'_>, op: OpId) -> Vec<String> {
    let Some(node) = op_syntax(item, op) else { return Vec::new() };
    node.syntax()
        .children()
        .filter(|n| n.kind() == SyntaxKind::SUCCESSOR)
        .filter_map(|n| n.child_tokens().find(|t| t.kind() == SyntaxKind::CARET_ID))
        .map(|t| t.text().to_string())
        .collect()
}

/// How a type is spelled, in which syntax: Dynamatic's long and short forms, the proposal's,
/// CIRCT's raw types.
fn spelling(written: &str, ty: &Type, style: Option<Style>, in_function: bool) -> Option<String> {
    let out = if written.starts_with("!handshake.channel<") {
        "Dynamatic's full spelling of a channel type; its ops write the short form `<T>`"
    } else if written.starts_with("!handshake.control<") {
        "Dynamatic's full spelling of the control type; its ops write the short form `<>`"
    } else if written.starts_with('<') {
        match ty {
            Type::Control { .. } => "Dynamatic's short form of `!handshake.control<>`",
            _ => "Dynamatic's short form of `!handshake.channel<T>`",
        }
    } else if written.starts_with("channel<") || written.starts_with("control") {
        "the Dynamatic type-system proposal's spelling"
    } else {
        match ty {
            Type::Int { .. } | Type::Float { .. } | Type::Index | Type::None
                if style == Some(Style::Circt) =>
            {
                "a raw type: CIRCT's Handshake makes it a channel of itself (`none`: control)"
            }
            Type::Int { .. } | Type::Float { .. } | Type::Index | Type::None if in_function => {
                "a raw type beside Dynamatic's channel types: a plain value (an attribute's, a memory's element), not a channel"
            }
            Type::None => "`none`: no data; CIRCT's Handshake writes control channels so",
            _ => return None,
        }
    };
    Some(format!("{out}\n"))
}

// ---- attributes --------------------------------------------------------------------------

/// The innermost op with an attribute entry at `local`, and the attribute.
fn attribute_at(ir: &Item, local: TextRange) -> Option<(OpId, usize)> {
    (0..ir.ops.len() as OpId)
        .filter_map(|op| {
            let attrs = ir.attrs(&ir.ops[op as usize]);
            let i = attrs.iter().position(|a| a.range.contains_range(local))?;
            Some((op, i))
        })
        .min_by_key(|&(op, _)| ir.ops[op as usize].range.len())
}

/// An attribute: what the op table says it means for this op, and what this one says (a
/// buffer's configuration read as the checks read it, a timing, LSQ groups).
fn attribute_hover(item: &ItemView<'_>, local: TextRange) -> Option<Hover> {
    use crate::ops::{attribute, AttrPlace};
    let ir = &item.lowered.item;
    let (op, index) = attribute_at(ir, local)?;
    let data = &ir.ops[op as usize];
    let attr = &ir.attrs(data)[index];
    let kind = OpKind::of(data);
    let function = data.signature.is_some();
    // Inside `hw.parameters = {...}`: the entry under the cursor.
    let value_at = attr.value.range().start();
    let nested = (ir.str(attr.key) == "hw.parameters")
        .then(|| {
            crate::dataflow::dictionary_entries(ir.str(attr.value)).into_iter().find_map(
                |(k, v, r)| {
                    let range = TextRange::new(
                        value_at + TextSize::from(r.start as u32),
                        value_at + TextSize::from(r.end as u32),
                    );
                    range.contains_range(local).then_some((k, v, range))
                },
            )
        })
        .flatten();
    let (key, value, range, place) = match nested {
        Some((k, v, range)) => (k, v, range, AttrPlace::HwParameters),
        None => (ir.str(attr.key), ir.str(attr.value), attr.range, AttrPlace::Op),
    };
    let key = key.trim_matches('"');
    let mut markdown = format!("**attribute** `{key}` of `{}`", data.name);
    if place == AttrPlace::HwParameters {
        markdown.push_str(" (in `hw.parameters`)");
    }
    markdown.push_str("\n\n");
    match attribute(key, place, kind, function) {
        Some(def) => {
            let _ = writeln!(markdown, "{}", def.doc);
        }
        None => markdown.push_str("an attribute hsir does not interpret\n"),
    }
    let value = value.trim();
    if !value.is_empty() && value.len() <= 120 {
        let _ = writeln!(markdown, "\nvalue: `{value}`");
    }
    markdown.push_str(&attribute_reading(item, op, key, value));
    Some(Hover { range: item.abs(range), markdown })
}

/// What hsir reads from an attribute's value, with the readers the checks use.
fn attribute_reading(item: &ItemView<'_>, op: OpId, key: &str, value: &str) -> String {
    let ir = &item.lowered.item;
    let mut out = String::new();
    match key {
        "hw.parameters" | "BUFFER_TYPE" | "NUM_SLOTS" | "TIMING" | "bufferType" | "numSlots"
        | "dvLatency" | "slots" => {
            if key == "TIMING" {
                match crate::dataflow::parse_timing(value) {
                    Ok(t) => {
                        let _ = writeln!(
                            out,
                            "\nreads as {} (a latency left out is 0)",
                            short_timing(t.or_zero())
                        );
                    }
                    Err(why) => {
                        let _ = writeln!(out, "\nnot a timing: {why}");
                    }
                }
            }
            if let Some(buffer) = buffer_hover(ir, op) {
                if let crate::dataflow::BufferKind::Implied(t) = buffer.info.kind {
                    let _ = writeln!(
                        out,
                        "\nno `BUFFER_TYPE` written: the component for these latencies and slots is `{}`",
                        t.name()
                    );
                }
                out.push('\n');
                out.push_str(&buffer_markdown(ir, &buffer));
            }
        }
        "groupSizes" | "connectedBlocks" | "stallability" | "initValues" => {
            if let Some(entries) = crate::attrs::array(value) {
                let entries: Vec<&str> =
                    entries.iter().map(|e| crate::dataflow::attribute_scalar(e)).collect();
                let what = match key {
                    "groupSizes" => {
                        let total: u64 = entries.iter().filter_map(|e| e.parse::<u64>().ok()).sum();
                        format!(
                            "{}, {} in all",
                            plural(entries.len() as u32, "group"),
                            plural(total as u32, "access")
                        )
                    }
                    "connectedBlocks" => format!("blocks {}", entries.join(", ")),
                    "stallability" => {
                        let stalls: Vec<String> = entries
                            .iter()
                            .enumerate()
                            .filter(|(_, e)| **e == "true")
                            .map(|(i, _)| i.to_string())
                            .collect();
                        format!(
                            "{} register stages; stallable stages: {}",
                            entries.len(),
                            if stalls.is_empty() { "none".to_string() } else { stalls.join(", ") }
                        )
                    }
                    _ => plural(entries.len() as u32, "value"),
                };
                let _ = writeln!(out, "\nreads as {what}");
            }
        }
        "handshake.bb" => {
            let _ = writeln!(out, "\nbasic block {}", crate::dataflow::attribute_scalar(value));
        }
        _ => {}
    }
    out
}

// ---- values ------------------------------------------------------------------------------

fn style(item: &ItemView<'_>) -> Option<Style> {
    item.typed.map(|t| t.style)
}

/// `%x`, `%x#1`, or `%x:3` for a whole group.
fn value_name(ir: &Item, value: ValueId) -> String {
    ir.values[value as usize].display(ir, ir::group_len(ir, value))
}

fn value_markdown(item: &ItemView<'_>, values: &[ValueId]) -> String {
    let ir = &item.lowered.item;
    let mut out = String::new();
    for (i, &value) in values.iter().enumerate() {
        if i > 0 {
            out.push_str("\n---\n\n");
        }
        let name = value_name(ir, value);
        let ty = item.type_of(value);
        match ty {
            Some(ty) => {
                let _ = writeln!(out, "```mlir\n{name} : {ty}\n```\n");
                out.push_str(&type_explanation(ty, style(item)));
            }
            None => {
                let _ = writeln!(out, "```mlir\n{name}\n```\n");
                // Outside a `handshake.func` results are not typed; the op's written types
                // are the best there is.
                let written = match ir.values[value as usize].def {
                    Def::Result { op, .. } => op_signature(item, op),
                    Def::Arg { .. } => None,
                };
                match written {
                    Some(written) => {
                        let _ = writeln!(out, "type not inferred; its op is typed `{written}`");
                    }
                    None => out.push_str("type unknown\n"),
                }
            }
        }
        let _ = writeln!(out, "\n**produced by** {}", producer(item, value));
        out.push_str(&consumers(item, value));
        out.push_str(&pipeline_markdown(item, value));
    }
    out
}

/// The type spelled out: data width, each extra signal, and the wire count of the bundle.
pub(crate) fn type_explanation(ty: &Type, style: Option<Style>) -> String {
    let circt = style == Some(Style::Circt);
    let Some(channel) = ty.as_channel(circt) else {
        return match ty {
            Type::Int { width, .. } | Type::Float { width, .. } => {
                format!("a plain {width}-bit value: {}, no handshake\n", plural(*width, "wire"))
            }
            Type::MemRef { dims, elem, .. } => {
                let mut out =
                    "a memory reference: the ports of a memory, not a channel\n".to_string();
                let count: Option<u64> = dims.iter().try_fold(1u64, |n, d| n.checked_mul((*d)?));
                match (count, elem.bit_width()) {
                    (Some(count), Some(bits)) => {
                        let address = if count <= 1 { 1 } else { 64 - (count - 1).leading_zeros() };
                        let _ = writeln!(
                            out,
                            "\n**memory** of {count} × `{elem}` ({bits}-bit elements, {} in all); an address takes {}",
                            plural_u64(count * u64::from(bits), "bit"),
                            plural(address, "bit")
                        );
                    }
                    (None, _) => out.push_str("\nits size is not fixed (a `?` dimension)\n"),
                    _ => {}
                }
                out
            }
            _ => String::new(),
        };
    };
    let mut out = String::new();
    let (data, extras) = match &channel {
        Type::Channel { data, extras } => (Some(&**data), extras),
        Type::Control { extras } => (None, extras),
        _ => return out,
    };
    match data {
        Some(data) => match data.bit_width() {
            Some(bits) => {
                let _ =
                    write!(out, "**channel** of `{data}`: {bits}-bit data with valid and ready");
            }
            None => {
                let _ = write!(
                    out,
                    "**channel** of `{data}`: data of a width fixed when it is lowered, with valid and ready"
                );
            }
        },
        None => out.push_str("**control** channel: a token without data, valid and ready only"),
    }
    if circt && !matches!(ty, Type::Channel { .. } | Type::Control { .. }) {
        out.push_str(" (CIRCT reads a raw type in a `handshake.func` as a channel of it)");
    }
    out.push('\n');
    for extra in extras {
        let name = extra.name.as_deref().map_or(String::new(), |n| format!("{n}: "));
        let direction = match extra.direction {
            Direction::Down => "downstream, with the data",
            Direction::Up => "upstream `(U)`, with ready",
        };
        let bits =
            extra.ty.bit_width().map_or("bits of unknown width".to_string(), |w| plural(w, "bit"));
        let _ = writeln!(out, "- extra signal `{name}{}`: {bits}, {direction}", extra.ty);
    }
    if let Some(widths) = channel.widths() {
        let mut parts = Vec::new();
        if data.is_some() {
            parts.push(format!("{} data", widths.data));
        }
        parts.push("1 valid".to_string());
        parts.push("1 ready".to_string());
        if widths.down > 0 {
            parts.push(format!("{} downstream extra", widths.down));
        }
        if widths.up > 0 {
            parts.push(format!("{} upstream extra", widths.up));
        }
        let total = widths.data + 2 + widths.down + widths.up;
        let _ = writeln!(out, "\n**{}**: {}", plural(total, "wire"), parts.join(" + "));
    }
    out
}

fn plural_u64(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

fn plural(count: u32, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

fn producer(item: &ItemView<'_>, value: ValueId) -> String {
    let ir = &item.lowered.item;
    match ir.values[value as usize].def {
        Def::Result { op, n } => {
            let data = &ir.ops[op as usize];
            format!("result {n} of `{}`{}", data.name, results_suffix(ir, op))
        }
        Def::Arg { block, n } => arg_owner(ir, block, n),
    }
}

/// ` (\`%3\`)`: the names an op's results are known by, to tell ops of one name apart.
fn results_suffix(ir: &Item, op: OpId) -> String {
    let groups: Vec<String> = ir
        .result_groups(&ir.ops[op as usize])
        .iter()
        .map(|g| {
            if g.count > 1 {
                format!("`{}:{}`", ir.str(g.name()), g.count)
            } else {
                format!("`{}`", ir.str(g.name()))
            }
        })
        .collect();
    if groups.is_empty() {
        String::new()
    } else {
        format!(" ({})", groups.join(", "))
    }
}

fn arg_owner(ir: &Item, block: BlockId, n: u32) -> String {
    let Some(data) = ir.blocks.get(block as usize) else { return format!("argument #{n}") };
    let region = &ir.regions[data.region as usize];
    let owner = &ir.ops[region.owner as usize];
    let entry = region.blocks.first() == Some(&block);
    if entry && ir.op_regions(owner).first() == Some(&data.region) {
        if let Some(name) = owner.signature.as_ref().and_then(|s| s.name.as_ref()) {
            return format!("argument #{n} of `{}`", name.0);
        }
        if OpKind::of(owner) == Some(OpKind::PipelineScheduled) {
            return format!("input #{n} of `{}` (its entry stage)", owner.name);
        }
    }
    match data.label {
        Some(label) => {
            format!("argument #{n} of block `{}` of `{}`", ir.str(label), owner.name)
        }
        None => format!("argument #{n} of the entry block of `{}`", owner.name),
    }
}

fn consumers(item: &ItemView<'_>, value: ValueId) -> String {
    let ir = &item.lowered.item;
    let uses = ir.value_uses(&ir.values[value as usize]);
    if uses.is_empty() {
        return "\n**consumed by** nothing: unused\n".to_string();
    }
    let mut out = String::from("\n**consumed by**\n");
    for &u in uses {
        let use_ = &ir.uses[u as usize];
        let op = &ir.ops[use_.op as usize];
        let position = ir.operands(op).iter().position(|&x| x == u).unwrap_or(0);
        let role = crate::ide::signature_help::operand_role(item, use_.op, position)
            .map_or(String::new(), |r| format!(" ({r})"));
        let _ = writeln!(
            out,
            "- operand {position}{role} of `{}`{}",
            op.name,
            results_suffix(ir, use_.op)
        );
    }
    out
}

// ---- ops ---------------------------------------------------------------------------------

/// What an op does, in a sentence or two (the op table's documentation), by its name in any
/// spelling.
pub fn op_description(name: &str) -> Option<&'static str> {
    OpKind::from_name(name).map(|kind| kind.def().doc)
}

/// What an op does: the table's sentence, or a generic line for arithmetic and combinational
/// ops.
pub fn describe(name: &str) -> Option<String> {
    op_description(name).map(str::to_string).or_else(|| generic_description(name))
}

/// A generic line for arithmetic and combinational ops.
fn generic_description(name: &str) -> Option<String> {
    let arith = Dialect::Arith.prefix();
    let short = name
        .strip_prefix(Dialect::Handshake.prefix())
        .or_else(|| name.strip_prefix(arith))
        .unwrap_or(name);
    if name.starts_with("comb.") {
        return Some(
            "Combinational logic (CIRCT `comb`): its result follows its operands in the same cycle."
                .to_string(),
        );
    }
    if name.starts_with(arith) {
        return Some(format!(
            "Arithmetic (`{short}`): fires when every operand holds a token and emits the result on its output channel."
        ));
    }
    None
}

fn op_markdown(analysis: &Analysis<'_>, item: &ItemView<'_>, op: OpId) -> String {
    let ir = &item.lowered.item;
    let data = &ir.ops[op as usize];
    let mut out = format!("**`{}`**\n\n", data.name);
    if let Some(description) = describe(&data.name) {
        let _ = writeln!(out, "{description}\n");
    }
    if let Some(signature) = &data.signature {
        let name = signature.name.as_ref().map_or("", |(n, _)| n.as_str());
        let _ = writeln!(out, "```mlir\n{}\n```", function_signature(item, op, name));
        return out;
    }
    if let Some(signature) = op_signature(item, op) {
        let _ = writeln!(out, "```mlir\n{signature}\n```");
    }
    if let (Some(kind), Some(typed)) = (OpKind::of(data), item.typed) {
        // How the function's era writes the op, and what its operands are there.
        let layout = kind.def().layout(typed.era);
        let roles: Vec<&str> = layout.operands.iter().map(|p| p.role).collect();
        let _ = write!(out, "\n**{}** form: `{}`", typed.era.label(), layout.syntax);
        if !roles.is_empty() {
            let _ = write!(out, "; operands: {}", roles.join(", "));
        }
        out.push('\n');
    }
    if let Some(buffer) = buffer_hover(ir, op) {
        out.push('\n');
        out.push_str(&buffer_markdown(ir, &buffer));
    }
    if OpKind::of(data) == Some(OpKind::Instance) {
        if let Some(name) = data.symbol {
            let name = ir.str(name).trim_start_matches('@').trim_matches('"');
            if let Some(def) = analysis.resolve(name, item.file, item.case) {
                let _ = writeln!(
                    out,
                    "\ninstance of\n```mlir\n{}\n```",
                    function_signature(&def, 0, name)
                );
            }
        }
    }
    out
}

/// `(T, U) -> (V)` as typed in this file: the type checks' typing, else the written types.
pub(crate) fn op_signature(item: &ItemView<'_>, op: OpId) -> Option<String> {
    let ir = &item.lowered.item;
    let data = &ir.ops[op as usize];
    let list = |types: Vec<String>| format!("({})", types.join(", "));
    let show = |t: Option<&Type>| t.map_or("?".to_string(), |t| t.to_string());
    let era = item.typed.map_or(crate::ops::Era::Circt, |t| t.era);
    if let Some(typing) = signatures::typing(data, ir, era) {
        // The values' own types where the checks know them better (instance results, ...).
        let operands = typing
            .operands
            .iter()
            .enumerate()
            .map(|(i, t)| match t {
                Some(t) => t.to_string(),
                None => ir
                    .operands(data)
                    .get(i)
                    .and_then(|&u| ir.uses[u as usize].value)
                    .and_then(|v| item.type_of(v))
                    .map_or("?".to_string(), |t| t.to_string()),
            })
            .collect();
        let results = ir
            .results(data)
            .iter()
            .enumerate()
            .map(|(i, &v)| match item.type_of(v) {
                Some(t) => t.to_string(),
                None => show(typing.results.get(i).and_then(|t| t.as_deref())),
            })
            .collect();
        return Some(format!("{} -> {}", list(operands), list(results)));
    }
    let written = |entries: &[TypeEntry]| -> Vec<String> {
        signatures::flat_types(ir, entries).iter().map(|t| t.to_string()).collect()
    };
    if let Some((ins, outs)) = signatures::function(ir, ir.types(data)) {
        let ins = ins.iter().map(|w| ir.ty(w.ty).to_string()).collect();
        let outs = outs.iter().map(|w| ir.ty(w.ty).to_string()).collect();
        return Some(format!("{} -> {}", list(ins), list(outs)));
    }
    let before = written(ir.types(data));
    let after = written(ir.types_after(data));
    match (before.is_empty(), after.is_empty()) {
        (true, true) => None,
        (false, true) => Some(format!(": {}", before.join(", "))),
        _ => Some(format!("{} -> {}", list(before), list(after))),
    }
}

/// `handshake.func @f(%a: i32, %b: none) -> (i32)`, from the ports as written.
pub(crate) fn function_signature(def: &ItemView<'_>, op: OpId, name: &str) -> String {
    let ir = &def.lowered.item;
    let Some(data) = ir.ops.get(op as usize) else { return String::new() };
    let Some(signature) = &data.signature else { return data.name.to_string() };
    let text = |range: TextRange| -> String {
        def.text
            .get(std::ops::Range::<usize>::from(range))
            .unwrap_or("?")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let args: Vec<String> = signature.args.iter().map(|p| text(p.range)).collect();
    let results: Vec<String> = signature.results.iter().map(|p| text(p.range)).collect();
    let name = if name.starts_with('@') { name.to_string() } else { format!("@{name}") };
    let mut out = format!("{} {name}({})", data.name, args.join(", "));
    if !results.is_empty() {
        let _ = write!(out, " -> ({})", results.join(", "));
    }
    out
}

fn signals(list: &[Signal]) -> String {
    if list.is_empty() {
        return "nothing".to_string();
    }
    let names: Vec<&str> = list.iter().map(|s| s.name()).collect();
    names.join(", ")
}

/// `D1 V1 R0`.
pub(crate) fn short_timing(t: Timing) -> String {
    format!("D{} V{} R{}", t.d, t.v, t.r)
}

fn buffer_markdown(ir: &Item, hover: &BufferHover) -> String {
    let mut out = String::new();
    let type_name = hover.type_name.as_deref().unwrap_or("no type written");
    let _ = write!(out, "**buffer** `{type_name}`");
    if let Some(legacy) = hover.legacy_name {
        let _ = write!(out, " (legacy name `{legacy}`)");
    }
    match hover.slots {
        Some(1) => out.push_str(", 1 slot"),
        Some(n) => {
            let _ = write!(out, ", {n} slots");
        }
        None => out.push_str(", slots unknown"),
    }
    let _ = writeln!(out, "\n\n- latency: {}", short_timing(hover.latency));
    let _ = writeln!(out, "- breaks: {}", signals(&hover.breaks));
    let _ = writeln!(out, "- bypasses: {}", signals(&hover.bypasses));
    if hover.channel_buffers.len() > 1 {
        let chain: Vec<String> = hover
            .channel_buffers
            .iter()
            .map(|&b| {
                let name = ir
                    .results(&ir.ops[b as usize])
                    .first()
                    .map_or("?".to_string(), |&v| value_name(ir, v));
                if b == hover.info.op {
                    format!("**`{name}`**")
                } else {
                    format!("`{name}`")
                }
            })
            .collect();
        let _ = writeln!(out, "- channel: {} buffers, {}", chain.len(), chain.join(" → "));
    }
    let _ = writeln!(out, "- along the channel: {}", short_timing(hover.channel_latency));
    out
}

// ---- symbols -----------------------------------------------------------------------------

fn symbol_hover(analysis: &Analysis<'_>, item: &ItemView<'_>, local: TextRange) -> Option<Hover> {
    let ir = &item.lowered.item;
    let at_op = ir.ops.iter().any(|op| op.symbol.is_some_and(|s| s.range() == local));
    let at_signature = ir.ops.iter().any(|op| {
        op.signature.as_ref().and_then(|s| s.name.as_ref()).is_some_and(|(_, r)| *r == local)
    });
    if !at_op && !at_signature {
        return None;
    }
    let text = item.text.get(std::ops::Range::<usize>::from(local))?;
    let name = text.trim_start_matches('@').trim_matches('"');
    let mut markdown = String::new();
    match analysis.resolve(name, item.file, item.case) {
        Some(def) => {
            let _ = writeln!(markdown, "```mlir\n{}\n```", function_signature(&def, 0, name));
            let external = def
                .lowered
                .item
                .ops
                .first()
                .and_then(|o| o.signature.as_ref())
                .is_some_and(|s| s.external);
            if external {
                markdown.push_str("\nan external declaration: no body\n");
            }
            if def.file != item.file {
                markdown.push_str("\ndefined in another file\n");
            }
        }
        None => {
            let _ = writeln!(markdown, "`@{name}`: no function of this name in the workspace");
        }
    }
    Some(Hover { range: item.abs(local), markdown })
}

// ---- pipelines ---------------------------------------------------------------------------

/// The syntax node of an op of the item.
pub(crate) fn op_syntax<'a>(item: &ItemView<'a>, op: OpId) -> Option<Op<'a>> {
    let range =
        item.syntax_base.local_range(item.abs(item.lowered.item.ops.get(op as usize)?.range))?;
    let root = item.syntax.syntax();
    if !root.text_range().contains_range(range) {
        return None;
    }
    root.covering_node(range)
        .ancestors()
        .filter_map(Op::cast)
        .find(|o| o.syntax().text_range() == range)
}

/// The stages of one `pipeline.scheduled`: its blocks in stage order (following the
/// `pipeline.stage` targets from the entry block), each with the `pipeline.stage` that ends it.
#[derive(Debug, Clone)]
pub(crate) struct Stages {
    /// Blocks in stage order.
    pub order: Vec<BlockId>,
}

impl Stages {
    pub fn of(item: &ItemView<'_>, pipeline: OpId) -> Option<Stages> {
        let ir = &item.lowered.item;
        let region = *ir.op_regions(ir.ops.get(pipeline as usize)?).first()?;
        let blocks = &ir.regions[region as usize].blocks;
        let mut order = vec![*blocks.first()?];
        loop {
            let current = *order.last()?;
            let Some(&last) = ir.blocks[current as usize].ops.last() else { break };
            if OpKind::of(&ir.ops[last as usize]) != Some(OpKind::PipelineStage) {
                break;
            }
            let target = op_syntax(item, last).and_then(|op| {
                let successor =
                    op.syntax().children().find(|n| n.kind() == SyntaxKind::SUCCESSOR)?;
                successor
                    .child_tokens()
                    .find(|t| t.kind() == SyntaxKind::CARET_ID)
                    .map(|t| t.text())
            });
            let next = target.and_then(|t| {
                blocks
                    .iter()
                    .copied()
                    .find(|&b| ir.blocks[b as usize].label.is_some_and(|l| ir.str(l) == t))
            });
            match next {
                Some(next) if !order.contains(&next) => order.push(next),
                _ => break,
            }
        }
        Some(Stages { order })
    }

    pub fn stage(&self, block: BlockId) -> Option<usize> {
        self.order.iter().position(|&b| b == block)
    }

    /// The `pipeline.stage` op that ends stage `index`.
    pub fn terminator(&self, ir: &Item, index: usize) -> Option<OpId> {
        let block = *self.order.get(index)?;
        let &last = ir.blocks[block as usize].ops.last()?;
        (OpKind::of(&ir.ops[last as usize]) == Some(OpKind::PipelineStage)).then_some(last)
    }
}

/// The block of a `pipeline.scheduled` that holds `block` (itself or through nested regions),
/// with the pipeline.
pub(crate) fn pipeline_block(ir: &Item, mut block: BlockId) -> Option<(OpId, BlockId)> {
    for _ in 0..ir.blocks.len() + 1 {
        let region = ir.blocks.get(block as usize)?.region;
        let owner = ir.regions[region as usize].owner;
        if OpKind::of(&ir.ops[owner as usize]) == Some(OpKind::PipelineScheduled) {
            return Some((owner, block));
        }
        block = ir.ops[owner as usize].block?;
    }
    None
}

fn def_block(ir: &Item, value: ValueId) -> Option<BlockId> {
    match ir.values[value as usize].def {
        Def::Arg { block, .. } => Some(block),
        Def::Result { op, .. } => ir.ops[op as usize].block,
    }
}

fn stage_name(ir: &Item, stages: &Stages, index: usize) -> String {
    let label = stages.order.get(index).and_then(|&b| ir.blocks[b as usize].label);
    match (index, label) {
        (0, _) => "the entry stage (stage 0)".to_string(),
        (_, Some(label)) => format!("stage {index} (`{}`)", ir.str(label)),
        _ => format!("stage {index}"),
    }
}

fn pipeline_markdown(item: &ItemView<'_>, value: ValueId) -> String {
    let ir = &item.lowered.item;
    let Some((pipeline, block)) = def_block(ir, value).and_then(|b| pipeline_block(ir, b)) else {
        // Defined outside: say so when a pipeline reads it.
        let inside = ir.value_uses(&ir.values[value as usize]).iter().any(|&u| {
            ir.ops[ir.uses[u as usize].op as usize]
                .block
                .and_then(|b| pipeline_block(ir, b))
                .is_some()
        });
        return if inside {
            "\n**pipeline**: defined outside the pipeline, an external input that any stage may read without a register\n".to_string()
        } else {
            String::new()
        };
    };
    let Some(stages) = Stages::of(item, pipeline) else { return String::new() };
    let Some(stage) = stages.stage(block) else {
        return "\n**pipeline**: in a block no `pipeline.stage` reaches\n".to_string();
    };
    let mut out = format!("\n**pipeline**: defined in {}\n", stage_name(ir, &stages, stage));
    // How a stage argument arrived.
    if let Def::Arg { block: arg_block, n } = ir.values[value as usize].def {
        if arg_block == block && stage > 0 {
            let args = ir.blocks[block as usize].args.len() as u32;
            let sent = stages.terminator(ir, stage - 1).map(|op| sent_values(ir, op));
            if n + 1 == args {
                out.push_str("- the stage's enable\n");
            } else if let Some((regs, pass)) = sent {
                let n = n as usize;
                if let Some(&u) = regs.get(n) {
                    let _ = writeln!(
                        out,
                        "- arrives as register {n} of the previous stage's `regs`, from `{}`",
                        ir.str(ir.uses[u as usize].text())
                    );
                } else if let Some(&u) = pass.get(n - regs.len()) {
                    let _ = writeln!(out, "- arrives as pass-through {} of the previous stage's `pass` (no register), from `{}`", n - regs.len(), ir.str(ir.uses[u as usize].text()));
                }
            }
        }
    }
    for &u in ir.value_uses(&ir.values[value as usize]) {
        let use_ = &ir.uses[u as usize];
        let op = &ir.ops[use_.op as usize];
        let used_stage = op
            .block
            .and_then(|b| pipeline_block(ir, b))
            .filter(|(p, _)| *p == pipeline)
            .and_then(|(_, b)| stages.stage(b));
        let Some(used_stage) = used_stage else { continue };
        let line = match (&use_.container, OpKind::of(op)) {
            (Container::Keyword(k), Some(OpKind::PipelineStage)) if ir.str(*k) == "regs" => {
                format!(
                    "crosses into {} as a register (`regs`)",
                    stage_name(ir, &stages, used_stage + 1)
                )
            }
            (Container::Keyword(k), Some(OpKind::PipelineStage)) if ir.str(*k) == "pass" => {
                format!(
                    "crosses into {} as a pass-through (`pass`, no register)",
                    stage_name(ir, &stages, used_stage + 1)
                )
            }
            (_, Some(OpKind::PipelineSrc)) => {
                format!("read in {} through `{}`", stage_name(ir, &stages, used_stage), op.name)
            }
            _ if used_stage == stage => {
                format!("used in the stage that defines it, by `{}`", op.name)
            }
            _ => format!(
                "used directly in {}, by `{}`",
                stage_name(ir, &stages, used_stage),
                op.name
            ),
        };
        let line = format!("- {line}\n");
        if !out.contains(&line) {
            out.push_str(&line);
        }
    }
    out
}

/// The operands a `pipeline.stage` sends: those of `regs(...)`, then those of `pass(...)`.
fn sent_values(ir: &Item, stage: OpId) -> (Vec<ir::UseId>, Vec<ir::UseId>) {
    let in_group = |keyword: &str| -> Vec<ir::UseId> {
        ir.operands(&ir.ops[stage as usize])
            .iter()
            .copied()
            .filter(|&u| matches!(&ir.uses[u as usize].container, Container::Keyword(k) if ir.str(*k) == keyword))
            .collect()
    };
    (in_group("regs"), in_group("pass"))
}
