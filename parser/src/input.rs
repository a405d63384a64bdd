//! The grammar's view of the input: non-trivia tokens with precomputed layout facts.
//!
//! MLIR's custom op syntax is only unambiguous to a parser that knows every op. We know few, so
//! the grammar leans on facts that are cheap to compute in one linear pass and expensive to
//! rediscover with backtracking: whether a token starts a line, whether `%a, %b:2 =` starts a
//! definition here, whether `^bb1(...):` is a block label, whether `{` opens a dictionary.

use crate::lexer::LexedToken;
use crate::SyntaxKind::{self, *};

/// Deepest bracket nesting the grammar will descend into. Deeper brackets become `ERROR` tokens
/// for the grammar (the tree keeps their text and kind), so hostile input cannot exhaust the
/// stack; real MLIR rarely nests deeper than 20.
pub const MAX_DEPTH: usize = 128;

pub(crate) mod flags {
    /// A newline separates this token from the previous non-trivia token.
    pub const NEWLINE: u16 = 1 << 0;
    /// A bare or string op name at the start of a statement line.
    pub const OP_START: u16 = 1 << 1;
    /// The first `%value` of a `%a, %b:2 =` result list, or `#alias` / `!alias` of an alias
    /// definition at the start of a line.
    pub const DEF_START: u16 = 1 << 2;
    /// `^bb` that begins a block label (`^bb:` or `^bb(...):`).
    pub const LABEL_START: u16 = 1 << 3;
    /// `{` that opens an attribute dictionary rather than a region.
    pub const DICT_START: u16 = 1 << 4;
    /// A function-like op name: `handshake.func`, `func.func`, `hw.module`, ...
    pub const FUNC_NAME: u16 = 1 << 5;
    /// `pipeline.scheduled` / `pipeline.unscheduled`.
    pub const PIPELINE_NAME: u16 = 1 << 6;
    /// `channel`, `control`, `!handshake.channel`, `!handshake.control`.
    pub const CHANNEL_NAME: u16 = 1 << 7;
    /// The identifier `loc`.
    pub const KW_LOC: u16 = 1 << 8;
    /// The identifier `attributes`.
    pub const KW_ATTRIBUTES: u16 = 1 << 9;
    /// The identifier `to`.
    pub const KW_TO: u16 = 1 << 10;
}

/// A non-trivia token as the grammar sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tok {
    pub kind: SyntaxKind,
    pub flags: u16,
}

impl Tok {
    pub fn has(self, flag: u16) -> bool {
        self.flags & flag != 0
    }
}

/// The grammar's input, plus what the tree builder needs to map it back.
pub(crate) struct Prepared {
    pub(crate) toks: Vec<Tok>,
    /// `lexed_index[i]` is the index in the lexed token list of grammar token `i`.
    pub(crate) lexed_index: Vec<u32>,
    /// Grammar positions of the first bracket beyond `MAX_DEPTH`, if any.
    pub(crate) too_deep: Option<u32>,
}

fn token_text<'t>(text: &'t str, lexed: &[LexedToken], i: usize) -> &'t str {
    let end = lexed.get(i + 1).map_or(text.len(), |t| t.start as usize);
    &text[lexed[i].start as usize..end]
}

/// Identifiers that continue the previous line's operation when they begin a line.
fn is_continuation_keyword(word: &str) -> bool {
    matches!(
        word,
        "attributes"
            | "to"
            | "else"
            | "ins"
            | "outs"
            | "in"
            | "out"
            | "inout"
            | "enable"
            | "valid"
            | "by"
            | "gated"
            | "from"
            | "into"
    )
}

/// Builtin type names, and the channel and placeholder types of Handshake.
fn looks_like_type(word: &str) -> bool {
    let sized = |prefix: &str| {
        word.strip_prefix(prefix).is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
    };
    sized("i")
        || sized("si")
        || sized("ui")
        || sized("f")
        || matches!(
            word,
            "bf16"
                | "tf32"
                | "index"
                | "none"
                | "memref"
                | "tensor"
                | "vector"
                | "tuple"
                | "complex"
                | "opaque"
                | "channel"
                | "control"
                | "_"
        )
}

