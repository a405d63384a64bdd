//! The quick fixes of the single-use rule: HS1110's "Materialize forks and sinks" on real
//! pre-materialization IR (Dynamatic's own `handshake.mlir` of its benchmark suite) leaves no
//! single-use finding and no error; HS1108's fork on a numbered value gives a name MLIR accepts.

#[path = "../../test-support/shared.rs"]
mod shared;

use hsir_analysis::{Diagnostic, DiagnosticCode, Severity};

fn check(text: &str) -> Vec<Diagnostic> {
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    hsir_analysis::check(&parse)
}

fn single_use(diagnostics: &[Diagnostic]) -> Vec<&Diagnostic> {
    diagnostics
        .iter()
        .filter(|d| {
            matches!(
                d.code,
                DiagnosticCode::NotMaterialized
                    | DiagnosticCode::UnusedValue
                    | DiagnosticCode::MultipleUses
            )
        })
        .collect()
}

#[test]
fn materializing_the_suites_kernels_leaves_nothing_to_report() {
    let Some(dir) = shared::path("dynamatic-suite/ir") else { return };
    let mut checked = 0;
    for kernel in ["gcd_LEGACY", "fir_FTD", "matvec_LEGACY", "atax_FTD"] {
        let path = dir.join(format!("{kernel}__handshake.mlir"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("the suite must be at {}: {e}", path.display()));
        let before = check(&text);
        let notes: Vec<&Diagnostic> =
            before.iter().filter(|d| d.code == DiagnosticCode::NotMaterialized).collect();
        assert_eq!(notes.len(), 1, "{kernel}: one HS1110 for the function");
        assert_eq!(single_use(&before).len(), 1, "{kernel}: no per-value finding besides it");
        let fix = &notes[0].fixes[0];
        assert_eq!(fix.label, "Materialize forks and sinks");
        let fixed = fix.apply(&text);
        let after = check(&fixed);
        let left: Vec<String> = single_use(&after)
            .iter()
            .chain(
                after.iter().filter(|d| d.severity == Severity::Error).collect::<Vec<_>>().iter(),
            )
            .map(|d| format!("{}: {}", d.code.code(), d.message))
            .collect();
        assert!(left.is_empty(), "{kernel} after the fix:\n{}", left.join("\n"));
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn a_numbered_values_fork_has_a_name_mlir_accepts() {
    let text = "handshake.func @f(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {\n  %s:2 = fork [2] %start : <>\n  sink %s#1 : <>\n  %12 = addi %a, %a : <i32>\n  %13 = muli %12, %12 : <i32>\n  end %13, %s#0 : <i32>, <>\n}\n";
    let before = check(text);
    let d = before
        .iter()
        .find(|d| d.code == DiagnosticCode::MultipleUses && d.message.starts_with("`%12`"))
        .expect("HS1108 on %12");
    let fixed = d.fixes[0].apply(text);
    assert!(fixed.contains("%fork12:2 = fork [2] %12 : <i32>"), "{fixed}");
    assert!(fixed.contains("muli %fork12#0, %fork12#1"), "{fixed}");
    let after = check(&fixed);
    assert!(
        !after.iter().any(|d| d.message.contains("%12`") && d.code == DiagnosticCode::MultipleUses),
        "{fixed}"
    );
    assert!(after.iter().all(|d| d.severity != Severity::Error), "{after:?}");
}
