//! The grammar's view of the input: non-trivia tokens with precomputed layout facts.
//!
//! MLIR's custom op syntax is only unambiguous to a parser that knows every op. We know few, so
//! the grammar leans on facts that are cheap to compute in one linear pass and expensive to
//! rediscover with backtracking: whether a token starts a line, whether `%a, %b:2 =` starts a
//! definition here, whether `^bb1(...):` is a block label, whether `{` opens a dictionary.

use logos::Logos;

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
    /// An identifier that continues an op when it begins a line (`attributes`, `to`, `in`).
    pub const CONTINUATION_WORD: u16 = 1 << 11;
    /// A builtin or Handshake type name (`i32`, `none`, `index`, `control`).
    pub const TYPE_WORD: u16 = 1 << 12;
    /// `module` / `builtin.module`: a place where an unclosed function body gives up.
    pub const MODULE_NAME: u16 = 1 << 13;
    /// The identifier `in` (`scf.forall (%i) in (%n)`).
    pub const KW_IN: u16 = 1 << 15;
}

/// A non-trivia token as the grammar sees it, with its place in the text. Trivia is not kept:
/// the gap between two tokens is all trivia, and the tree builder splits it when it attaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tok {
    pub kind: SyntaxKind,
    pub flags: u16,
    pub start: u32,
    pub end: u32,
}

impl Tok {
    pub fn has(self, flag: u16) -> bool {
        self.flags & flag != 0
    }
}

impl Tok {
    /// The kind the tree records. A bracket beyond the depth limit is `ERROR` to the grammar
    /// but keeps its own kind in the tree; the lexer never makes an `ERROR` of a bracket, so the
    /// text says which tokens those are.
    pub(crate) fn tree_kind(self, text: &[u8]) -> SyntaxKind {
        if self.kind != ERROR {
            return self.kind;
        }
        match text[self.start as usize] {
            b'(' => L_PAREN,
            b')' => R_PAREN,
            b'[' => L_BRACK,
            b']' => R_BRACK,
            b'{' => L_BRACE,
            b'}' => R_BRACE,
            b'<' => L_ANGLE,
            b'>' => R_ANGLE,
            _ => ERROR,
        }
    }
}

/// The grammar's input.
pub(crate) struct Prepared {
    pub(crate) toks: Vec<Tok>,
    /// Ranges of runs of bytes the lexer did not recognise.
    pub(crate) invalid: Vec<(u32, u32)>,
    /// Position of the first bracket beyond `MAX_DEPTH`, if any.
    pub(crate) too_deep: Option<u32>,
    /// Positions of the function-like op names that start a statement (`FUNC_NAME` and
    /// `OP_START`), in order: where the parse-ahead thread can start (see `grammar::run`).
    pub(crate) functions: Vec<u32>,
}

/// The grammar tokens as the tree keeps them: with their own kinds again where the depth limit
/// made `ERROR`s of brackets.
pub(crate) fn into_tree_tokens(text: &str, prepared: Prepared) -> Vec<Tok> {
    let mut toks = prepared.toks;
    if prepared.too_deep.is_some() {
        for tok in &mut toks {
            tok.kind = tok.tree_kind(text.as_bytes());
        }
    }
    toks
}

/// Lexes `text` and computes the grammar's input: tokens with their layout flags, the depth
/// limit applied. With `threads` > 1 (the caller decides by the text's size), the two halves
/// (split at a line break: no token spans one) are lexed and marked side by side, and the few
/// tokens near the split whose layout flags depend on the other half are marked again after.
pub(crate) fn prepare(text: &str, threads: usize) -> Prepared {
    assert!(text.len() < u32::MAX as usize, "texts of 4 GiB or more are refused at the edge");
    let split = if threads > 1 {
        text.as_bytes()[text.len() / 2..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|at| text.len() / 2 + at + 1)
    } else {
        None
    };
    prepare_split(text, split)
}

