//! What the server offers, and the requests answered on the worker: each converts its
//! parameters, asks the analysis, and converts the answer.

use std::collections::HashMap;

use hsir_analysis::ops::OpKind;
use tower_lsp_server::ls_types as lsp;

use super::proto;
use super::world::World;
use crate::position::Encoding;

/// The capabilities announced in `initialize`: only what is implemented.
pub fn capabilities(encoding: Encoding) -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        position_encoding: Some(match encoding {
            Encoding::Utf8 => lsp::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lsp::PositionEncodingKind::UTF16,
        }),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
            lsp::TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
                ..Default::default()
            },
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        document_highlight_provider: Some(lsp::OneOf::Left(true)),
        rename_provider: Some(lsp::OneOf::Right(lsp::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        workspace_symbol_provider: Some(lsp::OneOf::Left(true)),
        folding_range_provider: Some(lsp::FoldingRangeProviderCapability::Simple(true)),
        selection_range_provider: Some(lsp::SelectionRangeProviderCapability::Simple(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(
                ["%", "^", "@", "!", ":", "<", "=", "\"", "{", " "].map(String::from).to_vec(),
            ),
            ..Default::default()
        }),
        signature_help_provider: Some(lsp::SignatureHelpOptions {
            trigger_characters: Some([" ", ",", "[", "("].map(String::from).to_vec()),
            retrigger_characters: None,
            work_done_progress_options: Default::default(),
        }),
        semantic_tokens_provider: Some(
            lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(
                lsp::SemanticTokensOptions {
                    legend: lsp::SemanticTokensLegend {
                        token_types: TOKEN_TYPES.map(lsp::SemanticTokenType::new).to_vec(),
                        token_modifiers: TOKEN_MODIFIERS
                            .map(lsp::SemanticTokenModifier::new)
                            .to_vec(),
                    },
                    range: Some(true),
                    full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
                    work_done_progress_options: Default::default(),
                },
            ),
        ),
        inlay_hint_provider: Some(lsp::OneOf::Left(true)),
        document_formatting_provider: Some(lsp::OneOf::Left(true)),
        document_range_formatting_provider: Some(lsp::OneOf::Left(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![
                    lsp::CodeActionKind::QUICKFIX,
                    lsp::CodeActionKind::SOURCE,
                ]),
                ..Default::default()
            },
        )),
        execute_command_provider: Some(lsp::ExecuteCommandOptions {
            commands: super::rtl::COMMANDS.iter().map(|c| c.to_string()).collect(),
            ..Default::default()
        }),
        ..Default::default()
    }
}

/// Whether the client asked for actions of `kind`: it asked for no kind in particular, or for
/// `kind` or a kind it refines (`source` covers `source.organizeImports`).
fn wanted_kind(params: &lsp::CodeActionParams, kind: &lsp::CodeActionKind) -> bool {
    params.context.only.as_ref().is_none_or(|only| {
        only.iter().any(|k| {
            let (k, kind) = (k.as_str(), kind.as_str());
            kind == k || kind.strip_prefix(k).is_some_and(|rest| rest.starts_with('.'))
        })
    })
}

