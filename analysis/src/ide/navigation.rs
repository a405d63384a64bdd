//! Go to definition, find references, document highlight and rename for the three kinds of
//! names an MLIR engineer navigates by: SSA values (`%x`, `%x#1`, `%x:2` groups), block labels
//! (`^bb1`, defined by a block and used by branches and `pipeline.stage`) and `@symbols`
//! (function names, callees and instances, across files).
//!
//! Every feature first finds what the cursor names (`Target`), then lists that target's
//! occurrences (`occurrences`); definition, references, highlight and rename are views of that
//! one list. Values and block labels come from the lowered item (`ir::Item`, whose uses are
//! already resolved with MLIR's scoping); symbols resolve as calls do (`Analysis::resolve`), so
//! a symbol in one `// -----` case never reaches another case of its file.
//!
//! A use `%x#1` names the group `%x`: its definition is the group's name, its references are
//! every use of any result of the group, and renaming the group rewrites only the `x` of
//! `%x#1`.

use std::collections::HashMap;

use hsir_parser::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};

use crate::db::{Analysis, FileId, ItemView};
use crate::ide::{token_at, FilePosition, FileRange};
use crate::ir::{Def, OpId, RegionId, ValueId};
use crate::TextEdit;

/// Where a name is defined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavTarget {
    pub file: FileId,
    /// The defining construct: the op whose result it is, the block whose argument or label it
    /// is, the function whose argument or name it is.
    pub full_range: TextRange,
    /// The name itself, sigil included.
    pub focus_range: TextRange,
}

/// One occurrence of the name under the cursor in the same file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Highlight {
    pub range: TextRange,
    /// Whether this occurrence defines the name.
    pub write: bool,
}

/// The definition of the name at `pos` (empty when the cursor is on no name, or on a name that
/// is not defined).
pub fn definition(analysis: &Analysis<'_>, pos: FilePosition) -> Vec<NavTarget> {
    let Some(target) = target_at(analysis, pos) else { return Vec::new() };
    target.definition().into_iter().collect()
}

/// Every occurrence of the name at `pos`: uses of a value group, branches to a block, `@name`
/// references in every file that resolve to the same function. The definition is listed too
/// when `include_declaration` is set. Ranges cover the whole written name (`%x#1`, `@f`).
pub fn references(
    analysis: &Analysis<'_>,
    pos: FilePosition,
    include_declaration: bool,
) -> Vec<FileRange> {
    let Some(target) = target_at(analysis, pos) else { return Vec::new() };
    occurrences(analysis, &target)
        .into_iter()
        .filter(|o| include_declaration || !o.definition)
        .map(|o| FileRange { file: o.file, range: o.range })
        .collect()
}

/// The occurrences of the name at `pos` in its own file; the definition is the write.
pub fn highlight(analysis: &Analysis<'_>, pos: FilePosition) -> Vec<Highlight> {
    let Some(target) = target_at(analysis, pos) else { return Vec::new() };
    occurrences(analysis, &target)
        .into_iter()
        .filter(|o| o.file == pos.file)
        .map(|o| Highlight { range: o.range, write: o.definition })
        .collect()
}

/// The range of the name at `pos` without its sigil (and without a `#N` index or the quotes of
/// a quoted symbol): what a rename replaces. An error says why the cursor's token cannot be
/// renamed.
pub fn prepare_rename(analysis: &Analysis<'_>, pos: FilePosition) -> Result<TextRange, String> {
    let target = target_for_rename(analysis, pos)?;
    let occurrences = occurrences(analysis, &target);
    occurrences
        .iter()
        .find(|o| o.file == pos.file && o.range.contains_inclusive(pos.offset))
        .map(|o| o.name_range)
        .ok_or_else(|| "the name under the cursor has no occurrence to rename".to_string())
}

