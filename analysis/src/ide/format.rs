//! Formatting: the whitespace edits that bring a file to the layout CIRCT's printer produces.
//!
//! The formatter only ever changes whitespace between tokens (comments are kept as written);
//! it never adds or removes a line break between two tokens, and it never glues two tokens that
//! would then lex as one. Since the parser's decisions depend only on the tokens and on which
//! of them start a line, the formatted text parses to the same tree with the same errors.
//!
//! What it does, line by line:
//! - An op line is indented by its nesting depth (regions around it) times `indent`. The `}`
//!   closing a region sits at its op's indent, and a block label `^bb1(...):` too, one level
//!   less than the block's ops, as MLIR's printer puts them.
//! - A continuation line (one that starts inside an op, like the second line of a long
//!   signature) keeps its indentation relative to the op's first line and moves with it. It is
//!   indented at least one level deeper than the op, except a line that starts with a closer
//!   (`)`, `]`, `}`, `>`), which may sit at the op's indent.
//! - A comment line takes the indent of the line after it (or the block's indent when that line
//!   closes the region). A comment after code stays on its line with the blanks written before
//!   it (one space if there were none). A comment's text is kept exactly, trailing blanks
//!   included: FileCheck lines with `--strict-whitespace` can depend on them.
//! - Runs of blank lines become one blank line; blank lines at the start of the file go, and the
//!   file ends with exactly one newline. Line endings (`\n` or `\r\n`) are kept.
//! - Within a line: one space around `=` and `->`, after `,` and `:`, before `:` of an op's type
//!   list and before `{` of a region or attribute dictionary; none before `,`, inside `()`,
//!   `[]`, attribute dictionaries' `{}` and a type's `<>`, between a type name and its `<`, nor
//!   before the `:` of `^bb1:`, of a function argument `%a: i32` and of an extra signal
//!   `e: i1` (an `hw.module`'s `in %a : i32` and a pipeline's `%a : i32 = %x` keep theirs);
//!   other runs of blanks become one space, and tokens written together stay together. Inside
//!   dialect attributes (`#dialect<...>`, `<{...}>`), `loc(...)`, `%0:2` and `@a::@b` only
//!   that last rule applies.
//! - `// -----` lines are left as they are.
//!
//! What it does not touch: items (top-level ops) that contain a syntax error, lines outside
//! items that hold a syntax error, resource blocks (`{-# ... #-}`) and anything inside string
//! literals (strings are tokens, and only the gaps between tokens are edited).
//!
//! A range request formats whole items: every line the range touches, widened to the items
//! (top-level ops) it intersects, first line to last. Edits are minimal, one per whitespace run
//! that changes, so an editor keeps its cursor and folds.
//!
//! The file is parsed again here rather than read from the database's items, because the
//! formatter needs the text between items too (module wrappers, comments, `// -----`), which
//! only a whole-file tree has; parsing is a few milliseconds per megabyte.

use hsir_parser::ast::AstNode;
use hsir_parser::{lex, Parse, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};

use crate::db::{Analysis, FileId};
use crate::TextEdit;

use SyntaxKind::*;

/// How to format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatOptions {
    /// Spaces per nesting level (at most `MAX_INDENT`; larger values are treated as it).
    pub indent: u32,
}

impl Default for FormatOptions {
    fn default() -> Self {
        FormatOptions { indent: 2 }
    }
}

/// The largest indent honoured, so that a nonsensical setting cannot blow up the text.
pub const MAX_INDENT: u32 = 16;

/// Columns a tab counts for when measuring the indentation a user wrote (VS Code's default).
const TAB_WIDTH: u32 = 4;

/// The edits that format `file` (or, with `range`, the lines it touches): absolute,
/// sorted, non-overlapping. Empty when the file is unknown or already formatted.
pub fn format(
    analysis: &Analysis<'_>,
    file: FileId,
    range: Option<TextRange>,
    options: &FormatOptions,
) -> Vec<TextEdit> {
    match analysis.text(file) {
        Some(text) => format_text(text, range, options),
        None => Vec::new(),
    }
}