/// The quick fixes of the diagnostics that touch the requested range, and "Generate RTL" and
/// "Place buffers" for the functions it touches; only the kinds the client asked for.
pub fn code_actions(
    world: &mut World,
    params: &lsp::CodeActionParams,
) -> Option<lsp::CodeActionResponse> {
    let encoding = world.encoding;
    let options = world.diagnostic_options.clone();
    let uri = params.text_document.uri.to_string();
    let file = world.doc(&uri)?.file;
    // The shared per-item lists, not `Database::diagnostics`, which would clone every one.
    let reported = world.db.reported(file)?;
    let lines = world.lines(world.doc(&uri)?);
    let start = lines.offset(proto::pos_in(params.range.start), encoding)?;
    let end = lines.offset(proto::pos_in(params.range.end), encoding)?;
    let wanted = hsir_analysis::TextRange::new(start.min(end), end.max(start));
    let outside = reported.outside.iter().map(|d| (TextSize::from(0), d));
    let inside = reported.items.iter().flat_map(|(base, ds)| ds.iter().map(move |d| (*base, d)));
    let quick_fixes = wanted_kind(params, &lsp::CodeActionKind::QUICKFIX);
    let mut touching: Vec<(TextSize, &hsir_analysis::Diagnostic)> = outside
        .chain(inside)
        .filter(|(base, d)| {
            (!d.fixes.is_empty() || places_buffers(d))
                && (d.range + *base).intersect(wanted).is_some()
        })
        .filter(|_| quick_fixes)
        .collect();
    touching.sort_by_key(|(base, d)| (d.range.start() + *base, d.range.end() + *base, d.code));
    let mut actions = Vec::new();
    // Cycles that buffer placement fixes: the quick fix runs "Place buffers" on the function
    // that holds the diagnostic (the command, not an edit: placement runs under progress and
    // applies its own edit).
    let mut placements: Vec<(lsp::Diagnostic, TextSize)> = Vec::new();
    for (base, d) in touching {
        let converted =
            proto::diagnostic(d, base, &params.text_document.uri, &lines, encoding, &options);
        if places_buffers(d) {
            placements.push((converted.clone(), d.range.start() + base));
        }
        for fix in &d.fixes {
            let edits = (fix.edits.iter())
                .map(|e| {
                    let edit = hsir_analysis::TextEdit {
                        range: e.range + base,
                        new_text: e.new_text.clone(),
                    };
                    proto::text_edit(&lines, &edit, encoding)
                })
                .collect();
            let changes = HashMap::from([(params.text_document.uri.clone(), edits)]);
            actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: fix.label.clone(),
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![converted.clone()]),
                edit: Some(lsp::WorkspaceEdit { changes: Some(changes), ..Default::default() }),
                is_preferred: Some(d.fixes.len() == 1),
                ..Default::default()
            }));
        }
    }
    if !placements.is_empty() {
        let (analysis, _) = world.analysis();
        let functions: Vec<(String, TextRange)> = analysis
            .functions()
            .into_iter()
            .filter(|(_, item)| item.file == file)
            .map(|(name, item)| (name, item.range))
            .collect();
        for (converted, at) in placements {
            let Some((name, _)) = functions.iter().find(|(_, range)| range.contains_inclusive(at))
            else {
                continue;
            };
            let title = format!("Place buffers in @{name} (FPGA20)");
            let arguments = serde_json::json!({
                "uri": params.text_document.uri.to_string(), "algorithm": "fpga20", "function": name
            });
            actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: title.clone(),
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![converted]),
                command: Some(lsp::Command {
                    title,
                    command: super::buffers::PLACE_BUFFERS.to_string(),
                    arguments: Some(vec![arguments]),
                }),
                is_preferred: Some(true),
                ..Default::default()
            }));
        }
    }
    if wanted_kind(params, &lsp::CodeActionKind::SOURCE) {
        function_actions(world, &params.text_document.uri, file, wanted, &mut actions);
    }
    Some(actions)
}

/// Whether buffer placement is the fix of `d`: cycles that no buffer breaks, in a function
/// before placement (HS2023) or after it (HS2020).
fn places_buffers(d: &hsir_analysis::Diagnostic) -> bool {
    use hsir_analysis::DiagnosticCode as Code;
    matches!(d.code, Code::UnbufferedCycles | Code::CombinationalLoop)
}