fn is_func_like(word: &str) -> bool {
    matches!(
        word,
        "handshake.func" | "func.func" | "hw.module" | "hw.module.extern" | "hw.module.generated"
    )
}

/// Tokens after which a newline does not end the current operation.
fn continues_operation(kind: SyntaxKind) -> bool {
    matches!(kind, COMMA | COLON | EQ | ARROW | L_PAREN | L_BRACK | L_ANGLE)
}

pub(crate) fn prepare(text: &str, lexed: &[LexedToken]) -> Prepared {
    let mut toks = Vec::with_capacity(lexed.len() / 2 + 1);
    let mut lexed_index = Vec::with_capacity(lexed.len() / 2 + 1);
    let mut newline = true;
    for (i, token) in lexed.iter().enumerate() {
        match token.kind {
            WHITESPACE => {
                if !newline && token_text(text, lexed, i).contains('\n') {
                    newline = true;
                }
            }
            // A `//` comment always runs to the end of its line.
            COMMENT => newline = true,
            kind => {
                let mut flags = if newline { flags::NEWLINE } else { 0 };
                if kind == IDENT {
                    let word = token_text(text, lexed, i);
                    flags |= match word {
                        "loc" => flags::KW_LOC,
                        "attributes" => flags::KW_ATTRIBUTES,
                        "to" => flags::KW_TO,
                        "channel" | "control" => flags::CHANNEL_NAME,
                        "pipeline.scheduled" | "pipeline.unscheduled" => flags::PIPELINE_NAME,
                        w if is_func_like(w) => flags::FUNC_NAME,
                        _ => 0,
                    };
                } else if kind == BANG_ID {
                    let word = token_text(text, lexed, i);
                    if word == "!handshake.channel" || word == "!handshake.control" {
                        flags |= flags::CHANNEL_NAME;
                    }
                }
                toks.push(Tok { kind, flags });
                lexed_index.push(i as u32);
                newline = false;
            }
        }
    }
    mark_statement_starts(text, lexed, &mut toks, &lexed_index);
    let too_deep = limit_depth(&mut toks);
    Prepared { toks, lexed_index, too_deep }
}

fn mark_statement_starts(text: &str, lexed: &[LexedToken], toks: &mut [Tok], lexed_index: &[u32]) {
    let n = toks.len();
    for i in 0..n {
        let tok = toks[i];
        let prev = if i > 0 { Some(toks[i - 1].kind) } else { None };
        let mut fresh_line = tok.has(flags::NEWLINE) && !prev.is_some_and(continues_operation);
        if tok.has(flags::NEWLINE) && prev == Some(COLON) && tok.kind == IDENT {
            // `%0 = op %a :` then a new line: a type name continues the op, anything else is
            // the next op and the type is missing.
            let word = token_text(text, lexed, lexed_index[i] as usize);
            fresh_line = !looks_like_type(word);
        }
        match tok.kind {
            HASH_ID | BANG_ID if fresh_line => {
                if toks.get(i + 1).is_some_and(|t| t.kind == EQ) {
                    toks[i].flags |= flags::DEF_START;
                }
            }
            IDENT | STRING if fresh_line => {
                let followed_by_paren = toks.get(i + 1).is_some_and(|t| t.kind == L_PAREN);
                let is_op = if tok.kind == STRING {
                    true
                } else {
                    let word = token_text(text, lexed, lexed_index[i] as usize);
                    !is_continuation_keyword(word) && !followed_by_paren
                };
                if is_op {
                    toks[i].flags |= flags::OP_START;
                }
            }
            VALUE_ID if prev != Some(COMMA) => {
                if is_result_list(toks, i) {
                    toks[i].flags |= flags::DEF_START;
                }
            }
            CARET_ID => {
                if is_label(toks, i) {
                    toks[i].flags |= flags::LABEL_START;
                }
            }
            L_BRACE => {
                if opens_dictionary(toks, i) {
                    toks[i].flags |= flags::DICT_START;
                }
            }
            _ => {}
        }
    }
}