/// The edits that rename the name at `pos` to `new_name` everywhere it occurs. `new_name` may
/// be written with or without its sigil (`%sum` or `sum`). Errors: the cursor is on no name, the
/// new name is not a valid MLIR name of that kind, or it is already taken in the scope (an
/// item's values; a region's block labels; the functions a referencing case can see).
pub fn rename(
    analysis: &Analysis<'_>,
    pos: FilePosition,
    new_name: &str,
) -> Result<Vec<(FileId, TextEdit)>, String> {
    let target = target_for_rename(analysis, pos)?;
    let bare = valid_name(&target, new_name)?;
    let occurrences = occurrences(analysis, &target);
    let old = target.name();
    if old == bare {
        return Ok(Vec::new());
    }
    check_free(analysis, &target, &occurrences, &bare)?;
    let mut edits: Vec<(FileId, TextEdit)> = occurrences
        .iter()
        .map(|o| (o.file, TextEdit { range: o.name_range, new_text: bare.clone() }))
        .collect();
    edits.sort_by_key(|(file, edit)| (*file, edit.range.start(), edit.range.end()));
    edits.dedup();
    Ok(edits)
}

/// What a name at the cursor refers to.
enum Target<'a> {
    /// A value group: all results of one op written under one name, or one argument.
    Value { item: ItemView<'a>, values: Vec<ValueId> },
    /// A labelled block of a region.
    Block { item: ItemView<'a>, region: RegionId, block: u32 },
    /// A function (or other item with a signature) by its defining item.
    Symbol { item: ItemView<'a>, name: String },
}

/// One place a target's name is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Occurrence {
    file: FileId,
    /// The written name, sigil and `#N` included.
    range: TextRange,
    /// The part a rename replaces.
    name_range: TextRange,
    definition: bool,
}

impl<'a> Target<'a> {
    fn item(&self) -> &ItemView<'a> {
        match self {
            Target::Value { item, .. }
            | Target::Block { item, .. }
            | Target::Symbol { item, .. } => item,
        }
    }

    /// The name without its sigil.
    fn name(&self) -> String {
        match self {
            Target::Value { item, values } => {
                let value = &item.lowered.item.values[values[0] as usize];
                item.lowered.item.str(value.name()).trim_start_matches('%').to_string()
            }
            Target::Block { item, block, .. } => {
                let ir = &item.lowered.item;
                ir.blocks[*block as usize].label.map_or(String::new(), |label| {
                    ir.str(label).trim_start_matches('^').to_string()
                })
            }
            Target::Symbol { name, .. } => name.clone(),
        }
    }

    fn sigil(&self) -> char {
        match self {
            Target::Value { .. } => '%',
            Target::Block { .. } => '^',
            Target::Symbol { .. } => '@',
        }
    }

    fn definition(&self) -> Option<NavTarget> {
        let item = self.item();
        let ir = &item.lowered.item;
        match self {
            Target::Value { values, .. } => {
                let value = &ir.values[values[0] as usize];
                let full = match value.def {
                    Def::Result { op, .. } => ir.ops[op as usize].range,
                    Def::Arg { block, .. } => {
                        let labelled = ir.blocks[block as usize].label.is_some();
                        match block_node(item, block) {
                            Some(node) if labelled => {
                                item.syntax_abs(node.text_range()) - item.start
                            }
                            _ => {
                                let region = ir.blocks[block as usize].region;
                                ir.ops[ir.regions[region as usize].owner as usize].range
                            }
                        }
                    }
                };
                Some(NavTarget {
                    file: item.file,
                    full_range: item.abs(full),
                    focus_range: item.abs(value.range),
                })
            }
            Target::Block { block, .. } => {
                let label = ir.blocks[*block as usize].label?.range();
                let full = block_node(item, *block)
                    .map_or(item.abs(label), |n| item.syntax_abs(n.text_range()));
                Some(NavTarget { file: item.file, full_range: full, focus_range: item.abs(label) })
            }
            Target::Symbol { .. } => {
                let signature = ir.ops.first()?.signature.as_ref()?;
                let (_, range) = signature.name.as_ref()?;
                Some(NavTarget {
                    file: item.file,
                    full_range: item.range(),
                    focus_range: item.abs(*range),
                })
            }
        }
    }
}

