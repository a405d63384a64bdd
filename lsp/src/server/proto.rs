//! Conversions between the analysis' plain data (byte offsets, `Diagnostic`, `Fix`) and the
//! protocol's types. The only place besides the handler signatures that names `ls_types`, so
//! that a later move to another types crate stays local.

use std::str::FromStr;

use hsir_analysis::{Diagnostic, DiagnosticCode, Severity, TextRange};
use tower_lsp_server::ls_types as lsp;

use hsir_analysis::TextSize;

use crate::position::{Encoding, Lines, Pos};

pub fn range_in(range: lsp::Range) -> (Pos, Pos) {
    (pos_in(range.start), pos_in(range.end))
}

pub fn pos_in(p: lsp::Position) -> Pos {
    Pos { line: p.line, character: p.character }
}

pub fn pos_out(p: Pos) -> lsp::Position {
    lsp::Position { line: p.line, character: p.character }
}

pub fn range_out(lines: &Lines<'_>, range: TextRange, encoding: Encoding) -> lsp::Range {
    let span = lines.range(range, encoding);
    lsp::Range { start: pos_out(span.start), end: pos_out(span.end) }
}

pub fn uri(text: &str) -> Option<lsp::Uri> {
    lsp::Uri::from_str(text).ok()
}

/// Where the diagnostic pages are: `HSIR_DOCS_URL` when set (e.g. the project's web pages),
/// else the `docs/diagnostics` folder of the source tree the server was built from, when it
/// is still there.
pub fn docs_base() -> Option<String> {
    if let Ok(url) = std::env::var("HSIR_DOCS_URL") {
        return Some(if url.ends_with('/') { url } else { format!("{url}/") });
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics");
    let dir = dir.canonicalize().ok()?;
    Some(format!("file://{}/", dir.display()))
}

fn severity(s: Severity) -> lsp::DiagnosticSeverity {
    match s {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Information => lsp::DiagnosticSeverity::INFORMATION,
        Severity::Hint => lsp::DiagnosticSeverity::HINT,
    }
}

/// What the client said it can show of a diagnostic (its `publishDiagnostics` capabilities).
/// The rest is left out, as the protocol asks: a client that did not declare related
/// information gets each diagnostic's message, which says the whole problem, without the notes.
#[derive(Debug, Clone, Default)]
pub struct DiagnosticOptions {
    /// Where the diagnostic pages are, for `codeDescription`; `None` when the client has no
    /// `codeDescriptionSupport` or the pages cannot be found.
    pub docs_base: Option<String>,
    /// `relatedInformation`.
    pub related: bool,
    /// The tags of `tagSupport.valueSet`.
    pub tags: Vec<lsp::DiagnosticTag>,
}

impl DiagnosticOptions {
    pub fn of(capabilities: &lsp::ClientCapabilities) -> DiagnosticOptions {
        let publish =
            capabilities.text_document.as_ref().and_then(|t| t.publish_diagnostics.as_ref());
        let Some(publish) = publish else { return DiagnosticOptions::default() };
        DiagnosticOptions {
            docs_base: publish.code_description_support.unwrap_or(false).then(docs_base).flatten(),
            related: publish.related_information.unwrap_or(false),
            tags: publish.tag_support.as_ref().map(|t| t.value_set.clone()).unwrap_or_default(),
        }
    }
}

/// Editors fade unused code and strike through deprecated spellings.
fn tags(code: DiagnosticCode) -> Option<Vec<lsp::DiagnosticTag>> {
    match code.code() {
        "HS1107" => Some(vec![lsp::DiagnosticTag::UNNECESSARY]),
        "HS2002" | "HS4012" => Some(vec![lsp::DiagnosticTag::DEPRECATED]),
        _ => None,
    }
}

/// The protocol's form of `d`, whose ranges are relative to `base`.
pub fn diagnostic(
    d: &Diagnostic,
    base: TextSize,
    uri: &lsp::Uri,
    lines: &Lines<'_>,
    encoding: Encoding,
    options: &DiagnosticOptions,
) -> lsp::Diagnostic {
    let code = d.code.code();
    let range = |r: TextRange| range_out(lines, r + base, encoding);
    let related = d
        .related
        .iter()
        .filter(|_| options.related)
        .map(|r| lsp::DiagnosticRelatedInformation {
            location: lsp::Location { uri: uri.clone(), range: range(r.range) },
            message: r.message.clone(),
        })
        .collect::<Vec<_>>();
    lsp::Diagnostic {
        range: range(d.range),
        severity: Some(severity(d.severity)),
        code: Some(lsp::NumberOrString::String(code.to_string())),
        code_description: options
            .docs_base
            .as_deref()
            .and_then(|base| self::uri(&format!("{base}{code}.md")))
            .map(|href| lsp::CodeDescription { href }),
        source: Some("hsir".to_string()),
        message: d.message.clone(),
        related_information: (!related.is_empty()).then_some(related),
        tags: tags(d.code)
            .map(|tags| tags.into_iter().filter(|t| options.tags.contains(t)).collect::<Vec<_>>())
            .filter(|tags| !tags.is_empty()),
        data: None,
    }
}

/// The JSON of a list of diagnostics whose ranges are relative to `base`, comma-separated,
/// without the enclosing brackets.
pub fn diagnostics_json(
    diagnostics: &[Diagnostic],
    base: TextSize,
    uri: &lsp::Uri,
    lines: &Lines<'_>,
    encoding: Encoding,
    options: &DiagnosticOptions,
) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let converted = diagnostic(d, base, uri, lines, encoding, options);
        if !out.is_empty() {
            out.push(',');
        }
        // Serialising plain structs to a string cannot fail.
        out.push_str(&serde_json::to_string(&converted).unwrap_or_default());
    }
    out
}

/// A whole `textDocument/publishDiagnostics` notification, from the parts of its list.
pub fn publish_json(uri: &lsp::Uri, version: i32, parts: &[std::sync::Arc<str>]) -> Vec<u8> {
    let uri = serde_json::to_string(uri).unwrap_or_else(|_| "\"\"".to_string());
    let size: usize = parts.iter().map(|p| p.len() + 1).sum();
    let mut out = String::with_capacity(size + uri.len() + 128);
    out.push_str(r#"{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":"#);
    out.push_str(&uri);
    out.push_str(&format!(r#","version":{version},"diagnostics":["#));
    let mut first = true;
    for part in parts.iter().filter(|p| !p.is_empty()) {
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str(part);
    }
    out.push_str("]}}");
    out.into_bytes()
}

pub fn text_edit(
    lines: &Lines<'_>,
    edit: &hsir_analysis::TextEdit,
    encoding: Encoding,
) -> lsp::TextEdit {
    lsp::TextEdit { range: range_out(lines, edit.range, encoding), new_text: edit.new_text.clone() }
}
