//! The corpus's own `expected-error` / `expected-warning` annotations as an oracle.
//!
//! Every corpus file with annotations is checked, and each annotation agrees when hsir reports
//! a diagnostic of the same severity on the line it names (MLIR's `@+N`, `@-N`, `@below`,
//! `@above`, cases split at `// -----`; see `fixture.rs`). Message texts are not compared:
//! hsir words its messages its own way. Notes agree when a related note of some diagnostic is
//! on their line. Several annotations on one line all agree with one diagnostic there.
//!
//! Files whose RUN line runs a pass expect that pass's errors (a conversion that cannot
//! legalize, a pass option that is unknown); hsir checks IR, not passes, so those are listed
//! with the pass and not counted. Per-file agreement is printed (`cargo test --test oracle --
//! --nocapture`).

#[path = "../../test-support/shared.rs"]
mod shared;

use std::path::{Path, PathBuf};

use hsir_analysis::{fixture, Diagnostic, Severity};

/// The corpus's files, or `None` (the test is skipped) without the corpus.
fn corpus_files() -> Option<Vec<PathBuf>> {
    let mut out = Vec::new();
    for dir in ["corpus/circt", "corpus/dynamatic"] {
        out.extend(shared::mlir_files(dir)?);
    }
    out.sort();
    Some(out)
}

/// The pass a file's RUN line runs besides verification, if any.
fn pass_of(text: &str) -> Option<String> {
    let run = text.lines().find(|l| l.contains("RUN:"))?;
    run.split_whitespace()
        .filter(|w| w.starts_with('-'))
        .map(|w| w.trim_start_matches('-'))
        .find(|w| !matches!(*w, "split-input-file" | "verify-diagnostics"))
        .map(|w| w.to_string())
}

fn line_of(text: &str, offset: usize) -> u32 {
    text[..offset].bytes().filter(|&b| b == b'\n').count() as u32
}

struct Agreement {
    file: String,
    total: usize,
    agreed: usize,
    notes_total: usize,
    notes_agreed: usize,
    missed: Vec<String>,
    unexpected: Vec<String>,
}

fn agreement(path: &Path, text: &str) -> Agreement {
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    let diagnostics: Vec<Diagnostic> = hsir_analysis::check(&parse);
    let on_line = |line: u32, severity: Severity| {
        diagnostics
            .iter()
            .any(|d| d.severity == severity && line_of(text, d.range.start().into()) == line)
    };
    let note_on_line = |line: u32| {
        diagnostics
            .iter()
            .flat_map(|d| &d.related)
            .any(|r| line_of(text, r.range.start().into()) == line)
    };
    let expectations = fixture::expectations(text);
    let mut out = Agreement {
        file: path.file_name().unwrap().to_string_lossy().into_owned(),
        total: 0,
        agreed: 0,
        notes_total: 0,
        notes_agreed: 0,
        missed: Vec::new(),
        unexpected: Vec::new(),
    };
    for e in &expectations {
        let severity = match e.kind.as_str() {
            "error" => Severity::Error,
            "warning" => Severity::Warning,
            "note" => {
                out.notes_total += 1;
                if note_on_line(e.line) {
                    out.notes_agreed += 1;
                }
                continue;
            }
            _ => continue,
        };
        out.total += 1;
        if on_line(e.line, severity) {
            out.agreed += 1;
        } else {
            out.missed.push(format!("line {}: {} {{{{{}}}}}", e.line + 1, e.kind, e.message));
        }
    }
    for d in diagnostics.iter().filter(|d| d.severity == Severity::Error) {
        let line = line_of(text, d.range.start().into());
        if !expectations.iter().any(|e| e.line == line && e.kind == "error") {
            out.unexpected.push(format!("line {}: {}: {}", line + 1, d.code.code(), d.message));
        }
    }
    out
}

#[test]
fn corpus_annotations_agree_with_hsir() {
    let mut required = Vec::new();
    let mut report = String::new();
    let Some(files) = corpus_files() else { return };
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        if !text.contains("expected-error") && !text.contains("expected-warning") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(pass) = pass_of(&text) {
            let count = fixture::expectations(&text).len();
            report.push_str(&format!(
                "{name}: not counted: its {count} annotation(s) are errors of the pass `-{pass}`, not of the IR\n"
            ));
            continue;
        }
        let a = agreement(&path, &text);
        report.push_str(&format!(
            "{}: {}/{} errors and warnings agree ({:.1}%), notes {}/{}, {} unannotated error(s)\n",
            a.file,
            a.agreed,
            a.total,
            100.0 * a.agreed as f64 / a.total.max(1) as f64,
            a.notes_agreed,
            a.notes_total,
            a.unexpected.len()
        ));
        for m in &a.missed {
            report.push_str(&format!("    missed {m}\n"));
        }
        for u in &a.unexpected {
            report.push_str(&format!("    unannotated {u}\n"));
        }
        if matches!(a.file.as_str(), "Dialect-Handshake__errors.mlir" | "Handshake__invalid.mlir") {
            required.push(a);
        }
    }
    println!("{report}");
    assert_eq!(required.len(), 2, "both required files are in the corpus\n{report}");
    for a in &required {
        assert!(
            a.agreed * 10 >= a.total * 9,
            "{}: {}/{} is under 90%\n{report}",
            a.file,
            a.agreed,
            a.total
        );
    }
}