/// "Generate RTL for @f", "Place buffers (FPGA20)" and "Place buffers (FPL22)" on each
/// `handshake.func` with a body that the range touches, and "Generate RTL for @m" on each
/// `hw.module` holding a pipeline.
///
/// They are `source` actions: they act on a whole function, are asked for rather than
/// suggested, and VS Code lists `source` actions in its "Source Action..." menu and not in the
/// light bulb, which a cursor anywhere in a function would otherwise light all the time.
fn function_actions(
    world: &mut World,
    uri: &lsp::Uri,
    file: hsir_analysis::FileId,
    wanted: TextRange,
    actions: &mut Vec<lsp::CodeActionOrCommand>,
) {
    let (analysis, _) = world.analysis();
    // A declaration has no region, though it may have braces (`attributes {argNames = ...}`).
    // An `hw.module` holding a pipeline gets "Generate RTL" only (placement is for functions).
    let mut functions: Vec<(String, TextRange, bool)> = analysis
        .functions()
        .into_iter()
        .filter(|(_, item)| item.file == file && item.range.intersect(wanted).is_some())
        .filter_map(|(name, item)| {
            let view = analysis.view_of(item)?;
            let kind = view.syntax.name().and_then(OpKind::from_name);
            let dataflow = kind == Some(OpKind::Func) && !view.syntax.regions().is_empty();
            let pipelines = view.syntax.name() == Some("hw.module")
                && view
                    .lowered
                    .item
                    .ops
                    .iter()
                    .any(|op| OpKind::of(op).is_some_and(OpKind::is_pipeline_region));
            (dataflow || pipelines).then_some((name, item.range, dataflow))
        })
        .collect();
    functions.sort_by_key(|(_, range, _)| range.start());
    let several = functions.iter().filter(|(_, _, dataflow)| *dataflow).count() > 1;
    let mut action = |title: String, command: &str, arguments: serde_json::Value| {
        actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
            title: title.clone(),
            kind: Some(lsp::CodeActionKind::SOURCE),
            command: Some(lsp::Command {
                title,
                command: command.to_string(),
                arguments: Some(vec![arguments]),
            }),
            ..Default::default()
        }));
    };
    for (name, _, dataflow) in functions {
        let arguments = serde_json::json!({ "uri": uri.to_string(), "function": name });
        action(format!("Generate RTL for @{name}"), super::rtl::GENERATE_RTL, arguments);
        if !dataflow {
            continue;
        }
        for (algorithm, shown) in [("fpga20", "FPGA20"), ("fpl22", "FPL22")] {
            // The function is named in the title only when the range touches several.
            let title = match several {
                true => format!("Place buffers in @{name} ({shown})"),
                false => format!("Place buffers ({shown})"),
            };
            let arguments = serde_json::json!({
                "uri": uri.to_string(), "algorithm": algorithm, "function": name
            });
            action(title, super::buffers::PLACE_BUFFERS, arguments);
        }
    }
}

// ---- the IDE features --------------------------------------------------------------------------

use hsir_analysis::ide::{completion, hover, inlay_hints, navigation, semantic_tokens};
use hsir_analysis::ide::{signature_help, symbols, FilePosition};
use hsir_analysis::{TextRange, TextSize};

use super::world::Docs;
use crate::position::Lines;

/// The semantic token types, in the order of `TokenKind`'s variants. @symbols are hardware
/// modules, so they take the class colour; op names the function colour.
pub const TOKEN_TYPES: [&str; 11] = [
    "function",
    "namespace",
    "variable",
    "label",
    "class",
    "type",
    "property",
    "comment",
    "number",
    "string",
    "keyword",
];
/// The modifiers, bit by bit as `semantic_tokens::MOD_*` numbers them.
pub const TOKEN_MODIFIERS: [&str; 2] = ["definition", "deprecated"];

fn token_type(kind: semantic_tokens::TokenKind) -> u32 {
    use semantic_tokens::TokenKind as K;
    match kind {
        K::Op => 0,
        K::DialectPrefix => 1,
        K::Value => 2,
        K::BlockLabel => 3,
        K::Symbol => 4,
        K::Type => 5,
        K::Attribute => 6,
        K::Comment => 7,
        K::Number => 8,
        K::String => 9,
        K::Keyword => 10,
    }
}

/// Where a request points: the document's file, its line index, and the offset.
fn at<'a>(
    docs: &Docs<'a>,
    doc: &lsp::TextDocumentIdentifier,
    pos: lsp::Position,
    encoding: Encoding,
) -> Option<(FilePosition, Lines<'a>)> {
    let document = docs.get(doc.uri.as_str())?;
    let offset = document.lines.offset(proto::pos_in(pos), encoding)?;
    Some((FilePosition { file: document.file, offset }, document.lines))
}

fn range_of(lines: &Lines<'_>, range: lsp::Range, encoding: Encoding) -> Option<TextRange> {
    let start = lines.offset(proto::pos_in(range.start), encoding)?;
    let end = lines.offset(proto::pos_in(range.end), encoding)?;
    Some(TextRange::new(start.min(end), end.max(start)))
}

fn location(
    docs: &Docs<'_>,
    file: hsir_analysis::FileId,
    range: TextRange,
    encoding: Encoding,
) -> Option<lsp::Location> {
    let (uri, lines) = docs.of(file)?;
    Some(lsp::Location { uri: proto::uri(uri)?, range: proto::range_out(&lines, range, encoding) })
}

