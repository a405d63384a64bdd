//! Every file of the shared corpus: the tree rebuilds the text byte for byte, and the parser
//! reports no syntax errors except where a case's own annotations expect a parse error.

use std::path::{Path, PathBuf};

#[path = "../../test-support/shared.rs"]
mod shared;

/// The corpus's files, or `None` (the test is skipped) without it.
fn corpus_files() -> Option<Vec<PathBuf>> {
    let mut files = Vec::new();
    for dialect in ["corpus/circt", "corpus/dynamatic"] {
        files.extend(shared::mlir_files(dialect)?);
    }
    files.sort();
    assert!(files.len() > 100, "expected the whole corpus, found {} files", files.len());
    Some(files)
}

#[test]
fn every_corpus_file_roundtrips() {
    let Some(files) = corpus_files() else { return };
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = hsir_parser::parse(text.clone());
        assert_eq!(parse.tree().rebuild_text(), text, "{} does not roundtrip", path.display());
        let tree_tokens = parse.root().tokens().count();
        assert_eq!(tree_tokens, hsir_parser::lex(&text).len(), "{}: token count", path.display());
    }
}

/// Corpus files whose syntax errors are expected, with the reason. Each entry names the file and
/// the 1-based line of the error.
const EXPECTED_SYNTAX_ERRORS: &[(&str, u32, &str)] = &[
    // A legacy Dynamatic error test whose declarations end in `;`, which MLIR's lexer rejects
    // too. Each line carries an `expected-error @below` for a type it fails to parse.
    ("Handshake__errors.mlir", 4, "stray `;` after a declaration"),
    ("Handshake__errors.mlir", 10, "stray `;` after a declaration"),
    ("Handshake__errors.mlir", 16, "stray `;` after a declaration"),
];

#[test]
fn corpus_files_parse_without_syntax_errors() {
    let mut unexpected = Vec::new();
    let mut seen_expected = Vec::new();
    let Some(files) = corpus_files() else { return };
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = hsir_parser::parse(text.clone());
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        for error in parse.errors() {
            let line = text[..usize::from(error.range.start())].matches('\n').count() as u32 + 1;
            if EXPECTED_SYNTAX_ERRORS.iter().any(|(f, l, _)| *f == name && *l == line) {
                seen_expected.push((name.clone(), line));
            } else {
                unexpected.push(format!("{name}:{line}: {:?}: {}", error.kind, error.message));
            }
        }
    }
    assert!(unexpected.is_empty(), "unexpected syntax errors:\n{}", unexpected.join("\n"));
    for (file, line, reason) in EXPECTED_SYNTAX_ERRORS {
        assert!(
            seen_expected.iter().any(|(f, l)| f == file && l == line),
            "{file}:{line} was expected to give a syntax error ({reason}) but did not"
        );
    }
}

/// Asserts that `a` and `b` parse every file in `files` to the same tree and errors.
fn same_parses(files: &[PathBuf], a: hsir_parser::ParseOptions, b: hsir_parser::ParseOptions) {
    for path in files {
        let text = std::fs::read_to_string(path).unwrap();
        let left = hsir_parser::parse_with(text.clone(), a);
        let right = hsir_parser::parse_with(text, b);
        let name = path.display();
        assert_eq!(format!("{:#?}", left.root()), format!("{:#?}", right.root()), "{name}");
        assert_eq!(left.errors(), right.errors(), "{name}");
    }
}

/// Parsing on two threads (forced, whatever the file's size) builds the same tree and errors as
/// parsing on one: the second thread's functions are spliced in only where the main parse would
/// have built exactly them.
#[test]
fn two_threads_build_the_same_tree_as_one() {
    use hsir_parser::ParseOptions;
    let one = ParseOptions { threads: 1, parallel_min_bytes: 0, ..Default::default() };
    let two = ParseOptions { threads: 2, parallel_min_bytes: 0, ..Default::default() };
    let Some(files) = corpus_files() else { return };
    same_parses(&files, one, two);
}

/// The hand-written path for everyday statements builds the same trees and errors as the
/// general grammar, on every corpus file, parser fixture and bundled example.
#[test]
fn hand_parsed_statements_build_the_same_tree_as_the_combinators() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Without the corpus, the fixtures and examples alone.
    let mut files = corpus_files().unwrap_or_default();
    for dir in [
        manifest.join("test_data/ok"),
        manifest.join("test_data/err"),
        manifest.join("../examples"),
    ] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "mlir") {
                files.push(path);
            }
        }
    }
    let hand = hsir_parser::ParseOptions { threads: 1, ..Default::default() };
    let general = hsir_parser::ParseOptions { hand_parsed_statements: false, ..hand };
    same_parses(&files, hand, general);
}