/// `%a [: N] (, %b [: N])* =` starting at `i`.
fn is_result_list(toks: &[Tok], mut i: usize) -> bool {
    loop {
        if toks.get(i).map(|t| t.kind) != Some(VALUE_ID) {
            return false;
        }
        i += 1;
        if toks.get(i).map(|t| t.kind) == Some(COLON) {
            if toks.get(i + 1).map(|t| t.kind) != Some(INT) {
                return false;
            }
            i += 2;
        }
        match toks.get(i).map(|t| t.kind) {
            Some(EQ) => return true,
            Some(COMMA) => i += 1,
            _ => return false,
        }
    }
}

/// `^bb:` or `^bb( ... ):` starting at `i`. The scan of the argument list is bounded so that
/// pathological input stays linear.
fn is_label(toks: &[Tok], i: usize) -> bool {
    const SCAN_LIMIT: usize = 4096;
    match toks.get(i + 1).map(|t| t.kind) {
        Some(COLON) => true,
        Some(L_PAREN) => {
            let mut depth = 0usize;
            for (j, tok) in toks.iter().enumerate().skip(i + 1).take(SCAN_LIMIT) {
                match tok.kind {
                    L_PAREN => depth += 1,
                    R_PAREN => {
                        depth -= 1;
                        if depth == 0 {
                            return toks.get(j + 1).map(|t| t.kind) == Some(COLON);
                        }
                    }
                    L_BRACE | R_BRACE | SPLIT_MARKER => return false,
                    _ => {}
                }
            }
            false
        }
        _ => false,
    }
}

/// `{}` or `{ident}` on one line, or `{ key =` / `{ key ,` / `{ "key" =`.
fn opens_dictionary(toks: &[Tok], i: usize) -> bool {
    let Some(next) = toks.get(i + 1) else { return false };
    match next.kind {
        R_BRACE => !next.has(flags::NEWLINE),
        IDENT | STRING => match toks.get(i + 2) {
            Some(after) if after.kind == EQ || after.kind == COMMA => true,
            Some(after) if after.kind == R_BRACE => {
                !next.has(flags::NEWLINE) && !after.has(flags::NEWLINE)
            }
            _ => false,
        },
        _ => false,
    }
}

/// Turns brackets nested deeper than `MAX_DEPTH`, and their matching closers, into `ERROR`
/// tokens for the grammar. Returns the position of the first one.
fn limit_depth(toks: &mut [Tok]) -> Option<u32> {
    let mut stack: Vec<(SyntaxKind, bool)> = Vec::new();
    let mut first = None;
    for (i, tok) in toks.iter_mut().enumerate() {
        let closer_of = match tok.kind {
            L_PAREN => Some(R_PAREN),
            L_BRACK => Some(R_BRACK),
            L_BRACE => Some(R_BRACE),
            L_ANGLE => Some(R_ANGLE),
            _ => None,
        };
        if let Some(closer) = closer_of {
            let too_deep = stack.len() >= MAX_DEPTH;
            stack.push((closer, too_deep));
            if too_deep {
                first.get_or_insert(i as u32);
                tok.kind = ERROR;
            }
        } else if tok.kind.is_closer() {
            if let Some(&(expected, too_deep)) = stack.last() {
                if expected == tok.kind {
                    stack.pop();
                    if too_deep {
                        tok.kind = ERROR;
                    }
                }
            }
        } else if tok.kind == SPLIT_MARKER {
            // Each case of a split file stands alone, as in MLIR.
            stack.clear();
        }
    }
    first
}
