//! Buffer checks (HS2001-HS2009) and the hover data of buffers.
//!
//! Every rule reads `dataflow::BufferInfo`, so it holds in each of the three buffer syntaxes
//! that can state what it checks: type names and slot counts in `hw.parameters` and the inline
//! form, `TIMING` in `hw.parameters`, `dvLatency` in the inline form. CIRCT's
//! `buffer [N] seq|fifo` states its kind and slots in its own syntax, checked by HS1207; it
//! shares the channel rules and the hover. The latencies are seed 000's table
//! (`BufferType::timing`); the `dvLatency` rules are Dynamatic's `BufferOp::verify`.

use super::Context;
use crate::dataflow::{self, BufferInfo, BufferKind, BufferSyntax, BufferType, Timing};
use crate::ir::{Container, Def, Item, OpData, OpId, TypeEntry, UseId, ValueId};
use crate::ops::OpKind;
use crate::signatures::Style;
use crate::types::Type;
use crate::{Diagnostic, DiagnosticCode as Code, Fix, TextEdit};
use hsir_parser::{TextRange, TextSize};

/// One of the three handshake signals of a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Signal {
    Data,
    Valid,
    Ready,
}

impl Signal {
    pub const ALL: [Signal; 3] = [Signal::Data, Signal::Valid, Signal::Ready];

    pub fn name(self) -> &'static str {
        match self {
            Signal::Data => "data",
            Signal::Valid => "valid",
            Signal::Ready => "ready",
        }
    }

    /// The latency of this signal in `timing`.
    pub fn of(self, timing: Timing) -> u32 {
        match self {
            Signal::Data => timing.d,
            Signal::Valid => timing.v,
            Signal::Ready => timing.r,
        }
    }
}

/// Everything a hover over a buffer shows, as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BufferHover {
    pub info: BufferInfo,
    /// The type as hsir reads it (`BufferKind::name`): one of the six, `seq` / `fifo`, or an
    /// unknown name as written.
    pub type_name: Option<String>,
    /// The legacy name of the type (seed 000's table), whichever name was written.
    pub legacy_name: Option<&'static str>,
    /// The slot count, when written as a positive integer.
    pub slots: Option<u32>,
    /// The latencies of this buffer.
    pub latency: Timing,
    /// The signals this buffer registers (latency above 0), in D, V, R order.
    pub breaks: Vec<Signal>,
    /// The signals that pass through combinationally.
    pub bypasses: Vec<Signal>,
    /// The buffers of the channel this buffer is on, in channel order, this one included: from
    /// the first producer that is not a buffer to the first consumer that is not one.
    pub channel_buffers: Vec<OpId>,
    /// The latencies of `channel_buffers`, summed.
    pub channel_latency: Timing,
}

/// The hover data of the buffer op `op`, if it is one (or an op configured like one, such as
/// Dynamatic's `init`).
pub fn buffer_hover(item: &Item, op: OpId) -> Option<BufferHover> {
    let data = item.ops.get(op as usize)?;
    let info = dataflow::buffer_info(item, data, op)?;
    let buffers = dataflow::buffers(item);
    let channel_buffers = chain(item, &buffers, op);
    let channel_latency = channel_buffers
        .iter()
        .filter_map(|&b| buffers[b as usize].as_ref())
        .fold(Timing::default(), |sum, b| sum + b.latency());
    let latency = info.latency();
    let (breaks, bypasses) = Signal::ALL.into_iter().partition(|s| s.of(latency) > 0);
    Some(BufferHover {
        type_name: info.kind.name().map(str::to_string),
        legacy_name: info.buffer_type().and_then(BufferType::legacy_name),
        slots: info.slot_count(),
        latency,
        breaks,
        bypasses,
        channel_buffers,
        channel_latency,
        info,
    })
}

