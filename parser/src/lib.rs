//! Lossless, error-tolerant parsing of MLIR text: Handshake (Dynamatic and CIRCT), CIRCT's
//! pipeline dialect, LOOM's dataflow ops, and any other dialect in generic or custom form.
//!
//! `parse` never fails: it returns a tree whose tokens are the input, byte for byte, and a list
//! of errors. This crate knows nothing of types, SSA, LSP or files; it turns text into a tree.

mod build;
mod grammar;
mod input;
mod lexer;
mod memory;
mod pieces;
mod syntax_kind;
mod tree;

pub mod ast;

use std::borrow::Cow;

pub use input::MAX_DEPTH;
pub use lexer::{lex, LexedToken};
pub use memory::prefer_huge_pages;
pub use pieces::{pieces, Pieces};
pub use syntax_kind::SyntaxKind;
pub use text_size::{TextRange, TextSize};
pub use tree::{Children, GrammarChildren, SyntaxElement, SyntaxNode, SyntaxToken, SyntaxTree};

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

/// Stack reserved for the grammar; see `parse_with`.
const PARSER_STACK_BYTES: usize = 256 << 20;

/// Stack the grammar may need at most. In release builds the deepest inputs we know (brackets,
/// regions, function bodies and types nested to `MAX_DEPTH`, as in `tests/recovery.rs`) take
/// between 128 and 256 KiB; this leaves four times that. Debug builds take far more a level,
/// so there the grammar always gets a stack of its own.
const PARSER_STACK_NEED: usize = if cfg!(debug_assertions) { PARSER_STACK_BYTES } else { 1 << 20 };

/// Texts at least this long are lexed and parsed on two threads (when `ParseOptions` allows).
pub const PARALLEL_MIN_BYTES: usize = 256 << 10;

/// How to parse. The result does not depend on the options, only the time it takes.
#[derive(Debug, Clone, Copy)]
pub struct ParseOptions {
    /// Threads to use: 1, or 2 to lex the two halves of a large text side by side and parse
    /// the top-level functions of its second half ahead, on a second thread.
    pub threads: usize,
    /// Texts shorter than this are parsed on one thread whatever `threads` says.
    pub parallel_min_bytes: usize,
    /// Whether statements of the everyday shapes (results, name, operands, bracket groups, a
    /// small attribute dictionary, plain types) are read by a hand-written path inside the
    /// grammar rather than through the general combinators. Only the speed differs; tests
    /// turn it off to check that.
    pub hand_parsed_statements: bool,
}

/// The cores this process may use (`std::thread::available_parallelism`, which counts a
/// cgroup's quota too), found once: finding them reads several files, and a large file parsed
/// in pieces asks once a piece.
pub fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

impl Default for ParseOptions {
    /// Two threads if the machine has two cores, for texts of `PARALLEL_MIN_BYTES` or more.
    fn default() -> Self {
        ParseOptions {
            threads: cores().min(2),
            parallel_min_bytes: PARALLEL_MIN_BYTES,
            hand_parsed_statements: true,
        }
    }
}

/// Parses `text`. Never fails, never panics; the tree's text is `text`.
pub fn parse(text: impl Into<String>) -> Parse {
    parse_with(text, ParseOptions::default())
}

/// `parse`, with explicit options.
pub fn parse_with(text: impl Into<String>, options: ParseOptions) -> Parse {
    let text = text.into();
    let threads = if text.len() >= options.parallel_min_bytes { options.threads } else { 1 };
    let prepared = input::prepare(&text, threads);
    let text_len = text.len() as u32;
    // The grammar recurses once per nesting level (bounded by `MAX_DEPTH`), and a level of
    // chumsky combinators can take tens of kilobytes of stack in debug builds. Run it on a
    // stack of its own, sized for the worst case, unless the caller's thread has room for the
    // worst case left (`PARSER_STACK_NEED`): a large file parsed in pieces would otherwise map,
    // fault in and unmap a fresh stack for every piece. The memory is reserved, not committed,
    // so small files pay only for what they touch.
    let outcome = stacker::maybe_grow(PARSER_STACK_NEED, PARSER_STACK_BYTES, || {
        grammar::run(
            &prepared.toks,
            &prepared.functions,
            threads,
            PARSER_STACK_BYTES,
            options.hand_parsed_statements,
        )
    });
    let mut errors = build::token_errors(&text, &prepared);
    let nodes = match outcome {
        Some((nodes, grammar_errors)) => {
            errors.extend(build::grammar_errors(text_len, &prepared.toks, &grammar_errors));
            nodes
        }
        None => {
            // The grammar is total, so this is a bug; keep the text and say so rather than panic.
            errors.push(SyntaxError {
                range: TextRange::up_to(TextSize::of(text.as_str())),
                kind: SyntaxErrorKind::Unexpected,
                message: "internal parser error: the file could not be structured".to_string(),
            });
            build::TreeBuilder::new(prepared.toks.len() as u32, 0, 1).into_nodes()
        }
    };
    let toks = input::into_tree_tokens(&text, prepared);
    let tree = SyntaxTree::from_parts(text, toks, nodes);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread with `PARSER_STACK_NEED` left runs the grammar on its own stack (in release
    /// builds; debug builds always switch): the deepest inputs we know must fit in it.
    #[test]
    fn the_deepest_inputs_fit_in_the_stack_the_grammar_asks_for() {
        let depth = MAX_DEPTH + 8;
        let nested = |open: &str, close: &str| {
            let (open, close) = (open.repeat(depth), close.repeat(depth));
            format!("%0 = \"t.op\"() {{a = {open}{close}}} : () -> ()\n")
        };
        let mut cases: Vec<String> = [("(", ")"), ("[", "]"), ("{", "}"), ("<", ">"), ("[(", ")]")]
            .iter()
            .map(|(open, close)| nested(open, close))
            .collect();
        let (regions, ends) = ("\"t.op\"() ({\n".repeat(depth), "}) : () -> ()\n".repeat(depth));
        cases.push(format!("{regions}{ends}"));
        let (functions, ends) =
            ("handshake.func @f(%a: i32) {\n".repeat(depth), "}\n".repeat(depth));
        cases.push(format!("{functions}{ends}"));
        for text in cases {
            // A little more than the need, for this closure's own frames.
            let worker = std::thread::Builder::new().stack_size(PARSER_STACK_NEED + (64 << 10));
            let parsed = worker
                .spawn(move || {
                    let options = ParseOptions { threads: 1, ..Default::default() };
                    let parse = parse_with(text.clone(), options);
                    parse.tree().rebuild_text() == text
                })
                .unwrap()
                .join()
                .unwrap();
            assert!(parsed);
        }
    }
}
