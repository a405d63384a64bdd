//! The workspace's `.mlir` files on disk, for workspace symbol search: what each file that is
//! not open in the editor defines (functions, modules, and the named ops inside them), read
//! from disk when a search asks and kept while the file does not change.
//!
//! A search walks the workspace folders (skipping hidden folders and build output), reads only
//! the files that are new or whose size or modification time changed (or that the client said
//! changed, through `workspace/didChangeWatchedFiles`), and forgets files that are gone. Each
//! file is analysed alone in a scratch database; only its symbols, with their positions, are
//! kept. Files above `MAX_FILE_BYTES` are skipped, and the walk stops after `MAX_FILES` files,
//! so a search stays quick in a large tree. The walk runs off the analysis worker, which keeps
//! answering the editor meanwhile.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use hsir_analysis::ide::symbols::{self, WorkspaceSymbol};
use hsir_analysis::{Database, FileId};
use tower_lsp_server::ls_types as lsp;

use super::proto;
use crate::position::{Encoding, LineIndex};

/// Files larger than this are not read (a 15 MB kernel would take a second to analyse).
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// The most `.mlir` files one walk looks at.
pub const MAX_FILES: usize = 5_000;

/// Folders the walk does not enter: build output and dependencies.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules", "build"];

/// One symbol of a file on disk, with its place as the client counts positions.
#[derive(Debug, Clone)]
pub struct DiskSymbol {
    pub symbol: WorkspaceSymbol,
    pub range: lsp::Range,
}

/// What a file on disk defines, with what it was read from.
#[derive(Debug)]
struct Entry {
    len: u64,
    modified: Option<SystemTime>,
    uri: lsp::Uri,
    symbols: Arc<[DiskSymbol]>,
}

/// The files of one search: per file its path, URI and symbols.
pub type Snapshot = Vec<(PathBuf, lsp::Uri, Arc<[DiskSymbol]>)>;

#[derive(Debug)]
pub struct DiskIndex {
    encoding: Encoding,
    entries: HashMap<PathBuf, Entry>,
    /// Files the client said changed, read again on the next search whatever their metadata.
    stale: HashSet<PathBuf>,
}

impl DiskIndex {
    pub fn new(encoding: Encoding) -> DiskIndex {
        DiskIndex { encoding, entries: HashMap::new(), stale: HashSet::new() }
    }

    /// Marks files the client reported created, changed or deleted.
    pub fn invalidate(&mut self, paths: impl IntoIterator<Item = PathBuf>) {
        for path in paths {
            self.entries.remove(&path);
            self.stale.insert(path);
        }
    }

    /// Brings the index up to date with the `.mlir` files under `roots` and returns them.
    pub fn refresh(&mut self, roots: &[PathBuf]) -> Snapshot {
        let mut files = Vec::new();
        for root in roots {
            walk(root, &mut files);
        }
        files.sort();
        files.dedup();
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for path in files {
            let Ok(meta) = std::fs::metadata(&path) else { continue };
            if meta.len() > MAX_FILE_BYTES {
                continue;
            }
            let modified = meta.modified().ok();
            let fresh = !self.stale.contains(&path)
                && self
                    .entries
                    .get(&path)
                    .is_some_and(|e| e.len == meta.len() && e.modified == modified);
            if !fresh {
                self.stale.remove(&path);
                match read(&path, self.encoding) {
                    Some((uri, symbols)) => {
                        let entry = Entry { len: meta.len(), modified, uri, symbols };
                        self.entries.insert(path.clone(), entry);
                    }
                    None => {
                        self.entries.remove(&path);
                        continue;
                    }
                }
            }
            if let Some(entry) = self.entries.get(&path) {
                out.push((path.clone(), entry.uri.clone(), entry.symbols.clone()));
            }
            seen.insert(path);
        }
        self.entries.retain(|path, _| seen.contains(path));
        out
    }
}

/// The `.mlir` files under `dir`, up to `MAX_FILES` in `out`.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            if out.len() >= MAX_FILES {
                return;
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let Ok(kind) = entry.file_type() else { continue };
            if kind.is_dir() {
                if !name.starts_with('.') && !SKIPPED_DIRS.contains(&name.as_ref()) {
                    pending.push(entry.path());
                }
            } else if kind.is_file() && name.ends_with(".mlir") {
                out.push(entry.path());
            }
        }
    }
}

/// A file's URI and symbols, analysed alone.
fn read(path: &Path, encoding: Encoding) -> Option<(lsp::Uri, Arc<[DiskSymbol]>)> {
    let uri = lsp::Uri::from_file_path(path)?;
    let bytes = std::fs::read(path).ok()?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let lines = LineIndex::new(&text);
    let mut db = Database::new();
    db.set_lints(false);
    let file = FileId(0);
    db.set_text(file, text);
    let analysis = db.analysis();
    let view = lines.view(analysis.text(file).unwrap_or_default());
    let symbols = symbols::file_symbols(&analysis, file)
        .into_iter()
        .map(|symbol| {
            let range = proto::range_out(&view, symbol.range, encoding);
            DiskSymbol { symbol, range }
        })
        .collect();
    Some((uri, symbols))
}

/// The path a `file:` URI names.
pub fn path_of(uri: &str) -> Option<PathBuf> {
    proto::uri(uri)?.to_file_path().map(|p| p.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_changed_files_again_and_forgets_deleted_ones() {
        let dir = std::env::temp_dir().join(format!("hsir-index-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join(".hidden")).expect("temp dir");
        let file = dir.join("a.mlir");
        std::fs::write(&file, "func.func @first() {\n  return\n}\n").expect("write");
        std::fs::write(dir.join(".hidden/b.mlir"), "func.func @hidden() {\n  return\n}\n")
            .expect("write");
        let mut index = DiskIndex::new(Encoding::Utf16);
        let names = |snapshot: &Snapshot| -> Vec<String> {
            snapshot.iter().flat_map(|(_, _, s)| s.iter().map(|d| d.symbol.name.clone())).collect()
        };
        let first = index.refresh(std::slice::from_ref(&dir));
        assert_eq!(names(&first), ["@first"]);
        assert_eq!(first[0].2[0].range.start, lsp::Position { line: 0, character: 10 });
        // Same length, so only the client's word (or the time) says it changed.
        std::fs::write(&file, "func.func @other() {\n  return\n}\n").expect("write");
        index.invalidate([file.clone()]);
        assert_eq!(names(&index.refresh(std::slice::from_ref(&dir))), ["@other"]);
        std::fs::remove_file(&file).expect("remove");
        assert!(index.refresh(std::slice::from_ref(&dir)).is_empty());
        assert!(index.entries.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
