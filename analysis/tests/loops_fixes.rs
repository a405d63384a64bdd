//! The quick fixes of HS3003 (body control keyed by raw_will_continue): applied to the
//! fixtures, they remove the diagnostic without breaking the single-use rule, and applied all
//! together they leave the buggy loop kernels with no diagnostic at all.

use std::path::Path;

use hsir_analysis::{Diagnostic, DiagnosticCode, Fix};

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/diagnostics").join(name);
    std::fs::read_to_string(path).unwrap()
}

fn check(text: &str) -> Vec<Diagnostic> {
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    hsir_analysis::check(&parse)
}

fn apply(text: &str, fix: &Fix) -> String {
    let mut edits = fix.edits.clone();
    edits.sort_by_key(|e| std::cmp::Reverse(e.range.start()));
    for pair in edits.windows(2) {
        assert!(pair[1].range.end() <= pair[0].range.start(), "overlapping edits in {fix:?}");
    }
    fix.apply(text)
}

fn count(diagnostics: &[Diagnostic], code: DiagnosticCode) -> usize {
    diagnostics.iter().filter(|d| d.code == code).count()
}

fn raw_diagnostics(text: &str) -> Vec<Diagnostic> {
    check(text)
        .into_iter()
        .filter(|d| d.code == DiagnosticCode::RawWillContinueBodyControl)
        .collect()
}

/// Each fix on its own removes exactly its diagnostic and adds no unused or multi-use channel.
fn each_fix_removes_its_diagnostic(name: &str) {
    let text = fixture(name);
    let before = check(&text);
    let raw = raw_diagnostics(&text);
    assert!(!raw.is_empty(), "{name} has no HS3003");
    for d in &raw {
        assert_eq!(d.fixes.len(), 1, "{name}: HS3003 at {:?} has no fix", d.range);
        let fixed = apply(&text, &d.fixes[0]);
        let after = check(&fixed);
        assert_eq!(
            count(&after, DiagnosticCode::RawWillContinueBodyControl),
            raw.len() - 1,
            "{name}: the fix `{}` did not remove its diagnostic:\n{fixed}",
            d.fixes[0].label
        );
        for code in [DiagnosticCode::UnusedValue, DiagnosticCode::MultipleUses] {
            assert!(
                count(&after, code) <= count(&before, code),
                "{name}: the fix `{}` adds {}:\n{fixed}",
                d.fixes[0].label,
                code.code()
            );
        }
    }
}

/// Applying every fix, one after the other, leaves no diagnostic at all: the token counts
/// agree again too.
fn all_fixes_leave_no_diagnostic(name: &str) -> String {
    let mut text = fixture(name);
    for _ in 0..10 {
        let Some(d) = raw_diagnostics(&text).into_iter().next() else { break };
        text = apply(&text, &d.fixes[0]);
    }
    // What the memory lints (HS302x) report is theirs to fix, not these fixes', and so is
    // buffer placement the remark of a function with no buffers yet (HS2023).
    let left: Vec<String> = check(&text)
        .iter()
        .filter(|d| !d.code.code().starts_with("HS302") && d.code.code() != "HS2023")
        .map(|d| format!("{}: {}", d.code.code(), d.message))
        .collect();
    assert!(left.is_empty(), "{name} after its fixes:\n{text}\n{}", left.join("\n"));
    text
}

#[test]
fn fixture_fixes() {
    each_fix_removes_its_diagnostic("HS3003_raw_will_continue_body_control.mlir");
    all_fixes_leave_no_diagnostic("HS3003_raw_will_continue_body_control.mlir");
}

#[test]
fn kernel_fixes() {
    each_fix_removes_its_diagnostic("loop_kernel_raw_bug.mlir");
    let fixed = all_fixes_leave_no_diagnostic("loop_kernel_raw_bug.mlir");
    // The carry is now keyed by a new output of the after_cond fork, and the raw condition it
    // no longer uses is consumed by a sink.
    assert!(fixed.contains("%ac_f:3 = fork [3] %ac : i1"), "{fixed}");
    assert!(fixed.contains("dataflow.carry %ac_f#2, %s#2, %next"), "{fixed}");
    assert!(fixed.contains("sink %wc_f#1 : i1"), "{fixed}");
}

#[test]
fn fix_inserts_a_fork_when_after_cond_has_one_direct_use() {
    let text = fixture("HS3003_raw_will_continue_body_control.mlir");
    let d = raw_diagnostics(&text)
        .into_iter()
        .find(|d| d.message.contains("`%tick`"))
        .expect("the invariant case");
    let fixed = apply(&text, &d.fixes[0]);
    assert!(fixed.contains("%raw_cond_fork:2 = fork [2] %raw_cond : i1"), "{fixed}");
    assert!(fixed.contains("dataflow.invariant %raw_cond_fork#0, %val"), "{fixed}");
    assert!(fixed.contains("dataflow.invariant %raw_cond_fork#1, %s#2"), "{fixed}");
}
