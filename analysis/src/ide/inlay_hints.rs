//! Inlay hints: result types the printed form leaves out, buffer latencies on buffered
//! channels, and the stage index of each block of a scheduled pipeline.
//!
//! Custom assembly often writes only the operand type (`%0:3 = fork [3] %x : i32` types three
//! results with one word), so after a result group whose types are not written on its line the
//! hint gives them (`: i32 ×3`). A result whose one written type is its own type gets none: the
//! line already says it. After a buffer's result the hint gives its D/V/R latencies and, on a
//! chain of buffers, the latencies accumulated from the first buffer of the chain.

use hsir_parser::{TextRange, TextSize};

use crate::dataflow::{self, Timing};
use crate::db::{Analysis, FileId, ItemView};
use crate::ide::hover::{short_timing, Stages};
use crate::ir::{Item, OpId, ResultGroup, TypeEntry};
use crate::ops::OpKind;
use crate::signatures;
use crate::types::Type;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: TextSize,
    pub label: String,
    pub kind: InlayKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InlayKind {
    Type,
    Latency,
    Stage,
}

/// The hints of `file` whose offset lies in `range` (ends included), by offset.
pub fn inlay_hints(analysis: &Analysis<'_>, file: FileId, range: TextRange) -> Vec<InlayHint> {
    let mut out = Vec::new();
    for item in analysis.items_in(file, range) {
        type_hints(&item, &mut out);
        latency_hints(&item, &mut out);
        stage_hints(&item, &mut out);
    }
    out.retain(|h| range.contains_inclusive(h.offset));
    out.sort_by(|a, b| (a.offset, a.kind, &a.label).cmp(&(b.offset, b.kind, &b.label)));
    out
}

/// Where a hint after a result group goes: after `%0`, or after `%0:3` when the count is written.
fn after_group(item: &ItemView<'_>, group: &ResultGroup) -> TextSize {
    let end = usize::from(group.range.end());
    let mut at = end;
    if group.explicit_count {
        let rest = item.text.get(end..).unwrap_or("");
        if let Some(digits) = rest.strip_prefix(':') {
            at += 1 + digits.bytes().take_while(u8::is_ascii_digit).count();
        }
    }
    item.start + TextSize::from(at as u32)
}

fn type_hints(item: &ItemView<'_>, out: &mut Vec<InlayHint>) {
    // Only a `handshake.func` has its values typed by the checks.
    if item.typed.is_none() {
        return;
    }
    let ir = &item.lowered.item;
    for op in ir.ops.iter().skip(1) {
        if op.generic || op.results.is_empty() || !op.types_after.is_empty() {
            continue;
        }
        if ir.types(op).iter().any(|e| matches!(e, TypeEntry::Function(..))) {
            continue;
        }
        let written = signatures::flat_types(ir, ir.types(op));
        let mut next = 0;
        for group in ir.result_groups(op) {
            let values = ir.results(op).get(next..next + group.count as usize).unwrap_or(&[]);
            next += group.count as usize;
            let types: Option<Vec<&Type>> = values.iter().map(|&v| item.type_of(v)).collect();
            let Some(types) = types.filter(|t| !t.is_empty()) else { continue };
            if op.results.len() == 1 && written.last() == types.first() {
                continue;
            }
            let label = if types.iter().all(|t| *t == types[0]) {
                if types.len() == 1 {
                    format!(": {}", types[0])
                } else {
                    format!(": {} ×{}", types[0], types.len())
                }
            } else {
                let list: Vec<String> = types.iter().map(|t| t.to_string()).collect();
                format!(": ({})", list.join(", "))
            };
            out.push(InlayHint { offset: after_group(item, group), label, kind: InlayKind::Type });
        }
    }
}

fn latency_hints(item: &ItemView<'_>, out: &mut Vec<InlayHint>) {
    let ir = &item.lowered.item;
    let buffers = dataflow::buffers(ir);
    for (op, info) in buffers.iter().enumerate() {
        let Some(info) = info else { continue };
        let data = &ir.ops[op];
        let Some(group) = ir.result_groups(data).first() else { continue };
        let own = info.latency();
        let mut label = short_timing(own);
        let upstream = upstream_latency(ir, &buffers, op as OpId);
        if let Some(upstream) = upstream {
            label.push_str(&format!(" (Σ {})", short_timing(upstream + own)));
        }
        out.push(InlayHint { offset: after_group(item, group), label, kind: InlayKind::Latency });
    }
}

/// The latencies of the buffers before `op` on its channel, when there are any.
fn upstream_latency(
    ir: &Item,
    buffers: &[Option<dataflow::BufferInfo>],
    op: OpId,
) -> Option<Timing> {
    if !dataflow::is_channel_buffer(ir, buffers, op) {
        return None;
    }
    let input = ir.uses[*ir.operands(&ir.ops[op as usize]).first()? as usize].value?;
    let (crossed, _) = dataflow::upstream_buffers(ir, buffers, input);
    // A ring of buffers comes back to `op`: count each buffer once.
    let crossed: Vec<OpId> = crossed.into_iter().take_while(|&b| b != op).collect();
    if crossed.is_empty() {
        return None;
    }
    Some(
        crossed
            .iter()
            .filter_map(|&b| buffers[b as usize].as_ref())
            .fold(Timing::default(), |sum, b| sum + b.latency()),
    )
}

fn stage_hints(item: &ItemView<'_>, out: &mut Vec<InlayHint>) {
    let ir = &item.lowered.item;
    for (op, data) in ir.ops.iter().enumerate() {
        if OpKind::of(data) != Some(OpKind::PipelineScheduled) {
            continue;
        }
        let Some(stages) = Stages::of(item, op as OpId) else { continue };
        for (index, &block) in stages.order.iter().enumerate() {
            let block = &ir.blocks[block as usize];
            let at = match block.label {
                Some(label) => label.range().start(),
                None => match block.ops.first() {
                    Some(&first) => ir.ops[first as usize].range.start(),
                    None => continue,
                },
            };
            out.push(InlayHint {
                offset: item.start + at,
                label: format!("stage {index}"),
                kind: InlayKind::Stage,
            });
        }
    }
}
