//! Completion: what may be typed at the cursor (op names, types, values, block labels,
//! symbols, buffer types, attribute keys), each with the text it inserts and the range it
//! replaces.
//!
//! The line being typed is usually broken, so the context comes from the tokens before the
//! cursor on its line, lexed on their own, and not from the lowered op. The syntax tree and the
//! lowering are used only for what lies around the line: which region the cursor is in (for the
//! ops and values that make sense there) and what is defined.

use hsir_parser::ast::AstNode;
use hsir_parser::{SyntaxKind, SyntaxNode, TextRange, TextSize};

use crate::dataflow::BufferType;
use crate::db::{Analysis, ItemView};
use crate::ide::FilePosition;
use crate::ir::{self, BlockId, RegionId, RegionKind, ValueId};
use crate::ops::{Dialect, Era, Family, OpKind, Typing};
use crate::signatures::Style;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    pub documentation: Option<String>,
    pub insert: Insert,
    /// The absolute range the insert replaces: the partial word already typed.
    pub replace: TextRange,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Insert {
    Text(String),
    /// LSP snippet syntax: `${1:x}`, `$0`.
    Snippet(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompletionKind {
    Op,
    Type,
    Value,
    Block,
    Symbol,
    BufferType,
    Attribute,
    Keyword,
}

/// The completions at `pos`, best first.
pub fn completions(analysis: &Analysis<'_>, pos: FilePosition) -> Vec<Completion> {
    let Some(text) = analysis.text(pos.file) else { return Vec::new() };
    let mut offset = usize::from(pos.offset).min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let (word_start, sigil) = word_before(text, line_start, offset);
    let replace = TextRange::new(TextSize::from(word_start as u32), TextSize::from(offset as u32));
    let mut before = &text[line_start..word_start];
    let in_quote = before.matches('"').count() % 2 == 1 && before.ends_with('"');
    if in_quote {
        before = &before[..before.len() - 1];
    }
    let tokens: Vec<Tok<'_>> = lex_line(before);
    let item =
        analysis.item_at(pos.file, replace.end()).filter(|i| i.range().start() < replace.end());
    let cx = Cx { analysis, pos, text, offset: replace.end(), line_start, replace, item, in_quote };
    let role = role(&cx, &tokens);
    match (sigil, role) {
        (Some('%'), Role::Values) => values(&cx, &tokens),
        (Some('^'), _) if !tokens.is_empty() => blocks(&cx),
        (Some('@'), _) if !tokens.is_empty() && !defines_symbol(&tokens) => symbols(&cx),
        (Some('!'), Role::Types) => {
            types(&cx, false).into_iter().filter(|c| c.label.starts_with('!')).collect()
        }
        (Some(_), _) => Vec::new(),
        (None, Role::Values) => values(&cx, &tokens),
        (None, Role::Ops) => ops(&cx),
        (None, Role::TopLevel) => top_level(&cx),
        (None, Role::Types) => types(&cx, false),
        (None, Role::InnerTypes) => types(&cx, true),
        (None, Role::BufferTypes { quoted }) => buffer_types(&cx, quoted),
        (None, Role::Timing) => timing(&cx),
        (None, Role::AttrKeys(owner)) => attribute_keys(&cx, owner),
        (None, Role::MemoryKeys) => {
            keys(&cx, &[("ld", "loads"), ("st", "stores")], CompletionKind::Attribute)
        }
        (None, Role::Nothing) => Vec::new(),
    }
}

struct Cx<'a, 'db> {
    analysis: &'a Analysis<'db>,
    pos: FilePosition,
    text: &'db str,
    /// The cursor, where the replaced word ends.
    offset: TextSize,
    line_start: usize,
    replace: TextRange,
    item: Option<ItemView<'db>>,
    in_quote: bool,
}

impl Cx<'_, '_> {
    /// The function's era: the type checks', else a guess from its spelling.
    fn era(&self) -> Era {
        match self.item.and_then(|i| i.typed) {
            Some(typed) => typed.era,
            None if self.style() == Style::Dynamatic => Era::Dynamatic2026,
            None => Era::Circt,
        }
    }

    fn style(&self) -> Style {
        if let Some(typed) = self.item.and_then(|i| i.typed) {
            return typed.style;
        }
        // No type checks yet (a declaration, or not a handshake.func): guess from the text.
        let text = self.item.map_or(self.text, |i| i.text);
        if text.contains("!handshake.") || text.contains(": <") || text.contains("channel<") {
            Style::Dynamatic
        } else {
            Style::Circt
        }
    }

    fn completion(&self, label: &str, kind: CompletionKind, insert: Insert) -> Completion {
        Completion {
            label: label.to_string(),
            kind,
            detail: None,
            documentation: None,
            insert,
            replace: self.replace,
        }
    }

    /// The innermost syntax node around the cursor in the item, with the item.
    fn node_at_cursor(&self) -> Option<(ItemView<'_>, SyntaxNode<'_>)> {
        let item = self.item?;
        let root = item.syntax.syntax();
        let local = item.syntax_base.local(self.offset)?;
        if !root.text_range().contains_inclusive(local) {
            return None;
        }
        Some((item, root.covering_node(TextRange::empty(local))))
    }

    /// The name of the op owning the innermost region around the cursor.
    fn region_owner(&self) -> Option<String> {
        let (_, node) = self.node_at_cursor()?;
        let region = node.ancestors().find(|n| n.kind() == SyntaxKind::REGION)?;
        let owner = region.parent().and_then(hsir_parser::ast::Op::cast)?;
        owner.name().map(str::to_string)
    }
}

/// One non-trivia token of the line before the word.
#[derive(Debug, Clone, Copy)]
struct Tok<'t> {
    kind: SyntaxKind,
    text: &'t str,
}

fn lex_line(text: &str) -> Vec<Tok<'_>> {
    let lexed = hsir_parser::lex(text);
    let mut out = Vec::with_capacity(lexed.len());
    for (i, token) in lexed.iter().enumerate() {
        if token.kind.is_trivia() {
            continue;
        }
        let end = lexed.get(i + 1).map_or(text.len(), |n| n.start as usize);
        out.push(Tok { kind: token.kind, text: &text[token.start as usize..end] });
    }
    out
}