pub fn hover(world: &mut World, params: lsp::HoverParams) -> Option<lsp::Hover> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let p = params.text_document_position_params;
    let (pos, lines) = at(&docs, &p.text_document, p.position, encoding)?;
    let found = hover::hover(&analysis, pos)?;
    Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: found.markdown,
        }),
        range: Some(proto::range_out(&lines, found.range, encoding)),
    })
}

pub fn definition(
    world: &mut World,
    params: lsp::GotoDefinitionParams,
) -> Option<lsp::GotoDefinitionResponse> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let p = params.text_document_position_params;
    let (pos, _) = at(&docs, &p.text_document, p.position, encoding)?;
    let links: Vec<lsp::LocationLink> = navigation::definition(&analysis, pos)
        .into_iter()
        .filter_map(|t| {
            let (uri, lines) = docs.of(t.file)?;
            Some(lsp::LocationLink {
                origin_selection_range: None,
                target_uri: proto::uri(uri)?,
                target_range: proto::range_out(&lines, t.full_range, encoding),
                target_selection_range: proto::range_out(&lines, t.focus_range, encoding),
            })
        })
        .collect();
    (!links.is_empty()).then_some(lsp::GotoDefinitionResponse::Link(links))
}

pub fn references(world: &mut World, params: lsp::ReferenceParams) -> Option<Vec<lsp::Location>> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let p = params.text_document_position;
    let (pos, _) = at(&docs, &p.text_document, p.position, encoding)?;
    let found = navigation::references(&analysis, pos, params.context.include_declaration);
    Some(found.into_iter().filter_map(|r| location(&docs, r.file, r.range, encoding)).collect())
}

pub fn highlight(
    world: &mut World,
    params: lsp::DocumentHighlightParams,
) -> Option<Vec<lsp::DocumentHighlight>> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let p = params.text_document_position_params;
    let (pos, lines) = at(&docs, &p.text_document, p.position, encoding)?;
    let found = navigation::highlight(&analysis, pos);
    Some(
        found
            .into_iter()
            .map(|h| lsp::DocumentHighlight {
                range: proto::range_out(&lines, h.range, encoding),
                kind: Some(if h.write {
                    lsp::DocumentHighlightKind::WRITE
                } else {
                    lsp::DocumentHighlightKind::READ
                }),
            })
            .collect(),
    )
}

pub fn prepare_rename(
    world: &mut World,
    params: lsp::TextDocumentPositionParams,
) -> Result<Option<lsp::PrepareRenameResponse>, String> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let Some((pos, lines)) = at(&docs, &params.text_document, params.position, encoding) else {
        return Ok(None);
    };
    let range = navigation::prepare_rename(&analysis, pos)?;
    Ok(Some(lsp::PrepareRenameResponse::Range(proto::range_out(&lines, range, encoding))))
}

pub fn rename(
    world: &mut World,
    params: lsp::RenameParams,
) -> Result<Option<lsp::WorkspaceEdit>, String> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let p = params.text_document_position;
    let Some((pos, _)) = at(&docs, &p.text_document, p.position, encoding) else { return Ok(None) };
    let edits = navigation::rename(&analysis, pos, &params.new_name)?;
    let mut changes: HashMap<lsp::Uri, Vec<lsp::TextEdit>> = HashMap::new();
    for (file, edit) in edits {
        let Some((uri, lines)) = docs.of(file) else { continue };
        let Some(uri) = proto::uri(uri) else { continue };
        changes.entry(uri).or_default().push(proto::text_edit(&lines, &edit, encoding));
    }
    Ok(Some(lsp::WorkspaceEdit { changes: Some(changes), ..Default::default() }))
}