/// `prepare`, with the text split after the line break that ends at `split`, or not at all.
fn prepare_split(text: &str, split: Option<usize>) -> Prepared {
    // Each chunk is marked as if it were the whole text; `remark_boundary` fixes the split.
    let lex_and_mark = |from: usize, to: usize, room: usize, stack: Vec<(SyntaxKind, bool)>| {
        let mut chunk = lex_chunk(text, from, to, room, stack);
        let candidates = std::mem::take(&mut chunk.candidates);
        mark_candidates(text.as_bytes(), &mut chunk.toks, &candidates, &mut chunk.functions);
        chunk
    };
    let Some(split) = split else {
        let chunk = lex_and_mark(0, text.len(), text.len(), Vec::new());
        return Prepared {
            toks: chunk.toks,
            invalid: chunk.invalid,
            too_deep: chunk.too_deep,
            functions: chunk.functions,
        };
    };
    let lex_second = || lex_and_mark(split, text.len(), text.len() - split, Vec::new());
    let (first, second) = std::thread::scope(|scope| {
        let second = std::thread::Builder::new().spawn_scoped(scope, lex_second);
        // Room for the second half's tokens too: they are appended.
        let first = lex_and_mark(0, split, text.len(), Vec::new());
        // A thread that could not start (or failed) costs only time: do the half here.
        let second = second.ok().and_then(|handle| handle.join().ok());
        (first, second.unwrap_or_else(lex_second))
    });
    // The second half was lexed as if no bracket were open at its start. That is exact as long
    // as nothing in it can reach the depth limit; otherwise lex it again knowing what is open.
    let second = if first.stack.len() + second.max_depth >= MAX_DEPTH {
        lex_and_mark(split, text.len(), text.len() - split, first.stack.clone())
    } else {
        second
    };
    let offset = first.toks.len() as u32;
    let mut toks = first.toks;
    toks.extend_from_slice(&second.toks);
    drop(second.toks);
    let mut invalid = first.invalid;
    invalid.extend_from_slice(&second.invalid);
    let too_deep = first.too_deep.or(second.too_deep.map(|at| at + offset));
    let second_functions = second.functions.iter().map(|&at| at + offset);
    let functions = remark_boundary(
        text.as_bytes(),
        &mut toks,
        offset as usize,
        first.functions,
        second_functions,
    );
    Prepared { toks, invalid, too_deep, functions }
}

/// Marks again the tokens around `boundary` whose layout flags were computed without seeing
/// the other side: the first token after it (its predecessor was missing) and every token
/// before it whose look-ahead may have reached it. Look-ahead passes over at most
/// `LABEL_SCAN_LIMIT` tokens, except in a result list (`%a, %b:2 =`), which passes only over
/// values, colons, integers and commas. Returns the function starts (see `Prepared`) of the
/// whole, given those found before (`first`) and after (`second`) the boundary.
fn remark_boundary(
    text: &[u8],
    toks: &mut [Tok],
    boundary: usize,
    mut first: Vec<u32>,
    second: impl Iterator<Item = u32>,
) -> Vec<u32> {
    let mut from = boundary.saturating_sub(LABEL_SCAN_LIMIT + 2);
    while from > 0 && matches!(toks[from - 1].kind, VALUE_ID | COLON | INT | COMMA) {
        from -= 1;
    }
    let to = (boundary + 1).min(toks.len());
    let kept = first.partition_point(|&at| (at as usize) < from);
    first.truncate(kept);
    mark(text, toks, from, to, &mut first);
    first.extend(second.skip_while(|&at| (at as usize) < to));
    first
}

/// The tokens of `text[from..to]`, where `from` is 0 or follows a line break.
struct Chunk {
    toks: Vec<Tok>,
    invalid: Vec<(u32, u32)>,
    /// Brackets still open at the end, with whether each is beyond the depth limit.
    stack: Vec<(SyntaxKind, bool)>,
    /// The deepest the bracket stack got.
    max_depth: usize,
    /// Index (in this chunk) of the first bracket beyond the depth limit.
    too_deep: Option<u32>,
    /// Function starts in this chunk, as `mark` finds them.
    functions: Vec<u32>,
    /// The tokens that may carry a layout flag, in order: the only ones `mark` needs to look
    /// at (see `mark_candidates`).
    candidates: Vec<u32>,
}

