//! The structure of a file for an editor's outline, symbol search, folding and expanding
//! selection: document symbols, workspace symbols, folding ranges and selection ranges.
//!
//! The outline of a file lists its functions and modules with their signatures. Inside them it
//! shows what a hardware engineer looks for when reading a circuit, and nothing else: pipelines
//! and their stages (in stage order), labelled blocks of control-flow functions, memory
//! interfaces (`memory`, `extmemory`, `mem_controller`, `lsq`: where the circuit meets its
//! memories, and the ports the ctrl-done and LSQ lints talk about) and buffers (the placement
//! decisions, with their type and slots, which buffer placement and the timing lints are
//! about). Ordinary dataflow ops (forks, muxes, arithmetic) would drown those in a real circuit,
//! so they are left out.

use std::collections::HashMap;
use std::sync::Arc;

use hsir_parser::ast::AstNode;
use hsir_parser::{SyntaxKind, SyntaxNode, TextRange, TextSize};

use crate::dataflow::{self, BufferKind};
use crate::db::{Analysis, FileId, ItemRef, ItemView};
use crate::ide::token_at;
use crate::ir::{BlockId, Item, OpData, OpId};
use crate::ops::OpKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SymbolKind {
    /// `handshake.func`, `func.func` and other function-like ops.
    Function,
    /// `hw.module` and its variants (`hw.module.extern`, ...).
    Module,
    /// A pipeline op (`pipeline.scheduled`, `pipeline.unscheduled`, the older `pipeline.pipeline`).
    Pipeline,
    /// A block of a pipeline: one stage.
    Stage,
    /// A labelled block outside pipelines (`^bb1` of a `func.func` with branches).
    Block,
    /// A memory interface: `memory`, `extmemory`, `mem_controller`, `lsq`.
    Memory,
    /// A buffer op (or an op configured as one through `hw.parameters`).
    Buffer,
    /// An `instance` of another function (workspace search only; the outline leaves it out).
    Instance,
}

/// One entry of a file's outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentSymbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// The whole construct.
    pub full_range: TextRange,
    /// Its name, or the token that introduces it; inside `full_range`.
    pub focus_range: TextRange,
    pub children: Vec<DocumentSymbol>,
}

/// A symbol found by a workspace search: a function or module, or an op with a name inside
/// one (a buffer, memory interface, pipeline, pipeline stage or instance).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceSymbol {
    /// `@name` for a function, as MLIR writes it; an op's `handshake.name`, else its results
    /// (`%5`); a stage's label; an instance's name followed by its callee (`inst0 @adder`).
    pub name: String,
    pub kind: SymbolKind,
    pub file: FileId,
    /// The name's range in `file`.
    pub range: TextRange,
    /// Where it is: for an op, the function holding it (`@f`); for files split with
    /// `// -----`, which case (`case 2`, counting from 1), so that same-named functions of
    /// different cases can be told apart (`@f, case 2` for an op).
    pub container: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FoldKind {
    /// A region `{...}` or an attribute dictionary spanning several lines.
    Region,
    /// A run of consecutive `//` comment lines.
    Comment,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fold {
    pub range: TextRange,
    pub kind: FoldKind,
}

/// The most workspace symbols one search returns.
pub const WORKSPACE_SYMBOL_LIMIT: usize = 256;

/// The outline of `file`: its functions and modules (items without a name contribute their
/// inner symbols directly), each with pipelines, stages, labelled blocks, memory interfaces and
/// buffers inside.
pub fn document_symbols(analysis: &Analysis<'_>, file: FileId) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    for item in analysis.item_refs(file) {
        let start = item.range.start();
        let symbols = outline_of(analysis, item);
        out.extend(symbols.iter().flat_map(|s| s.0.iter()).map(|s| s.moved(&|r| r + start)));
    }
    out
}

/// An item's outline entries, relative to its start (`Analysis::memo`).
struct ItemSymbols(Vec<DocumentSymbol>);

/// An item's outline entries, made once per item and kept (relative to it) while the item does
/// not change: editors ask for the outline after every edit.
fn outline_of(analysis: &Analysis<'_>, item: ItemRef) -> Option<Arc<ItemSymbols>> {
    let start = item.range.start();
    analysis.memo(item, |view| {
        let mut symbols = Vec::new();
        item_symbols(view, &mut symbols);
        ItemSymbols(symbols.iter().map(|s| s.moved(&|r| r - start)).collect())
    })
}

