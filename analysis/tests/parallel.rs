//! Items are lowered and checked on several threads, chunk by chunk, with each chunk checked
//! against the functions found up to it: the results, and their order, are those of one
//! thread, on real IR, on generated files whose instances look functions up backwards and
//! forwards, and on several files sharing one symbol table.

mod common;

#[path = "../../test-support/shared.rs"]
mod shared;

use common::{generated, push_function, Body};
use hsir_analysis::{Database, FileId, Threads};

/// What a database on `threads` reports for `texts`, loaded as files 0, 1, ..., with its
/// counters: every file's diagnostics in full (`Debug`, so related notes and fixes count).
fn analyse(texts: &[String], threads: Threads, budget: usize) -> (Vec<String>, Database) {
    let mut db = Database::new();
    db.set_threads(threads);
    db.set_detail_budget(budget);
    for (i, text) in texts.iter().enumerate() {
        db.set_text(FileId(i as u32), text.clone());
    }
    let out = (0..texts.len()).map(|i| format!("{:#?}", db.diagnostics(FileId(i as u32))));
    (out.collect(), db)
}

/// Sequential against 2, 3 and 8 threads, with and without a detail budget.
fn assert_same_on_threads(texts: &[String], what: &str) {
    for budget in [usize::MAX, 0] {
        let (one, db) = analyse(texts, Threads::Exactly(1), budget);
        let sequential = db.counters();
        for n in [2, 3, 8] {
            let (many, db) = analyse(texts, Threads::Exactly(n), budget);
            for (file, (a, b)) in one.iter().zip(&many).enumerate() {
                assert_eq!(a, b, "{what}, file {file}, {n} threads, budget {budget}");
            }
            let counters = db.counters();
            assert_eq!(counters.lowerings, sequential.lowerings, "{what}: each item lowered once");
            assert_eq!(counters.details_rebuilt, 0, "{what}: the checks lowered nothing again");
        }
    }
}

/// `count` functions where every third one instantiates the function `distance` places
/// after it (forward) or before it (backward), and one name defined twice.
fn calls_at_distance(count: usize, distance: isize) -> String {
    let mut text = String::from("module {\n");
    for i in 0..count as isize {
        let callee = i + distance;
        let calls = i % 3 == 0 && (0..count as isize).contains(&callee);
        // @f5 is defined twice: the first definition is the one instances see.
        let name = if i == 9 { 5 } else { i };
        let body = if calls {
            Body::Calls(callee as usize)
        } else if i % 7 == 0 {
            // A wrong instance: a diagnostic that depends on the callee's signature.
            Body::Text(
                "    %r = instance @f5(%x#0) : (i32) -> (i64)\n    %s = arith.addi %x#0, %x#1 : i32\n    sink %r : i64\n    return %s, %ctrl : i32, none\n",
            )
        } else {
            Body::Adds
        };
        push_function(&mut text, name, body);
    }
    text.push_str("}\n");
    text
}

#[test]
fn generated_files_report_the_same_on_any_number_of_threads() {
    assert_same_on_threads(&[generated(400, 3)], "backward instances");
    for distance in [-40, -1, 1, 25, 200] {
        let text = calls_at_distance(300, distance);
        let (diagnostics, _) = analyse(std::slice::from_ref(&text), Threads::Exactly(1), 0);
        assert!(
            diagnostics[0].contains("takes 2 operands, 1 given"),
            "the wrong instances are reported"
        );
        // Found whether the callee comes before or after the caller, on one thread too, where
        // a chunk is checked before the chunks after it are lowered.
        assert!(!diagnostics[0].contains("no function named"), "every callee is found");
        assert_same_on_threads(&[text], &format!("instances {distance} functions away"));
    }
}

/// Files see each other's functions (a function of the file itself first): the cold path's
/// table holds every file's, in file order.
#[test]
fn files_that_call_each_other_report_the_same_on_any_number_of_threads() {
    let texts = [calls_at_distance(120, 30), calls_at_distance(60, -10), generated(90, 2)];
    assert_same_on_threads(&texts, "three files");
}

/// Every valid and invalid file of the shared corpus, each alone and all in one database.
#[test]
fn corpus_files_report_the_same_on_any_number_of_threads() {
    let Some(paths) = shared::mlir_files_under("corpus") else { return };
    assert!(paths.len() > 50, "the corpus has its files");
    let texts: Vec<String> = paths
        .iter()
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).expect("readable")).into_owned())
        .collect();
    for (path, text) in paths.iter().zip(&texts) {
        assert_same_on_threads(std::slice::from_ref(text), &path.display().to_string());
    }
    assert_same_on_threads(&texts, "the whole corpus in one database");
}

/// Beyond the budget, the cold check lets go of every detail (most right after their item's
/// check, the rest once forward lookups are settled) without lowering anything twice, and the
/// IDE features that read them later get them made again, as before.
#[test]
fn the_cold_check_lets_details_go_within_the_budget() {
    let text = calls_at_distance(300, 25);
    for threads in [Threads::Exactly(1), Threads::Exactly(3)] {
        let mut db = Database::new();
        db.set_threads(threads);
        db.set_detail_budget(0);
        db.set_text(FileId(0), text.clone());
        db.diagnostics(FileId(0));
        assert!(db.take_released() >= text.len() * 9 / 10, "the details were let go");
        assert_eq!(db.counters().details_rebuilt, 0);
        let outline = hsir_analysis::ide::symbols::document_symbols(&db.analysis(), FileId(0));
        assert_eq!(outline.len(), 300);
        assert_eq!(db.counters().details_rebuilt, 300, "the outline made every detail again");
    }
}

/// The shared generator's random circuits (instances of earlier functions, back edges, and the
/// lints' findings in them), on as many threads as the machine has too.
#[test]
fn the_shared_generators_file_reports_the_same_on_any_number_of_threads() {
    let Some(text) = shared::gen_handshake(&["--target-bytes", "300k", "--seed", "7"]) else {
        return;
    };
    assert!(text.contains("instance"), "the file has instances");
    assert_same_on_threads(std::slice::from_ref(&text), "gen_handshake.py --seed 7");
    let (auto, _) = analyse(std::slice::from_ref(&text), Threads::Auto, 0);
    let (one, _) = analyse(std::slice::from_ref(&text), Threads::Exactly(1), 0);
    assert_eq!(auto, one, "every core");
    assert!(one[0].contains("code:"), "the generator's circuits have findings");
}
