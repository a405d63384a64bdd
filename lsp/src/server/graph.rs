//! The `hsir.showGraph` command: the dataflow graph of a function of an open document, as SVG
//! (for a webview or a browser) and DOT.
//!
//! Arguments: `{ "uri": ..., "function": "f" }` or `{ "uri": ..., "position": {line,
//! character} }` (the function there), or just the uri (the file's first `handshake.func`).
//! The document as the editor has it, or the file on disk when it is not open.
//! Answer: `{ "function", "svg", "dot" }`. Each SVG node is `<g class="node <kind>"
//! data-start data-end data-line data-character>`: the bytes it stands for, and where that is
//! in the client's line/character terms, so that a click can reveal it.

use serde_json::{json, Value};
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types as lsp;

use hsir_analysis::ide::graph::graph;
use hsir_analysis::TextSize;

use super::{proto, Backend};

pub const SHOW_GRAPH: &str = "hsir.showGraph";

fn invalid(message: String) -> Error {
    Error { code: ErrorCode::InvalidParams, message: message.into(), data: None }
}

/// The graph of the function `function` names, or the one at `position`, or the file's first
/// `handshake.func`, with line/character positions in `encoding`.
fn render(
    analysis: &hsir_analysis::Analysis<'_>,
    file: hsir_analysis::FileId,
    lines: crate::position::Lines<'_>,
    encoding: crate::position::Encoding,
    function: Option<&str>,
    position: Option<lsp::Position>,
) -> std::result::Result<Value, String> {
    let wanted = match (function, position) {
        (Some(name), _) => analysis
            .functions()
            .into_iter()
            .find(|(n, item)| n == name && item.file == file)
            .and_then(|(_, item)| analysis.view_of(item))
            .ok_or_else(|| format!("no function `@{name}` in this file"))?,
        (None, Some(p)) => {
            let offset = lines
                .offset(proto::pos_in(p), encoding)
                .ok_or_else(|| "the position is outside the document".to_string())?;
            analysis
                .item_at(file, offset)
                .ok_or_else(|| "no function at the position".to_string())?
        }
        (None, None) => analysis
            .item_refs(file)
            .into_iter()
            .filter_map(|item| analysis.view_of(item))
            .find(|view| graph(view).is_some())
            .ok_or_else(|| "the file has no `handshake.func`".to_string())?,
    };
    let g = graph(&wanted).ok_or_else(|| "that is not a `handshake.func`".to_string())?;
    let line_col = |offset: u32| {
        let p = lines.pos(TextSize::from(offset), encoding);
        (p.line, p.character)
    };
    Ok(json!({ "function": g.function, "svg": g.to_svg(&line_col), "dot": g.to_dot() }))
}

pub async fn execute(
    backend: &Backend,
    params: lsp::ExecuteCommandParams,
) -> Result<Option<Value>> {
    let args = match params.arguments.as_slice() {
        [Value::Object(map)] => map.clone(),
        _ => {
            return Err(invalid(format!(
                "{SHOW_GRAPH} takes {{ \"uri\", \"function\" or \"position\" }}"
            )))
        }
    };
    let Some(uri) = args.get("uri").and_then(Value::as_str).map(str::to_string) else {
        return Err(invalid(format!("{SHOW_GRAPH} needs a `uri`")));
    };
    let function =
        args.get("function").and_then(Value::as_str).map(|f| f.trim_start_matches('@').to_string());
    let position =
        args.get("position").and_then(|p| serde_json::from_value::<lsp::Position>(p.clone()).ok());
    let key = uri.clone();
    let open = backend
        .request(move |w| {
            let encoding = w.encoding;
            let (analysis, docs) = w.analysis();
            let doc = docs.get(&key)?;
            Some(render(&analysis, doc.file, doc.lines, encoding, function.as_deref(), position))
        })
        .await?;
    let answer = match open {
        Some(answer) => answer,
        // Not open: the file on disk, analysed on its own, as "Generate RTL" does.
        None => {
            let path = super::proto::uri(&uri)
                .and_then(|u| u.to_file_path().map(|p| p.into_owned()))
                .ok_or_else(|| {
                    invalid(format!("{SHOW_GRAPH}: `{uri}` is not a file on this machine"))
                })?;
            let encoding = backend.request(|w| w.encoding).await?;
            let function = args
                .get("function")
                .and_then(Value::as_str)
                .map(|f| f.trim_start_matches('@').to_string());
            let (answer, not_utf8) = tokio::task::spawn_blocking(move || {
                let loaded = match crate::source::load(&path) {
                    Ok(loaded) => loaded,
                    Err(message) => return (Err(message), None),
                };
                let not_utf8 =
                    loaded.decode_error.map(|d| format!("{}: {}", loaded.name, d.message));
                let text = loaded.parse.tree().text().to_string();
                let mut db = hsir_analysis::Database::new();
                let file = hsir_analysis::FileId(0);
                db.set_parse(file, loaded.parse);
                let index = crate::position::LineIndex::new(&text);
                let analysis = db.analysis();
                let answer = render(
                    &analysis,
                    file,
                    index.view(&text),
                    encoding,
                    function.as_deref(),
                    position,
                );
                (answer, not_utf8)
            })
            .await
            .map_err(|e| Error {
                code: ErrorCode::InternalError,
                message: e.to_string().into(),
                data: None,
            })?;
            if let Some(message) = not_utf8 {
                backend
                    .client
                    .show_message(lsp::MessageType::WARNING, format!("hsir: {message}"))
                    .await;
            }
            answer
        }
    };
    answer.map(Some).map_err(|m| Error {
        code: ErrorCode::ServerError(-32803),
        message: format!("Show Dataflow Graph: {m}").into(),
        data: None,
    })
}