/// Lexes `text[from..to]`, with room for the tokens of `room` bytes and with brackets `stack`
/// open at its start. Sets the `NEWLINE` flag and the flags an identifier's spelling gives,
/// merges runs of unrecognised bytes into one `ERROR` token, and turns brackets nested deeper
/// than `MAX_DEPTH`, and their matching closers, into `ERROR` tokens for the grammar.
fn lex_chunk(
    text: &str,
    from: usize,
    to: usize,
    room: usize,
    mut stack: Vec<(SyntaxKind, bool)>,
) -> Chunk {
    let bytes = text.as_bytes();
    // The chunk's bytes: the lexer's text.
    let chunk = &bytes[..to];
    // Real MLIR averages a little over four bytes a non-trivia token.
    let mut toks: Vec<Tok> = Vec::with_capacity(room / 4 + 1);
    crate::memory::prefer_huge_pages(&toks);
    // About one token in four may carry a layout flag; real MLIR has about one in 20 bytes.
    let mut candidates: Vec<u32> = Vec::with_capacity((to - from) / 16 + 1);
    let mut invalid: Vec<(u32, u32)> = Vec::new();
    let mut max_depth = stack.len();
    let mut too_deep = None;
    // The lexer's extra is whether it skipped a line break since it was last cleared. It is
    // given the text up to the chunk's end and starts at `from`, so that its offsets are the
    // text's (no pattern looks behind a token).
    let mut lexer = SyntaxKind::lexer_with_extras(chunk, true);
    lexer.bump(from);
    // Whether the last token is an unrecognised run that the next one may extend.
    let mut in_invalid = false;
    while let Some(result) = lexer.next() {
        let span = lexer.span();
        let (start, end) = (span.start as u32, span.end as u32);
        let mut flags = if std::mem::take(&mut lexer.extras) { flags::NEWLINE } else { 0 };
        let mut kind = result.unwrap_or(ERROR);
        match kind {
            ERROR => {
                // One run of unrecognised bytes is one token and one error.
                match toks.last_mut() {
                    Some(last) if in_invalid && last.end == start => {
                        last.end = end;
                        if let Some(run) = invalid.last_mut() {
                            run.1 = end;
                        }
                    }
                    _ => {
                        toks.push(Tok { kind: ERROR, flags, start, end });
                        invalid.push((start, end));
                    }
                }
                in_invalid = true;
                continue;
            }
            // The arms below also note the candidates for `mark` (see `mark_candidates`): the
            // tokens that may get a layout flag, as far as the tokens before them tell.
            IDENT => {
                // The lexer's slice is the token's text, without a second bounds check.
                flags |= classify_word(lexer.slice());
                // `fresh_line` needs a newline.
                if flags & flags::NEWLINE != 0 {
                    candidates.push(toks.len() as u32);
                }
            }
            STRING | HASH_ID | BANG_ID => {
                if kind == BANG_ID
                    && matches!(lexer.slice(), b"!handshake.channel" | b"!handshake.control")
                {
                    flags |= flags::CHANNEL_NAME;
                }
                if flags & flags::NEWLINE != 0 {
                    candidates.push(toks.len() as u32);
                }
            }
            VALUE_ID => {
                // Not after a comma, nor a value bound for a region (`binds_for_region`).
                let candidate = match toks.last() {
                    Some(&prev) => {
                        prev.kind != COMMA
                            && !binds_for_region_after(Tok { kind, flags, start, end }, prev)
                    }
                    None => true,
                };
                if candidate {
                    candidates.push(toks.len() as u32);
                }
            }
            CARET_ID => candidates.push(toks.len() as u32),
            L_PAREN | L_BRACK | L_BRACE | L_ANGLE => {
                let beyond = stack.len() >= MAX_DEPTH;
                stack.push((closer_of(kind), beyond));
                max_depth = max_depth.max(stack.len());
                if beyond {
                    too_deep.get_or_insert(toks.len() as u32);
                    kind = ERROR;
                } else if kind == L_BRACE {
                    candidates.push(toks.len() as u32);
                }
            }
            R_PAREN | R_BRACK | R_BRACE | R_ANGLE => {
                if let Some(&(expected, beyond)) = stack.last() {
                    if expected == kind {
                        stack.pop();
                        if beyond {
                            kind = ERROR;
                        }
                    }
                }
            }
            // Each case of a split file stands alone, as in MLIR.
            SPLIT_MARKER => stack.clear(),
            _ => {}
        }
        in_invalid = false;
        toks.push(Tok { kind, flags, start, end });
        // Most tokens are followed by one space. Stepping over it here is cheaper than the
        // automaton's round trip through its skip rule, which still takes all other trivia
        // (and the rest of a run this steps into: whitespace is skipped the same, whatever part
        // of it was stepped over first).
        if chunk.get(end as usize) == Some(&b' ') {
            lexer.bump(1);
        }
    }
    Chunk { toks, invalid, stack, max_depth, too_deep, functions: Vec::new(), candidates }
}