/// The buffers of the channel through `op`, in channel order, `op` included.
fn chain(item: &Item, buffers: &[Option<BufferInfo>], op: OpId) -> Vec<OpId> {
    let data = &item.ops[op as usize];
    let mut out = match item.operands(data).first().and_then(|&u| item.uses[u as usize].value) {
        Some(input) => dataflow::upstream_buffers(item, buffers, input).0,
        None => Vec::new(),
    };
    // A ring of buffers comes back to `op`, walking either way: each stops there.
    if let Some(ring) = out.iter().position(|&b| b == op) {
        out.truncate(ring);
    }
    out.reverse();
    out.push(op);
    if let Some(&result) = item.results(data).first() {
        for b in dataflow::channel_buffers(item, buffers, result).0 {
            if out.contains(&b) {
                break;
            }
            out.push(b);
        }
    }
    out
}

pub(crate) fn check(cx: &Context<'_>, acc: &mut Vec<Diagnostic>) {
    if cx.buffers.iter().all(Option::is_none) {
        return;
    }
    let ports = if cx.kinds.any(|k| k.is_interface() || k.is_memory()) {
        MemoryPorts::new(cx.item, cx.style)
    } else {
        MemoryPorts::default()
    };
    for info in cx.buffers.iter().flatten() {
        if cx.item.ops[info.op as usize].broken {
            continue;
        }
        type_name(cx, info, acc);
        slots(cx, info, acc);
        timing(cx, info, acc);
        dv_latency(cx, info, acc);
        if dataflow::is_channel_buffer(cx.item, &cx.buffers, info.op) {
            unbufferizable(cx, info, &ports, acc);
        }
    }
    lsq_accesses(cx, acc);
}

// ---- type names (HS2001, HS2002) ----------------------------------------------------------

fn type_name(cx: &Context<'_>, info: &BufferInfo, acc: &mut Vec<Diagnostic>) {
    let Some(entry) = info.kind_range else { return };
    match &info.kind {
        BufferKind::Legacy(t, written) => {
            let range = name_range(cx.text, entry, written);
            let mut d = Diagnostic::new(
                Code::LegacyBufferType,
                range,
                format!("`{written}` is the legacy name of `{}`", t.name()),
            );
            d.fixes.push(rename(range, t.name()));
            acc.push(d);
        }
        BufferKind::Unknown(written) => {
            let range = name_range(cx.text, entry, written);
            let d = match closest_type(written) {
                Some(t) => {
                    let mut d = Diagnostic::new(
                        Code::UnknownBufferType,
                        range,
                        format!("unknown buffer type `{written}`; did you mean `{}`?", t.name()),
                    );
                    d.fixes.push(rename(range, t.name()));
                    d
                }
                None => Diagnostic::new(
                    Code::UnknownBufferType,
                    range,
                    format!("unknown buffer type `{written}`; the types are {}", type_list()),
                ),
            };
            acc.push(d);
        }
        _ => {}
    }
}

fn rename(range: TextRange, to: &str) -> Fix {
    Fix {
        label: format!("Rename to `{to}`"),
        edits: vec![TextEdit { range, new_text: to.to_string() }],
    }
}

/// `ONE_SLOT_BREAK_DV`, ... and `SHIFT_REG_BREAK_DV`.
fn type_list() -> String {
    let names: Vec<String> = BufferType::ALL.iter().map(|t| format!("`{}`", t.name())).collect();
    let (last, rest) = names.split_last().expect("six types");
    format!("{} and {last}", rest.join(", "))
}

/// The type whose name or legacy name is nearest to `name`, case aside, if it is near enough
/// to be a slip rather than another name.
fn closest_type(name: &str) -> Option<BufferType> {
    let name = name.to_ascii_uppercase();
    let near_enough = (name.len() / 3).max(2);
    BufferType::ALL
        .into_iter()
        .flat_map(|t| std::iter::once((t, t.name())).chain(t.legacy_name().map(|l| (t, l))))
        .map(|(t, candidate)| (strsim::levenshtein(&name, &candidate.to_ascii_uppercase()), t))
        .filter(|&(distance, _)| distance <= near_enough)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, t)| t)
}

// ---- slots (HS2003, HS2004) ----------------------------------------------------------------

