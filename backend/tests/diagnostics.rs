//! The backend's diagnostic fixtures (`test_data/diagnostics/*.mlir`): each `// -----` case is
//! generated with a testbench, as `hsir rtl --testbench` does, and what it reports must match
//! the case's annotations exactly.

mod common;

use common::mlir_files;

use hsir_analysis::fixture;
use hsir_backend::rtl::{self, Options, TestbenchOptions};

/// The case's text with every other line blanked, so that offsets and lines stay the file's.
fn case_text(text: &str, case: &fixture::Case) -> String {
    text.split('\n')
        .enumerate()
        .map(
            |(i, line)| {
                if (case.first_line..case.end_line).contains(&(i as u32)) {
                    line
                } else {
                    ""
                }
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn backend_fixtures_match_their_annotations() {
    let mut failures = Vec::new();
    for path in mlir_files("test_data/diagnostics") {
        let text = std::fs::read_to_string(&path).unwrap();
        for case in fixture::cases(&text) {
            let case_text = case_text(&text, &case);
            let top = case_text
                .lines()
                .find_map(|l| l.trim().strip_prefix("// hsir-rtl: top="))
                .map(|t| t.trim().to_string());
            let (parse, _) = hsir_analysis::parse_bytes(case_text.as_bytes());
            let options =
                Options { top, testbench: Some(TestbenchOptions::default()), ..Options::default() };
            let diagnostics = match rtl::generate(&parse, &options) {
                Ok(output) => output.diagnostics,
                Err(errors) => errors,
            };
            if let Err(report) =
                fixture::verify(&case_text, &fixture::observe(&case_text, &diagnostics))
            {
                failures.push(format!(
                    "{} (case at line {}):\n{report}",
                    path.display(),
                    case.first_line + 1
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