fn closer_of(opener: SyntaxKind) -> SyntaxKind {
    match opener {
        L_PAREN => R_PAREN,
        L_BRACK => R_BRACK,
        L_BRACE => R_BRACE,
        _ => R_ANGLE,
    }
}

/// The flags an identifier carries by its spelling alone, found with one `match`.
fn classify_word(word: &[u8]) -> u16 {
    use flags::*;
    // `i32`, `i1`: the commonest words by far, decided before the keywords are looked at.
    if let [b'i', digits @ ..] = word {
        if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
            return TYPE_WORD;
        }
    }
    match word {
        b"loc" => KW_LOC,
        b"attributes" => KW_ATTRIBUTES | CONTINUATION_WORD,
        b"to" => KW_TO | CONTINUATION_WORD,
        b"channel" | b"control" => CHANNEL_NAME | TYPE_WORD,
        b"pipeline.scheduled" | b"pipeline.unscheduled" => PIPELINE_NAME,
        b"handshake.func"
        | b"func.func"
        | b"hw.module"
        | b"hw.module.extern"
        | b"hw.module.generated" => FUNC_NAME,
        b"module" | b"builtin.module" => MODULE_NAME,
        b"in" => KW_IN | CONTINUATION_WORD,
        b"else" | b"do" | b"ins" | b"outs" | b"out" | b"inout" | b"enable" | b"valid" | b"by"
        | b"gated" | b"from" | b"into" => CONTINUATION_WORD,
        b"bf16" | b"tf32" | b"index" | b"none" | b"memref" | b"tensor" | b"vector" | b"tuple"
        | b"complex" | b"opaque" | b"_" => TYPE_WORD,
        // `i32`, `si8`, `ui16`, `f64`: a prefix and at least one digit.
        _ => {
            let digits = match word {
                [b'i' | b'f', digits @ ..] | [b's' | b'u', b'i', digits @ ..] => digits,
                _ => return 0,
            };
            if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
                TYPE_WORD
            } else {
                0
            }
        }
    }
}

/// Whether an identifier has a `.` in it, as dialect-qualified op names do: `scf.condition`.
/// Asked rarely, so not worked out for every identifier in the lexer.
fn is_dotted(text: &[u8], tok: Tok) -> bool {
    text[tok.start as usize..tok.end as usize].contains(&b'.')
}

/// Tokens after which a newline does not end the current operation.
fn continues_operation(kind: SyntaxKind) -> bool {
    matches!(kind, COMMA | COLON | EQ | ARROW | L_PAREN | L_BRACK | L_ANGLE)
}

/// The flags `mark` sets.
const LAYOUT: u16 = flags::OP_START | flags::DEF_START | flags::LABEL_START | flags::DICT_START;

/// Sets the layout flags (`LAYOUT`) of tokens `from..to`, and appends the positions of the
/// function starts among them to `functions`. The flags depend only on the kinds and the
/// lexer's flags of the tokens around, never on layout flags, so any range can be marked again
/// once its neighbours are known.
fn mark(text: &[u8], toks: &mut [Tok], from: usize, to: usize, functions: &mut Vec<u32>) {
    for i in from..to {
        mark_one(text, toks, i, functions);
    }
}

/// `mark` for the whole of freshly lexed tokens, which carry no layout flag yet: only the
/// `candidates` `lex_chunk` noted can get one, so only they are looked at. A candidate is a
/// word, string, `#alias` or `!alias` after a newline (`fresh_line`), a value neither after a
/// comma nor bound for a region (`binds_for_region`), a `^label` or a `{`.
fn mark_candidates(text: &[u8], toks: &mut [Tok], candidates: &[u32], functions: &mut Vec<u32>) {
    for &i in candidates {
        mark_one(text, toks, i as usize, functions);
    }
}

