//! Semantic tokens: what each piece of a file is (op name, dialect prefix, value, type,
//! attribute key, ...), for editors to colour by meaning rather than by regular expressions.
//!
//! Items are read from their syntax trees; the text between items (comments, a `module {`
//! wrapper, aliases, `// -----` markers) is lexed on its own. Tokens come out sorted, disjoint
//! and on one line each, as LSP clients without multi-line token support need. The walk
//! allocates only its output and a small stack, and skips subtrees outside the requested range,
//! so a range request on a very large file touches little more than that range.

use hsir_parser::{SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};

use crate::dataflow::BufferType;
use crate::db::{Analysis, FileId, ItemView, SyntaxBase};

/// An SSA value's or a block's definition, or a function's name where it is defined.
pub const MOD_DEFINITION: u32 = 1;
/// A legacy buffer type name (`OEHB`, `TEHB`, ...).
pub const MOD_DEPRECATED: u32 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// An op's own name, without its dialect: `fork` in `handshake.fork`.
    Op,
    /// The dialect of a dotted op name: `handshake` in `handshake.fork`.
    DialectPrefix,
    Value,
    BlockLabel,
    Symbol,
    Type,
    Attribute,
    Comment,
    Number,
    String,
    Keyword,
}

impl TokenKind {
    pub fn name(self) -> &'static str {
        match self {
            TokenKind::Op => "op",
            TokenKind::DialectPrefix => "dialect",
            TokenKind::Value => "value",
            TokenKind::BlockLabel => "block",
            TokenKind::Symbol => "symbol",
            TokenKind::Type => "type",
            TokenKind::Attribute => "attribute",
            TokenKind::Comment => "comment",
            TokenKind::Number => "number",
            TokenKind::String => "string",
            TokenKind::Keyword => "keyword",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SemanticToken {
    /// Absolute byte range in the file; never spans a line break.
    pub range: TextRange,
    pub kind: TokenKind,
    /// `MOD_*` bits.
    pub modifiers: u32,
}

/// The semantic tokens of `file`, in text order; only those intersecting `range` when given.
pub fn semantic_tokens(
    analysis: &Analysis<'_>,
    file: FileId,
    range: Option<TextRange>,
) -> Vec<SemanticToken> {
    let Some(text) = analysis.text(file) else { return Vec::new() };
    let whole = TextRange::up_to(TextSize::of(text));
    let wanted = match range {
        None => whole,
        Some(range) => match range.intersect(whole) {
            Some(wanted) if !wanted.is_empty() => wanted,
            _ => return Vec::new(),
        },
    };
    let mut out = Collector { text, wanted, tokens: Vec::new() };
    let mut gap_start = TextSize::from(0);
    for item in analysis.item_refs(file) {
        let item_range = item.range;
        if gap_start >= wanted.end() {
            break;
        }
        if item_range.start() > gap_start {
            out.gap(TextRange::new(gap_start, item_range.start()));
        }
        if out.intersects(item_range) {
            let tokens = item_tokens(analysis, item, text);
            for token in tokens.iter().flat_map(|t| t.0.iter()) {
                let range = token.range + item_range.start();
                if out.intersects(range) {
                    out.tokens.push(SemanticToken { range, ..*token });
                }
            }
        }
        gap_start = gap_start.max(item_range.end());
    }
    if gap_start < whole.end() {
        out.gap(TextRange::new(gap_start, whole.end()));
    }
    out.tokens
}

/// An item's tokens, relative to its start (`Analysis::memo`).
struct ItemTokens(Vec<SemanticToken>);

/// The item's tokens, made once and kept (relative to the item) while it does not change, so
/// a request costs little even where the item's detail is let go.
fn item_tokens(
    analysis: &Analysis<'_>,
    item: crate::db::ItemRef,
    text: &str,
) -> Option<std::sync::Arc<ItemTokens>> {
    let item_range = item.range;
    analysis.memo(item, |view| {
        let mut all = Collector { text, wanted: item_range, tokens: Vec::new() };
        walk_item(&mut all, view);
        let relative = all
            .tokens
            .into_iter()
            .map(|t| SemanticToken { range: t.range - item_range.start(), ..t });
        ItemTokens(relative.collect())
    })
}

/// Makes what `semantic_tokens` of the whole file keeps per item, item by item until `stop`
/// says to; whether every item's is made. A server can answer other requests between calls.
pub fn prepare(analysis: &Analysis<'_>, file: FileId, stop: &dyn Fn() -> bool) -> bool {
    let Some(text) = analysis.text(file) else { return true };
    for item in analysis.item_refs(file) {
        if stop() {
            return false;
        }
        item_tokens(analysis, item, text);
    }
    true
}

struct Collector<'a> {
    text: &'a str,
    wanted: TextRange,
    tokens: Vec<SemanticToken>,
}

impl Collector<'_> {
    fn intersects(&self, range: TextRange) -> bool {
        range.start() < self.wanted.end() && self.wanted.start() < range.end()
    }