/// Where the word ending at `offset` starts, and its sigil (`%`, `^`, `@`, `!`) if it has one.
fn word_before(text: &str, line_start: usize, offset: usize) -> (usize, Option<char>) {
    let bytes = text.as_bytes();
    let mut start = offset;
    while start > line_start {
        let b = bytes[start - 1];
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'#') {
            start -= 1;
        } else {
            break;
        }
    }
    if start > line_start && matches!(bytes[start - 1], b'%' | b'^' | b'@' | b'!') {
        return (start - 1, Some(bytes[start - 1] as char));
    }
    (start, None)
}

/// What the cursor position asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Ops,
    TopLevel,
    Values,
    Types,
    /// Inside `<`: data types only.
    InnerTypes,
    BufferTypes {
        quoted: bool,
    },
    Timing,
    AttrKeys(DictOwner),
    /// `memory [` / `extmemory [`: `ld`, `st`.
    MemoryKeys,
    Nothing,
}

/// Whose attribute dictionary the cursor is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DictOwner {
    /// The op named on the line (or around the cursor when the dictionary spans lines).
    Op,
    /// `hw.parameters = {`.
    HwParameters,
    /// `attributes {` of a function.
    Function,
}

fn is_opener(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        SyntaxKind::L_PAREN | SyntaxKind::L_BRACK | SyntaxKind::L_BRACE | SyntaxKind::L_ANGLE
    )
}

fn is_type_lead(tok: Option<&Tok<'_>>) -> bool {
    tok.is_some_and(|t| {
        matches!(t.kind, SyntaxKind::COLON | SyntaxKind::ARROW)
            || (t.kind == SyntaxKind::IDENT && t.text == "to")
    })
}

/// The unclosed opener the cursor is in, by index, and whether a `:` was seen at the cursor's
/// own nesting level after it.
fn enclosing(tokens: &[Tok<'_>]) -> (Option<usize>, bool) {
    let mut depth = 0u32;
    let mut colon = false;
    for (i, tok) in tokens.iter().enumerate().rev() {
        if tok.kind.is_closer() {
            depth += 1;
        } else if is_opener(tok.kind) {
            if depth == 0 {
                return (Some(i), colon);
            }
            depth -= 1;
        } else if depth == 0 && tok.kind == SyntaxKind::COLON {
            colon = true;
        }
    }
    (None, colon)
}

/// The op name of the line: the word after `%a, %b =`, or the line's first word.
fn line_op_name<'t>(tokens: &[Tok<'t>]) -> Option<(usize, &'t str)> {
    let eq = tokens.iter().position(|t| t.kind == SyntaxKind::EQ);
    let at = match eq {
        Some(eq)
            if tokens[..eq].iter().all(|t| {
                matches!(
                    t.kind,
                    SyntaxKind::VALUE_ID | SyntaxKind::COMMA | SyntaxKind::COLON | SyntaxKind::INT
                )
            }) =>
        {
            eq + 1
        }
        _ => 0,
    };
    let tok = tokens.get(at)?;
    match tok.kind {
        SyntaxKind::IDENT => Some((at, tok.text)),
        SyntaxKind::STRING => Some((at, tok.text.trim_matches('"'))),
        _ => None,
    }
}

fn is_function_like(name: &str) -> bool {
    OpKind::from_name(name) == Some(OpKind::Func)
        || matches!(name, "func.func" | "hw.module" | "hw.module.extern" | "hw.module.generated")
}