/// Sets the layout flags of token `i` and notes it in `functions` if it starts a function.
#[inline(always)]
fn mark_one(text: &[u8], toks: &mut [Tok], i: usize, functions: &mut Vec<u32>) {
    let tok = toks[i];
    let Some(mark) = layout_of(text, toks, i) else { return };
    if tok.kind == IDENT && mark != 0 && tok.has(flags::FUNC_NAME) {
        functions.push(i as u32);
    }
    toks[i].flags = (tok.flags & !LAYOUT) | mark;
}

/// The layout flags of token `i`, or `None` for the kinds that never carry one.
#[inline(always)]
fn layout_of(text: &[u8], toks: &[Tok], i: usize) -> Option<u16> {
    let tok = toks[i];
    let prev = i.checked_sub(1).map(|p| toks[p].kind);
    let next = || toks.get(i + 1).map(|t| t.kind);
    Some(match tok.kind {
        IDENT => {
            // A word directly before `(` on a line of its own is a keyword group that
            // continues the op above (`stall(%s)`), unless it is a dialect's op name
            // (`scf.condition(%c)`).
            let starts = fresh_line(tok, prev)
                && !tok.has(flags::CONTINUATION_WORD)
                && (next() != Some(L_PAREN) || is_dotted(text, tok));
            if starts {
                flags::OP_START
            } else {
                0
            }
        }
        STRING if fresh_line(tok, prev) => flags::OP_START,
        HASH_ID | BANG_ID if fresh_line(tok, prev) && next() == Some(EQ) => flags::DEF_START,
        VALUE_ID
            if prev != Some(COMMA) && !binds_for_region(toks, i) && is_result_list(toks, i) =>
        {
            flags::DEF_START
        }
        CARET_ID if is_label(toks, i) => flags::LABEL_START,
        L_BRACE if opens_dictionary(toks, i) => flags::DICT_START,
        STRING | HASH_ID | BANG_ID | VALUE_ID | CARET_ID | L_BRACE => 0,
        // No other kind ever carries a layout flag.
        _ => return None,
    })
}

/// Whether `tok` begins a line of its own rather than continuing the previous token's
/// construct.
fn fresh_line(tok: Tok, prev: Option<SyntaxKind>) -> bool {
    if !tok.has(flags::NEWLINE) {
        return false;
    }
    if prev == Some(COLON) && tok.kind == IDENT {
        // `%0 = op %a :` then a new line: a type name continues the op, anything else is the
        // next op and the type is missing.
        return !tok.has(flags::TYPE_WORD);
    }
    !prev.is_some_and(continues_operation)
}

/// Whether the value at `i`, though `=` follows it, is one an op binds for its region rather
/// than the start of a result list: it follows `(` (`iter_args(%acc = %init)`,
/// `scf.while (%a = %x)`) or a word that is not a type (`scf.for %i =`,
/// `scf.for unsigned %i =`) on the same line. A type may end the op before, so a value after
/// one still starts a definition (`%0 = arith.constant 1 : i32 %1 = ...`).
fn binds_for_region(toks: &[Tok], i: usize) -> bool {
    i > 0 && binds_for_region_after(toks[i], toks[i - 1])
}

