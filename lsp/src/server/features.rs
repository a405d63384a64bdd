//! What the server offers, and the requests answered on the worker: each converts its
//! parameters, asks the analysis, and converts the answer.

use std::collections::HashMap;

use tower_lsp_server::ls_types as lsp;

use super::position::Encoding;
use super::proto;
use super::world::World;

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
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
                ..Default::default()
            },
        )),
        ..Default::default()
    }
}

/// The quick fixes of the diagnostics that touch the requested range.
pub fn code_actions(
    world: &mut World,
    params: &lsp::CodeActionParams,
    encoding: Encoding,
    docs_base: Option<&str>,
) -> Option<lsp::CodeActionResponse> {
    let uri = params.text_document.uri.to_string();
    let doc = world.doc(&uri)?;
    let (file, lines) = (doc.file, doc.lines.clone());
    let start = lines.offset(proto::pos_in(params.range.start), encoding)?;
    let end = lines.offset(proto::pos_in(params.range.end), encoding)?;
    let wanted = hsir_analysis::TextRange::new(start.min(end), end.max(start));
    let diagnostics = world.db.diagnostics(file);
    let mut actions = Vec::new();
    for d in diagnostics.iter().filter(|d| !d.fixes.is_empty()) {
        let touches = d.range.intersect(wanted).is_some();
        if !touches {
            continue;
        }
        let converted =
            proto::diagnostic(d, &params.text_document.uri, &lines, encoding, docs_base);
        for fix in &d.fixes {
            let edits = fix.edits.iter().map(|e| proto::text_edit(&lines, e, encoding)).collect();
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
    Some(actions)
}
