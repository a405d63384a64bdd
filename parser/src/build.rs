//! Builds the tree's nodes as the grammar opens and closes them.
//!
//! Only nodes are built: tokens are the lexer's, and trivia stays in the gaps between them (see
//! `tree`). A node covers the grammar tokens consumed while it was open.

use text_size::{TextRange, TextSize};

use crate::grammar::PendingError;
use crate::input::{Prepared, Tok};
use crate::tree::{Node, NO_PARENT};
use crate::SyntaxKind::{self, SOURCE_FILE};
use crate::{SyntaxError, SyntaxErrorKind};

/// Builds the nodes while the grammar runs. It lives in the grammar's state, so that what an
/// abandoned alternative built is truncated away on rewind (see `TreeMark`).
///
/// Nodes open lazily: `start_node` only records the kind, and the node gets its entry when its
/// first token is consumed (or when it closes empty), so the many alternatives that fail on
/// their first token cost a push and a truncate. Consuming a token is a counter increment.
pub(crate) struct TreeBuilder {
    /// Number of grammar tokens.
    len: u32,
    nodes: Vec<Node>,
    /// Open nodes, innermost last; the root is at the bottom.
    stack: Vec<Open>,
    /// Index in `stack` of the first node that has no entry yet; `stack.len()` if none. Such
    /// nodes always form the top of the stack.
    pending_from: u32,
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
    nodes: u32,
    stack: u32,
    pending_from: u32,
    pos: u32,
}

impl TreeBuilder {
    /// A builder for a text of `len` grammar tokens, whose grammar starts at token `pos`, with
    /// room for `capacity` nodes (real MLIR has a little fewer nodes than grammar tokens).
    pub(crate) fn new(len: u32, pos: u32, capacity: usize) -> Self {
        let mut nodes = Vec::with_capacity(capacity);
        crate::memory::prefer_huge_pages(&nodes);
        let root =
            Node { kind: SOURCE_FILE, first: pos, end: 0, subtree_end: 0, parent: NO_PARENT };
        nodes.push(root);
        let mut stack = Vec::with_capacity(64);
        stack.push(Open { kind: SOURCE_FILE, entry: 0 });
        TreeBuilder { len, nodes, stack, pending_from: 1, pos }
    }

    /// Next grammar token to be consumed.
    pub(crate) fn pos(&self) -> u32 {
        self.pos
    }

    /// Appends the nodes another builder made for tokens `pos..end` (below its root) as
    /// children of the innermost open node, as if this builder had consumed them.
    pub(crate) fn splice(&mut self, nodes: &[Node], end: u32) {
        self.materialize();
        let parent = self.stack.last().expect("the root is open").entry;
        let base = self.nodes.len() as u32 - 1;
        self.nodes.extend(nodes[1..].iter().map(|node| Node {
            parent: if node.parent == 0 { parent } else { node.parent + base },
            subtree_end: node.subtree_end + base,
            ..*node
        }));
        self.pos = end;
    }

    /// The nodes built, below the root, once the grammar is done with its part of the text.
    pub(crate) fn into_part(self) -> Vec<Node> {
        debug_assert_eq!(self.stack.len(), 1, "every node the grammar opened is closed");
        self.nodes
    }

    pub(crate) fn mark(&self) -> TreeMark {
        TreeMark {
            nodes: self.nodes.len() as u32,
            stack: self.stack.len() as u32,
            pending_from: self.pending_from,
            pos: self.pos,
        }
    }

    pub(crate) fn rewind(&mut self, mark: TreeMark) {
        self.nodes.truncate(mark.nodes as usize);
        self.stack.truncate(mark.stack as usize);
        // Nodes pending at the mark may have got entries since; those entries are gone.
        for open in &mut self.stack[mark.pending_from as usize..] {
            open.entry = PENDING;
        }
        self.pending_from = mark.pending_from;
        self.pos = mark.pos;
    }

    #[inline]
    fn materialize(&mut self) {
        if self.pending_from as usize != self.stack.len() {
            self.materialize_pending();
        }
    }

    /// Gives pending nodes their entries, starting at the next grammar token.
    #[inline(never)]
    fn materialize_pending(&mut self) {
        let from = self.pending_from as usize;
        for i in from..self.stack.len() {
            let (kind, parent) = (self.stack[i].kind, self.stack[i - 1].entry);
            self.stack[i].entry = self.push_entry(kind, parent);
        }
        self.pending_from = self.stack.len() as u32;
    }

    /// Appends the entry of an open node of `kind` under `parent` that starts at the next
    /// token; returns its index.
    fn push_entry(&mut self, kind: SyntaxKind, parent: u32) -> u32 {
        let entry = self.nodes.len() as u32;
        self.nodes.push(Node { kind, first: self.pos, end: 0, subtree_end: 0, parent });
        entry
    }

    /// For a parser that appends nodes itself (`grammar::simple`), which must all start at or
    /// after the next grammar token and be closed when it is done: the nodes, once the open ones
    /// have their entries, and the entry of the innermost open node, the parent of its first
    /// nodes. It then says how far it got with `consumed_to`; a rewind removes its nodes.
    #[inline]
    pub(crate) fn nodes_below_open(&mut self) -> (&mut Vec<Node>, u32) {
        self.materialize();
        let parent = self.stack.last().expect("the root is open").entry;
        (&mut self.nodes, parent)
    }

    /// The grammar consumed the tokens up to `pos` (see `nodes_below_open`).
    #[inline]
    pub(crate) fn consumed_to(&mut self, pos: u32) {
        debug_assert!(pos >= self.pos);
        self.pos = pos;
    }

    /// The grammar consumed its next token; it belongs to the innermost open node.
    #[inline]
    pub(crate) fn consume(&mut self) {
        self.materialize();
        self.pos += 1;
    }

    /// Opens a node at the next grammar token.
    pub(crate) fn start_node(&mut self, kind: SyntaxKind) {
        self.stack.push(Open { kind, entry: PENDING });
    }

    /// Closes the innermost node after the last consumed token.
    pub(crate) fn finish_node(&mut self) {
        self.materialize();
        let open = self.stack.pop().expect("a node is open");
        let end = self.nodes.len() as u32;
        let node = &mut self.nodes[open.entry as usize];
        node.end = self.pos;
        node.subtree_end = end;
        self.pending_from = self.stack.len() as u32;
    }

    /// The tree's nodes, once the grammar is done. Tokens the grammar did not consume (only
    /// after an internal failure) go to the root.
    pub(crate) fn into_nodes(mut self) -> Vec<Node> {
        debug_assert_eq!(self.stack.len(), 1, "every node the grammar opened is closed");
        let total = self.nodes.len() as u32;
        let root = &mut self.nodes[0];
        root.end = self.len;
        root.subtree_end = total;
        self.nodes
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