fn symbol_kind(kind: symbols::SymbolKind) -> lsp::SymbolKind {
    use symbols::SymbolKind as K;
    match kind {
        K::Function => lsp::SymbolKind::FUNCTION,
        K::Module => lsp::SymbolKind::MODULE,
        K::Pipeline => lsp::SymbolKind::CLASS,
        K::Stage => lsp::SymbolKind::EVENT,
        K::Block => lsp::SymbolKind::NAMESPACE,
        K::Memory => lsp::SymbolKind::ARRAY,
        K::Buffer => lsp::SymbolKind::VARIABLE,
        K::Instance => lsp::SymbolKind::OBJECT,
    }
}

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn document_symbol(
    s: symbols::DocumentSymbol,
    lines: &Lines<'_>,
    encoding: Encoding,
) -> lsp::DocumentSymbol {
    lsp::DocumentSymbol {
        name: s.name,
        detail: s.detail,
        kind: symbol_kind(s.kind),
        tags: None,
        deprecated: None,
        range: proto::range_out(lines, s.full_range, encoding),
        selection_range: proto::range_out(lines, s.focus_range, encoding),
        children: Some(
            s.children.into_iter().map(|c| document_symbol(c, lines, encoding)).collect(),
        ),
    }
}

/// A request over a whole file whose per-item work is made in slices (`world::interleave`).
#[derive(Debug, Clone, Copy)]
pub enum WholeFile {
    Outline,
    Folds,
    Tokens,
}

/// What makes the per-item work of a whole-file request on `document`, a slice at a time.
pub fn prepare(what: WholeFile, document: &lsp::TextDocumentIdentifier) -> super::world::Prepare {
    let uri = document.uri.to_string();
    Box::new(move |world: &mut World, stop: &dyn Fn() -> bool| {
        let (analysis, docs) = world.analysis();
        let Some(doc) = docs.get(&uri) else { return true };
        match what {
            WholeFile::Outline => {
                symbols::prepare(&analysis, doc.file, symbols::WholeFile::Outline, stop)
            }
            WholeFile::Folds => {
                symbols::prepare(&analysis, doc.file, symbols::WholeFile::Folds, stop)
            }
            WholeFile::Tokens => semantic_tokens::prepare(&analysis, doc.file, stop),
        }
    })
}

pub fn document_symbols(
    world: &mut World,
    params: lsp::DocumentSymbolParams,
) -> Option<lsp::DocumentSymbolResponse> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let document = docs.get(params.text_document.uri.as_str())?;
    let found = symbols::document_symbols(&analysis, document.file);
    Some(lsp::DocumentSymbolResponse::Nested(
        found.into_iter().map(|s| document_symbol(s, &document.lines, encoding)).collect(),
    ))
}

/// The workspace's symbols matching the query: those of the open documents as the editor has
/// them, and those of the workspace's files on disk that are not open (`disk`, from the
/// index), ranked together.
pub fn workspace_symbols(
    world: &mut World,
    params: lsp::WorkspaceSymbolParams,
    disk: super::index::Snapshot,
) -> Option<lsp::WorkspaceSymbolResponse> {
    let encoding = world.encoding;
    let open: std::collections::HashSet<std::path::PathBuf> =
        world.docs.keys().filter_map(|uri| super::index::path_of(uri)).collect();
    let (analysis, docs) = world.analysis();
    enum Place<'a> {
        Open,
        Disk(&'a lsp::Uri, lsp::Range),
    }
    let open_symbols: Vec<symbols::WorkspaceSymbol> = analysis
        .files()
        .into_iter()
        .flat_map(|file| symbols::file_symbols(&analysis, file))
        .collect();
    let mut candidates: Vec<(&symbols::WorkspaceSymbol, Place<'_>)> =
        open_symbols.iter().map(|s| (s, Place::Open)).collect();
    for (path, uri, found) in &disk {
        if open.contains(path) {
            continue;
        }
        candidates.extend(found.iter().map(|d| (&d.symbol, Place::Disk(uri, d.range))));
    }
    let found = symbols::search(&params.query, candidates, |(s, _)| s);
    let out = found
        .into_iter()
        .filter_map(|(s, place)| {
            let location = match place {
                Place::Open => location(&docs, s.file, s.range, encoding)?,
                Place::Disk(uri, range) => lsp::Location { uri: uri.clone(), range },
            };
            Some(lsp::WorkspaceSymbol {
                name: s.name.clone(),
                kind: symbol_kind(s.kind),
                tags: None,
                container_name: s.container.clone(),
                location: lsp::OneOf::Left(location),
                data: None,
            })
        })
        .collect();
    Some(lsp::WorkspaceSymbolResponse::Nested(out))
}

pub fn folding_ranges(
    world: &mut World,
    params: lsp::FoldingRangeParams,
) -> Option<Vec<lsp::FoldingRange>> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let document = docs.get(params.text_document.uri.as_str())?;
    let folds = symbols::folding_ranges(&analysis, document.file);
    let out = folds
        .into_iter()
        .filter_map(|f| {
            let start = document.lines.pos(f.range.start(), encoding).line;
            let last = f.range.end().checked_sub(TextSize::from(1)).unwrap_or(f.range.end());
            let end = document.lines.pos(last, encoding).line;
            (end > start).then(|| lsp::FoldingRange {
                start_line: start,
                end_line: end,
                kind: Some(match f.kind {
                    symbols::FoldKind::Region => lsp::FoldingRangeKind::Region,
                    symbols::FoldKind::Comment => lsp::FoldingRangeKind::Comment,
                }),
                ..Default::default()
            })
        })
        .collect();
    Some(out)
}