    /// Adds a token, split at line breaks; empty pieces and pieces outside the wanted range are
    /// dropped, and a piece overlapping the previous token is cut to keep the output disjoint.
    fn push(&mut self, range: TextRange, kind: TokenKind, modifiers: u32) {
        if range.is_empty() || !self.intersects(range) {
            return;
        }
        let Some(piece) = self.text.get(std::ops::Range::<usize>::from(range)) else { return };
        let mut start = range.start();
        for line in piece.split_inclusive('\n') {
            let len = TextSize::of(line);
            let content = TextSize::of(line.trim_end_matches(['\n', '\r']));
            let mut part = TextRange::at(start, content);
            start += len;
            if let Some(last) = self.tokens.last() {
                if part.start() < last.range.end() {
                    if part.end() <= last.range.end() {
                        continue;
                    }
                    part = TextRange::new(last.range.end(), part.end());
                }
            }
            if !part.is_empty() && self.intersects(part) {
                self.tokens.push(SemanticToken { range: part, kind, modifiers });
            }
        }
    }

    /// Text outside every item: comments, split markers, a `module {` wrapper, aliases.
    fn gap(&mut self, range: TextRange) {
        if !self.intersects(range) {
            return;
        }
        let Some(gap) = self.text.get(std::ops::Range::<usize>::from(range)) else { return };
        let lexed = hsir_parser::lex(gap);
        for (i, token) in lexed.iter().enumerate() {
            let start = TextSize::from(token.start);
            let end = lexed.get(i + 1).map_or(TextSize::of(gap), |n| TextSize::from(n.start));
            let abs = TextRange::new(start, end) + range.start();
            let kind = match token.kind {
                SyntaxKind::COMMENT | SyntaxKind::SPLIT_MARKER => TokenKind::Comment,
                SyntaxKind::STRING => TokenKind::String,
                SyntaxKind::INT | SyntaxKind::FLOAT => TokenKind::Number,
                SyntaxKind::VALUE_ID => TokenKind::Value,
                SyntaxKind::CARET_ID => TokenKind::BlockLabel,
                SyntaxKind::AT_ID => TokenKind::Symbol,
                SyntaxKind::BANG_ID => TokenKind::Type,
                SyntaxKind::HASH_ID => TokenKind::Attribute,
                SyntaxKind::IDENT => match &gap[TextRange::new(start, end)] {
                    "module" => TokenKind::Op,
                    "builtin.module" => {
                        let dot = abs.start() + TextSize::from(7);
                        self.push(TextRange::new(abs.start(), dot), TokenKind::DialectPrefix, 0);
                        self.push(
                            TextRange::new(dot + TextSize::from(1), abs.end()),
                            TokenKind::Op,
                            0,
                        );
                        continue;
                    }
                    "attributes" | "true" | "false" | "unit" => TokenKind::Keyword,
                    _ => continue,
                },
                _ => continue,
            };
            self.push(abs, kind, 0);
        }
    }
}