/// An item's folds, made once per item and kept (relative to it) while the item does not
/// change.
fn folds_of(analysis: &Analysis<'_>, item: ItemRef) -> Option<Arc<ItemFolds>> {
    let start = item.range.start();
    analysis.memo(item, |view| {
        let mut folds = Vec::new();
        for node in view.syntax.syntax().descendants() {
            if !matches!(node.kind(), SyntaxKind::REGION | SyntaxKind::ATTR_DICT) {
                continue;
            }
            if node.text().contains('\n') {
                let range = view.syntax_abs(node.text_range()) - start;
                folds.push(Fold { range, kind: FoldKind::Region });
            }
        }
        ItemFolds(folds)
    })
}

/// What a whole-file request keeps per item (`Analysis::memo`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WholeFile {
    Outline,
    Folds,
}

/// Makes what the outline or the folds of `file` keep per item, item by item until `stop` says
/// to; whether every item's is made. A server can answer other requests between calls.
pub fn prepare(
    analysis: &Analysis<'_>,
    file: FileId,
    what: WholeFile,
    stop: &dyn Fn() -> bool,
) -> bool {
    for item in analysis.item_refs(file) {
        if stop() {
            return false;
        }
        match what {
            WholeFile::Outline => drop(outline_of(analysis, item)),
            WholeFile::Folds => drop(folds_of(analysis, item)),
        }
    }
    true
}

impl DocumentSymbol {
    /// The entry with every range mapped.
    fn moved(&self, map: &dyn Fn(TextRange) -> TextRange) -> DocumentSymbol {
        DocumentSymbol {
            name: self.name.clone(),
            detail: self.detail.clone(),
            kind: self.kind,
            full_range: map(self.full_range),
            focus_range: map(self.focus_range),
            children: self.children.iter().map(|c| c.moved(map)).collect(),
        }
    }
}

/// The outline entries of one item, absolute.
fn item_symbols(item: &ItemView<'_>, out: &mut Vec<DocumentSymbol>) {
    let cx = ItemContext::new(item);
    let ir = &item.lowered.item;
    let Some(top) = ir.ops.first() else { return };
    let name = top.signature.as_ref().and_then(|s| s.name.as_ref());
    match name {
        Some((name, range)) => out.push(DocumentSymbol {
            name: name.clone(),
            detail: signature_detail(item),
            kind: item_kind(top),
            full_range: item.range(),
            focus_range: item.abs(*range),
            children: {
                let mut children = Vec::new();
                cx.op_children(0, &mut children);
                children
            },
        }),
        None => cx.collect(0, out),
    }
}

/// The symbols of the workspace whose name matches `query`: functions and modules, and the
/// buffers, memory interfaces, pipelines, stages and instances inside them. Case-insensitive,
/// as a subsequence (`gsn` finds `@gaussian`); ranked by `search`. An empty query lists
/// everything (up to the limit).
pub fn workspace_symbols(analysis: &Analysis<'_>, query: &str) -> Vec<WorkspaceSymbol> {
    let all = analysis.files().into_iter().flat_map(|file| file_symbols(analysis, file));
    search(query, all, |s| s)
}

/// Every symbol of one file a workspace search can find, in text order, unfiltered: for a
/// client that keeps them (the language server's index of files on disk) and ranks them with
/// others through `search`.
pub fn file_symbols(analysis: &Analysis<'_>, file: FileId) -> Vec<WorkspaceSymbol> {
    let items = analysis.item_refs(file);
    let split = items.iter().any(|i| i.case > 0);
    let mut out = Vec::new();
    for item in items {
        // Kept per item (relative to it), so a search does not read every item of a large
        // workspace again.
        let start = item.range.start();
        let Some(found) = analysis.memo(item, |view| ItemSearch(item_search(view, start))) else {
            continue;
        };
        let case = split.then(|| format!("case {}", item.case + 1));
        for entry in &found.0 {
            let container = match (&entry.function, &case) {
                (Some(f), Some(c)) => Some(format!("{f}, {c}")),
                (Some(f), None) => Some(f.clone()),
                (None, c) => c.clone(),
            };
            out.push(WorkspaceSymbol {
                name: entry.name.clone(),
                kind: entry.kind,
                file,
                range: entry.range + start,
                container,
            });
        }
    }
    out
}