/// The target at `pos`, or why there is none, for rename.
fn target_for_rename<'a>(analysis: &Analysis<'a>, pos: FilePosition) -> Result<Target<'a>, String> {
    let item = analysis
        .item_at(pos.file, pos.offset)
        .ok_or_else(|| "not a value, block label or symbol".to_string())?;
    let token = name_token_at(&item, pos.offset)
        .ok_or_else(|| "not a value, block label or symbol".to_string())?;
    let text = token.text();
    if !is_name(token.kind()) {
        return Err("not a value, block label or symbol".to_string());
    }
    target_at(analysis, pos).ok_or_else(|| match token.kind() {
        SyntaxKind::VALUE_ID => format!("`{text}` is not defined here"),
        SyntaxKind::CARET_ID => format!("no block labelled `{text}` in this region"),
        _ => format!("`{text}` is not a function of the workspace"),
    })
}

fn is_name(kind: SyntaxKind) -> bool {
    matches!(kind, SyntaxKind::VALUE_ID | SyntaxKind::CARET_ID | SyntaxKind::AT_ID)
}

/// The token at `offset`, preferring a name that ends there over the punctuation that follows
/// it (the cursor in `%x|:2` or `@f|(` is on the name).
fn name_token_at<'a>(item: &ItemView<'a>, offset: TextSize) -> Option<SyntaxToken<'a>> {
    let token = token_at(item, offset)?;
    if is_name(token.kind()) {
        return Some(token);
    }
    let before = offset.checked_sub(TextSize::from(1)).and_then(|b| token_at(item, b));
    match before {
        Some(b) if is_name(b.kind()) && item.syntax_abs(b.text_range()).end() == offset => Some(b),
        _ => Some(token),
    }
}

/// What the token at `pos` names.
fn target_at<'a>(analysis: &Analysis<'a>, pos: FilePosition) -> Option<Target<'a>> {
    let item = analysis.item_at(pos.file, pos.offset)?;
    let token = name_token_at(&item, pos.offset)?;
    let abs = item.syntax_abs(token.text_range());
    let local = abs.checked_sub(item.start)?;
    let ir = &item.lowered.item;
    match token.kind() {
        SyntaxKind::VALUE_ID => {
            let value = match ir.uses.iter().find(|u| u.range == local) {
                Some(use_) => use_.value?,
                None => ir.values.iter().position(|v| v.range == local)? as ValueId,
            };
            Some(Target::Value { item, values: group(&item, value) })
        }
        SyntaxKind::CARET_ID => {
            if token.parent().kind() == SyntaxKind::BLOCK_LABEL {
                let block =
                    ir.blocks.iter().position(|b| b.label.is_some_and(|l| l.range() == local))?;
                let region = ir.blocks[block].region;
                return Some(Target::Block { item, region, block: block as u32 });
            }
            let ops = op_index(&item);
            let region = successor_region(&item, &ops, token)?;
            let block = block_labelled(&item, region, token.text())?;
            Some(Target::Block { item, region, block })
        }
        SyntaxKind::AT_ID => {
            let name = symbol_name(token.text());
            let own = ir
                .ops
                .first()
                .and_then(|op| op.signature.as_ref())
                .and_then(|s| s.name.as_ref())
                .is_some_and(|(_, r)| *r == local);
            let is_function = item.lowered.callee.as_ref().is_some_and(|(n, _)| *n == name);
            if own && is_function {
                return Some(Target::Symbol { item, name });
            }
            let defining = analysis.resolve(&name, item.file, item.case)?;
            Some(Target::Symbol { item: defining, name })
        }
        _ => None,
    }
}

