//! Builds the tree from the lexed tokens as the grammar opens and closes nodes.
//!
//! Tokens the grammar never saw (trivia) are attached where they fall: a node starts at its
//! first grammar token, so trivia before it belongs to the parent, and a node ends at its last
//! grammar token, so trivia after it belongs to whatever comes next.

use text_size::{TextRange, TextSize};

use crate::grammar::PendingError;
use crate::input::{Prepared, Tok};
use crate::lexer::split_trivia;
use crate::tree::Entry;
use crate::SyntaxKind::{self, SOURCE_FILE};
use crate::{SyntaxError, SyntaxErrorKind};

/// Builds the tree while the grammar runs. It lives in the grammar's state, so that what an
/// abandoned alternative built is truncated away on rewind (see `TreeMark`).
///
/// Tokens are attached as the grammar consumes them, each with the trivia before it (split from
/// the gap between grammar tokens), so the work of an abandoned alternative is proportional to
/// what it consumed. Nodes open lazily: `start_node` only records the kind, and the node gets its
/// entry when its first token is consumed (or when it closes empty), so the many alternatives
/// that fail on their first token cost a push and a truncate.
pub(crate) struct TreeBuilder<'a> {
    text: &'a [u8],
    toks: &'a [Tok],
    entries: Vec<Entry>,
    /// Open nodes, innermost last; the root is at the bottom.
    stack: Vec<Open>,
    /// Index in `stack` of the first node that has no entry yet; `stack.len()` if none. Such
    /// nodes always form the top of the stack.
    pending_from: u32,
    /// Text before this offset is in the tree.
    attached: u32,
    /// Next grammar token to be consumed.
    pos: u32,
}

#[derive(Debug, Clone, Copy)]
struct Open {
    kind: SyntaxKind,
    /// Index of the node's entry, or `PENDING`.
    entry: u32,
}

const PENDING: u32 = u32::MAX;

/// Where to rewind a `TreeBuilder` to. Nodes are opened and closed in stack order, and no
/// rewind crosses the close of a node that was open when the mark was taken, so lengths are
/// enough to restore it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TreeMark {
    entries: u32,
    stack: u32,
    pending_from: u32,
    attached: u32,
    pos: u32,
}

impl<'a> TreeBuilder<'a> {
    pub(crate) fn new(text: &'a str, toks: &'a [Tok]) -> Self {
        // Trivia makes about as many tokens again, and nodes about two thirds as many.
        let mut entries = Vec::with_capacity(toks.len() * 8 / 3 + 1);
        entries.push(Entry { kind: SOURCE_FILE, start: 0, parent: u32::MAX, subtree_end: 0 });
        let mut stack = Vec::with_capacity(64);
        stack.push(Open { kind: SOURCE_FILE, entry: 0 });
        TreeBuilder {
            text: text.as_bytes(),
            toks,
            entries,
            stack,
            pending_from: 1,
            attached: 0,
            pos: 0,
        }
    }

    pub(crate) fn mark(&self) -> TreeMark {
        TreeMark {
            entries: self.entries.len() as u32,
            stack: self.stack.len() as u32,
            pending_from: self.pending_from,
            attached: self.attached,
            pos: self.pos,
        }
    }

    pub(crate) fn rewind(&mut self, mark: TreeMark) {
        self.entries.truncate(mark.entries as usize);
        self.stack.truncate(mark.stack as usize);
        // Nodes pending at the mark may have got entries since; those entries are gone.
        for open in &mut self.stack[mark.pending_from as usize..] {
            open.entry = PENDING;
        }
        self.pending_from = mark.pending_from;
        self.attached = mark.attached;
        self.pos = mark.pos;
    }

    fn push(&mut self, kind: SyntaxKind, start: u32, parent: u32) {
        let subtree_end = self.entries.len() as u32 + 1;
        self.entries.push(Entry { kind, start, parent, subtree_end });
    }

    /// Attaches the trivia between `attached` and `upto` to the node whose entry is `parent`,
    /// split as the lexer splits it: whitespace runs, and comments up to the end of the line.
    #[inline]
    fn attach_gap(&mut self, upto: u32, parent: u32) {
        if upto <= self.attached {
            return;
        }
        self.attach_trivia(upto, parent);
    }

    fn attach_trivia(&mut self, upto: u32, parent: u32) {
        let entries = &mut self.entries;
        split_trivia(self.text, self.attached, upto, |kind, start| {
            let subtree_end = entries.len() as u32 + 1;
            entries.push(Entry { kind, start, parent, subtree_end });
        });
        self.attached = upto.max(self.attached);
    }