/// `entries` whose symbol (`symbol`) matches `query`, best first: exact matches, then prefixes,
/// then substrings, then other subsequences (case-insensitive, a leading `@` or `%` ignored);
/// within each, functions and modules before the ops inside them, then by name; ties keep
/// the order given. At most `WORKSPACE_SYMBOL_LIMIT` results.
pub fn search<T>(
    query: &str,
    entries: impl IntoIterator<Item = T>,
    symbol: impl Fn(&T) -> &WorkspaceSymbol,
) -> Vec<T> {
    let query = query.trim().trim_start_matches(['@', '%']).to_lowercase();
    let mut found: Vec<(u8, bool, String, T)> = entries
        .into_iter()
        .filter_map(|entry| {
            let s = symbol(&entry);
            let lower = s.name.to_lowercase();
            let score = match_score(&query, &lower)?;
            let op = !matches!(s.kind, SymbolKind::Function | SymbolKind::Module);
            Some((score, op, lower, entry))
        })
        .collect();
    found.sort_by(|a, b| {
        (a.0, a.1, &a.2, &symbol(&a.3).name).cmp(&(b.0, b.1, &b.2, &symbol(&b.3).name))
    });
    found.truncate(WORKSPACE_SYMBOL_LIMIT);
    found.into_iter().map(|(_, _, _, entry)| entry).collect()
}

/// One entry of an item's search symbols, relative to the item.
struct SearchEntry {
    name: String,
    kind: SymbolKind,
    range: TextRange,
    /// The function or module holding it, for ops.
    function: Option<String>,
}

/// An item's search symbols (`Analysis::memo`).
struct ItemSearch(Vec<SearchEntry>);

/// The symbols of one item a workspace search finds: its function (by the name as written,
/// at the name) and its outline entries except plain blocks (at their focus), and its
/// instances (at their op name), relative to the item's start `start`.
fn item_search(view: &ItemView<'_>, start: TextSize) -> Vec<SearchEntry> {
    let mut out = Vec::new();
    let ir = &view.lowered.item;
    let Some(top) = ir.ops.first() else { return out };
    let function = top.signature.as_ref().and_then(|s| s.name.clone());
    if let Some((written, range)) = &function {
        out.push(SearchEntry {
            name: written.clone(),
            kind: item_kind(top),
            range: view.abs(*range) - start,
            function: None,
        });
    }
    let holder = function.as_ref().map(|(name, _)| name.clone());
    let mut outline = Vec::new();
    item_symbols(view, &mut outline);
    fn walk(
        symbols: &[DocumentSymbol],
        holder: &Option<String>,
        start: TextSize,
        out: &mut Vec<SearchEntry>,
    ) {
        for s in symbols {
            if !matches!(s.kind, SymbolKind::Function | SymbolKind::Module | SymbolKind::Block) {
                out.push(SearchEntry {
                    name: s.name.clone(),
                    kind: s.kind,
                    range: s.focus_range - start,
                    function: holder.clone(),
                });
            }
            walk(&s.children, holder, start, out);
        }
    }
    walk(&outline, &holder, start, &mut out);
    for op in ir.ops.iter().skip(1) {
        if OpKind::of(op) != Some(OpKind::Instance) {
            continue;
        }
        let results = results_text(ir, op);
        let own = handshake_name(ir, op).or_else(|| (!results.is_empty()).then_some(results));
        let callee = op.symbol.map(|callee| ir.str(callee));
        let name = match (own, callee) {
            (Some(own), Some(callee)) => format!("{own} {callee}"),
            (Some(own), None) => own,
            (None, Some(callee)) => callee.to_string(),
            (None, None) => op.name.to_string(),
        };
        out.push(SearchEntry {
            name,
            kind: SymbolKind::Instance,
            range: view.abs(op.name_range) - start,
            function: holder.clone(),
        });
    }
    out.sort_by_key(|e| e.range.start());
    out
}

/// How well `name` matches `query` (both lowercase): 0 exact, 1 prefix, 2 substring,
/// 3 subsequence; `None` when it does not match.
fn match_score(query: &str, name: &str) -> Option<u8> {
    let name = name.trim_start_matches(['@', '%']).trim_matches('"');
    if query.is_empty() {
        return Some(0);
    }
    if name == query {
        return Some(0);
    }
    if name.starts_with(query) {
        return Some(1);
    }
    if name.contains(query) {
        return Some(2);
    }
    let mut rest = name.chars();
    query.chars().all(|q| rest.any(|c| c == q)).then_some(3)
}

