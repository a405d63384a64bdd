//! Dataflow lints of one `handshake.func`: buffers (HS20xx), cycles (HS202x), loop control
//! (HS30xx) and memory ordering (HS302x).
//!
//! They run after the type checks of the same item, on its dataflow graph and the value types
//! the checks inferred, and report into the same list.

mod buffers;
mod cycles;
mod loops;
mod memory;

use crate::dataflow::{self, BufferInfo, FuncGraph};
use crate::ir::Item;
use crate::signatures::Style;
use crate::types::Type;
use crate::Diagnostic;

pub use buffers::{buffer_hover, BufferHover, Signal};

/// What every lint reads.
pub(crate) struct Context<'a> {
    pub item: &'a Item,
    /// The item's text; ranges in `item` index it.
    pub text: &'a str,
    /// Each value's type: written, or inferred by the type checks.
    pub types: &'a [Option<Type>],
    pub style: Style,
    pub graph: FuncGraph,
    /// `BufferInfo` of every op that is a buffer, by `OpId`.
    pub buffers: Vec<Option<BufferInfo>>,
}

impl Context<'_> {
    /// The type of `value`, if known.
    pub fn ty(&self, value: crate::ir::ValueId) -> Option<&Type> {
        self.types.get(value as usize).and_then(|t| t.as_ref())
    }
}

/// Runs every dataflow lint on a `handshake.func` item.
pub(crate) fn run(
    item: &Item,
    text: &str,
    types: &[Option<Type>],
    style: Style,
    acc: &mut Vec<Diagnostic>,
) {
    let cx = Context {
        item,
        text,
        types,
        style,
        graph: FuncGraph::build(item),
        buffers: dataflow::buffers(item),
    };
    buffers::check(&cx, acc);
    cycles::check(&cx, acc);
    loops::check(&cx, acc);
    memory::check(&cx, acc);
}