pub fn selection_ranges(
    world: &mut World,
    params: lsp::SelectionRangeParams,
) -> Option<Vec<lsp::SelectionRange>> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let document = docs.get(params.text_document.uri.as_str())?;
    let offsets: Vec<TextSize> = params
        .positions
        .iter()
        .map(|p| document.lines.offset(proto::pos_in(*p), encoding).unwrap_or_default())
        .collect();
    let chains = symbols::selection_ranges(&analysis, document.file, &offsets);
    let out = chains
        .into_iter()
        .zip(&params.positions)
        .map(|(chain, p)| {
            let mut current: Option<lsp::SelectionRange> = None;
            for range in chain.into_iter().rev() {
                current = Some(lsp::SelectionRange {
                    range: proto::range_out(&document.lines, range, encoding),
                    parent: current.map(Box::new),
                });
            }
            current.unwrap_or(lsp::SelectionRange {
                range: lsp::Range { start: *p, end: *p },
                parent: None,
            })
        })
        .collect();
    Some(out)
}

pub fn completion(
    world: &mut World,
    params: lsp::CompletionParams,
) -> Option<lsp::CompletionResponse> {
    let encoding = world.encoding;
    use completion::CompletionKind as K;
    let (analysis, docs) = world.analysis();
    let p = params.text_document_position;
    let (pos, lines) = at(&docs, &p.text_document, p.position, encoding)?;
    let items = completion::completions(&analysis, pos)
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let (text, format) = match c.insert {
                completion::Insert::Text(t) => (t, lsp::InsertTextFormat::PLAIN_TEXT),
                completion::Insert::Snippet(s) => (s, lsp::InsertTextFormat::SNIPPET),
            };
            lsp::CompletionItem {
                label: c.label,
                kind: Some(match c.kind {
                    K::Op => lsp::CompletionItemKind::FUNCTION,
                    K::Type => lsp::CompletionItemKind::TYPE_PARAMETER,
                    K::Value => lsp::CompletionItemKind::VARIABLE,
                    K::Block => lsp::CompletionItemKind::REFERENCE,
                    K::Symbol => lsp::CompletionItemKind::MODULE,
                    K::BufferType => lsp::CompletionItemKind::ENUM_MEMBER,
                    K::Attribute => lsp::CompletionItemKind::PROPERTY,
                    K::Keyword => lsp::CompletionItemKind::KEYWORD,
                }),
                detail: c.detail,
                documentation: c.documentation.map(|value| {
                    lsp::Documentation::MarkupContent(lsp::MarkupContent {
                        kind: lsp::MarkupKind::Markdown,
                        value,
                    })
                }),
                // The analysis ranks; the editor should keep its order among equal matches.
                sort_text: Some(format!("{i:05}")),
                insert_text_format: Some(format),
                text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                    range: proto::range_out(&lines, c.replace, encoding),
                    new_text: text,
                })),
                ..Default::default()
            }
        })
        .collect();
    Some(lsp::CompletionResponse::Array(items))
}

/// Byte offsets into `label` counted the client's way.
fn label_offset(label: &str, byte: u32, encoding: Encoding) -> u32 {
    let prefix = &label[..(byte as usize).min(label.len())];
    match encoding {
        Encoding::Utf8 => prefix.len() as u32,
        Encoding::Utf16 => prefix.encode_utf16().count() as u32,
    }
}