fn slots(cx: &Context<'_>, info: &BufferInfo, acc: &mut Vec<Diagnostic>) {
    // CIRCT's `buffer [N]` is HS1207's.
    if info.syntax == BufferSyntax::Circt {
        return;
    }
    let Some(slots) = &info.slots else { return };
    let key = match info.syntax {
        BufferSyntax::HwParameters => "NUM_SLOTS",
        _ => "numSlots",
    };
    let value = entry_scalar(cx.text, slots.range);
    match &slots.value {
        Ok(n) if *n > 0 => {
            let Some(t) = info.buffer_type().filter(|t| t.one_slot()) else { return };
            if *n == 1 {
                return;
            }
            let mut d = Diagnostic::new(
                Code::OneSlotBufferSlots,
                value.unwrap_or(slots.range),
                format!(
                    "a `{}` buffer holds exactly one slot, not {n}; chain one-slot buffers, or use a FIFO or shift register, for more",
                    t.name()
                ),
            );
            if let Some(range) = value {
                d.fixes.push(Fix {
                    label: format!("Set `{key}` to 1"),
                    edits: vec![TextEdit { range, new_text: "1".to_string() }],
                });
            }
            acc.push(d);
        }
        Ok(n) => acc.push(Diagnostic::new(
            Code::BufferSlotCount,
            value.unwrap_or(slots.range),
            format!("`{key}` is {n}; a buffer holds at least one slot"),
        )),
        Err(text) => acc.push(Diagnostic::new(
            Code::BufferSlotCount,
            value.unwrap_or(slots.range),
            format!("`{key}` is `{text}`, not a whole number of slots"),
        )),
    }
}

// ---- TIMING and dvLatency (HS2005-HS2007) --------------------------------------------------

fn timing(cx: &Context<'_>, info: &BufferInfo, acc: &mut Vec<Diagnostic>) {
    let Some(timing) = &info.timing else { return };
    if matches!(info.kind, BufferKind::Implied(_)) {
        // The type was read from this TIMING (Dynamatic 2025), so they agree by definition.
        return;
    }
    let value = entry_value(cx.text, timing.range).unwrap_or(timing.range);
    let expected = info.buffer_type();
    let mut d = match &timing.value {
        Err(why) => Diagnostic::new(
            Code::MalformedBufferTiming,
            value,
            format!("malformed `TIMING`: {why}"),
        ),
        Ok(written) => {
            let Some(t) = expected.filter(|t| !written.agrees_with(t.timing())) else { return };
            Diagnostic::new(
                Code::BufferTimingMismatch,
                value,
                format!(
                    "`TIMING` is `{}`, but a `{}` buffer's latencies are {}",
                    &cx.text[value],
                    t.name(),
                    t.timing()
                ),
            )
        }
    };
    if let Some(t) = expected {
        d.fixes.push(Fix {
            label: format!("Set `TIMING` to the latencies of `{}`", t.name()),
            edits: vec![TextEdit {
                range: value,
                new_text: format!("#handshake<timing {{{}}}>", t.timing()),
            }],
        });
    }
    acc.push(d);
}

fn dv_latency(cx: &Context<'_>, info: &BufferInfo, acc: &mut Vec<Diagnostic>) {
    let Some(dv) = &info.dv_latency else { return };
    let Some(t) = info.buffer_type() else { return };
    let expected = match t {
        BufferType::ShiftRegBreakDv => match info.slot_count() {
            Some(slots) => slots as i64,
            None => return,
        },
        t => t.timing().d as i64,
    };
    let written = match &dv.value {
        Ok(n) if *n == expected => return,
        Ok(n) => n.to_string(),
        Err(text) => format!("`{text}`"),
    };
    let rule = match t {
        BufferType::ShiftRegBreakDv => format!("equals its `numSlots`, {expected}"),
        _ => format!("is {expected}"),
    };
    let value = entry_scalar(cx.text, dv.range);
    let mut d = Diagnostic::new(
        Code::DvLatencyMismatch,
        value.unwrap_or(dv.range),
        format!("the `dvLatency` of a `{}` buffer {rule}, not {written}", t.name()),
    );
    if let Some(range) = value {
        d.fixes.push(Fix {
            label: format!("Set `dvLatency` to {expected}"),
            edits: vec![TextEdit { range, new_text: expected.to_string() }],
        });
    }
    acc.push(d);
}