/// Walks one item's tree in text order, skipping subtrees outside the wanted range.
fn walk_item(out: &mut Collector<'_>, item: &ItemView<'_>) {
    let root = hsir_parser::ast::AstNode::syntax(&item.syntax);
    let base = item.syntax_base;
    let mut stack = vec![root.children_with_tokens()];
    if !node_token(out, root, base) {
        return;
    }
    while let Some(top) = stack.last_mut() {
        match top.next() {
            None => {
                stack.pop();
            }
            Some(SyntaxElement::Node(node)) => {
                if !out.intersects(base.range(node.text_range())) {
                    continue;
                }
                if node_token(out, node, base) {
                    stack.push(node.children_with_tokens());
                }
            }
            Some(SyntaxElement::Token(token)) => leaf(out, token, base),
        }
    }
}

/// Emits the tokens of nodes that are coloured as a whole (types, op names). Returns whether
/// the walk should go into the node's children.
fn node_token(out: &mut Collector<'_>, node: SyntaxNode<'_>, base: SyntaxBase) -> bool {
    match node.kind() {
        SyntaxKind::TYPE => {
            let parent = node.parent().map(|p| p.kind());
            if matches!(parent, Some(SyntaxKind::ANGLE_GROUP | SyntaxKind::BRACE_GROUP)) {
                // Inside an attribute's `<...>` or `{...}` (`#handshake<timing {D: 1}>`) the
                // grammar reads bare words as types; they are keywords and keys there.
                let kind = if parent == Some(SyntaxKind::ANGLE_GROUP) {
                    TokenKind::Keyword
                } else {
                    TokenKind::Attribute
                };
                for token in node.tokens() {
                    if token.kind() == SyntaxKind::IDENT {
                        out.push(base.range(token.text_range()), kind, 0);
                    }
                }
                return false;
            }
            whole_type(out, node, base);
            false
        }
        SyntaxKind::OP_NAME => {
            for token in node.tokens() {
                match token.kind() {
                    SyntaxKind::IDENT => op_name(out, base.range(token.text_range()), token.text()),
                    SyntaxKind::STRING => {
                        let range = base.range(token.text_range());
                        let inner = token.text().trim_matches('"');
                        if inner.len() + 2 == token.text().len() {
                            let one = TextSize::from(1);
                            let range = TextRange::new(range.start() + one, range.end() - one);
                            op_name(out, range, inner);
                        }
                    }
                    SyntaxKind::COMMENT => {
                        out.push(base.range(token.text_range()), TokenKind::Comment, 0)
                    }
                    _ => {}
                }
            }
            false
        }
        _ => true,
    }
}

/// A type node as one token per line: its words and the spaces between them, so that
/// `!handshake.channel<i32, [e: i1 (U)]>` is one token. Comments inside stay comments.
fn whole_type(out: &mut Collector<'_>, node: SyntaxNode<'_>, base: SyntaxBase) {
    let mut run: Option<TextRange> = None;
    for token in node.tokens() {
        let range = base.range(token.text_range());
        match token.kind() {
            // Spaces inside a type on one line join its words into one token.
            SyntaxKind::WHITESPACE if !token.text().contains('\n') => {}
            SyntaxKind::WHITESPACE | SyntaxKind::COMMENT => {
                if let Some(done) = run.take() {
                    out.push(done, TokenKind::Type, 0);
                }
                if token.kind() == SyntaxKind::COMMENT {
                    out.push(range, TokenKind::Comment, 0);
                }
            }
            _ => {
                run = Some(match run {
                    Some(r) => r.cover(range),
                    None => range,
                });
            }
        }
    }
    if let Some(done) = run {
        out.push(done, TokenKind::Type, 0);
    }
}

/// `handshake.fork`: `handshake` as the dialect, `fork` as the op; a bare `fork` is an op.
fn op_name(out: &mut Collector<'_>, range: TextRange, name: &str) {
    match name.find('.') {
        Some(dot) if dot > 0 && dot + 1 < name.len() => {
            let dot = range.start() + TextSize::from(dot as u32);
            out.push(TextRange::new(range.start(), dot), TokenKind::DialectPrefix, 0);
            out.push(TextRange::new(dot + TextSize::from(1), range.end()), TokenKind::Op, 0);
        }
        _ => out.push(range, TokenKind::Op, 0),
    }
}