/// `format` on a text of its own, for callers without a database (`hsir fmt`).
pub fn format_text(text: &str, range: Option<TextRange>, options: &FormatOptions) -> Vec<TextEdit> {
    if text.is_empty() || text.len() >= u32::MAX as usize {
        return Vec::new();
    }
    let parse = hsir_parser::parse(text);
    let formatter = Formatter::new(&parse, options);
    let mut edits = formatter.edits();
    if let Some(range) = range {
        let span = formatter.range_span(range);
        edits.retain(|e| span.contains_range(e.range));
    }
    edits
}

/// A non-trivia token and what the formatter needs to know about it.
struct Tok<'t> {
    syntax: SyntaxToken<'t>,
    kind: SyntaxKind,
    range: TextRange,
    /// Kind of the node the token belongs to.
    parent: SyntaxKind,
    /// The outermost node around the token whose inside keeps its spacing but for runs of
    /// blanks (`ANGLE_GROUP`, `BRACE_GROUP`, `LOC`), by index.
    opaque: Option<u32>,
    /// No edit may touch the whitespace on either side of it.
    locked: bool,
    /// The first token of its line.
    line_head: usize,
    /// For line starts: the indentation written and the one wanted, in columns.
    old_indent: u32,
    new_indent: u32,
}

/// Where a line-starting token's indentation comes from.
enum Role {
    /// An op, a block label or the `}` closing a region: a fixed indent.
    Fixed(u32),
    /// `// -----`, or a token outside every op: left as written.
    Verbatim,
    /// A token inside an op (or label) that begins on an earlier line, at this offset.
    Continuation(TextSize),
}

/// One replacement of a piece of a gap between tokens.
struct Replacement {
    range: TextRange,
    new_text: String,
}

struct Formatter<'t> {
    text: &'t str,
    parse: &'t Parse,
    toks: Vec<Tok<'t>>,
    indent: u32,
    /// The file's line break for breaks the formatter adds (only the final newline).
    newline: &'static str,
}