// ---- unbufferizable channels (HS2008) ------------------------------------------------------

/// The ports of the item's memory interfaces (`mem_controller`, `lsq`): channels Dynamatic never
/// buffers (seed 000, "Unbufferizable Channels").
#[derive(Default)]
struct MemoryPorts {
    /// By `ValueId`: the interface the value is a port result of. Empty in a function without
    /// memory interfaces, as is `operands`: most have none.
    results: Vec<Option<OpId>>,
    /// By `UseId`: whether the use is a port operand of its op, a memory interface.
    operands: Vec<bool>,
}

impl MemoryPorts {
    fn new(item: &Item, style: Style) -> MemoryPorts {
        let mut ports = MemoryPorts::default();
        for (id, op) in item.ops.iter().enumerate().skip(1) {
            let Some((operands, results)) = memory_ports(item, op, style) else { continue };
            if ports.results.is_empty() {
                ports.results = vec![None; item.values.len()];
                ports.operands = vec![false; item.uses.len()];
            }
            for u in operands {
                ports.operands[u as usize] = true;
            }
            for v in results {
                ports.results[v as usize] = Some(id as OpId);
            }
        }
        ports
    }

    /// Whether use `u` is a port operand of a memory interface.
    fn is_port_operand(&self, u: UseId) -> bool {
        self.operands.get(u as usize).copied().unwrap_or(false)
    }

    /// The memory interface value `v` is a port result of.
    fn interface_of(&self, v: ValueId) -> Option<OpId> {
        self.results.get(v as usize).copied().flatten()
    }
}

/// The operands and results of a memory interface that are its ports, by its syntax:
///
/// - `mem_controller [%m] %memStart (ports...) %ctrlEnd`: the parenthesised operands; the
///   results its function type lists (load data), not the trailing `memEnd`;
/// - `lsq [%m] (%memStart, ports..., %ctrlEnd)`: the parenthesised operands but the first and
///   the last; every result but the trailing `memEnd`. `lsq [MC] (ports...)`, an LSQ behind a
///   memory controller, has nothing else;
///
/// - `memory [ld, st] (ports...)` and `extmemory [ld, st] (%m) (ports...)`: every operand but
///   the memref, and every result; in Dynamatic-style functions only.
///
/// The start and end tokens are not ports: Dynamatic buffers them like any channel. In
/// CIRCT-style functions `memory` and `extmemory` follow CIRCT's rule instead: its
/// `handshake-insert-buffers` buffers their ports like any other channel.
fn memory_ports(item: &Item, op: &OpData, style: Style) -> Option<(Vec<UseId>, Vec<ValueId>)> {
    let kind = OpKind::of(op)?;
    if !kind.is_interface() && !kind.is_memory() {
        return None;
    }
    let container = |u: UseId| &item.uses[u as usize].container;
    let paren: Vec<UseId> =
        item.operands(op).iter().copied().filter(|&u| *container(u) == Container::Paren).collect();
    let all_but_last = |v: &[ValueId]| v[..v.len().saturating_sub(1)].to_vec();
    match kind {
        OpKind::MemController => {
            let listed = item.types(op).iter().find_map(|e| match e {
                TypeEntry::Function(_, results, _) => Some(results.len()),
                _ => None,
            });
            let results = match listed {
                Some(n) => item.results(op)[..n.min(item.results(op).len())].to_vec(),
                None => all_but_last(item.results(op)),
            };
            Some((paren, results))
        }
        OpKind::Lsq if item.operands(op).iter().any(|&u| *container(u) == Container::Bracket) => {
            Some((all_but_last(paren.get(1..).unwrap_or_default()), all_but_last(item.results(op))))
        }
        OpKind::Lsq => Some((paren, item.results(op).to_vec())),
        OpKind::Memory if style == Style::Dynamatic => {
            Some((item.operands(op).to_vec(), item.results(op).to_vec()))
        }
        OpKind::ExtMemory if style == Style::Dynamatic => Some((
            item.operands(op).get(1..).unwrap_or_default().to_vec(),
            item.results(op).to_vec(),
        )),
        _ => None,
    }
}