/// An item's folds, relative to its start (`Analysis::memo`).
struct ItemFolds(Vec<Fold>);

/// The folds of `file`: regions and attribute dictionaries that span several lines, and runs of
/// two or more `//` comment lines, in text order. Braces outside every item (a `module {`
/// around the functions) fold too.
pub fn folding_ranges(analysis: &Analysis<'_>, file: FileId) -> Vec<Fold> {
    let Some(text) = analysis.text(file) else { return Vec::new() };
    let items = analysis.item_refs(file);
    let mut folds = Vec::new();
    for &item in &items {
        let start = item.range.start();
        let found = folds_of(analysis, item);
        let found = found.iter().flat_map(|f| f.0.iter());
        folds.extend(found.map(|f| Fold { range: f.range + start, kind: f.kind }));
    }
    let ranges: Vec<TextRange> = items.iter().map(|i| i.range).collect();
    for (open, close) in outer_braces(text, &ranges) {
        let range = TextRange::new(open, close + TextSize::from(1));
        if text[range].contains('\n') {
            folds.push(Fold { range, kind: FoldKind::Region });
        }
    }
    folds.extend(
        comment_runs(text).into_iter().map(|range| Fold { range, kind: FoldKind::Comment }),
    );
    folds.sort_by_key(|f| (f.range.start(), std::cmp::Reverse(f.range.end()), f.kind));
    folds.dedup();
    folds
}

/// For each offset, the ranges an "expand selection" walks through, innermost first, each
/// containing the one before: the token (unless it is whitespace), the syntax nodes around it
/// with distinct ranges (operand, op, block, region, ... up to the item), braces outside the
/// items that enclose it (a `module { ... }`), and the whole file. An offset outside the text
/// gets an empty chain.
pub fn selection_ranges(
    analysis: &Analysis<'_>,
    file: FileId,
    offsets: &[TextSize],
) -> Vec<Vec<TextRange>> {
    let Some(text) = analysis.text(file) else {
        return offsets.iter().map(|_| Vec::new()).collect();
    };
    let items = analysis.item_refs(file);
    let ranges: Vec<TextRange> = items.iter().map(|i| i.range).collect();
    let outer = outer_braces(text, &ranges);
    let comments = comment_lines(text);
    let whole = TextRange::up_to(TextSize::of(text));
    offsets
        .iter()
        .map(|&offset| {
            if offset > whole.end() {
                return Vec::new();
            }
            let mut chain: Vec<TextRange> = Vec::new();
            let push = |range: TextRange, chain: &mut Vec<TextRange>| {
                let grows =
                    chain.last().is_none_or(|last| range.contains_range(*last) && range != *last);
                if grows {
                    chain.push(range);
                }
            };
            let item = items.iter().find(|i| i.range.contains_inclusive(offset));
            match item.and_then(|&i| analysis.view_of(i)) {
                Some(item) => {
                    if let Some(token) = token_at(&item, offset) {
                        if token.kind() != SyntaxKind::WHITESPACE {
                            push(item.syntax_abs(token.text_range()), &mut chain);
                        }
                        let root = item.syntax.syntax();
                        for node in token.parent().ancestors() {
                            push(item.syntax_abs(node.text_range()), &mut chain);
                            if node == root {
                                break;
                            }
                        }
                    }
                    push(item.range(), &mut chain);
                }
                None => {
                    if let Some(&line) = comments.iter().find(|r| r.contains_inclusive(offset)) {
                        push(line, &mut chain);
                    }
                }
            }
            let mut enclosing: Vec<TextRange> = outer
                .iter()
                .map(|&(open, close)| {
                    let start = line_start(text, open);
                    TextRange::new(start, close + TextSize::from(1))
                })
                .filter(|r| r.contains_inclusive(offset))
                .collect();
            enclosing.sort_by_key(|r| r.len());
            for range in enclosing {
                push(range, &mut chain);
            }
            push(whole, &mut chain);
            chain
        })
        .collect()
}

/// What the outline needs of one item: its lowering and a way back from ops to syntax.
struct ItemContext<'a, 'v> {
    item: &'v ItemView<'a>,
    buffers: Vec<Option<dataflow::BufferInfo>>,
}

