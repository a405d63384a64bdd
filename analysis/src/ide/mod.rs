//! IDE features over an up-to-date database (`db::Analysis`): hover, navigation, symbols,
//! completion, semantic tokens, inlay hints, signature help and formatting.
//!
//! Everything here is plain data with byte offsets into a file's current text; the language
//! server converts it to LSP's line/character positions. Nothing here does IO or knows LSP.

use hsir_parser::{SyntaxToken, TextRange, TextSize};

use crate::db::{FileId, ItemView};

pub mod completion;
pub mod format;
pub mod graph;
pub mod hover;
pub mod inlay_hints;
pub mod navigation;
pub mod semantic_tokens;
pub mod signature_help;
pub mod symbols;

/// A position in a file: a byte offset into its current text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FilePosition {
    pub file: FileId,
    pub offset: TextSize,
}

/// A range of a file's current text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileRange {
    pub file: FileId,
    pub range: TextRange,
}

/// The token of `item`'s syntax at an absolute `offset`, preferring the one that starts there
/// when `offset` sits between two tokens (the cursor just before `%x` is on `%x`), unless that
/// one is trivia and the previous one is not (the cursor just after `%x` is on `%x` too).
pub fn token_at<'a>(item: &ItemView<'a>, offset: TextSize) -> Option<SyntaxToken<'a>> {
    let local = item.syntax_base.local(offset)?;
    let node = hsir_parser::ast::AstNode::syntax(&item.syntax);
    let range = node.text_range();
    if local < range.start() || local > range.end() {
        return None;
    }
    let at = node.token_at_offset(local.min(range.end().checked_sub(1.into())?));
    let before = local.checked_sub(1.into()).and_then(|b| node.token_at_offset(b));
    match (at, before) {
        (Some(at), Some(before))
            if at.text_range().start() == local
                && at.kind().is_trivia()
                && !before.kind().is_trivia() =>
        {
            Some(before)
        }
        (Some(at), _) if at.text_range().contains_inclusive(local) => Some(at),
        (_, before) => before,
    }
}

/// Test support: a workspace written as one string.
///
/// Files start with a `//- NAME` line (a single file needs none). One `$0` marks a cursor;
/// two mark a selection. The markers are removed from the text.
#[derive(Debug)]
pub struct Fixture {
    pub db: crate::Database,
    /// Each file's name and id, in the order written.
    pub files: Vec<(String, FileId)>,
    pub cursor: Option<FilePosition>,
    pub selection: Option<FileRange>,
}

impl Fixture {
    pub fn parse(text: &str) -> Fixture {
        let mut chunks: Vec<(String, String)> = Vec::new();
        for line in text.split_inclusive('\n') {
            if let Some(name) = line.strip_prefix("//- ") {
                chunks.push((name.trim().to_string(), String::new()));
                continue;
            }
            if chunks.is_empty() {
                chunks.push(("main.mlir".to_string(), String::new()));
            }
            chunks.last_mut().expect("pushed above").1.push_str(line);
        }
        let mut db = crate::Database::new();
        let mut files = Vec::new();
        let mut markers: Vec<FilePosition> = Vec::new();
        for (i, (name, mut body)) in chunks.into_iter().enumerate() {
            let file = FileId(i as u32);
            while let Some(at) = body.find("$0") {
                body.replace_range(at..at + 2, "");
                markers.push(FilePosition { file, offset: TextSize::from(at as u32) });
            }
            db.set_text(file, body);
            files.push((name, file));
        }
        let cursor = (markers.len() == 1).then(|| markers[0]);
        let selection = match markers.as_slice() {
            [a, b] if a.file == b.file => {
                Some(FileRange { file: a.file, range: TextRange::new(a.offset, b.offset) })
            }
            _ => None,
        };
        Fixture { db, files, cursor, selection }
    }

    /// The file's id by name.
    pub fn file(&self, name: &str) -> FileId {
        self.files.iter().find(|(n, _)| n == name).map(|(_, f)| *f).expect("no such fixture file")
    }
}