fn is_memref(ty: &Type) -> bool {
    matches!(ty, Type::MemRef { .. })
}

fn unbufferizable(
    cx: &Context<'_>,
    info: &BufferInfo,
    ports: &MemoryPorts,
    acc: &mut Vec<Diagnostic>,
) {
    let item = cx.item;
    let op = &item.ops[info.op as usize];
    let Some(input) = item.uses[cx.item.operands(op)[0] as usize].value else { return };
    let source = dataflow::upstream_buffers(item, &cx.buffers, input).1;
    let (_, consumer) = dataflow::channel_buffers(item, &cx.buffers, cx.item.results(op)[0]);
    let port_operand = consumer
        .filter(|&(c, i)| ports.is_port_operand(item.operands(&item.ops[c as usize])[i as usize]));
    let memref = cx.ty(source).is_some_and(is_memref);
    if !memref && ports.interface_of(source).is_none() && port_operand.is_none() {
        return;
    }
    let name = item.values[source as usize].display(cx.item, crate::ir::group_len(item, source));
    let mut d = if memref {
        Diagnostic::new(
            Code::UnbufferizableChannel,
            op.name_range,
            format!("buffer on memref `{name}`: a memref is not a channel, and is never buffered"),
        )
        .with_related(item.values[source as usize].range, format!("`{name}` is a memref"))
    } else if let Some(interface) = ports.interface_of(source) {
        let interface = &item.ops[interface as usize];
        Diagnostic::new(
            Code::UnbufferizableChannel,
            op.name_range,
            format!(
                "buffer on `{name}`, a port of `{}`: the channels of a memory interface's ports are never buffered",
                interface.short_name()
            ),
        )
        .with_related(interface.name_range, format!("the `{}` whose port it is", interface.short_name()))
    } else if let Some((consumer, operand)) = port_operand {
        let interface = &item.ops[consumer as usize];
        let use_ = &item.uses[cx.item.operands(interface)[operand as usize] as usize];
        Diagnostic::new(
            Code::UnbufferizableChannel,
            op.name_range,
            format!(
                "buffer on `{name}`, which feeds a port of `{}`: the channels of a memory interface's ports are never buffered",
                interface.short_name()
            ),
        )
        .with_related(use_.range, format!("port of `{}`", interface.short_name()))
    } else {
        return;
    };
    if let Some(fix) = remove_buffer(cx, op) {
        d.fixes.push(fix);
    }
    acc.push(d);
}

/// Deletes a buffer's line and reconnects its consumers to its input, when the buffer is alone
/// on its line.
fn remove_buffer(cx: &Context<'_>, op: &OpData) -> Option<Fix> {
    let text = cx.text;
    let (start, end) = (usize::from(op.range.start()), usize::from(op.range.end()));
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    if !text[line_start..start].trim().is_empty() || !text[end..line_end].trim().is_empty() {
        return None;
    }
    let input = cx.item.str(cx.item.uses[cx.item.operands(op)[0] as usize].text());
    let mut edits = vec![TextEdit {
        range: TextRange::new(TextSize::from(line_start as u32), TextSize::from(line_end as u32)),
        new_text: String::new(),
    }];
    for &u in cx.item.value_uses(&cx.item.values[cx.item.results(op)[0] as usize]) {
        edits.push(TextEdit { range: cx.item.uses[u as usize].range, new_text: input.to_string() });
    }
    Some(Fix { label: "Remove the buffer".to_string(), edits })
}

// ---- buffering before LSQ accesses (HS2009) -----------------------------------------------

