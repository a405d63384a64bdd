//! The grammar's input: the grammar tokens, read by chumsky one at a time, plus one step that
//! moves the cursor over many at once.
//!
//! Two parsers put tokens in the tree without going through chumsky: the hand-written
//! statement path (`simple`) and the splicing of a function parsed ahead on another thread.
//! Afterwards chumsky's cursor must be moved past those tokens. Token by token that cost a call
//! per token (a 10 MB file has over two million); `pass_over` does it in one.
//!
//! chumsky offers no way to set a cursor, so the input carries a shared `jump` cell: while it
//! holds a position, reading the next token reads the one at that position instead. It is set
//! only for the one read `pass_over` makes and is zero (no effect) at all other times.

// Implementing chumsky's `Input` means implementing its `unsafe fn`s (their contract is that
// cursors come from the same input). Their bodies are safe code: no `unsafe` block.
#![allow(unsafe_code)]

use std::cell::Cell;
use std::ops::Range;

use chumsky::input::{Input, InputRef, ValueInput};
use chumsky::span::SimpleSpan;

use super::Ex;
use crate::input::Tok;

#[derive(Clone, Copy)]
pub(crate) struct Toks<'a> {
    toks: &'a [Tok],
    /// While non-zero, the next read is at this index (see the module documentation).
    jump: &'a Cell<usize>,
}

impl<'a> Toks<'a> {
    pub(crate) fn new(toks: &'a [Tok], jump: &'a Cell<usize>) -> Self {
        Toks { toks, jump }
    }

    /// The token at the cursor, or at `jump` if that is set, and the cursor moved past it.
    #[inline(always)]
    fn read(&self, cursor: &mut usize) -> Option<Tok> {
        // `jump` is zero or ahead of the cursor, so `max` picks the position to read.
        let at = (*cursor).max(self.jump.get());
        let tok = *self.toks.get(at)?;
        *cursor = at + 1;
        Some(tok)
    }
}

impl<'a> Input<'a> for Toks<'a> {
    type Cursor = usize;
    type Span = SimpleSpan<usize>;
    type Token = Tok;
    type MaybeToken = Tok;
    type Cache = Self;

    #[inline]
    fn begin(self) -> (usize, Self) {
        (0, self)
    }

    #[inline]
    fn cursor_location(cursor: &usize) -> usize {
        *cursor
    }

    #[inline(always)]
    unsafe fn next_maybe(this: &mut Self, cursor: &mut usize) -> Option<Tok> {
        this.read(cursor)
    }

    #[inline(always)]
    unsafe fn span(_: &mut Self, range: Range<&usize>) -> SimpleSpan<usize> {
        (*range.start..*range.end).into()
    }
}

impl<'a> ValueInput<'a> for Toks<'a> {
    #[inline(always)]
    unsafe fn next(this: &mut Self, cursor: &mut usize) -> Option<Tok> {
        this.read(cursor)
    }
}

/// Moves the cursor past the next `count` tokens, which the caller has put in the tree itself.
/// They must exist.
pub(super) fn pass_over<'a>(inp: &mut InputRef<'a, '_, Toks<'a>, Ex<'a>>, count: u32) {
    if count == 0 {
        return;
    }
    let here = super::position(inp) as usize;
    let state = inp.state();
    state.skipping = true;
    let jump = state.jump;
    jump.set(here + count as usize - 1);
    inp.skip();
    jump.set(0);
    inp.state().skipping = false;
}