/// `binds_for_region` for the value `tok` after the token `prev`.
#[inline(always)]
fn binds_for_region_after(tok: Tok, prev: Tok) -> bool {
    !tok.has(flags::NEWLINE)
        && (prev.kind == L_PAREN || (prev.kind == IDENT && !prev.has(flags::TYPE_WORD)))
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

/// How far `is_label` looks for the `)` that closes a label's arguments.
const LABEL_SCAN_LIMIT: usize = 4096;

/// `^bb:` or `^bb( ... ):` starting at `i`. The scan of the argument list is bounded so that
/// pathological input stays linear.
fn is_label(toks: &[Tok], i: usize) -> bool {
    match toks.get(i + 1).map(|t| t.kind) {
        Some(COLON) => true,
        Some(L_PAREN) => {
            let mut depth = 0usize;
            for (j, tok) in toks.iter().enumerate().skip(i + 1).take(LABEL_SCAN_LIMIT) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Splitting the text at any line break gives the tokens, flags and errors of no split:
    /// the layout flags near the split, which look across it, are redone.
    /// `crafted`, then the text of every parser fixture (`test_data/ok`, `test_data/err`).
    fn with_fixtures(crafted: &str) -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data");
        let mut texts = vec![crafted.to_string()];
        for folder in ["ok", "err"] {
            for entry in std::fs::read_dir(dir.join(folder)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "mlir") {
                    texts.push(std::fs::read_to_string(path).unwrap());
                }
            }
        }
        texts
    }

    #[test]
    fn every_split_gives_the_tokens_of_no_split() {
        let crafted = "module {\n%a,\n%b:2,\n  %c = op %a,\n %b\n^bb1(%x: i32,\n  %y: i32):\n  \
                       %d = op {\n  }\n  %e = op {value\n= 1}\n#x\n = 1\n!t\n= i32\nfoo\n(\nbar\n \
                       = 2\n  %f = op :\n  i32\n  %g = op :\n  baz\n\"s\"\n(%a)\n~~\n@@\n}\n\
                       handshake.func @f() {\n}\n%h = op,\nfunc.func @g\nhw.module\n(\n";
        for text in &with_fixtures(crafted) {
            let whole = prepare_split(text, None);
            for (at, _) in text.match_indices('\n') {
                let split = prepare_split(text, Some(at + 1));
                assert_eq!(split.toks, whole.toks, "split after byte {at} of {text:?}");
                assert_eq!(split.invalid, whole.invalid, "split after byte {at} of {text:?}");
                assert_eq!(split.too_deep, whole.too_deep, "split after byte {at} of {text:?}");
                assert_eq!(split.functions, whole.functions, "split after byte {at} of {text:?}");
            }
            let scanned: Vec<u32> = (0..whole.toks.len() as u32)
                .filter(|&i| {
                    let tok = whole.toks[i as usize];
                    tok.kind == IDENT && tok.has(flags::OP_START) && tok.has(flags::FUNC_NAME)
                })
                .collect();
            assert_eq!(whole.functions, scanned, "{text:?}");
        }
    }

    /// Marking only the candidates the lexer picked gives the flags and function starts of
    /// marking every token.
    #[test]
    fn marking_the_candidates_is_marking_every_token() {
        let crafted = "%a, %b:2 = op\n(%c) = x\nfoo(%d) %e = y\n scf.for %i = %lb\n iter_args(%acc = %i)\n\
                       ^bb1(%x: i32):\n{}\n{a = 1}\n%f = op : i32 %g = op2\n#a = 1\n!b = i32\n\"s\"\n";
        for text in &with_fixtures(crafted) {
            let mut chunk = lex_chunk(text, 0, text.len(), text.len(), Vec::new());
            let mut every = chunk.toks.clone();
            let mut every_functions = Vec::new();
            let len = every.len();
            mark(text.as_bytes(), &mut every, 0, len, &mut every_functions);
            mark_candidates(
                text.as_bytes(),
                &mut chunk.toks,
                &chunk.candidates,
                &mut chunk.functions,
            );
            assert_eq!(chunk.toks, every, "{text:?}");
            assert_eq!(chunk.functions, every_functions, "{text:?}");
        }
    }

    /// A result list longer than any other look-ahead, split near its end: its first value
    /// still starts a definition.
    #[test]
    fn a_split_inside_a_long_result_list() {
        let values: Vec<String> = (0..2 * LABEL_SCAN_LIMIT).map(|i| format!("%v{i}")).collect();
        let text = format!("{} = op\n", values.join(",\n"));
        let whole = prepare_split(&text, None);
        assert!(whole.toks[0].has(flags::DEF_START));
        for (at, _) in text.match_indices('\n').skip(2 * LABEL_SCAN_LIMIT - 4) {
            let split = prepare_split(&text, Some(at + 1));
            assert_eq!(split.toks, whole.toks, "split after {at}");
            assert_eq!(split.functions, whole.functions, "split after {at}");
        }
    }
}
