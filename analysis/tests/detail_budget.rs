//! Beyond its detail budget the database lets go of items' syntax, lowering and types, keeps
//! their diagnostics and signatures, and makes the rest again when a feature reads it. These
//! tests hold a database with no budget at all against one that keeps everything: every
//! feature answers the same, edits recompute what they did before, and the counters show what
//! was made again.

mod common;

use common::{delta, generated};
use hsir_analysis::ide::navigation::{definition, highlight};
use hsir_analysis::ide::semantic_tokens::semantic_tokens;
use hsir_analysis::ide::signature_help::signature_help;
use hsir_analysis::ide::symbols::{document_symbols, folding_ranges, selection_ranges};
use hsir_analysis::ide::FilePosition;
use hsir_analysis::ide::{completion::completions, hover::hover, inlay_hints::inlay_hints};
use hsir_analysis::{Counters, Database, FileId, TextRange, TextSize};

fn repo_file(path: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(root.join(path)).expect("repository file")
}

fn database(text: &str, budget: usize) -> Database {
    let mut db = Database::new();
    db.set_detail_budget(budget);
    db.set_text(FileId(0), text.to_string());
    db
}

/// What every feature says about the file, as text.
fn answers(db: &mut Database, text: &str) -> Vec<String> {
    let file = FileId(0);
    let mut out = vec![format!("{:?}", db.diagnostics(file))];
    let analysis = db.analysis();
    let whole = TextRange::up_to(TextSize::of(text));
    out.push(format!("{:?}", document_symbols(&analysis, file)));
    out.push(format!("{:?}", folding_ranges(&analysis, file)));
    out.push(format!("{:?}", semantic_tokens(&analysis, file, None)));
    out.push(format!("{:?}", inlay_hints(&analysis, file, whole)));
    let offsets: Vec<TextSize> =
        (0..text.len()).step_by(5).map(|o| TextSize::from(o as u32)).collect();
    out.push(format!("{:?}", selection_ranges(&analysis, file, &offsets)));
    for &offset in &offsets {
        let pos = FilePosition { file, offset };
        out.push(format!("{offset:?} {:?}", hover(&analysis, pos)));
        out.push(format!("{offset:?} {:?}", definition(&analysis, pos)));
        out.push(format!("{offset:?} {:?}", highlight(&analysis, pos)));
        out.push(format!("{offset:?} {:?}", signature_help(&analysis, pos)));
    }
    for offset in (0..text.len()).step_by(37) {
        let pos = FilePosition { file, offset: TextSize::from(offset as u32) };
        out.push(format!("{offset} {:?}", completions(&analysis, pos)));
    }
    out
}

#[test]
fn every_feature_answers_the_same_without_a_budget() {
    let inputs = [
        repo_file("examples/kernel.mlir"),
        repo_file("analysis/test_data/diagnostics/loop_kernel_raw_bug.mlir"),
        repo_file("analysis/test_data/diagnostics/HS2005_buffer_timing_mismatch.mlir"),
        repo_file("analysis/test_data/diagnostics/HS4006_pipeline_cross_stage_use.mlir"),
        generated(6, 3),
    ];
    for text in &inputs {
        let kept = answers(&mut database(text, usize::MAX), text);
        let mut lean = database(text, 0);
        let rebuilt_before = lean.counters().details_rebuilt;
        let answered = answers(&mut lean, text);
        for (a, b) in kept.iter().zip(&answered) {
            assert_eq!(a, b, "in:\n{text}");
        }
        assert_eq!(kept.len(), answered.len());
        assert!(
            lean.counters().details_rebuilt > rebuilt_before,
            "without a budget the features made details again"
        );
    }
}

#[test]
fn details_are_let_go_and_made_again_only_when_read() {
    let text = generated(30, 3);
    let file = FileId(0);
    let mut db = database(&text, 0);
    db.diagnostics(file);
    assert_eq!(db.counters().details_rebuilt, 0, "checking needs no second lowering");
    assert!(db.take_released() >= text.len() / 2, "the cold check's details were let go");

    // A hover makes one item's detail again.
    let at = TextSize::from(text.find("%x:2").expect("a value") as u32);
    let before = db.counters();
    assert!(hover(&db.analysis(), FilePosition { file, offset: at }).is_some());
    assert_eq!(delta(before, db.counters()).details_rebuilt, 1);

    // The outline reads every item once (none is kept with no budget); asked again, it comes
    // from what was kept of the first answer. Folding reads every item for its own memo.
    let before = db.counters();
    let outline = document_symbols(&db.analysis(), file);
    assert_eq!(outline.len(), 30);
    assert_eq!(delta(before, db.counters()).details_rebuilt, 30);
    db.release_details();
    let before = db.counters();
    assert_eq!(outline, document_symbols(&db.analysis(), file));
    assert_eq!(delta(before, db.counters()).details_rebuilt, 0);
    assert!(!folding_ranges(&db.analysis(), file).is_empty());
    assert!(!folding_ranges(&db.analysis(), file).is_empty());
    let d = delta(before, db.counters());
    assert_eq!((d.details_rebuilt, d.lowerings, d.checks), (30, 0, 0), "{d:?}");
}

#[test]
fn edits_beyond_the_budget_recompute_what_they_did_before() {
    let text = generated(300, 3);
    let file = FileId(0);
    let mut db = database(&text, 0);
    db.diagnostics(file);

    // Inside one body: that item alone.
    let body = text.find("@f151(").expect("a function");
    let at = TextSize::from((text[body..].find("%x:2").expect("a body") + body) as u32);
    let before = db.counters();
    db.edit(file, TextRange::empty(at), " ");
    assert!(db.diagnostics(file).is_empty());
    let d = delta(before, db.counters());
    assert_eq!(
        (d.item_parses, d.lowerings, d.checks, d.symbol_tables, d.details_rebuilt),
        (1, 1, 1, 0, 0),
        "{d:?}"
    );

    // A callee's signature: its caller is checked again, from a detail made again for it.
    let callee = text.find("handshake.func @f150(").expect("callee");
    let at = TextSize::from((text[callee..].find("-> (i32").expect("results") + callee + 5) as u32);
    let before = db.counters();
    db.edit(file, TextRange::at(at, TextSize::from(2)), "64");
    let diagnostics = db.diagnostics(file);
    let d = delta(before, db.counters());
    assert_eq!((d.lowerings, d.checks, d.details_rebuilt), (1, 2, 1), "{d:?}");
    let fresh = database(db.text(file).expect("text"), usize::MAX).diagnostics(file);
    assert_eq!(diagnostics, fresh);
    assert!(!diagnostics.is_empty(), "the caller's instance no longer matches");
}

#[test]
fn a_workspace_within_the_budget_keeps_everything() {
    let text = generated(30, 3);
    let file = FileId(0);
    let mut db = database(&text, usize::MAX);
    db.diagnostics(file);
    let before = db.counters();
    document_symbols(&db.analysis(), file);
    let at = TextSize::from(text.find("%x:2").expect("a value") as u32);
    hover(&db.analysis(), FilePosition { file, offset: at });
    db.release_details();
    semantic_tokens(&db.analysis(), file, None);
    assert_eq!(delta(before, db.counters()), Counters::default());
    assert_eq!(db.take_released(), 0);
}