pub fn signature_help(
    world: &mut World,
    params: lsp::SignatureHelpParams,
) -> Option<lsp::SignatureHelp> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let p = params.text_document_position_params;
    let (pos, _) = at(&docs, &p.text_document, p.position, encoding)?;
    let help = signature_help::signature_help(&analysis, pos)?;
    let parameters = help
        .parameters
        .iter()
        .map(|&(start, end)| lsp::ParameterInformation {
            label: lsp::ParameterLabel::LabelOffsets([
                label_offset(&help.label, start, encoding),
                label_offset(&help.label, end, encoding),
            ]),
            documentation: None,
        })
        .collect();
    Some(lsp::SignatureHelp {
        signatures: vec![lsp::SignatureInformation {
            label: help.label,
            documentation: help.documentation.map(|value| {
                lsp::Documentation::MarkupContent(lsp::MarkupContent {
                    kind: lsp::MarkupKind::Markdown,
                    value,
                })
            }),
            parameters: Some(parameters),
            active_parameter: help.active_parameter,
        }],
        active_signature: Some(0),
        active_parameter: help.active_parameter,
    })
}

pub fn semantic_tokens(
    world: &mut World,
    doc: &lsp::TextDocumentIdentifier,
    range: Option<lsp::Range>,
) -> Option<lsp::SemanticTokens> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let document = docs.get(doc.uri.as_str())?;
    let range = match range {
        Some(r) => Some(range_of(&document.lines, r, encoding)?),
        None => None,
    };
    let tokens = semantic_tokens::semantic_tokens(&analysis, document.file, range);
    Some(lsp::SemanticTokens {
        result_id: None,
        data: encode_tokens(&tokens, &document.lines, encoding),
    })
}

/// LSP's relative encoding: each token's line and start relative to the previous token's.
fn encode_tokens(
    tokens: &[semantic_tokens::SemanticToken],
    lines: &Lines<'_>,
    encoding: Encoding,
) -> Vec<lsp::SemanticToken> {
    let mut out = Vec::with_capacity(tokens.len());
    let (mut line, mut start) = (0, 0);
    for t in tokens {
        let crate::position::Span { start: from, end: to } = lines.range(t.range, encoding);
        let length = if to.line == from.line { to.character - from.character } else { 0 };
        if length == 0 {
            continue;
        }
        let delta_line = from.line - line;
        let delta_start = if delta_line == 0 { from.character - start } else { from.character };
        out.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: token_type(t.kind),
            token_modifiers_bitset: t.modifiers,
        });
        line = from.line;
        start = from.character;
    }
    out
}

pub fn inlay_hints(world: &mut World, params: lsp::InlayHintParams) -> Option<Vec<lsp::InlayHint>> {
    let encoding = world.encoding;
    let (analysis, docs) = world.analysis();
    let document = docs.get(params.text_document.uri.as_str())?;
    let range = range_of(&document.lines, params.range, encoding)?;
    let hints = inlay_hints::inlay_hints(&analysis, document.file, range);
    Some(
        hints
            .into_iter()
            .map(|h| lsp::InlayHint {
                position: proto::pos_out(document.lines.pos(h.offset, encoding)),
                label: lsp::InlayHintLabel::String(h.label),
                kind: match h.kind {
                    inlay_hints::InlayKind::Type => Some(lsp::InlayHintKind::TYPE),
                    inlay_hints::InlayKind::Latency | inlay_hints::InlayKind::Stage => None,
                },
                text_edits: None,
                tooltip: None,
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
            .collect(),
    )
}

/// Whole-document (`range` = `None`) or range formatting.
pub fn formatting(
    world: &mut World,
    doc: &lsp::TextDocumentIdentifier,
    range: Option<lsp::Range>,
    options: &lsp::FormattingOptions,
) -> Option<Vec<lsp::TextEdit>> {
    let encoding = world.encoding;
    use hsir_analysis::ide::format;
    let (analysis, docs) = world.analysis();
    let document = docs.get(doc.uri.as_str())?;
    let range = match range {
        Some(r) => Some(range_of(&document.lines, r, encoding)?),
        None => None,
    };
    let indent =
        if options.insert_spaces { options.tab_size.clamp(1, format::MAX_INDENT) } else { 2 };
    let edits = format::format(&analysis, document.file, range, &format::FormatOptions { indent });
    Some(edits.iter().map(|e| proto::text_edit(&document.lines, e, encoding)).collect())
}