/// The values of `value`'s group: every result of its op written under its name, or the
/// argument alone.
fn group(item: &ItemView<'_>, value: ValueId) -> Vec<ValueId> {
    let ir = &item.lowered.item;
    let data = &ir.values[value as usize];
    match data.def {
        Def::Result { op, .. } => ir
            .results(&ir.ops[op as usize])
            .iter()
            .copied()
            .filter(|&v| ir.str(ir.values[v as usize].name()) == ir.str(data.name()))
            .collect(),
        Def::Arg { .. } => vec![value],
    }
}

/// A symbol's name as functions are keyed: `@f` and `@"f"` are both `f`.
fn symbol_name(text: &str) -> String {
    text.trim_start_matches('@').trim_matches('"').to_string()
}

/// The ops of an item by their range relative to it, to find the `OpId` of an `OP` node.
fn op_index(item: &ItemView<'_>) -> HashMap<TextRange, OpId> {
    item.lowered.item.ops.iter().enumerate().map(|(id, op)| (op.range, id as OpId)).collect()
}

/// The op of the innermost `OP` node holding `node`.
fn op_of(
    item: &ItemView<'_>,
    ops: &HashMap<TextRange, OpId>,
    node: SyntaxNode<'_>,
) -> Option<OpId> {
    let op = node.ancestors().find(|n| n.kind() == SyntaxKind::OP)?;
    let local = item.syntax_abs(op.text_range()).checked_sub(item.start)?;
    ops.get(&local).copied()
}

/// The region whose blocks a successor token (`^bb1` of `cf.br ^bb1`) may name: the region of
/// the block holding its op, as MLIR requires of successors.
fn successor_region(
    item: &ItemView<'_>,
    ops: &HashMap<TextRange, OpId>,
    token: SyntaxToken<'_>,
) -> Option<RegionId> {
    let op = op_of(item, ops, token.parent())?;
    let ir = &item.lowered.item;
    let block = ir.ops[op as usize].block?;
    Some(ir.blocks[block as usize].region)
}

fn block_labelled(item: &ItemView<'_>, region: RegionId, label: &str) -> Option<u32> {
    let ir = &item.lowered.item;
    ir.regions[region as usize]
        .blocks
        .iter()
        .copied()
        .find(|&b| ir.blocks[b as usize].label.is_some_and(|name| ir.str(name) == label))
}

/// The `BLOCK` node of a labelled block, found from its label.
fn block_node<'a>(item: &ItemView<'a>, block: u32) -> Option<SyntaxNode<'a>> {
    let label = item.lowered.item.blocks.get(block as usize)?.label?;
    let abs = item.abs(label.range());
    let local = item.syntax_base.local_range(abs)?;
    let root = hsir_parser::ast::AstNode::syntax(&item.syntax);
    if !root.text_range().contains_range(local) {
        return None;
    }
    root.covering_node(local).ancestors().find(|n| n.kind() == SyntaxKind::BLOCK)
}

/// Every occurrence of the target, in file then text order.
fn occurrences(analysis: &Analysis<'_>, target: &Target<'_>) -> Vec<Occurrence> {
    let mut out = Vec::new();
    match target {
        Target::Value { item, values } => {
            let ir = &item.lowered.item;
            let def = ir.values[values[0] as usize].range;
            out.push(Occurrence {
                file: item.file,
                range: item.abs(def),
                name_range: item.abs(name_part(def, ir.str(ir.values[values[0] as usize].name()))),
                definition: true,
            });
            for &value in values {
                for &use_ in ir.value_uses(&ir.values[value as usize]) {
                    let data = &ir.uses[use_ as usize];
                    out.push(Occurrence {
                        file: item.file,
                        range: item.abs(data.range),
                        name_range: item.abs(name_part(data.range, ir.str(data.text()))),
                        definition: false,
                    });
                }
            }
        }
        Target::Block { item, region, block } => {
            let ir = &item.lowered.item;
            if let Some(name) = ir.blocks[*block as usize].label {
                let (label, range) = (ir.str(name), name.range());
                out.push(Occurrence {
                    file: item.file,
                    range: item.abs(range),
                    name_range: item.abs(name_part(range, label)),
                    definition: true,
                });
                let ops = op_index(item);
                let root = hsir_parser::ast::AstNode::syntax(&item.syntax);
                for token in root.tokens() {
                    if token.kind() != SyntaxKind::CARET_ID
                        || token.text() != label
                        || token.parent().kind() == SyntaxKind::BLOCK_LABEL
                    {
                        continue;
                    }
                    if successor_region(item, &ops, token) != Some(*region) {
                        continue;
                    }
                    let range = item.syntax_abs(token.text_range());
                    out.push(Occurrence {
                        file: item.file,
                        range,
                        name_range: name_part(range, token.text()),
                        definition: false,
                    });
                }
            }
        }
        Target::Symbol { item: defining, name } => {
            for file in analysis.files() {
                for item in analysis.items(file) {
                    symbol_occurrences(analysis, &item, defining, name, &mut out);
                }
            }
        }
    }
    out.sort_by_key(|o| (o.file, o.range.start(), o.range.end()));
    out.dedup();
    out
}

