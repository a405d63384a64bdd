//! Semantic analysis over hsir's syntax trees, producing diagnostics and IDE data as plain
//! values. No IO, no LSP, no JSON: callers hand in text and get data back.
//!
//! Today the pipeline is syntax errors and the well-formedness of every type written; later
//! steps (lowering, signatures, dataflow lints) extend the same `Vec<Diagnostic>`.

pub mod attrs;
mod check_item;
mod check_pipeline;
mod check_types;
pub mod dataflow;
pub mod db;
pub mod diagnostics;
pub mod fixture;
pub mod ide;
pub mod ir;
pub mod lints;
pub mod ops;
mod schedule;
pub mod signatures;
mod syntax;
pub mod types;

pub use check_item::{callee_of, check_types, Callee, Symbols, Typed, ValueTypes};
pub use db::{
    Analysis, Config, Counters, Database, FileId, ItemRef, ItemView, Reported, SortedDiagnostics,
    Split, SyntaxBase, TakenItem, Threads,
};
pub use diagnostics::{
    cap_shown, not_shown_note, Diagnostic, DiagnosticCode, Fix, Related, Severity, Shown, TextEdit,
    MAX_SHOWN,
};
pub use hsir_parser::{Parse, TextRange, TextSize};

/// Everything `hsir check` reports for one file on its own, in text order. The database
/// (`db::Database`) gives the same for a workspace of files, incrementally.
pub fn check(parse: &Parse) -> Vec<Diagnostic> {
    db::check_parse(parse)
}

/// The file's items: its top-level ops, with the ops of a top-level `module` (or
/// `builtin.module`) taken in its place, recursively. Functions, `hw.module`s and declarations
/// are items; each is analysed on its own.
pub fn items(parse: &Parse) -> Vec<hsir_parser::ast::Op<'_>> {
    use hsir_parser::ast::{AstNode, SourceFile};
    fn walk<'t>(op: hsir_parser::ast::Op<'t>, out: &mut Vec<hsir_parser::ast::Op<'t>>) {
        if matches!(op.name(), Some("module" | "builtin.module")) {
            for region in op.regions() {
                for block in region.blocks() {
                    for inner in block.ops() {
                        walk(inner, out);
                    }
                }
            }
        } else {
            out.push(op);
        }
    }
    let mut out = Vec::new();
    if let Some(file) = SourceFile::cast(parse.root()) {
        for op in file.ops() {
            walk(op, &mut out);
        }
    }
    out
}

/// The text range of an item, as `items` returns them.
pub fn ast_node_range(op: hsir_parser::ast::Op<'_>) -> std::ops::Range<usize> {
    use hsir_parser::ast::AstNode;
    let range = op.syntax().text_range();
    usize::from(range.start())..usize::from(range.end())
}

/// Decodes file bytes and parses them. A decoding problem is returned as a diagnostic, the
/// one place where non-UTF-8 input is handled.
pub fn parse_bytes(bytes: &[u8]) -> (Parse, Option<Diagnostic>) {
    let (text, error) = decode_bytes(bytes.to_vec());
    (hsir_parser::parse(text), error)
}

/// Decodes file bytes into text, as `parse_bytes` does, keeping the bytes' memory when they
/// are valid UTF-8 (a large file is not copied).
pub fn decode_bytes(bytes: Vec<u8>) -> (String, Option<Diagnostic>) {
    match String::from_utf8(bytes) {
        Ok(text) => (text, None),
        Err(err) => {
            let (text, error) = hsir_parser::decode(err.as_bytes());
            (text.into_owned(), error.map(|e| syntax::from_syntax_error(&e)))
        }
    }
}
