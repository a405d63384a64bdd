//! The database recomputes what an edit changed, and nothing else (asserted through its
//! counters), and its answers after edits are those of a fresh database on the same text.

mod common;

use common::{delta, generated};
use hsir_analysis::{Counters, Database, Diagnostic, DiagnosticCode, FileId, TextRange, TextSize};

fn fresh(text: &str) -> Vec<Diagnostic> {
    let mut db = Database::new();
    db.set_text(FileId(0), text.to_string());
    db.diagnostics(FileId(0))
}

/// Offset just after `needle`'s first occurrence after `after`.
fn offset_after(text: &str, after: &str, needle: &str) -> TextSize {
    let start = text.find(after).expect("anchor present");
    let at = text[start..].find(needle).expect("needle present") + start + needle.len();
    TextSize::from(at as u32)
}

#[test]
fn an_edit_inside_one_body_recomputes_exactly_that_function() {
    let text = generated(2000, 5);
    let file = FileId(0);
    let mut db = Database::new();
    db.set_text(file, text.clone());
    assert!(db.diagnostics(file).is_empty(), "the generated file is clean");
    let cold = db.counters();
    assert_eq!((cold.file_parses, cold.lowerings, cold.checks), (1, 2000, 2000));

    // One character inside the body of @f1000 (a callee of @f1001): a space before `%s`.
    let at = offset_after(&text, "@f1000(", "%x:2 = fork [2] %a : i32\n");
    let before = db.counters();
    db.edit(file, TextRange::empty(at), " ");
    let diagnostics = db.diagnostics(file);
    let d = delta(before, db.counters());
    assert_eq!(
        (d.file_parses, d.item_parses, d.lowerings, d.checks, d.symbol_tables),
        (0, 1, 1, 1, 0),
        "only @f1000 is reparsed, lowered and checked; its signature is the same, so the symbol table is kept: {d:?}"
    );
    assert!(diagnostics.is_empty());
    assert_eq!(db.text(file).map(str::len), Some(text.len() + 1));

    // Nothing changed: nothing recomputed.
    let before = db.counters();
    db.diagnostics(file);
    assert_eq!(delta(before, db.counters()), Counters::default());
}

#[test]
fn a_callee_signature_edit_rechecks_its_callers_only() {
    let text = generated(2000, 5);
    let file = FileId(0);
    let mut db = Database::new();
    db.set_text(file, text.clone());
    db.diagnostics(file);

    // @f1000's first result becomes i64; @f1001 instantiates it as returning i32.
    let at = offset_after(&text, "handshake.func @f1000(", "-> (i");
    let before = db.counters();
    db.edit(file, TextRange::at(at, TextSize::from(2)), "64");
    let diagnostics = db.diagnostics(file);
    let d = delta(before, db.counters());
    assert_eq!(
        (d.file_parses, d.item_parses, d.lowerings, d.checks, d.symbol_tables),
        (0, 1, 1, 2, 1),
        "@f1000 is lowered; it and its caller @f1001 are checked: {d:?}"
    );
    let codes: Vec<DiagnosticCode> = diagnostics.iter().map(|d| d.code).collect();
    assert!(codes.contains(&DiagnosticCode::InstanceMismatch), "{diagnostics:#?}");
    assert!(codes.contains(&DiagnosticCode::ReturnMismatch), "{diagnostics:#?}");
    let new_text = db.text(file).unwrap().to_string();
    assert_eq!(diagnostics, fresh(&new_text));

    // Restoring the signature rechecks the caller again, and the error goes away.
    let before = db.counters();
    db.edit(file, TextRange::at(at, TextSize::from(2)), "32");
    let diagnostics = db.diagnostics(file);
    let d = delta(before, db.counters());
    assert_eq!((d.lowerings, d.checks), (1, 2), "{d:?}");
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
}