/// A load or store attached to an LSQ needs a buffer slot on its inputs (seed 000, "Buffering
/// before LSQ Memory Ops"); Dynamatic's placement asks for one on every input an op produces,
/// except a load's data from memory and a load's constant address.
///
/// Only functions that hold a buffer are checked: before buffer placement no channel has one,
/// and placement adds these slots with the rest.
fn lsq_accesses(cx: &Context<'_>, acc: &mut Vec<Diagnostic>) {
    let item = cx.item;
    if !cx.kinds.has(OpKind::Load) && !cx.kinds.has(OpKind::Store) {
        return;
    }
    // A requirement on placement: before it, every access is unbuffered.
    if !cx.placed() {
        return;
    }
    for op in item.ops.iter().skip(1) {
        let kind = OpKind::of(op);
        if !matches!(kind, Some(OpKind::Load | OpKind::Store)) || op.broken {
            continue;
        }
        let name = op.short_name();
        let Some(lsq) = cx.item.results(op).iter().find_map(|&r| {
            let (_, consumer) = dataflow::channel_buffers(item, &cx.buffers, r);
            consumer
                .map(|(c, _)| c)
                .filter(|&c| OpKind::of(&item.ops[c as usize]) == Some(OpKind::Lsq))
        }) else {
            continue;
        };
        let unbuffered: Vec<UseId> = cx
            .item
            .operands(op)
            .iter()
            .copied()
            .filter(|&u| {
                let Some(v) = item.uses[u as usize].value else { return false };
                let Def::Result { op: producer, .. } = item.values[v as usize].def else {
                    return false;
                };
                let exempt = kind == Some(OpKind::Load)
                    && matches!(
                        OpKind::of(&item.ops[producer as usize]),
                        Some(OpKind::MemController | OpKind::Lsq | OpKind::Constant)
                    );
                !exempt && !dataflow::is_channel_buffer(item, &cx.buffers, producer)
            })
            .collect();
        if unbuffered.is_empty() {
            continue;
        }
        let inputs: Vec<String> = unbuffered
            .iter()
            .map(|&u| format!("`{}`", item.str(item.uses[u as usize].text())))
            .collect();
        let mut d = Diagnostic::new(
            Code::LsqAccessUnbuffered,
            op.name_range,
            format!(
                "`{name}` attached to an LSQ has no buffer slot on {} {}; its request reaches the LSQ a cycle after the group allocation, and without a slot to wait in, the back pressure raises the II by 1",
                if unbuffered.len() == 1 { "its input" } else { "its inputs" },
                inputs.join(" and "),
            ),
        );
        for &u in &unbuffered {
            d = d.with_related(item.uses[u as usize].range, "no buffer slot on this input");
        }
        d = d.with_related(item.ops[lsq as usize].name_range, "the LSQ");
        acc.push(d);
    }
}

// ---- where things are written ------------------------------------------------------------

/// The range of `name` in the attribute entry at `entry` (`BUFFER_TYPE = "OEHB"`,
/// `bufferType = OEHB`): inside the quotes when quoted, so a rename keeps the quoting.
fn name_range(text: &str, entry: TextRange, name: &str) -> TextRange {
    let written = &text[entry];
    let from = written.find('=').map_or(0, |i| i + 1);
    match written[from..].find(name).filter(|_| !name.is_empty()) {
        Some(at) => {
            let start = entry.start() + TextSize::from((from + at) as u32);
            TextRange::at(start, TextSize::of(name))
        }
        None => entry,
    }
}

/// The range of the value of the attribute entry at `entry`: what follows `=`, trimmed.
fn entry_value(text: &str, entry: TextRange) -> Option<TextRange> {
    let written = &text[entry];
    let from = written.find('=')? + 1;
    let value = written[from..].trim();
    let at = from + (written[from..].len() - written[from..].trim_start().len());
    Some(TextRange::at(entry.start() + TextSize::from(at as u32), TextSize::of(value)))
}

/// The range of an entry's scalar value, without its type: `4` in `NUM_SLOTS = 4 : ui32`.
fn entry_scalar(text: &str, entry: TextRange) -> Option<TextRange> {
    let value = entry_value(text, entry)?;
    let written = &text[value];
    let scalar = written.split(':').next().unwrap_or(written).trim_end();
    Some(TextRange::at(value.start(), TextSize::of(scalar)))
}