impl<'t> Formatter<'t> {
    fn new(parse: &'t Parse, options: &FormatOptions) -> Formatter<'t> {
        let text = parse.tree().text();
        let mut toks: Vec<Tok<'t>> = Vec::new();
        for syntax in parse.root().tokens() {
            let kind = syntax.kind();
            if kind.is_trivia() {
                continue;
            }
            let parent = syntax.parent();
            let mut opaque = None;
            let mut locked = false;
            for node in parent.ancestors() {
                match node.kind() {
                    ANGLE_GROUP | BRACE_GROUP | LOC => opaque = Some(node.index()),
                    ERROR_NODE | RESOURCE_BLOCK => locked = true,
                    _ => {}
                }
            }
            toks.push(Tok {
                syntax,
                kind,
                range: syntax.text_range(),
                parent: parent.kind(),
                opaque,
                locked: locked || kind == ERROR,
                line_head: 0,
                old_indent: 0,
                new_indent: 0,
            });
        }
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let mut formatter =
            Formatter { text, parse, toks, indent: options.indent.min(MAX_INDENT), newline };
        formatter.lock_errors();
        formatter.compute_indents();
        formatter
    }

    /// The start of the gap before token `i` (`i == toks.len()`: the gap at the end).
    fn gap_start(&self, i: usize) -> usize {
        if i == 0 {
            0
        } else {
            usize::from(self.toks[i - 1].range.end())
        }
    }

    fn gap_end(&self, i: usize) -> usize {
        self.toks.get(i).map_or(self.text.len(), |t| usize::from(t.range.start()))
    }

    /// Locks the tokens of items with a syntax error, and of lines outside items that hold one.
    fn lock_errors(&mut self) {
        let errors = self.parse.errors();
        if errors.is_empty() {
            return;
        }
        let items: Vec<TextRange> =
            crate::items(self.parse).iter().map(|op| op.syntax().text_range()).collect();
        let touches = |a: TextRange, b: TextRange| a.start() <= b.end() && b.start() <= a.end();
        let mut spans: Vec<TextRange> = Vec::new();
        for error in errors {
            let mut in_item = false;
            for item in items.iter().filter(|item| touches(**item, error.range)) {
                spans.push(*item);
                in_item = true;
            }
            if !in_item {
                let start = self.line_start_of(usize::from(error.range.start()));
                let end = self.line_end_of(usize::from(error.range.end()));
                spans.push(TextRange::new(to_size(start), to_size(end)));
            }
        }
        spans.sort_by_key(|s| (s.start(), s.end()));
        // Tokens and spans are both in text order: one sweep.
        let mut next_span = 0;
        for tok in &mut self.toks {
            while next_span < spans.len() && spans[next_span].end() < tok.range.start() {
                next_span += 1;
            }
            let hit = spans[next_span..]
                .iter()
                .take_while(|s| s.start() <= tok.range.end())
                .any(|s| touches(*s, tok.range));
            tok.locked |= hit;
        }
    }

    fn line_start_of(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())].rfind('\n').map_or(0, |at| at + 1)
    }

    fn line_end_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        self.text[offset..].find('\n').map_or(self.text.len(), |at| offset + at)
    }

    /// Marks line starts and computes each one's wanted indentation, in text order (a
    /// continuation line's indent depends on the line its op starts on).
    fn compute_indents(&mut self) {
        let mut head = 0;
        for i in 0..self.toks.len() {
            let gap = &self.text[self.gap_start(i)..self.gap_end(i)];
            let line_start = i == 0 || gap.contains('\n');
            if line_start {
                head = i;
                let written = gap.rsplit('\n').next().unwrap_or("");
                let old = columns(written);
                let new = if self.toks[i].locked { old } else { self.wanted_indent(i, old) };
                let tok = &mut self.toks[i];
                tok.old_indent = old;
                tok.new_indent = new;
            }
            self.toks[i].line_head = head;
        }
    }

    fn wanted_indent(&self, i: usize, old: u32) -> u32 {
        match self.role(i) {
            Role::Fixed(depth) => depth.saturating_mul(self.indent),
            Role::Verbatim => old,
            Role::Continuation(anchor) => {
                let j = self.toks.partition_point(|t| t.range.start() < anchor);
                let Some(anchor_tok) = self.toks.get(j) else { return old };
                let line = &self.toks[anchor_tok.line_head];
                let shifted =
                    i64::from(old) + i64::from(line.new_indent) - i64::from(line.old_indent);
                let floor = i64::from(line.new_indent);
                let shifted = if self.toks[i].kind.is_closer() {
                    shifted.max(floor)
                } else if shifted <= floor {
                    floor + i64::from(self.indent)
                } else {
                    shifted
                };
                u32::try_from(shifted).unwrap_or(u32::MAX)
            }
        }
    }

    fn role(&self, i: usize) -> Role {
        let tok = &self.toks[i];
        if tok.kind == SPLIT_MARKER {
            return Role::Verbatim;
        }
        let parent = tok.syntax.parent();
        if tok.kind == R_BRACE && parent.kind() == REGION {
            return Role::Fixed(region_depth(parent).saturating_sub(1));
        }
        let start = tok.range.start();
        let mut starts_op = None;
        let mut starts_label = None;
        for node in parent.ancestors() {
            if node.text_range().start() != start {
                break;
            }
            match node.kind() {
                OP => starts_op = Some(node),
                BLOCK_LABEL => starts_label = Some(node),
                _ => {}
            }
        }
        if let Some(op) = starts_op {
            return Role::Fixed(region_depth(op));
        }
        if let Some(label) = starts_label {
            return Role::Fixed(region_depth(label).saturating_sub(1));
        }
        let anchor = parent.ancestors().find(|node| {
            matches!(node.kind(), OP | BLOCK_LABEL | ALIAS_DEF) && node.text_range().start() < start
        });
        match anchor {
            Some(node) => Role::Continuation(node.text_range().start()),
            None => Role::Verbatim,
        }
    }

    /// The indentation of comment lines just before token `right` (`None`: the end of the file).
    fn comment_indent(&self, right: Option<usize>) -> u32 {
        let Some(i) = right else { return 0 };
        let tok = &self.toks[i];
        if tok.kind == SPLIT_MARKER {
            return 0;
        }
        if tok.kind == R_BRACE && tok.parent == REGION && !tok.locked {
            return tok.new_indent.saturating_add(self.indent);
        }
        tok.new_indent
    }

    /// The span a range request formats: the lines `range` touches, and nothing else (an
    /// editor's "format selection" or format-on-paste expects no edit outside them). The whole
    /// file is still read, so the indentation of those lines is the one the item around them
    /// gives.
    fn range_span(&self, range: TextRange) -> TextRange {
        let len = self.text.len();
        let clamp = |at: TextSize| usize::from(at).min(len);
        let start = self.line_start_of(clamp(range.start()));
        // A selection that ends at the start of a line does not take that line.
        let mut last = clamp(range.end());
        if !range.is_empty() && last > 0 && self.text.as_bytes()[last - 1] == b'\n' {
            last -= 1;
        }
        let end = self.line_end_of(last);
        TextRange::new(to_size(start), to_size(end))
    }

    fn edits(&self) -> Vec<TextEdit> {
        let mut edits = Vec::new();
        for i in 0..=self.toks.len() {
            let left = i.checked_sub(1);
            let right = (i < self.toks.len()).then_some(i);
            for replacement in self.format_gap(left, right) {
                push_minimal(self.text, replacement, &mut edits);
            }
        }
        edits
    }

    /// The replacements of the gap between tokens `left` and `right` (`None`: a file edge).
    fn format_gap(&self, left: Option<usize>, right: Option<usize>) -> Vec<Replacement> {
        let (start, end) = (
            self.gap_start(right.unwrap_or(self.toks.len())),
            self.gap_end(right.unwrap_or(self.toks.len())),
        );
        let gap = &self.text[start..end];
        let left_locked = left.is_some_and(|l| self.toks[l].locked);
        let right_locked = right.is_some_and(|r| self.toks[r].locked);
        if (left_locked || left.is_none())
            && (right_locked || right.is_none())
            && (left_locked || right_locked)
        {
            return Vec::new();
        }
        if !gap.contains('\n') {
            if left_locked || right_locked {
                return Vec::new();
            }
            if let (Some(l), Some(r)) = (left, right) {
                // A comment always ends at a line break, so this is the space between two
                // tokens of one line.
                return self.inline_gap(l, r, start, end).into_iter().collect();
            }
        }
        let mut out = self.line_gap(left, right, start, end);
        if left_locked {
            let after_last_break = start + gap.rfind('\n').map_or(gap.len(), |at| at + 1);
            out.retain(|r| usize::from(r.range.start()) >= after_last_break);
        } else if right_locked {
            let first_break = start + gap.find('\n').map_or(0, |at| at);
            let first_break =
                if first_break > start && self.text.as_bytes()[first_break - 1] == b'\r' {
                    first_break - 1
                } else {
                    first_break
                };
            out.retain(|r| usize::from(r.range.end()) <= first_break);
        }
        out
    }

    /// The spacing between two tokens on one line.
    fn inline_gap(&self, l: usize, r: usize, start: usize, end: usize) -> Option<Replacement> {
        let (a, b) = (&self.toks[l], &self.toks[r]);
        let old = &self.text[start..end];
        let new = match spacing(a, b) {
            Spacing::Keep => return None,
            Spacing::One => " ",
            Spacing::Collapse if old.is_empty() => "",
            Spacing::Collapse => " ",
            Spacing::Glue if old.is_empty() => "",
            Spacing::Glue => {
                if lexes_apart(a.syntax.text(), b.syntax.text()) {
                    ""
                } else {
                    " "
                }
            }
        };
        Some(Replacement { range: range(start, end), new_text: new.to_string() })
    }

    /// The replacements of a gap that holds a line break or comments, or lies at a file edge.
    fn line_gap(
        &self,
        left: Option<usize>,
        right: Option<usize>,
        start: usize,
        end: usize,
    ) -> Vec<Replacement> {
        let pieces = split_gap(self.text, start, end);
        let mut out = Vec::new();
        let comment_indent = self.comment_indent(right);
        let token_indent = right.map_or(0, |r| self.toks[r].new_indent);
        let last_ws = pieces.len() - 1;
        for (p, piece) in pieces.iter().enumerate() {
            let (piece_start, piece_end) = *piece;
            if p % 2 == 1 {
                // A comment: its text stays as written.
                continue;
            }
            let ws = &self.text[piece_start..piece_end];
            let before_comment = p < last_ws;
            let indent = if before_comment { comment_indent } else { token_indent };
            let at_file_start = p == 0 && left.is_none();
            let at_file_end = p == last_ws && right.is_none();
            let breaks = line_breaks(self.text, piece_start, piece_end);
            if at_file_start {
                out.push(Replacement {
                    range: range(piece_start, piece_end),
                    new_text: spaces(indent),
                });
                continue;
            }
            let Some(&(first_break, first_break_end)) = breaks.first() else {
                let new_text = if at_file_end {
                    self.newline.to_string()
                } else if before_comment {
                    // A comment after code on the same line keeps its distance (MLIR's printer
                    // puts two spaces before `// pred: ^bb0`; people align them), at least one.
                    if ws.is_empty() {
                        " ".to_string()
                    } else {
                        ws.to_string()
                    }
                } else {
                    // Only between a comment and the end of the file, handled above; keep it.
                    ws.to_string()
                };
                out.push(Replacement { range: range(piece_start, piece_end), new_text });
                continue;
            };
            let &(last_break, last_break_end) = breaks.last().expect("not empty");
            // Blanks before the first line break: trailing whitespace.
            out.push(Replacement {
                range: range(piece_start, first_break),
                new_text: String::new(),
            });
            // The line breaks, at most two (one blank line), one at the end of the file.
            let mut middle = self.text[first_break..first_break_end].to_string();
            if breaks.len() >= 2 && !at_file_end {
                middle.push_str(&self.text[last_break..last_break_end]);
            }
            out.push(Replacement { range: range(first_break, last_break_end), new_text: middle });
            // The indentation of the next line.
            let new_indent = if at_file_end { String::new() } else { spaces(indent) };
            out.push(Replacement { range: range(last_break_end, piece_end), new_text: new_indent });
        }
        out
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spacing {
    /// Leave the gap as written.
    Keep,
    /// No space, unless that would make the two tokens lex as something else.
    Glue,
    /// Exactly one space.
    One,
    /// One space if there was any, none if there was none.
    Collapse,
}

/// The spacing CIRCT's printer puts between two tokens of one line.
fn spacing(a: &Tok<'_>, b: &Tok<'_>) -> Spacing {
    if a.kind == SPLIT_MARKER || b.kind == SPLIT_MARKER {
        return Spacing::Keep;
    }
    // Inside a dialect attribute or a location only runs of blanks change; and `%0:2` and
    // `@a::@b` are written glued, as MLIR reads them.
    let glued_colon = |t: &Tok<'_>| t.kind == COLON && matches!(t.parent, RESULT | SYMBOL_REF);
    if (a.opaque.is_some() && a.opaque == b.opaque)
        || glued_colon(a)
        || glued_colon(b)
        || (a.kind == COLON && b.kind == COLON)
    {
        return Spacing::Collapse;
    }
    let type_angle = |t: &Tok<'_>| matches!(t.parent, TYPE_PARAMS | CHANNEL_PARAMS);
    if matches!(a.kind, L_PAREN | L_BRACK) || matches!(b.kind, R_PAREN | R_BRACK) {
        return Spacing::Glue;
    }
    if (a.kind == L_ANGLE && type_angle(a)) || (b.kind == R_ANGLE && type_angle(b)) {
        return Spacing::Glue;
    }
    if (a.kind == L_BRACE && a.parent == ATTR_DICT) || (b.kind == R_BRACE && b.parent == ATTR_DICT)
    {
        return Spacing::Glue;
    }
    if b.kind == COMMA || (b.kind == COLON && glued_before_colon(b)) {
        return Spacing::Glue;
    }
    if matches!(a.kind, COMMA | COLON | EQ | ARROW) || matches!(b.kind, EQ | ARROW) {
        return Spacing::One;
    }
    // ` : ` before an op's types.
    if b.kind == COLON
        && b.parent == TYPE_LIST
        && b.syntax.parent().parent().is_some_and(|p| p.kind() == OP)
    {
        return Spacing::One;
    }
    if b.kind == L_BRACE && matches!(b.parent, REGION | ATTR_DICT) {
        return Spacing::One;
    }
    if b.kind == L_ANGLE && type_angle(b) && matches!(a.kind, IDENT | BANG_ID) {
        // The type name and its parameters: `memref<4xi32>`, `!handshake.channel<i32>`.
        let same_type = b.syntax.parent().parent().is_some_and(|ty| a.syntax.parent() == ty);
        if same_type {
            return Spacing::Glue;
        }
    }
    Spacing::Collapse
}

/// Whether the printers write `colon` right after what precedes it: `^bb1:`, `%a: i32` in a
/// function's arguments (but `in %a : i32` in an `hw.module`'s), `e: i1` in extra signals.
fn glued_before_colon(colon: &Tok<'_>) -> bool {
    match colon.parent {
        BLOCK_LABEL | EXTRA_SIGNAL => true,
        FUNC_ARG => colon.syntax.parent().first_token().is_some_and(|t| t.kind() == VALUE_ID),
        _ => false,
    }
}

/// Whether `a` and `b`, written with nothing between them, still lex as these two tokens.
fn lexes_apart(a: &str, b: &str) -> bool {
    let joined = format!("{a}{b}");
    let tokens = lex(&joined);
    tokens.len() == 2 && tokens[1].start as usize == a.len()
}

/// How many regions are around `node` (counting `node` itself if it is one).
fn region_depth(node: SyntaxNode<'_>) -> u32 {
    node.ancestors().filter(|n| n.kind() == REGION).count() as u32
}

/// Splits a gap into whitespace and comments: `[ws, comment, ws, ..., ws]` as byte ranges,
/// always starting and ending with a (possibly empty) whitespace run.
fn split_gap(text: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut pieces = Vec::new();
    let mut at = start;
    loop {
        let ws_start = at;
        while at < end && !(bytes[at] == b'/' && bytes.get(at + 1) == Some(&b'/')) {
            at += 1;
        }
        pieces.push((ws_start, at));
        if at >= end {
            return pieces;
        }
        let comment_start = at;
        while at < end && bytes[at] != b'\n' {
            at += 1;
        }
        pieces.push((comment_start, at));
    }
}

/// The line breaks (`\n` or `\r\n`) in `text[start..end]`, as byte ranges.
fn line_breaks(text: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for at in start..end {
        if bytes[at] == b'\n' {
            let from = if at > start && bytes[at - 1] == b'\r' { at - 1 } else { at };
            out.push((from, at + 1));
        }
    }
    out
}

/// The width of written indentation: spaces count one column, tabs `TAB_WIDTH`.
fn columns(indentation: &str) -> u32 {
    indentation.chars().map(|c| if c == '\t' { TAB_WIDTH } else { 1 }).sum()
}

fn spaces(count: u32) -> String {
    " ".repeat(count as usize)
}

fn to_size(offset: usize) -> TextSize {
    TextSize::from(offset as u32)
}

fn range(start: usize, end: usize) -> TextRange {
    TextRange::new(to_size(start), to_size(end))
}

/// Adds `replacement` as an edit when it changes the text, trimmed to the bytes that differ.
fn push_minimal(text: &str, replacement: Replacement, edits: &mut Vec<TextEdit>) {
    let old = &text[replacement.range];
    let new = replacement.new_text.as_str();
    if old == new {
        return;
    }
    let prefix = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    let (old_rest, new_rest) = (&old[prefix..], &new[prefix..]);
    let suffix =
        old_rest.bytes().rev().zip(new_rest.bytes().rev()).take_while(|(a, b)| a == b).count();
    let start = usize::from(replacement.range.start()) + prefix;
    let end = usize::from(replacement.range.end()) - suffix;
    edits.push(TextEdit {
        range: range(start, end),
        new_text: new_rest[..new_rest.len() - suffix].to_string(),
    });
}
