//! Lossless, error-tolerant parsing of MLIR text: Handshake (Dynamatic and CIRCT), CIRCT's
//! pipeline dialect, LOOM's dataflow ops, and any other dialect in generic or custom form.
//!
//! `parse` never fails: it returns a tree whose tokens are the input, byte for byte, and a list
//! of errors. This crate knows nothing of types, SSA, LSP or files; it turns text into a tree.

mod build;
mod grammar;
mod input;
mod lexer;
mod syntax_kind;
mod tree;

pub mod ast;

use std::borrow::Cow;

use chumsky::Parser as _;
pub use input::MAX_DEPTH;
pub use lexer::{lex, LexedToken};
pub use syntax_kind::SyntaxKind;
pub use text_size::{TextRange, TextSize};
pub use tree::{Children, SyntaxElement, SyntaxNode, SyntaxToken, SyntaxTree};

/// The classes of syntax error. Each maps to one stable diagnostic code in `hsir-analysis`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SyntaxErrorKind {
    /// The input is not valid UTF-8 (reported by `decode`).
    InvalidUtf8,
    /// A token or line that fits nowhere.
    Unexpected,
    /// A bracket, brace or resource block that is never closed.
    Unclosed,
    /// A required piece is missing: an op name after `=`, a type after `:`, ...
    Expected,
    /// Brackets nested beyond `MAX_DEPTH`.
    TooDeep,
    /// Bytes that form no MLIR token, or an unterminated string.
    InvalidToken,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub range: TextRange,
    pub kind: SyntaxErrorKind,
    pub message: String,
}

/// The result of parsing: the tree, and what was wrong with the text.
#[derive(Debug, Clone)]
pub struct Parse {
    tree: SyntaxTree,
    errors: Vec<SyntaxError>,
}

impl Parse {
    pub fn tree(&self) -> &SyntaxTree {
        &self.tree
    }

    pub fn root(&self) -> SyntaxNode<'_> {
        self.tree.root()
    }

    /// Errors in text order.
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    pub fn into_parts(self) -> (SyntaxTree, Vec<SyntaxError>) {
        (self.tree, self.errors)
    }
}

/// Stack reserved for the grammar; see `parse`.
const PARSER_STACK_BYTES: usize = 256 << 20;

/// Parses `text`. Never fails, never panics; the tree's text is `text`.
pub fn parse(text: impl Into<String>) -> Parse {
    let text = text.into();
    let prepared = input::prepare(&text);
    let text_len = text.len() as u32;
    let mut state = grammar::State::new(build::TreeBuilder::new(&text, &prepared.toks));
    // The grammar recurses once per nesting level (bounded by `MAX_DEPTH`), and a level of
    // chumsky combinators can take tens of kilobytes of stack in debug builds. Run it on a
    // stack of its own, sized for the worst case, whatever thread the caller is on. The memory
    // is reserved, not committed, so small files pay only for what they touch.
    let complete = stacker::grow(PARSER_STACK_BYTES, || {
        grammar::file().parse_with_state(prepared.toks.as_slice(), &mut state).has_output()
    });
    let mut errors = build::token_errors(&text, &prepared);
    debug_assert!(!complete || state.balanced(), "the grammar left a group or function open");
    let builder = if complete {
        errors.extend(build::grammar_errors(text_len, &prepared.toks, &state.errors));
        state.tree
    } else {
        // The grammar is total, so this is a bug; keep the text and say so rather than panic.
        errors.push(SyntaxError {
            range: TextRange::up_to(TextSize::of(text.as_str())),
            kind: SyntaxErrorKind::Unexpected,
            message: "internal parser error: the file could not be structured".to_string(),
        });
        build::TreeBuilder::new(&text, &prepared.toks)
    };
    // The builder borrows `text`; the tree takes ownership of a handle to the same bytes.
    let entries = builder.into_entries();
    let tree = SyntaxTree::from_parts(text, entries);
    errors.sort_by_key(|e| (e.range.start(), e.range.end()));
    Parse { tree, errors }
}

/// Decodes file bytes. Valid UTF-8 is borrowed unchanged; otherwise each invalid sequence
/// becomes U+FFFD and the error names the byte offset of the first one. This is the one place
/// where non-UTF-8 input is handled.
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, Option<SyntaxError>) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (Cow::Borrowed(text), None),
        Err(err) => {
            let valid = err.valid_up_to();
            let text = String::from_utf8_lossy(bytes);
            let at = TextSize::from(valid as u32);
            let len = err.error_len().unwrap_or(bytes.len() - valid);
            let error = SyntaxError {
                range: TextRange::at(at, TextSize::from('\u{FFFD}'.len_utf8() as u32)),
                kind: SyntaxErrorKind::InvalidUtf8,
                message: format!(
                    "the file is not valid UTF-8 (first bad byte at offset {valid}, {len} byte(s)); \
                     invalid bytes are shown as U+FFFD and the file is analysed as decoded"
                ),
            };
            (Cow::Owned(text.into_owned()), Some(error))
        }
    }
}
