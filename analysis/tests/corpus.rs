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

/// Every warning the dataflow lints (HS2xxx, HS3xxx) raise on the corpus, by file and code, each
/// with the reason it is right to raise it there.
const LINT_WARNINGS: &[(&str, &str, &str)] = &[
    (
        "HandshakeOptimizeBitwidths__bound-opti.mlir",
        "HS3005",
        "op-level test snippet: `cmpi` compares an argument (one token) with a cond_br's false side (one token only when the condition is false)",
    ),
    (
        "HandshakeOptimizeBitwidths__handshake-special.mlir",
        "HS3005",
        "op-level test snippet: muxes selected by an argument (one token) whose data inputs are fed back through cond_br outputs",
    ),
    (
        "rewrites__d_lhs.mlir",
        "HS2021",
        "hand-written rewrite pattern: mux, fork, cond_br and one ONE_SLOT_BREAK_DV slot around the loop, so ready is combinational",
    ),
    (
        "rewrites__f_lhs.mlir",
        "HS2021",
        "two loops, each closed by a DV-only slot; nothing on them breaks ready",
    ),
    (
        "rewrites__f_rhs.mlir",
        "HS2021",
        "the rewritten form keeps a DV-only slot on its loop, so ready still runs around it",
    ),
];

#[test]
fn lint_warnings_on_the_corpus_are_the_justified_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus");
    let mut files = Vec::new();
    corpus_files(&root, &mut files);
    files.sort();
    let mut found = std::collections::BTreeSet::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        if String::from_utf8_lossy(&bytes).contains("expected-error") {
            continue;
        }
        let (parse, _) = hsir_analysis::parse_bytes(&bytes);
        for d in hsir_analysis::check(&parse) {
            let code = d.code.code();
            if code.starts_with("HS2") || code.starts_with("HS3") {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                found.insert((name, code.to_string()));
            }
        }
    }
    let expected: std::collections::BTreeSet<(String, String)> =
        LINT_WARNINGS.iter().map(|(f, c, _)| (f.to_string(), c.to_string())).collect();
    assert_eq!(found, expected, "lint diagnostics on the corpus changed; justify or fix each");
}