impl<'a, 'v> ItemContext<'a, 'v> {
    fn new(item: &'v ItemView<'a>) -> Self {
        ItemContext { item, buffers: dataflow::buffers(&item.lowered.item) }
    }

    fn ir(&self) -> &'a Item {
        &self.item.lowered.item
    }

    /// The symbols inside op `id`: for each of its regions, per block, the symbols of the
    /// block's ops; a pipeline's blocks become stages and labelled blocks elsewhere become
    /// blocks, other blocks add their symbols to `out` directly.
    fn op_children(&self, id: OpId, out: &mut Vec<DocumentSymbol>) {
        let ir = self.ir();
        let op = &ir.ops[id as usize];
        let pipeline = is_pipeline(op);
        let stages = if pipeline { self.stage_order(id) } else { HashMap::new() };
        for &region in ir.op_regions(op) {
            for &block in &ir.regions[region as usize].blocks {
                let mut inner = Vec::new();
                for &child in &ir.blocks[block as usize].ops {
                    self.collect(child, &mut inner);
                }
                let data = &ir.blocks[block as usize];
                if pipeline {
                    if let Some(symbol) = self.block_symbol(block, SymbolKind::Stage, inner) {
                        let mut symbol = symbol;
                        symbol.detail = Some(match stages.get(&block) {
                            Some(n) => format!("stage {n}"),
                            None => "not reached from the entry stage".to_string(),
                        });
                        out.push(symbol);
                    }
                } else if data.label.is_some() {
                    if let Some(symbol) = self.block_symbol(block, SymbolKind::Block, inner) {
                        out.push(symbol);
                    }
                } else {
                    out.extend(inner);
                }
            }
        }
    }

    /// The symbol of op `id` (with its children) if it is one the outline shows, else its
    /// children.
    fn collect(&self, id: OpId, out: &mut Vec<DocumentSymbol>) {
        let mut children = Vec::new();
        self.op_children(id, &mut children);
        if self.shown(id) {
            out.extend(self.symbol_of(id, children));
        } else {
            out.extend(children);
        }
    }

    /// Whether the outline shows op `id` itself: a pipeline, memory interface or buffer.
    fn shown(&self, id: OpId) -> bool {
        let op = &self.ir().ops[id as usize];
        is_pipeline(op)
            || is_memory(op)
            || self.buffers.get(id as usize).is_some_and(Option::is_some)
    }

    /// The outline entry of a pipeline, memory interface or buffer op.
    fn symbol_of(&self, id: OpId, children: Vec<DocumentSymbol>) -> Option<DocumentSymbol> {
        let ir = self.ir();
        let op = &ir.ops[id as usize];
        let item = self.item;
        let results = results_text(self.ir(), op);
        let (kind, name, detail) = if is_pipeline(op) {
            let stages = ir
                .op_regions(&ir.ops[id as usize])
                .first()
                .map_or(0, |&r| ir.regions[r as usize].blocks.len());
            let name = self
                .pipeline_name(id)
                .or_else(|| (!results.is_empty()).then(|| results.clone()))
                .unwrap_or_else(|| op.name.to_string());
            let plural = if stages == 1 { "" } else { "s" };
            (SymbolKind::Pipeline, name, Some(format!("{}, {stages} stage{plural}", op.name)))
        } else if is_memory(op) {
            let name = handshake_name(self.ir(), op)
                .or_else(|| (!results.is_empty()).then(|| results.clone()))
                .unwrap_or_else(|| op.short_name().to_string());
            let bracket = self
                .op_node(id)
                .and_then(|n| n.children().find(|c| c.kind() == SyntaxKind::BRACKET_GROUP))
                .map(|n| collapse(n.text()));
            let detail = match bracket {
                Some(b) => format!("{} {b}", op.short_name()),
                None => op.short_name().to_string(),
            };
            (SymbolKind::Memory, name, Some(detail))
        } else if let Some(info) = self.buffers.get(id as usize).and_then(|b| b.as_ref()) {
            let name = handshake_name(self.ir(), op)
                .or_else(|| (!results.is_empty()).then(|| results.clone()))
                .unwrap_or_else(|| op.short_name().to_string());
            let type_name = match &info.kind {
                BufferKind::Missing => "no type".to_string(),
                kind => kind.name().unwrap_or("no type").to_string(),
            };
            let detail = match info.slot_count() {
                Some(1) => format!("{type_name}, 1 slot"),
                Some(n) => format!("{type_name}, {n} slots"),
                None => type_name,
            };
            (SymbolKind::Buffer, name, Some(detail))
        } else {
            return None;
        };
        Some(DocumentSymbol {
            name,
            detail,
            kind,
            full_range: item.abs(op.range),
            focus_range: item.abs(op.name_range),
            children,
        })
    }

    /// A stage or labelled block: from its label (or first op) to its last op.
    fn block_symbol(
        &self,
        block: BlockId,
        kind: SymbolKind,
        children: Vec<DocumentSymbol>,
    ) -> Option<DocumentSymbol> {
        let ir = self.ir();
        let data = &ir.blocks[block as usize];
        let first_op = data.ops.first().map(|&op| ir.ops[op as usize].range);
        let last_op = data.ops.last().map(|&op| ir.ops[op as usize].range);
        let (name, focus) = match data.label {
            Some(label) => (ir.str(label).to_string(), label.range()),
            None => ("entry".to_string(), first_op?),
        };
        let end = last_op.map_or(focus.end(), |r| r.end().max(focus.end()));
        let detail = if kind == SymbolKind::Block && !data.args.is_empty() {
            let args: Vec<&str> =
                data.args.iter().map(|&v| ir.str(ir.values[v as usize].name())).collect();
            Some(format!("({})", args.join(", ")))
        } else {
            None
        };
        Some(DocumentSymbol {
            name,
            detail,
            kind,
            full_range: self.item.abs(TextRange::new(focus.start(), end)),
            focus_range: self.item.abs(focus),
            children,
        })
    }

    /// The stages of a pipeline in order: the entry block is stage 0, the block its
    /// `pipeline.stage` names is stage 1, and so on; blocks off that chain have no number.
    fn stage_order(&self, pipeline: OpId) -> HashMap<BlockId, usize> {
        let ir = self.ir();
        let mut order = HashMap::new();
        let Some(&region) = ir.op_regions(&ir.ops[pipeline as usize]).first() else { return order };
        let blocks = &ir.regions[region as usize].blocks;
        let mut current = blocks.first().copied();
        while let Some(block) = current {
            if order.contains_key(&block) {
                break;
            }
            order.insert(block, order.len());
            current = ir.blocks[block as usize]
                .ops
                .last()
                .filter(|&&op| OpKind::of(&ir.ops[op as usize]) == Some(OpKind::PipelineStage))
                .and_then(|&op| self.op_node(op))
                .and_then(|node| {
                    node.children().find(|c| c.kind() == SyntaxKind::SUCCESSOR)?.first_token()
                })
                .and_then(|label| {
                    blocks.iter().copied().find(|&b| {
                        ir.blocks[b as usize].label.is_some_and(|l| ir.str(l) == label.text())
                    })
                });
        }
        order
    }

    /// A pipeline's name: the string after its op name (`pipeline.scheduled "named"(...)`).
    fn pipeline_name(&self, id: OpId) -> Option<String> {
        let node = self.op_node(id)?;
        let token = node
            .child_tokens()
            .find(|t| !t.kind().is_trivia() && t.kind() == SyntaxKind::STRING)?;
        Some(token.text().trim_matches('"').to_string())
    }

    /// The `OP` node of op `id`.
    fn op_node(&self, id: OpId) -> Option<SyntaxNode<'a>> {
        let item = self.item;
        let range =
            item.syntax_base.local_range(item.abs(self.ir().ops.get(id as usize)?.range))?;
        let root = item.syntax.syntax();
        if !root.text_range().contains_range(range) {
            return None;
        }
        root.covering_node(range)
            .ancestors()
            .find(|n| n.kind() == SyntaxKind::OP && n.text_range() == range)
    }
}