/// The `@name` tokens of `item` that mean the function defined by `defining`.
fn symbol_occurrences(
    analysis: &Analysis<'_>,
    item: &ItemView<'_>,
    defining: &ItemView<'_>,
    name: &str,
    out: &mut Vec<Occurrence>,
) {
    let same = |a: &ItemView<'_>, b: &ItemView<'_>| a.file == b.file && a.start == b.start;
    let own_name = item
        .lowered
        .item
        .ops
        .first()
        .and_then(|op| op.signature.as_ref())
        .and_then(|s| s.name.as_ref())
        .map(|(_, r)| item.abs(*r));
    // Resolution depends on the item's file and case only, so one lookup serves every token.
    let mut resolves_here: Option<bool> = None;
    let root = hsir_parser::ast::AstNode::syntax(&item.syntax);
    for token in root.tokens() {
        if token.kind() != SyntaxKind::AT_ID || symbol_name(token.text()) != name {
            continue;
        }
        let range = item.syntax_abs(token.text_range());
        let definition = own_name == Some(range);
        let means_target = if definition {
            same(item, defining)
        } else {
            *resolves_here.get_or_insert_with(|| {
                analysis.resolve(name, item.file, item.case).is_some_and(|d| same(&d, defining))
            })
        };
        if means_target {
            out.push(Occurrence {
                file: item.file,
                range,
                name_range: name_part(range, token.text()),
                definition,
            });
        }
    }
}

/// The part of a written name a rename replaces: after the sigil, before a `#N` index, inside
/// the quotes of a quoted symbol.
fn name_part(range: TextRange, text: &str) -> TextRange {
    let mut start = 1usize.min(text.len());
    let mut end = text.find('#').filter(|&i| text.starts_with('%') && i > 0).unwrap_or(text.len());
    if text[start..end].len() >= 2 && text[start..end].starts_with('"') && text.ends_with('"') {
        start += 1;
        end -= 1;
    }
    TextRange::new(
        range.start() + TextSize::from(start as u32),
        range.start() + TextSize::from(end as u32),
    )
}

