//! Diagnostic fixtures (`test_data/diagnostics/*.mlir`, one or more per code, and
//! `test_data/ops/*.mlir`, the ops of each family in every era): every annotation is reported
//! and every report is annotated. Every code has a fixture and a documentation page.

use std::path::{Path, PathBuf};

use hsir_analysis::{fixture, DiagnosticCode};

/// The folders of annotated fixtures.
const FOLDERS: &[&str] = &["test_data/diagnostics", "test_data/ops"];

fn fixture_paths() -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = FOLDERS
        .iter()
        .flat_map(|folder| {
            let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
            std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
                .map(|e| e.unwrap().path())
        })
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    paths.sort();
    paths
}

fn diagnose(bytes: &[u8]) -> (String, Vec<hsir_analysis::Diagnostic>) {
    let (parse, decode_error) = hsir_analysis::parse_bytes(bytes);
    let mut diagnostics: Vec<_> = decode_error.into_iter().collect();
    diagnostics.extend(hsir_analysis::check(&parse));
    // As `hsir check` and the server show them.
    let at_start = hsir_analysis::TextSize::from(0);
    let shown = hsir_analysis::cap_shown(diagnostics.iter().map(|d| (d, at_start)));
    (parse.tree().text().to_string(), shown.to_vec())
}

#[test]
fn fixtures_match_their_annotations() {
    let mut failures = Vec::new();
    for path in fixture_paths() {
        let (text, diagnostics) = diagnose(&std::fs::read(&path).unwrap());
        if let Err(report) = fixture::verify(&text, &fixture::observe(&text, &diagnostics)) {
            failures.push(format!("{}:\n{report}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_code_has_a_fixture_and_a_page() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics");
    // The backend's codes (HS5xxx) have their fixtures beside the backend, which reports them.
    let backend = Path::new(env!("CARGO_MANIFEST_DIR")).join("../backend/test_data/diagnostics");
    // Buffer placement's codes (HS6xxx) are expected by the placement fixtures.
    let placement = Path::new(env!("CARGO_MANIFEST_DIR")).join("../backend/test_data/placement");
    let backend_fixtures = [&backend, &placement]
        .into_iter()
        .flat_map(|dir| {
            std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        })
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"));
    let fixtures: Vec<String> = fixture_paths()
        .into_iter()
        .chain(backend_fixtures)
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        .collect();
    for code in DiagnosticCode::ALL {
        let code = code.code();
        let page = docs.join(format!("{code}.md"));
        let page_text = std::fs::read_to_string(&page)
            .unwrap_or_else(|_| panic!("{code} has no page at {}", page.display()));
        for section in ["## What it means", "## Why it matters", "## Example", "## Fixed"] {
            assert!(page_text.contains(section), "{} lacks a `{section}` section", page.display());
        }
        assert!(
            fixtures.iter().any(|f| f.contains(&format!("{{{{{code}:"))),
            "{code} has no fixture expecting it"
        );
    }
}

#[test]
fn the_invalid_utf8_fixture_really_is_invalid() {
    let path =
        fixture_paths().into_iter().find(|p| p.to_string_lossy().contains("HS0001")).unwrap();
    assert!(std::str::from_utf8(&std::fs::read(path).unwrap()).is_err());
}