fn defines_symbol(tokens: &[Tok<'_>]) -> bool {
    tokens.last().is_some_and(|t| t.kind == SyntaxKind::IDENT && is_function_like(t.text))
        || tokens.last().is_some_and(|t| matches!(t.text, "private" | "public" | "nested"))
}

fn role(cx: &Cx<'_, '_>, tokens: &[Tok<'_>]) -> Role {
    let Some(last) = tokens.last() else {
        return line_start_role(cx);
    };
    let previous = tokens.len().checked_sub(2).and_then(|i| tokens.get(i));
    let (opener, colon) = enclosing(tokens);
    let opener_tok = opener.map(|i| &tokens[i]);
    if cx.in_quote {
        return match (last.kind, previous.map(|p| p.text.trim_matches('"'))) {
            (SyntaxKind::EQ, Some("BUFFER_TYPE" | "bufferType")) => {
                Role::BufferTypes { quoted: true }
            }
            _ => Role::Nothing,
        };
    }
    match last.kind {
        SyntaxKind::EQ => match previous {
            Some(p) if matches!(p.kind, SyntaxKind::IDENT | SyntaxKind::STRING) => {
                match p.text.trim_matches('"') {
                    "BUFFER_TYPE" | "bufferType" => Role::BufferTypes { quoted: false },
                    "TIMING" => Role::Timing,
                    _ => Role::Nothing,
                }
            }
            // `%a0 : i32 = %outer` in a pipeline's inputs.
            Some(_) if opener.is_some() => Role::Values,
            Some(p) if matches!(p.kind, SyntaxKind::VALUE_ID | SyntaxKind::INT) => Role::Ops,
            _ => Role::Nothing,
        },
        SyntaxKind::COLON | SyntaxKind::ARROW => Role::Types,
        SyntaxKind::IDENT if last.text == "to" => Role::Types,
        SyntaxKind::L_ANGLE => Role::InnerTypes,
        SyntaxKind::L_BRACE => dict_role(tokens, tokens.len() - 1),
        SyntaxKind::COMMA | SyntaxKind::L_PAREN | SyntaxKind::L_BRACK => {
            let Some(open) = opener else {
                // A list on the op's own level: types after its `:`, else operands.
                return if colon { Role::Types } else { Role::Values };
            };
            let open_tok = &tokens[open];
            let before_open = open.checked_sub(1).and_then(|i| tokens.get(i));
            match open_tok.kind {
                SyntaxKind::L_BRACE => dict_role(tokens, open),
                SyntaxKind::L_ANGLE => Role::InnerTypes,
                _ if is_type_lead(before_open) => Role::Types,
                // `(%a: i32, ` of a signature or `(%x : i32 = %y, ` of a pipeline: a new name.
                _ if colon => Role::Nothing,
                SyntaxKind::L_BRACK => match before_open.and_then(|t| OpKind::from_name(t.text)) {
                    Some(kind) if kind.is_memory() => Role::MemoryKeys,
                    // `fork [2`, `buffer [2`: a count.
                    Some(OpKind::Fork | OpKind::LazyFork | OpKind::Buffer) => Role::Nothing,
                    // `[T, U]` type lists come after `:`, handled above.
                    _ if opener_tok.is_some() => Role::Values,
                    _ => Role::Nothing,
                },
                _ => {
                    let op = line_op_name(tokens).map(|(_, name)| name);
                    let signature = op.is_some_and(is_function_like)
                        && before_open.is_some_and(|t| t.kind == SyntaxKind::AT_ID);
                    let pipeline_inputs = before_open
                        .and_then(|t| OpKind::from_name(t.text))
                        .is_some_and(OpKind::is_pipeline_region);
                    if signature || pipeline_inputs {
                        Role::Nothing
                    } else {
                        Role::Values
                    }
                }
            }
        }
        SyntaxKind::IDENT | SyntaxKind::STRING => match line_op_name(tokens) {
            // Right after the op name: its first operand.
            Some((at, name)) if at + 1 == tokens.len() && !is_function_like(name) => Role::Values,
            // `buffer [2] seq`: after the op's bracket and its kind word.
            Some((at, name))
                if !is_function_like(name)
                    && last.kind == SyntaxKind::IDENT
                    && after_op_bracket(tokens, at) == Some(tokens.len() - 1) =>
            {
                Role::Values
            }
            _ => Role::Nothing,
        },
        // `fork [4] `, `memory [ld = 1, st = 0] `: after the op's bracket come its operands.
        SyntaxKind::R_BRACK if opener.is_none() => match line_op_name(tokens) {
            Some((at, name))
                if !is_function_like(name)
                    && after_op_bracket(tokens, at) == Some(tokens.len()) =>
            {
                Role::Values
            }
            _ => Role::Nothing,
        },
        _ => Role::Nothing,
    }
}

/// Where the `[...]` group right after the op name at `at` ends (the index after its `]`).
fn after_op_bracket(tokens: &[Tok<'_>], at: usize) -> Option<usize> {
    if tokens.get(at + 1)?.kind != SyntaxKind::L_BRACK {
        return None;
    }
    let mut depth = 0usize;
    for (i, tok) in tokens.iter().enumerate().skip(at + 1) {
        match tok.kind {
            SyntaxKind::L_BRACK | SyntaxKind::L_PAREN | SyntaxKind::L_BRACE => depth += 1,
            SyntaxKind::R_BRACK | SyntaxKind::R_PAREN | SyntaxKind::R_BRACE => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// At the start of a line: an op in a body, a key in a dictionary that spans lines, or a
/// top-level op outside every item.
fn line_start_role(cx: &Cx<'_, '_>) -> Role {
    let Some((_, node)) = cx.node_at_cursor() else { return Role::TopLevel };
    for ancestor in node.ancestors() {
        match ancestor.kind() {
            SyntaxKind::ATTR_DICT => {
                let owner = ancestor.parent().map(|p| p.kind());
                return Role::AttrKeys(match owner {
                    Some(SyntaxKind::ATTR) => DictOwner::HwParameters,
                    Some(SyntaxKind::FUNC_ATTRIBUTES) => DictOwner::Function,
                    _ => DictOwner::Op,
                });
            }
            SyntaxKind::REGION => return Role::Ops,
            SyntaxKind::OP => break,
            _ => {}
        }
    }
    // Between items of a `module` region, or before an item's first token: the item itself
    // starts at the cursor only when it is its first op.
    if cx.item.is_some_and(|i| i.range().start() < cx.offset) {
        Role::Nothing
    } else {
        Role::TopLevel
    }
}

/// The `{` at `open` opens an attribute dictionary: whose?
fn dict_role(tokens: &[Tok<'_>], open: usize) -> Role {
    let before = open.checked_sub(1).and_then(|i| tokens.get(i));
    let before2 = open.checked_sub(2).and_then(|i| tokens.get(i));
    match (before.map(|t| t.text), before2.map(|t| t.text)) {
        (Some("="), Some("hw.parameters")) => Role::AttrKeys(DictOwner::HwParameters),
        (Some("attributes"), _) => Role::AttrKeys(DictOwner::Function),
        // A region's `{` ends a line; the cursor is typed right after it only in a dictionary.
        _ => Role::AttrKeys(DictOwner::Op),
    }
}

// ---- values, blocks, symbols -------------------------------------------------------------

fn values(cx: &Cx<'_, '_>, tokens: &[Tok<'_>]) -> Vec<Completion> {
    let Some(item) = cx.item else { return Vec::new() };
    let lowered = &item.lowered.item;
    let reading_src = line_op_name(tokens)
        .is_some_and(|(_, n)| OpKind::from_name(n) == Some(OpKind::PipelineSrc));
    let ids = match cursor_block(cx) {
        Some((region, block)) => visible_values(&item, region, block, cx.offset, reading_src),
        None => (0..lowered.values.len() as ValueId).collect(),
    };
    let line_end = cx.text[cx.line_start..].find('\n').map_or(cx.text.len(), |i| cx.line_start + i);
    let line =
        TextRange::new(TextSize::from(cx.line_start as u32), TextSize::from(line_end as u32));
    let mut out = Vec::new();
    for id in ids {
        let Some(value) = lowered.values.get(id as usize) else { continue };
        // A value defined on the line being typed is this op's own result.
        if line.contains_range(item.abs(value.range)) {
            continue;
        }
        let label = value.display(lowered, ir::group_len(lowered, id));
        let mut completion =
            cx.completion(&label, CompletionKind::Value, Insert::Text(label.clone()));
        completion.detail = item.type_of(id).map(|ty| ty.to_string());
        out.push(completion);
    }
    out
}

/// The region and block of the lowered item that the cursor is in.
fn cursor_block(cx: &Cx<'_, '_>) -> Option<(RegionId, BlockId)> {
    let (item, node) = cx.node_at_cursor()?;
    let region_node = node.ancestors().find(|n| n.kind() == SyntaxKind::REGION)?;
    let owner_node = region_node.parent().filter(|p| p.kind() == SyntaxKind::OP)?;
    let region_index = owner_node
        .children()
        .filter(|c| c.kind() == SyntaxKind::REGION)
        .position(|c| c == region_node)?;
    let local = item.syntax_base.local(cx.offset)?;
    let blocks: Vec<SyntaxNode<'_>> =
        region_node.children().filter(|c| c.kind() == SyntaxKind::BLOCK).collect();
    // The last block starting at or before the cursor (trivia after a block is the region's).
    let block_index = blocks.iter().rposition(|b| b.text_range().start() <= local).unwrap_or(0);
    let owner_range = item.syntax_abs(owner_node.text_range());
    let lowered = &item.lowered.item;
    let owner = lowered.ops.iter().position(|op| item.abs(op.range) == owner_range)?;
    let region = *lowered.op_regions(&lowered.ops[owner]).get(region_index)?;
    let block = *lowered.regions.get(region as usize)?.blocks.get(block_index)?;
    Some((region, block))
}

/// The values a use at `cursor` in `block` may name, in definition order: MLIR's scoping
/// (a graph region sees all its blocks; a dominance region what is defined before the cursor
/// in its block), with pipeline stages seeing their own block, constants and values from
/// outside the pipeline (other stages' values only through `pipeline.src`).
fn visible_values(
    item: &ItemView<'_>,
    region: RegionId,
    block: BlockId,
    cursor: TextSize,
    reading_src: bool,
) -> Vec<ValueId> {
    let lowered = &item.lowered.item;
    let mut out: Vec<ValueId> = Vec::new();
    let mut level = Some((region, block, cursor));
    let mut guard = 0;
    // The results of the ops whose regions hold the cursor: not readable from inside.
    let mut enclosing_ops: Vec<u32> = Vec::new();
    while let Some((region, block, limit)) = level {
        guard += 1;
        let Some(data) = lowered.regions.get(region as usize) else { break };
        if guard > lowered.regions.len() + 1 {
            break;
        }
        let owner = lowered.ops.get(data.owner as usize);
        let pipeline = owner.and_then(OpKind::of).is_some_and(OpKind::is_pipeline_region);
        for &b in &data.blocks {
            let Some(block_data) = lowered.blocks.get(b as usize) else { continue };
            let own = b == block;
            if !own && data.kind == RegionKind::Dominance {
                continue;
            }
            if own || !pipeline || reading_src {
                out.extend(&block_data.args);
            }
            for &op_id in &block_data.ops {
                let Some(op) = lowered.ops.get(op_id as usize) else { continue };
                if enclosing_ops.contains(&op_id) {
                    continue;
                }
                if own && data.kind == RegionKind::Dominance && item.abs(op.range).end() > limit {
                    continue;
                }
                // Constants of every dialect (`hw.constant`) may be read from any stage.
                let constant =
                    matches!(OpKind::of(op), Some(OpKind::Constant | OpKind::ArithConstant))
                        || op.name.ends_with(".constant");
                if own || !pipeline || reading_src || constant {
                    out.extend(item.lowered.item.results(op));
                }
            }
        }
        enclosing_ops.push(data.owner);
        level = data.parent.and_then(|parent| {
            let owner = owner?;
            Some((parent, owner.block?, item.abs(owner.range).start()))
        });
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn blocks(cx: &Cx<'_, '_>) -> Vec<Completion> {
    let Some(item) = cx.item else { return Vec::new() };
    let lowered = &item.lowered.item;
    let region = cursor_block(cx).map(|(region, _)| region);
    let mut out = Vec::new();
    for block in &lowered.blocks {
        if region.is_some_and(|r| r != block.region) {
            continue;
        }
        let Some(label) = block.label.map(|l| lowered.str(l).to_string()) else { continue };
        let args: Vec<String> = block
            .args
            .iter()
            .map(|&v| item.type_of(v).map_or_else(|| "?".to_string(), |t| t.to_string()))
            .collect();
        let mut completion =
            cx.completion(&label, CompletionKind::Block, Insert::Text(label.clone()));
        completion.detail = Some(format!("({})", args.join(", ")));
        out.push(completion);
    }
    out
}

fn symbols(cx: &Cx<'_, '_>) -> Vec<Completion> {
    let case = current_case(cx.text, cx.offset);
    let mut out: Vec<Completion> = Vec::new();
    for (name, item) in cx.analysis.functions() {
        // Cases of one file do not see each other.
        if item.file == cx.pos.file && item.case != case {
            continue;
        }
        if out.iter().any(|c| c.label[1..] == *name) {
            continue;
        }
        let label = format!("@{name}");
        let mut completion =
            cx.completion(&label, CompletionKind::Symbol, Insert::Text(label.clone()));
        // Kept per function, so that `@` in a large workspace does not read every function.
        let detail = cx.analysis.memo(item, |view| SignatureText(signature_text(view)));
        completion.detail = detail.and_then(|d| d.0.clone());
        out.push(completion);
    }
    out
}

/// A function's signature as completion shows it (`Analysis::memo`).
struct SignatureText(Option<String>);

/// `(T, U) -> (V)` for a function item.
fn signature_text(item: &ItemView<'_>) -> Option<String> {
    let op = item.lowered.item.ops.first()?;
    let signature = op.signature.as_ref()?;
    let item = &item.lowered.item;
    let port = |p: &ir::Port| item.port_ty(p).map_or_else(|| "?".to_string(), |t| t.to_string());
    let args: Vec<String> = signature.args.iter().map(port).collect();
    let results: Vec<String> = signature.results.iter().map(port).collect();
    Some(format!("{} ({}) -> ({})", op.name, args.join(", "), results.join(", ")))
}

/// Which `// -----` case of the text `offset` is in.
fn current_case(text: &str, offset: TextSize) -> u32 {
    let before = &text[..usize::from(offset).min(text.len())];
    let mut case = 0;
    for line in before.lines() {
        if line.starts_with("// -----") {
            case += 1;
        }
    }
    case
}

// ---- types --------------------------------------------------------------------------------

/// (label, insert as snippet, detail): the types offered in a type position.
const CHANNEL_TYPES: &[(&str, &str, &str)] = &[
    ("!handshake.channel<i32>", "!handshake.channel<${1:i32}>", "Dynamatic channel"),
    ("!handshake.control<>", "!handshake.control<>", "Dynamatic control (dataless channel)"),
    ("<i32>", "<${1:i32}>", "Dynamatic channel, short form"),
    ("<>", "<>", "Dynamatic control, short form"),
];

const PROPOSAL_TYPES: &[(&str, &str, &str)] = &[
    ("channel<i32>", "channel<${1:i32}>", "channel (type-system proposal)"),
    ("control", "control", "control (type-system proposal)"),
];

const DATA_TYPES: &[(&str, &str, &str)] = &[
    ("i1", "i1", "1-bit integer"),
    ("i32", "i32", "32-bit integer"),
    ("i64", "i64", "64-bit integer"),
    ("index", "index", "index"),
    ("f32", "f32", "32-bit float"),
];

const CIRCT_TYPES: &[(&str, &str, &str)] = &[
    ("none", "none", "CIRCT control (dataless channel)"),
    ("memref<16xi32>", "memref<${1:16}x${2:i32}>", "memory reference"),
];

fn types(cx: &Cx<'_, '_>, inner: bool) -> Vec<Completion> {
    let groups: Vec<&[(&str, &str, &str)]> = if inner {
        vec![DATA_TYPES]
    } else {
        match cx.style() {
            Style::Dynamatic => vec![CHANNEL_TYPES, DATA_TYPES, PROPOSAL_TYPES, CIRCT_TYPES],
            Style::Circt => vec![DATA_TYPES, CIRCT_TYPES, CHANNEL_TYPES, PROPOSAL_TYPES],
        }
    };
    let mut out = Vec::new();
    for group in groups {
        for (label, snippet, detail) in group {
            let insert = if snippet.contains('$') {
                Insert::Snippet(snippet.to_string())
            } else {
                Insert::Text(snippet.to_string())
            };
            let mut completion = cx.completion(label, CompletionKind::Type, insert);
            completion.detail = Some(detail.to_string());
            out.push(completion);
        }
    }
    out
}

// ---- buffers ------------------------------------------------------------------------------

fn buffer_doc(ty: BufferType) -> &'static str {
    match ty {
        BufferType::OneSlotBreakDv => {
            "one slot; cuts the data and valid paths (an opaque register)"
        }
        BufferType::OneSlotBreakR => "one slot; cuts the ready path (a transparent skid slot)",
        BufferType::OneSlotBreakDvr => "one slot; cuts data, valid and ready",
        BufferType::FifoBreakDv => "FIFO of NUM_SLOTS; cuts the data and valid paths",
        BufferType::FifoBreakNone => "FIFO of NUM_SLOTS; cuts no path (adds capacity only)",
        BufferType::ShiftRegBreakDv => "shift register of NUM_SLOTS; cuts data and valid",
    }
}

fn buffer_types(cx: &Cx<'_, '_>, quoted: bool) -> Vec<Completion> {
    let next = cx.text[usize::from(cx.offset)..].chars().next();
    let hw_parameters =
        !cx.text[cx.line_start..usize::from(cx.replace.start())].contains("bufferType");
    BufferType::ALL
        .into_iter()
        .map(|ty| {
            let name = ty.name();
            let insert = if quoted {
                if next == Some('"') {
                    name.to_string()
                } else {
                    format!("{name}\"")
                }
            } else if hw_parameters {
                format!("\"{name}\"")
            } else {
                name.to_string()
            };
            let mut completion =
                cx.completion(name, CompletionKind::BufferType, Insert::Text(insert));
            completion.detail = Some(ty.timing().to_string());
            completion.documentation = Some(buffer_doc(ty).to_string());
            completion
        })
        .collect()
}

/// The buffer type already written in the op around the cursor: on its line, or in the
/// lowered op that contains the cursor.
fn written_buffer_type(cx: &Cx<'_, '_>) -> Option<BufferType> {
    let line_end = cx.text[cx.line_start..].find('\n').map_or(cx.text.len(), |i| cx.line_start + i);
    let line = &cx.text[cx.line_start..line_end];
    for key in ["BUFFER_TYPE", "bufferType"] {
        if let Some(at) = line.find(key) {
            let rest = line[at + key.len()..].trim_start().strip_prefix('=')?.trim_start();
            let rest = rest.trim_start_matches('"');
            let end =
                rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
            let name = &rest[..end];
            if let Some(ty) =
                BufferType::from_name(name).or_else(|| BufferType::from_legacy_name(name))
            {
                return Some(ty);
            }
        }
    }
    let item = cx.item?;
    let local = cx.offset.checked_sub(item.start)?;
    let ops = &item.lowered.item.ops;
    let (id, op) = ops
        .iter()
        .enumerate()
        .filter(|(_, op)| op.range.contains_inclusive(local) && op.block.is_some())
        .min_by_key(|(_, op)| op.range.len())?;
    crate::dataflow::buffer_info(&item.lowered.item, op, id as u32)?.buffer_type()
}

fn timing(cx: &Cx<'_, '_>) -> Vec<Completion> {
    let Some(ty) = written_buffer_type(cx) else { return Vec::new() };
    let text = format!("#handshake<timing {{{}}}>", ty.timing());
    let mut completion =
        cx.completion(&text, CompletionKind::Attribute, Insert::Text(text.clone()));
    completion.detail = Some(format!("the latencies of {}", ty.name()));
    vec![completion]
}

// ---- attribute keys -----------------------------------------------------------------------

fn keys(cx: &Cx<'_, '_>, keys: &[(&str, &str)], kind: CompletionKind) -> Vec<Completion> {
    keys.iter()
        .map(|(key, doc)| {
            let mut completion = cx.completion(key, kind, Insert::Text(format!("{key} = ")));
            completion.documentation = Some(doc.to_string());
            completion
        })
        .collect()
}

/// The op named on the cursor's line, or around the cursor in the tree.
fn dict_op_name(cx: &Cx<'_, '_>) -> Option<String> {
    let line = &cx.text[cx.line_start..usize::from(cx.replace.start())];
    let tokens = lex_line(line);
    if let Some((_, name)) = line_op_name(&tokens) {
        return Some(name.to_string());
    }
    let (_, node) = cx.node_at_cursor()?;
    let op = node.ancestors().find_map(hsir_parser::ast::Op::cast)?;
    op.name().map(str::to_string)
}

fn attribute_keys(cx: &Cx<'_, '_>, owner: DictOwner) -> Vec<Completion> {
    use crate::ops::{attributes, AttrPlace};
    let kind = CompletionKind::Attribute;
    let name = dict_op_name(cx).unwrap_or_default();
    let (place, function) = match owner {
        DictOwner::Function => (AttrPlace::Op, true),
        DictOwner::HwParameters => (AttrPlace::HwParameters, false),
        DictOwner::Op => (AttrPlace::Op, is_function_like(&name)),
    };
    let op = OpKind::from_name(&name);
    // A buffer's `hw.parameters` whatever op the dictionary is found in.
    let op = match owner {
        DictOwner::HwParameters if op != Some(OpKind::Init) => Some(OpKind::Buffer),
        _ => op,
    };
    let mut list: Vec<(&str, &str)> =
        attributes(place, op, function).filter(|a| a.offered).map(|a| (a.key, a.short)).collect();
    // `hw.constant` is not a Handshake op; its value is written as a constant's.
    if owner == DictOwner::Op && op.is_none() && name == "hw.constant" {
        list.insert(0, ("value", "the constant's value, typed"));
    }
    keys(cx, &list, kind)
}

// ---- ops ----------------------------------------------------------------------------------

/// The snippet of an op after its name, as CIRCT and as Dynamatic write it, and a line of
/// documentation. `<T>` is a data channel type, `<C>` control, `<B>` a one-bit condition,
/// spelled for the function's style (`spell`). Ops without one are offered by name.
fn snippet(kind: OpKind) -> Option<(&'static str, &'static str, &'static str)> {
    use OpKind::*;
    let same = |tail: &'static str, doc: &'static str| Some((tail, tail, doc));
    match kind {
        Fork => same(" [${1:2}] ${2:%x} : ${3:<T>}", "copies a token to N outputs (eager)"),
        LazyFork => same(" [${1:2}] ${2:%x} : ${3:<T>}", "copies a token when every output is ready"),
        Join => Some((" ${1:%a}, ${2:%b} : ${3:<C>}, ${4:<C>}", " ${1:%a}, ${2:%b} : ${3:<C>}", "waits for a token on every input")),
        Merge => same(" ${1:%a}, ${2:%b} : ${3:<T>}", "passes on whichever input has a token"),
        Mux => Some((" ${1:%sel} [${2:%a}, ${3:%b}] : ${4:index}, ${5:<T>}", " ${1:%sel} [${2:%a}, ${3:%b}] : ${4:<B>}, [${5:<T>}, ${5:<T>}] to ${5:<T>}", "passes on the input the select token names")),
        ControlMerge => Some((" ${1:%a}, ${2:%b} : ${3:<C>}, ${4:index}", " [${1:%a}, ${2:%b}] : [${3:<C>}, ${3:<C>}] to ${3:<C>}, ${4:<B>}", "merge that also says which input fired")),
        Br => same(" ${1:%x} : ${2:<T>}", "passes a token on"),
        CondBr => Some((" ${1:%cond}, ${2:%x} : ${3:<T>}", " ${1:%cond}, ${2:%x} : ${3:<B>}, ${4:<T>}", "steers a token to the true or the false output")),
        Sink => same(" ${1:%x} : ${2:<T>}", "discards tokens"),
        Source => Some(("", " : <>", "produces control tokens continuously")),
        Constant => Some((" ${1:%ctrl} {value = ${2:0} : ${3:i32}} : ${3:i32}", " ${1:%ctrl} {value = ${2:0} : ${3:i32}} : <>, <${3:i32}>", "emits its value on each control token")),
        Buffer => Some((" [${1:2}] ${2|seq,fifo|} ${3:%x} : ${4:<T>}", " ${1:%x} {hw.parameters = {BUFFER_TYPE = \"${2:ONE_SLOT_BREAK_DV}\", NUM_SLOTS = ${3:1} : ui32}} : ${4:<T>}", "holds tokens; breaks timing paths")),
        Load => Some((" [${1:%addr}] ${2:%data}, ${3:%ctrl} : ${4:index}, ${5:i32}", " [${1:%addr}] ${2:%data} : ${3:<i32>}, ${4:<T>}, ${3:<i32>}, ${4:<T>}", "reads memory: address out, data back")),
        Store => Some((" [${1:%addr}] ${2:%data}, ${3:%ctrl} : ${4:index}, ${5:i32}", " [${1:%addr}] ${2:%data} : ${3:<i32>}, ${4:<T>}, ${3:<i32>}, ${4:<T>}", "writes memory: address and data out")),
        Select => Some((" ${1:%cond}, ${2:%t}, ${3:%f} : ${4:<T>}", " ${1:%cond} [${2:%t}, ${3:%f}] : ${4:<B>}, ${5:<T>}", "picks one of two values by a condition")),
        Not => same(" ${1:%x} : ${2:<B>}", "logical negation"),
        Sync => same(" ${1:%a}, ${2:%b} : ${3:<C>}, ${4:<T>}", "passes tokens on together"),
        Instance => same(" @${1:callee}(${2:%x}) : (${3:<T>}) -> ${4:<T>}", "instantiates another handshake.func"),
        Return => same(" ${1:%x} : ${2:<T>}", "the function's outputs"),
        End => same(" ${1:%x} : ${2:<T>}", "the function's outputs (Dynamatic)"),
        ExtMemory => same(" [ld = ${1:1}, st = ${2:1}] (${3:%mem} : ${4:memref<16xi32>}) (${5:%st_data}, ${6:%st_addr}, ${7:%ld_addr}) {id = ${8:0} : i32} : (i32, index, index) -> (i32, none, none)", "an external memory's ports"),
        Memory => same(" [ld = ${1:1}, st = ${2:1}] (${3:%st_data}, ${4:%st_addr}, ${5:%ld_addr}) {id = ${6:0} : i32, lsq = false} : ${7:memref<16xi32>}, (i32, index, index) -> (i32, none, none)", "an on-chip memory and its ports"),
        Init => Some((" ${1:%x} : ${2:<B>}", " ${1:%x} {hw.parameters = {INITIAL_TOKEN = ${2:0} : i1}} : ${3:<B>}", "emits an initial token, then passes tokens on")),
        // LOOM's loop ops (analysis/test_data/diagnostics/HS30*.mlir).
        Stream => same(" ${1:%start}, ${2:%step}, ${3:%bound} {step_op = \"${4:+=}\", cont_cond = \"${5:<}\"} : (index, index, index) -> (index, i1)", "an index stream and its will-continue condition"),
        Gate => same(" ${1:%value}, ${2:%cond} : ${3:index}, i1 -> ${3:index}, i1", "aligns a stream with its after-condition"),
        Carry => same(" ${1:%cond}, ${2:%init}, ${3:%next} : i1, ${4:<C>}, ${4:<C>} -> ${4:<C>}", "a loop-carried value keyed by a condition"),
        Invariant => same(" ${1:%cond}, ${2:%value} : i1, ${3:<T>} -> ${3:<T>}", "repeats a loop-invariant value per iteration"),
        PipelineScheduled => same("(${1:%a0} : ${2:i32} = ${3:%arg0}) clock(${4:%clk}) reset(${5:%rst}) go(${6:%go}) entryEn(${7:%s0_enable}) -> (${8:out} : ${2:i32}) {\n  $0\n}", "a scheduled pipeline; stages are its blocks"),
        PipelineStage => same(" ^${1:bb1}", "ends a stage and names the next one"),
        PipelineReturn => same(" ${1:%x} : ${2:i32}", "the pipeline's outputs, ending the last stage"),
        // The region's terminator is added after the cursor (`op_snippet`).
        PipelineLatency => same(" ${1:1} -> (${2:i32}) {\n  $0\n  ", "a multi-cycle computation whose results are ready after N stages"),
        PipelineSrc => same(" ${1:%x} : ${2:i32}", "reads a value of an earlier stage (before register materialization)"),
        _ => None,
    }
}

/// The Handshake ops offered first, with their syntax, in this order; the rest of the era's
/// ops follow by name.
const EVERYDAY_OPS: &[OpKind] = &[
    OpKind::Fork,
    OpKind::LazyFork,
    OpKind::Join,
    OpKind::Merge,
    OpKind::Mux,
    OpKind::ControlMerge,
    OpKind::Br,
    OpKind::CondBr,
    OpKind::Sink,
    OpKind::Source,
    OpKind::Constant,
    OpKind::Buffer,
    OpKind::Load,
    OpKind::Store,
    OpKind::Select,
    OpKind::Not,
    OpKind::Sync,
    OpKind::Instance,
    OpKind::Return,
    OpKind::End,
    OpKind::ExtMemory,
    OpKind::Memory,
    OpKind::Init,
];

const ARITH_SNIPPET: &str = " ${1:%a}, ${2:%b} : ${3:<T>}";
const CAST_SNIPPET: &str = " ${1:%x} : ${2:<T>} to ${3:<T>}";

fn spell(template: &str, style: Style) -> String {
    let (data, control, bit) = match style {
        Style::Circt => ("i32", "none", "i1"),
        Style::Dynamatic => ("<i32>", "<>", "<i1>"),
    };
    template.replace("<T>", data).replace("<C>", control).replace("<B>", bit)
}

/// The whole snippet of an op that has one: its label, then its tail for `style`.
fn op_snippet(kind: OpKind, label: &str, style: Style) -> Option<(String, &'static str)> {
    let (circt, dynamatic, doc) = snippet(kind)?;
    let tail = if style == Style::Circt { circt } else { dynamatic };
    let mut text = format!("{label}{}", spell(tail, style));
    if kind == OpKind::PipelineLatency {
        // `pipeline.latency.return ${3:%x} : ${2:i32}` closes the region.
        let ret = OpKind::PipelineLatencyReturn.key();
        text.push_str(&format!("{ret} ${{3:%x}} : ${{2:i32}}\n}}"));
    }
    Some((text, doc))
}

fn op_completion(
    cx: &Cx<'_, '_>,
    label: &str,
    snippet: String,
    doc: &str,
    detail: &str,
) -> Completion {
    let mut completion = cx.completion(label, CompletionKind::Op, Insert::Snippet(snippet));
    completion.detail = Some(detail.to_string());
    completion.documentation = Some(doc.to_string());
    completion
}

fn handshake_ops(cx: &Cx<'_, '_>, out: &mut Vec<Completion>) {
    let style = cx.style();
    let era = cx.era();
    let in_era = |kind: OpKind| {
        // LOOM's ops are offered in every CIRCT-style function.
        kind.def().eras.contains(&era) || (kind.is_loom() && style == Style::Circt)
    };
    // The everyday ops first, with their syntax; then the rest of the era's ops by name.
    for &kind in EVERYDAY_OPS {
        let label = kind.key();
        let Some((text, doc)) = op_snippet(kind, label, style).filter(|_| in_era(kind)) else {
            continue;
        };
        out.push(op_completion(cx, label, text, doc, "handshake"));
    }
    for kind in OpKind::all() {
        let def = kind.def();
        let (dialect, short) = def.names[0];
        let plain = matches!(
            def.family,
            Family::Routing
                | Family::Buffer
                | Family::Memory
                | Family::Signals
                | Family::Speculation
        );
        if dialect != Dialect::Handshake || !plain || EVERYDAY_OPS.contains(&kind) || !in_era(kind)
        {
            continue;
        }
        out.push(op_completion(cx, short, format!("{short} $0"), def.doc, "handshake"));
    }
    for kind in OpKind::all().filter(|k| k.is_loom()) {
        let label = kind.key();
        if let Some((text, doc)) = op_snippet(kind, label, style) {
            out.push(op_completion(cx, label, text, doc, "LOOM dataflow"));
        }
    }
    for kind in OpKind::all() {
        let def = kind.def();
        let tail = match def.typing {
            Typing::Binary => ARITH_SNIPPET.to_string(),
            Typing::Cast if def.family == Family::Cast => CAST_SNIPPET.to_string(),
            Typing::Compare => " ${1:eq}, ${2:%a}, ${3:%b} : ${4:<T>}".to_string(),
            _ => continue,
        };
        let Some(&(dialect, short)) = def.names.iter().find(|(d, _)| *d == Dialect::Arith) else {
            continue;
        };
        let label = format!("{}{short}", dialect.prefix());
        out.push(op_completion(
            cx,
            &label,
            spell(&format!("{label}{tail}"), style),
            def.doc,
            "arith",
        ));
    }
    for completion in out.iter_mut() {
        if completion.documentation.as_deref() == Some("") {
            completion.documentation = None;
        }
    }
}

/// The pipeline ops that go inside a pipeline (`inside`), or the pipeline itself.
fn pipeline_ops(cx: &Cx<'_, '_>, inside: bool, out: &mut Vec<Completion>) {
    for kind in OpKind::all().filter(|k| k.is_pipeline()) {
        let stage_op = kind != OpKind::PipelineScheduled;
        let label = kind.key();
        let Some((text, doc)) = op_snippet(kind, label, Style::Circt) else { continue };
        if stage_op == inside {
            out.push(op_completion(cx, label, text, doc, "pipeline"));
        }
    }
}

fn ops(cx: &Cx<'_, '_>) -> Vec<Completion> {
    let owner = cx.region_owner().unwrap_or_default();
    let mut out = Vec::new();
    if OpKind::from_name(&owner) == Some(OpKind::Func) {
        handshake_ops(cx, &mut out);
    } else if owner.starts_with(Dialect::Pipeline.prefix()) {
        pipeline_ops(cx, true, &mut out);
    } else if owner.starts_with("hw.module") {
        pipeline_ops(cx, false, &mut out);
        out.push(op_completion(
            cx,
            "hw.output",
            "hw.output ${1:%x} : ${2:i32}".to_string(),
            "the module's outputs",
            "hw",
        ));
        out.push(op_completion(cx, "hw.instance", "hw.instance \"${1:name}\" @${2:module}(${3:a}: ${4:%x}: ${5:i32}) -> (${6:out}: ${7:i32})".to_string(), "instantiates a module", "hw"));
    } else {
        handshake_ops(cx, &mut out);
        pipeline_ops(cx, true, &mut out);
        pipeline_ops(cx, false, &mut out);
    }
    out
}

fn top_level(cx: &Cx<'_, '_>) -> Vec<Completion> {
    let style = cx.style();
    let signature = match style {
        Style::Circt => " @${1:name}(${2:%a}: ${3:i32}, ${4:%ctrl}: none) -> (${3:i32}, none) {\n  $0\n}",
        Style::Dynamatic => " @${1:name}(${2:%a}: !handshake.channel<${3:i32}>, ${4:%start}: !handshake.control<>) -> (!handshake.channel<${3:i32}>, !handshake.control<>) attributes {argNames = [\"${2:a}\", \"start\"], resNames = [\"out0\", \"end\"]} {\n  $0\n}",
    };
    let func = OpKind::Func.full_name();
    vec![
        op_completion(cx, &func, format!("{func}{signature}"), "a dataflow circuit", "handshake"),
        op_completion(
            cx,
            "hw.module",
            "hw.module @${1:name}(in %${2:a} : ${3:i32}, out ${4:out} : ${3:i32}) {\n  $0\n}"
                .to_string(),
            "a hardware module",
            "hw",
        ),
        op_completion(
            cx,
            "module",
            "module {\n  $0\n}".to_string(),
            "a module holding items",
            "builtin",
        ),
    ]
}