/// `new_name` without its sigil, if it is a valid name for the target: a suffix-id
/// (`[A-Za-z_$.-][A-Za-z0-9_$.-]*` or digits) for values and block labels, a bare identifier
/// (`[A-Za-z_][A-Za-z0-9_$.]*`) for symbols, or any text without quotes and line breaks for a
/// symbol written quoted.
fn valid_name(target: &Target<'_>, new_name: &str) -> Result<String, String> {
    let sigil = target.sigil();
    let bare = new_name.strip_prefix(sigil).unwrap_or(new_name);
    let what = match target {
        Target::Value { .. } => "value",
        Target::Block { .. } => "block label",
        Target::Symbol { .. } => "symbol",
    };
    if bare.is_empty() {
        return Err(format!("the new {what} name is empty"));
    }
    let quoted_symbol = matches!(target, Target::Symbol { .. })
        && target_is_quoted(target)
        && !bare.contains(['"', '\\', '\n', '\r']);
    let punct = |c: char| matches!(c, '_' | '$' | '.' | '-');
    let ok = match target {
        Target::Value { .. } | Target::Block { .. } => {
            bare.chars().all(|c| c.is_ascii_digit())
                || (bare.starts_with(|c: char| c.is_ascii_alphabetic() || punct(c))
                    && bare.chars().all(|c| c.is_ascii_alphanumeric() || punct(c)))
        }
        Target::Symbol { .. } => {
            quoted_symbol
                || (bare.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                    && bare
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')))
        }
    };
    if ok {
        Ok(bare.to_string())
    } else {
        Err(format!("`{new_name}` is not a valid {what} name"))
    }
}

/// Whether the target's definition is written as a quoted symbol (`@"name"`).
fn target_is_quoted(target: &Target<'_>) -> bool {
    let Target::Symbol { item, .. } = target else { return false };
    let signature = item.lowered.item.ops.first().and_then(|op| op.signature.as_ref());
    signature.and_then(|s| s.name.as_ref()).is_some_and(|(name, _)| name.starts_with("@\""))
}

/// Refuses a new name that is already taken where the target's occurrences live.
fn check_free(
    analysis: &Analysis<'_>,
    target: &Target<'_>,
    occurrences: &[Occurrence],
    bare: &str,
) -> Result<(), String> {
    match target {
        Target::Value { item, values } => {
            let ir = &item.lowered.item;
            let new = format!("%{bare}");
            let taken = ir
                .values
                .iter()
                .enumerate()
                .any(|(id, v)| ir.str(v.name()) == new && !values.contains(&(id as ValueId)));
            // An undefined use of the new name would start to mean the renamed value.
            let dangling = ir.uses.iter().any(|u| {
                u.value.is_none() && ir.str(u.text()).split('#').next() == Some(new.as_str())
            });
            if taken || dangling {
                return Err(format!("`{new}` is already used in {}", item_name(item)));
            }
        }
        Target::Block { item, region, .. } => {
            let new = format!("^{bare}");
            if block_labelled(item, *region, &new).is_some() {
                return Err(format!("a block of this region is already labelled `{new}`"));
            }
        }
        Target::Symbol { item: defining, .. } => {
            let new = format!("@{bare}");
            let mut seen: Vec<(FileId, u32)> = vec![(defining.file, defining.case)];
            for o in occurrences {
                if let Some(item) = analysis.item_at(o.file, o.range.start()) {
                    if !seen.contains(&(item.file, item.case)) {
                        seen.push((item.file, item.case));
                    }
                }
            }
            for (file, case) in seen {
                if let Some(other) = analysis.resolve(bare, file, case) {
                    return Err(format!(
                        "a function named `{new}` already exists ({})",
                        item_name(&other)
                    ));
                }
            }
            // Other symbol-defining ops of the case (`memref.global @g`, `hw.module.extern`).
            let clash = analysis.items(defining.file).into_iter().any(|item| {
                item.case == defining.case
                    && item
                        .lowered
                        .item
                        .ops
                        .first()
                        .and_then(|op| op.symbol)
                        .is_some_and(|s| symbol_name(item.lowered.item.str(s)) == bare)
            });
            if clash {
                return Err(format!("the symbol `{new}` is already defined in this file"));
            }
        }
    }
    Ok(())
}

/// How a message names an item: `@name` of its signature, else its op name.
fn item_name(item: &ItemView<'_>) -> String {
    let op = item.lowered.item.ops.first();
    match op.and_then(|op| op.signature.as_ref()).and_then(|s| s.name.as_ref()) {
        Some((name, _)) => format!("`{name}`"),
        None => format!("this `{}`", op.map_or("op", |op| &*op.name)),
    }
}
