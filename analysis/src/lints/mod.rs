//! Dataflow lints of one `handshake.func`: buffers (HS20xx), cycles (HS202x), loop control
//! (HS30xx), memory ordering (HS302x) and Dynamatic's memory interfaces' end control (HS3029).
//!
//! They run after the type checks of the same item, on its dataflow graph and the value types
//! the checks inferred, and report into the same list.

mod buffers;
mod ctrl_end;
mod cycles;
mod loops;
mod memory;

use crate::dataflow::{self, BufferInfo, FuncGraph};
use crate::ir::Item;
use crate::ops::{Era, OpKind};
use crate::signatures::Style;
use crate::types::Type;
use crate::Diagnostic;
use crate::ValueTypes;

pub use buffers::{buffer_hover, BufferHover, Signal};

/// What every lint reads.
pub(crate) struct Context<'a> {
    pub item: &'a Item,
    /// The item's text; ranges in `item` index it.
    pub text: &'a str,
    /// Each value's type: written, or inferred by the type checks.
    pub types: &'a ValueTypes,
    pub style: Style,
    /// The syntax era the function is written in.
    pub era: Era,
    pub graph: FuncGraph,
    /// `BufferInfo` of every op that is a buffer, by `OpId`.
    pub buffers: Vec<Option<BufferInfo>>,
    /// The kinds of op the function's body has, so that a lint skips a function without the
    /// ops it judges.
    pub kinds: Kinds,
}

/// A set of op kinds: one bit per `OpKind`.
pub(crate) struct Kinds(Vec<u64>);

impl Kinds {
    /// The kinds of the ops of `item`'s body (op 0, the function, left out).
    fn of(item: &Item) -> Kinds {
        let mut bits = vec![0u64; crate::ops::OPS.len().div_ceil(64)];
        for kind in item.ops.iter().skip(1).filter_map(OpKind::of) {
            bits[kind as usize / 64] |= 1 << (kind as usize % 64);
        }
        Kinds(bits)
    }

    pub fn has(&self, kind: OpKind) -> bool {
        (self.0[kind as usize / 64] >> (kind as usize % 64)) & 1 == 1
    }

    /// Whether some kind of the set is one `pred` admits.
    pub fn any(&self, pred: impl Fn(OpKind) -> bool) -> bool {
        // Only the kinds present are asked about: bit `i` stands for `OPS[i]`.
        self.0.iter().enumerate().any(|(word, &bits)| {
            let mut rest = bits;
            while rest != 0 {
                if pred(crate::ops::OPS[word * 64 + rest.trailing_zeros() as usize].kind) {
                    return true;
                }
                rest &= rest - 1;
            }
            false
        })
    }
}

impl Context<'_> {
    /// Whether buffers were placed in the function: some buffer registers data and valid and
    /// is not there to hold an initial token (`initValues`, `init`), which belongs to what the
    /// program computes rather than to its placement. Lints that judge placement (cycles, LSQ
    /// slots) wait for it: before placement every loop is open and every access unbuffered.
    pub fn placed(&self) -> bool {
        self.buffers.iter().flatten().any(|b| {
            let op = &self.item.ops[b.op as usize];
            b.breaks_dv()
                && OpKind::of(op).is_some_and(OpKind::is_buffer)
                && self.item.attr(op, "initValues").is_none()
        })
    }

    /// The type of `value`, if known.
    pub fn ty(&self, value: crate::ir::ValueId) -> Option<&Type> {
        self.types.get(value)
    }
}

/// Runs every dataflow lint on a `handshake.func` item, given what its type checks learnt
/// (`check_types`).
pub fn lint(item: &Item, text: &str, typed: &crate::Typed, acc: &mut Vec<Diagnostic>) {
    run(item, text, &typed.types, typed.era, acc);
}

/// Runs every dataflow lint on a `handshake.func` item.
pub(crate) fn run(
    item: &Item,
    text: &str,
    types: &ValueTypes,
    era: Era,
    acc: &mut Vec<Diagnostic>,
) {
    let cx = Context {
        item,
        text,
        types,
        style: era.style(),
        era,
        graph: FuncGraph::build(item),
        buffers: dataflow::buffers(item),
        kinds: Kinds::of(item),
    };
    buffers::check(&cx, acc);
    cycles::check(&cx, acc);
    loops::check(&cx, acc);
    memory::check(&cx, acc);
    ctrl_end::check(&cx, acc);
}