    /// Where the next grammar token starts, or the end of the text.
    fn next_start(&self) -> u32 {
        self.toks.get(self.pos as usize).map_or(self.text.len() as u32, |t| t.start)
    }

    #[inline]
    fn materialize(&mut self) {
        if self.pending_from as usize != self.stack.len() {
            self.materialize_pending();
        }
    }

    /// Gives pending nodes their entries, at the next grammar token; the trivia before it goes
    /// to the parent of the outermost one.
    #[inline(never)]
    fn materialize_pending(&mut self) {
        let from = self.pending_from as usize;
        let start = self.next_start();
        self.attach_gap(start, self.stack[from - 1].entry);
        for i in from..self.stack.len() {
            let parent = self.stack[i - 1].entry;
            self.stack[i].entry = self.entries.len() as u32;
            self.entries.push(Entry { kind: self.stack[i].kind, start, parent, subtree_end: 0 });
        }
        self.pending_from = self.stack.len() as u32;
    }

    /// The grammar consumed its next token: attach it, with the trivia before it, to the
    /// innermost open node.
    #[inline]
    pub(crate) fn consume(&mut self) {
        self.materialize();
        let tok = self.toks[self.pos as usize];
        let parent = self.stack.last().expect("the root is open").entry;
        self.attach_gap(tok.start, parent);
        self.push(tok.tree_kind(self.text), tok.start, parent);
        self.attached = tok.end;
        self.pos += 1;
    }

    /// Opens a node at the next grammar token.
    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.stack.push(Open { kind, entry: PENDING });
    }

    /// Closes the innermost node after the last consumed token; trivia after it is left for
    /// whatever comes next.
    pub(crate) fn finish_node(&mut self) {
        self.materialize();
        let open = self.stack.pop().expect("a node is open");
        self.entries[open.entry as usize].subtree_end = self.entries.len() as u32;
        self.pending_from = self.stack.len() as u32;
    }

    /// The tree's entries, once the grammar is done.
    pub(crate) fn into_entries(mut self) -> Vec<Entry> {
        debug_assert_eq!(self.stack.len(), 1, "every node the grammar opened is closed");
        self.stack.truncate(1);
        // Tokens the grammar did not consume (only after an internal failure) and the final
        // trivia go to the root.
        while (self.pos as usize) < self.toks.len() {
            self.consume();
        }
        self.attach_gap(self.text.len() as u32, 0);
        let total = self.entries.len() as u32;
        self.entries[0].subtree_end = total;
        self.entries
    }
}

/// The text range of grammar tokens `start..end`; empty ranges sit at the end of the previous
/// grammar token, where "expected X" belongs.
fn error_range(text_len: u32, toks: &[Tok], start: u32, end: u32) -> TextRange {
    if end > start {
        let from = toks.get(start as usize).map_or(text_len, |t| t.start);
        let to = toks.get(end as usize - 1).map_or(text_len, |t| t.end);
        TextRange::new(TextSize::from(from), TextSize::from(to.max(from)))
    } else {
        let at =
            if start == 0 { 0 } else { toks.get(start as usize - 1).map_or(text_len, |t| t.end) };
        TextRange::empty(TextSize::from(at))
    }
}

/// The grammar's errors, with text ranges.
pub(crate) fn grammar_errors(
    text_len: u32,
    toks: &[Tok],
    pending: &[PendingError],
) -> Vec<SyntaxError> {
    pending
        .iter()
        .map(|error| SyntaxError {
            range: error_range(text_len, toks, error.start, error.end),
            kind: error.kind,
            message: error.message.to_string(),
        })
        .collect()
}

/// One error for each run of bytes the lexer did not recognise, and one for the first bracket
/// nested too deeply: these are facts about tokens, reported whatever the grammar made of them.
pub(crate) fn token_errors(text: &str, prepared: &Prepared) -> Vec<SyntaxError> {
    let mut errors = Vec::new();
    for &(start, end) in &prepared.invalid {
        let range = TextRange::new(TextSize::from(start), TextSize::from(end));
        let message = if text[range].starts_with('"') {
            "unterminated string literal: expected `\"` before the end of the line".to_string()
        } else {
            format!("invalid character sequence {:?}", &text[range])
        };
        errors.push(SyntaxError { range, kind: SyntaxErrorKind::InvalidToken, message });
    }
    if let Some(pos) = prepared.too_deep {
        let tok = prepared.toks[pos as usize];
        errors.push(SyntaxError {
            range: TextRange::new(TextSize::from(tok.start), TextSize::from(tok.end)),
            kind: SyntaxErrorKind::TooDeep,
            message: format!(
                "brackets nested more than {} deep; the parser does not look inside them",
                crate::input::MAX_DEPTH
            ),
        });
    }
    errors
}