/// One token that is not inside a type or an op name.
fn leaf(out: &mut Collector<'_>, token: SyntaxToken<'_>, base: SyntaxBase) {
    let range = base.range(token.text_range());
    let parent = token.parent().kind();
    let (kind, modifiers) = match token.kind() {
        SyntaxKind::COMMENT | SyntaxKind::SPLIT_MARKER => (TokenKind::Comment, 0),
        SyntaxKind::INT | SyntaxKind::FLOAT => (TokenKind::Number, 0),
        SyntaxKind::VALUE_ID => {
            let definition = matches!(
                parent,
                SyntaxKind::RESULT
                    | SyntaxKind::BLOCK_ARG
                    | SyntaxKind::FUNC_ARG
                    | SyntaxKind::PIPELINE_INPUT
                    | SyntaxKind::REGION_ARG
            );
            (TokenKind::Value, if definition { MOD_DEFINITION } else { 0 })
        }
        SyntaxKind::CARET_ID => {
            let definition = parent == SyntaxKind::BLOCK_LABEL;
            (TokenKind::BlockLabel, if definition { MOD_DEFINITION } else { 0 })
        }
        SyntaxKind::AT_ID => {
            let definition = parent == SyntaxKind::FUNC_SIGNATURE;
            (TokenKind::Symbol, if definition { MOD_DEFINITION } else { 0 })
        }
        SyntaxKind::BANG_ID => (TokenKind::Type, 0),
        SyntaxKind::HASH_ID => (TokenKind::Attribute, 0),
        SyntaxKind::STRING => match parent {
            SyntaxKind::ATTR_ENTRY | SyntaxKind::ATTR_DICT => (TokenKind::Attribute, 0),
            SyntaxKind::ATTR => (TokenKind::String, deprecated_value(token)),
            _ => (TokenKind::String, 0),
        },
        SyntaxKind::IDENT => match parent {
            // The key of `key = value`, or a unit attribute.
            SyntaxKind::ATTR_ENTRY | SyntaxKind::ATTR_DICT => (TokenKind::Attribute, 0),
            SyntaxKind::ATTR => match token.text() {
                "true" | "false" | "unit" => (TokenKind::Keyword, 0),
                // An enumerated value (`bufferType = FIFO_BREAK_NONE`).
                _ => (TokenKind::Keyword, deprecated_value(token)),
            },
            SyntaxKind::OP
            | SyntaxKind::FUNC_ATTRIBUTES
            | SyntaxKind::KEYWORD_GROUP
            | SyntaxKind::LOC
            | SyntaxKind::TYPE_LIST => (TokenKind::Keyword, 0),
            // `in %a : i32` of an `hw.module`: the direction, not a port named `in`.
            SyntaxKind::FUNC_ARG | SyntaxKind::FUNC_RESULT
                if matches!(token.text(), "in" | "out" | "inout")
                    && token.parent().text_range().start() == token.text_range().start() =>
            {
                (TokenKind::Keyword, 0)
            }
            _ => return,
        },
        _ => return,
    };
    out.push(range, kind, modifiers);
}

/// `MOD_DEPRECATED` for a legacy buffer type name given to `BUFFER_TYPE` or `bufferType`.
fn deprecated_value(token: SyntaxToken<'_>) -> u32 {
    let name = token.text().trim_matches('"');
    if BufferType::from_legacy_name(name).is_none() {
        return 0;
    }
    let key =
        token.parent().parent().filter(|entry| entry.kind() == SyntaxKind::ATTR_ENTRY).and_then(
            |entry| {
                entry
                    .child_tokens()
                    .find(|t| matches!(t.kind(), SyntaxKind::IDENT | SyntaxKind::STRING))
            },
        );
    match key.map(|k| k.text().trim_matches('"')) {
        Some("BUFFER_TYPE" | "bufferType") => MOD_DEPRECATED,
        _ => 0,
    }
}