#[test]
fn callers_in_other_files_are_rechecked() {
    let callee = "handshake.func @g(%a: i32, %ctrl: none) -> (i32, none) {\n  return %a, %ctrl : i32, none\n}\n";
    let caller = "handshake.func @h(%a: i32, %ctrl: none) -> (i32, none) {\n  %r, %c = instance @g(%a, %ctrl) : (i32, none) -> (i32, none)\n  return %r, %c : i32, none\n}\n";
    let mut db = Database::new();
    db.set_text(FileId(0), callee.to_string());
    db.set_text(FileId(1), caller.to_string());
    assert!(db.diagnostics(FileId(1)).is_empty());
    let at = offset_after(callee, "@g(", "%a: i");
    let before = db.counters();
    db.edit(FileId(0), TextRange::at(at, TextSize::from(2)), "16");
    let errors = db.diagnostics(FileId(1));
    let d = delta(before, db.counters());
    assert_eq!((d.lowerings, d.checks), (1, 2), "{d:?}");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].code, DiagnosticCode::InstanceMismatch);
}

#[test]
fn edits_give_what_a_fresh_database_gives() {
    let text = generated(40, 5);
    let file = FileId(0);
    let mut db = Database::new();
    db.set_text(file, text.clone());
    db.diagnostics(file);
    // Each edit: (anchor, needle, removed length, inserted text).
    let edits: &[(&str, &str, u32, &str)] = &[
        // A use of an undefined value in @f7.
        ("@f7(", "arith.addi %x#0", 4, "%y#0"),
        // Unbalanced: an unclosed brace in @f12, so the file is reparsed.
        ("@f12(", "return %s", 0, "{ "),
        // Closed again.
        ("@f12(", "{ ", 2, ""),
        // A second line in @f20's body: an unused fork result.
        ("@f20(", "fork [2] %a : i32\n", 0, "    %z:2 = fork [2] %ctrl : none\n"),
        // A whole function removed, across the item boundary.
        ("  handshake.func @f30(", "", 0, "// "),
    ];
    for (anchor, needle, removed, inserted) in edits {
        let current = db.text(file).unwrap().to_string();
        let at = offset_after(&current, anchor, needle);
        db.edit(file, TextRange::at(at, TextSize::from(*removed)), inserted);
        let now = db.text(file).unwrap().to_string();
        let mut expected = current.clone();
        expected.replace_range(usize::from(at)..usize::from(at) + *removed as usize, inserted);
        assert_eq!(now, expected);
        assert_eq!(db.diagnostics(file), fresh(&now), "after inserting {inserted:?}");
    }
    let final_diagnostics = db.diagnostics(file);
    assert!(final_diagnostics.iter().any(|d| d.code == DiagnosticCode::UndefinedValue));
    assert!(final_diagnostics.iter().any(|d| d.code == DiagnosticCode::UnusedValue));
}

#[test]
fn set_text_keeps_the_items_that_did_not_change() {
    let text = generated(100, 5);
    let file = FileId(0);
    let mut db = Database::new();
    db.set_text(file, text.clone());
    db.diagnostics(file);
    let changed = text.replacen("@f50(%a: i32", "@f50(%a : i32", 1);
    let before = db.counters();
    db.set_text(file, changed);
    db.diagnostics(file);
    let d = delta(before, db.counters());
    assert_eq!((d.file_parses, d.lowerings, d.checks), (1, 1, 1), "{d:?}");
}

#[test]
fn severity_overrides_apply_per_code() {
    let text = "handshake.func @f(%a: i32, %ctrl: none) -> none {\n  return %ctrl : none\n}\n";
    let mut db = Database::new();
    db.set_text(FileId(0), text.to_string());
    let d = db.diagnostics(FileId(0));
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].code, DiagnosticCode::UnusedValue);
    assert_eq!(d[0].severity, hsir_analysis::Severity::Warning);
    let mut config = hsir_analysis::Config::default();
    config.severity.insert(DiagnosticCode::UnusedValue, Some(hsir_analysis::Severity::Error));
    db.set_config(config.clone());
    assert_eq!(db.diagnostics(FileId(0))[0].severity, hsir_analysis::Severity::Error);
    config.severity.insert(DiagnosticCode::UnusedValue, None);
    db.set_config(config);
    assert!(db.diagnostics(FileId(0)).is_empty());
}