fn is_pipeline(op: &OpData) -> bool {
    OpKind::of(op).is_some_and(OpKind::is_pipeline_region) && !op.regions.is_empty()
}

fn is_memory(op: &OpData) -> bool {
    OpKind::of(op).is_some_and(|k| k.is_memory() || k.is_interface())
}

fn item_kind(op: &OpData) -> SymbolKind {
    if op.name.starts_with("hw.module") {
        SymbolKind::Module
    } else {
        SymbolKind::Function
    }
}

/// Dynamatic's `handshake.name = "fork0"`, unquoted.
fn handshake_name(item: &Item, op: &OpData) -> Option<String> {
    let value = item.attr_value(op, "handshake.name")?;
    let name = value.trim().trim_matches('"');
    (!name.is_empty()).then(|| name.to_string())
}

/// `%a, %b:2` as the op's result list writes it.
fn results_text(item: &Item, op: &OpData) -> String {
    item.result_groups(op)
        .iter()
        .map(|g| {
            if g.explicit_count {
                format!("{}:{}", item.str(g.name()), g.count)
            } else {
                item.str(g.name()).to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The item's signature without its name and attributes, on one line:
/// `(%a: i32, %b: i32) -> (i32)`.
fn signature_detail(item: &ItemView<'_>) -> Option<String> {
    let signature = item.syntax.signature()?;
    let mut text = String::new();
    for element in signature.syntax().children_with_tokens() {
        match element.kind() {
            SyntaxKind::AT_ID | SyntaxKind::FUNC_ATTRIBUTES => {}
            _ => match element {
                hsir_parser::SyntaxElement::Node(n) => text.push_str(n.text()),
                hsir_parser::SyntaxElement::Token(t) => text.push_str(t.text()),
            },
        }
    }
    let text = collapse(&text);
    (!text.is_empty()).then_some(text)
}

/// `text` with every run of whitespace (line breaks included) made one space, and comments
/// dropped.
fn collapse(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let code = match line.find("//") {
            Some(at) if !line[..at].contains('"') => &line[..at],
            _ => line,
        };
        for word in code.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    out.replace("( ", "(").replace(" )", ")")
}

/// Matching `{` / `}` pairs in the text outside every item (a `module {` wrapping the
/// functions), as the offsets of the two braces. Comments and strings are skipped; unmatched
/// braces are ignored.
fn outer_braces(text: &str, items: &[TextRange]) -> Vec<(TextSize, TextSize)> {
    let mut gaps = Vec::new();
    let mut at = TextSize::from(0);
    let mut ranges = items.to_vec();
    ranges.sort_by_key(|r| r.start());
    for range in ranges {
        if range.start() > at {
            gaps.push(TextRange::new(at, range.start()));
        }
        at = at.max(range.end());
    }
    let end = TextSize::of(text);
    if end > at {
        gaps.push(TextRange::new(at, end));
    }
    let mut stack: Vec<TextSize> = Vec::new();
    let mut pairs = Vec::new();
    for gap in gaps {
        let bytes = &text.as_bytes()[usize::from(gap.start())..usize::from(gap.end())];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'/' if bytes.get(i + 1) == Some(&b'/') => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    continue;
                }
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'{' => stack.push(gap.start() + TextSize::from(i as u32)),
                b'}' => {
                    if let Some(open) = stack.pop() {
                        pairs.push((open, gap.start() + TextSize::from(i as u32)));
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    pairs.sort();
    pairs
}

/// Each line that is only a `//` comment (not a `// -----` marker): the comment's range.
fn comment_lines(text: &str) -> Vec<TextRange> {
    let mut out = Vec::new();
    let mut start = 0usize;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start().len();
        let trimmed = &body[indent..];
        if trimmed.starts_with("//") && !trimmed.starts_with("// -----") {
            out.push(TextRange::new(
                TextSize::from((start + indent) as u32),
                TextSize::from((start + body.len()) as u32),
            ));
        }
        start += line.len();
    }
    out
}

/// Runs of two or more comment lines that follow each other directly.
fn comment_runs(text: &str) -> Vec<TextRange> {
    let lines = comment_lines(text);
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let mut j = i;
        while j + 1 < lines.len() && consecutive(text, lines[j], lines[j + 1]) {
            j += 1;
        }
        if j > i {
            out.push(TextRange::new(lines[i].start(), lines[j].end()));
        }
        i = j + 1;
    }
    out
}

/// Whether comment line `b` is on the line right after comment line `a`.
fn consecutive(text: &str, a: TextRange, b: TextRange) -> bool {
    let between = &text[usize::from(a.end())..usize::from(b.start())];
    between.matches('\n').count() == 1 && between.trim().is_empty()
}

/// The offset of the first non-blank character of the line holding `offset`.
fn line_start(text: &str, offset: TextSize) -> TextSize {
    let at = usize::from(offset).min(text.len());
    let begin = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = text[begin..at].len() - text[begin..at].trim_start().len();
    TextSize::from((begin + indent) as u32)
}
