//! From a channel's MILP result (which paths it breaks, how many slots) to buffer types, exactly
//! as seed 000 maps them.

use hsir_analysis::dataflow::BufferType;

use super::formulation::Algorithm;

/// One buffer op of a chain: its type and slots. The chain is listed producer side first.
pub type Chain = Vec<(BufferType, u32)>;

/// FPGA20: breaking D/V → `ONE_SLOT_BREAK_DV` + (n − 1) × `FIFO_BREAK_NONE`; breaking nothing →
/// n × `FIFO_BREAK_NONE`. `extra_r` is the `ONE_SLOT_BREAK_R` FPGA20 adds after a merge-like op
/// whose output is on a cycle; it comes last.
pub fn fpga20(breaks_dv: bool, slots: u32, extra_r: bool) -> Chain {
    let mut chain = Vec::new();
    if breaks_dv {
        chain.push((BufferType::OneSlotBreakDv, 1));
        push_none(&mut chain, slots.saturating_sub(1));
    } else {
        push_none(&mut chain, slots);
    }
    if extra_r {
        chain.push((BufferType::OneSlotBreakR, 1));
    }
    chain
}

/// FPL22: D/V and R with one slot → `ONE_SLOT_BREAK_DVR`; with n > 1 → `ONE_SLOT_BREAK_DV` +
/// (n − 2) × `FIFO_BREAK_NONE` + `ONE_SLOT_BREAK_R`; only D/V → `ONE_SLOT_BREAK_DV` + (n − 1) ×
/// `FIFO_BREAK_NONE`; only R → `ONE_SLOT_BREAK_R` + (n − 1) × `FIFO_BREAK_NONE`; nothing → n ×
/// `FIFO_BREAK_NONE`. (A break needs a slot: `slots` is raised to 1 when a path is broken.)
pub fn fpl22(breaks_dv: bool, breaks_r: bool, slots: u32) -> Chain {
    let slots = if breaks_dv || breaks_r { slots.max(1) } else { slots };
    let mut chain = Vec::new();
    match (breaks_dv, breaks_r) {
        (true, true) if slots == 1 => chain.push((BufferType::OneSlotBreakDvr, 1)),
        (true, true) => {
            chain.push((BufferType::OneSlotBreakDv, 1));
            push_none(&mut chain, slots - 2);
            chain.push((BufferType::OneSlotBreakR, 1));
        }
        (true, false) => {
            chain.push((BufferType::OneSlotBreakDv, 1));
            push_none(&mut chain, slots - 1);
        }
        (false, true) => {
            chain.push((BufferType::OneSlotBreakR, 1));
            push_none(&mut chain, slots - 1);
        }
        (false, false) => push_none(&mut chain, slots),
    }
    chain
}

/// `FIFO_BREAK_NONE` holds several slots in one module (seed 000: the last three types need not
/// be chained), so n transparent slots are one op with n slots.
fn push_none(chain: &mut Chain, slots: u32) {
    if slots > 0 {
        chain.push((BufferType::FifoBreakNone, slots));
    }
}

pub fn map(
    algorithm: Algorithm,
    breaks_dv: bool,
    breaks_r: bool,
    slots: u32,
    extra_r: bool,
) -> Chain {
    match algorithm {
        Algorithm::Fpga20 => fpga20(breaks_dv, slots.max(breaks_dv as u32), extra_r),
        Algorithm::Fpl22 => fpl22(breaks_dv, breaks_r, slots),
    }
}
