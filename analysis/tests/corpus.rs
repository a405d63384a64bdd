//! The shared corpus of real CIRCT and Dynamatic IR (`../shared/corpus`): every file without
//! `expected-error` annotations gets no error from `check`.

use std::path::{Path, PathBuf};

fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("the corpus must be at {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            corpus_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "mlir") {
            out.push(path);
        }
    }
}

#[test]
fn valid_corpus_files_get_no_errors() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut files = Vec::new();
    corpus_files(&root, &mut files);
    files.sort();
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        if String::from_utf8_lossy(&bytes).contains("expected-error") {
            continue;
        }
        checked += 1;
        let (parse, decode_error) = hsir_analysis::parse_bytes(&bytes);
        let errors: Vec<String> = decode_error
            .into_iter()
            .chain(hsir_analysis::check(&parse))
            .filter(|d| d.severity == hsir_analysis::Severity::Error)
            .map(|d| format!("  {}: {} at {:?}", d.code.code(), d.message, d.range))
            .collect();
        if !errors.is_empty() {
            failures.push(format!("{}:\n{}", path.display(), errors.join("\n")));
        }
    }
    assert!(checked > 100, "expected the whole corpus, checked {checked} files");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
