//! A file parsed in pieces (`Split`) reports what it reports parsed whole: the same items at the
//! same ranges, the same diagnostics with their notes and fixes, the same IDE answers. On real
//! compiler output of every era, on generated files, and on damaged files, where a piece that
//! does not parse cleanly on its own sends the file back to a whole parse.

mod common;

#[path = "../../test-support/shared.rs"]
mod shared;

use std::path::PathBuf;

use common::generated;
use hsir_analysis::{Counters, Database, FileId, Split, TextRange, Threads};

/// What a database that parses the way `split` says finds in `text`: each item's range and the
/// file's diagnostics in full (`Debug`, so related notes and fixes count), with its counters.
fn analyse(text: &str, split: Split, threads: Threads) -> (Vec<TextRange>, String, Counters) {
    let mut db = Database::new();
    db.set_split(split);
    db.set_threads(threads);
    db.set_detail_budget(0);
    db.set_text(FileId(0), text.to_string());
    let diagnostics = format!("{:#?}", db.diagnostics(FileId(0)));
    let items = db.analysis().item_ranges(FileId(0));
    (items, diagnostics, db.counters())
}

/// Whether `text` in pieces of at least `min` bytes reports as it does whole; `Some(true)` if
/// it was parsed in pieces, `Some(false)` if it went back to a whole parse, `None` if the scan
/// proposed no pieces.
fn same_in_pieces(text: &str, min: usize, what: &str) -> Option<bool> {
    let (items, diagnostics, whole) = analyse(text, Split::Never, Threads::Exactly(1));
    assert_eq!((whole.file_parses, whole.piece_parses), (1, 0), "{what}: parsed whole");
    for threads in [Threads::Exactly(1), Threads::Exactly(3)] {
        let (in_items, in_diagnostics, counters) = analyse(text, Split::Always(min), threads);
        assert_eq!(in_items, items, "{what}: items in pieces of {min} bytes on {threads:?}");
        assert_eq!(
            in_diagnostics, diagnostics,
            "{what}: diagnostics in pieces of {min} bytes on {threads:?}"
        );
        if counters.piece_parses == 0 {
            assert_eq!(counters.file_parses, 1, "{what}: no pieces, one parse");
            return None;
        }
        assert!(counters.piece_parses >= 2, "{what}: two pieces at least");
        if counters.file_parses == 2 {
            return Some(false);
        }
        assert_eq!(counters.file_parses, 1, "{what}: the pieces made the file");
    }
    Some(true)
}

/// Every `.mlir` file under these shared folders.
fn real_files(folders: &[&str]) -> Option<Vec<PathBuf>> {
    let mut out = Vec::new();
    for folder in folders {
        out.extend(shared::mlir_files_under(folder)?);
    }
    Some(out)
}

fn read(path: &PathBuf) -> String {
    String::from_utf8_lossy(&std::fs::read(path).expect("readable")).into_owned()
}

/// Real compiler output of every era: CIRCT's and Dynamatic's 2026 files, Dynamatic's 2024 and
/// 2025 output. Those with several items are parsed in pieces (most of Dynamatic's have one
/// function, and most of CIRCT's `// -----` cases, so they are not); one, whose items sit
/// unindented in a `kanagawa.design`, is cut inside that op, and goes back to a whole parse.
#[test]
fn real_files_report_the_same_in_pieces() {
    let Some(paths) = real_files(&["corpus", "dynamatic-2024", "dynamatic-suite/ir"]) else {
        return;
    };
    assert!(paths.len() > 100, "the shared folders have their files");
    let (mut split, mut whole_again) = (0, 0);
    for path in &paths {
        let text = read(path);
        for min in [1, 4000] {
            match same_in_pieces(&text, min, &path.display().to_string()) {
                Some(true) => split += 1,
                Some(false) => whole_again += 1,
                None => {}
            }
        }
    }
    assert!(split >= 12, "the files with several items go in pieces ({split} runs did)");
    assert!(whole_again <= 2, "{whole_again} runs went back to a whole parse");
}

/// The shared generator's circuits and the tests' own generated functions, with the automatic
/// choice too.
#[test]
fn generated_files_report_the_same_in_pieces() {
    let text = generated(300, 3);
    assert_eq!(same_in_pieces(&text, 1, "generated(300, 3)"), Some(true));
    assert_eq!(same_in_pieces(&text, 5000, "generated(300, 3), 5000 bytes"), Some(true));
    let Some(text) = shared::gen_handshake(&["--target-bytes", "400k", "--seed", "11"]) else {
        return;
    };
    assert!(text.len() >= hsir_analysis::db::SPLIT_MIN, "large enough to go in pieces by itself");
    assert_eq!(same_in_pieces(&text, hsir_analysis::db::PIECE_MIN, "gen_handshake.py"), Some(true));
    let (items, diagnostics, _) = analyse(&text, Split::Never, Threads::Auto);
    let (auto_items, auto_diagnostics, counters) = analyse(&text, Split::Auto, Threads::Auto);
    assert!(counters.piece_parses >= 2, "the automatic choice parses it in pieces");
    assert_eq!((auto_items, auto_diagnostics), (items, diagnostics));
}

/// Damage at many places of real and generated files: a brace or bracket gone or added, a
/// string or comment opened, a line joined to the next, an indentation changed, a marker. Each
/// damaged file reports the same in pieces as whole, whether its pieces still parse or not.
#[test]
fn damaged_files_report_the_same_in_pieces() {
    let mut texts = vec![generated(40, 2)];
    if let Some(paths) = shared::mlir_files("dynamatic-suite/ir") {
        texts.extend(paths.iter().take(3).map(read));
    }
    let damages: [(&str, &str); 10] = [
        ("}", ""),
        ("{", ""),
        ("\n", "\n{\n"),
        ("\n", "\n}\n"),
        ("\n", " \""),
        ("\n", " // "),
        ("\n", ""),
        ("\n  ", "\n"),
        ("\n", "\n// -----\n"),
        (")", ""),
    ];
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let (mut split, mut whole_again) = (0, 0);
    for (t, text) in texts.iter().enumerate() {
        for round in 0..12 {
            let (from, to) = damages[round % damages.len()];
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let starts: Vec<usize> = text.match_indices(from).map(|(i, _)| i).collect();
            let at = starts[(seed % starts.len() as u64) as usize];
            let damaged = format!("{}{to}{}", &text[..at], &text[at + from.len()..]);
            let what = format!("text {t}, `{from:?}` -> `{to:?}` at {at}");
            match same_in_pieces(&damaged, 1, &what) {
                Some(true) => split += 1,
                Some(false) => whole_again += 1,
                None => {}
            }
        }
    }
    assert!(split > 0 && whole_again > 0, "both ways were taken ({split} and {whole_again})");
}

/// Edits after a file was set in pieces apply to the items its pieces made, as they would to
/// a whole parse's: an edit inside one item reparses that item alone.
#[test]
fn a_file_set_in_pieces_takes_edits_as_a_whole_parse_does() {
    let text = generated(60, 2);
    let mut dbs: Vec<Database> = [Split::Never, Split::Always(1)]
        .into_iter()
        .map(|split| {
            let mut db = Database::new();
            db.set_split(split);
            db.set_text(FileId(0), text.clone());
            db
        })
        .collect();
    // Renames the argument of @f10's callee-to-be: its callers' instances no longer match.
    let at = text.find("handshake.func @f10(").expect("f10") + "handshake.func @f10(%a: i".len();
    let range = TextRange::new((at as u32).into(), (at as u32 + 2).into());
    let mut seen = Vec::new();
    for db in &mut dbs {
        db.edit(FileId(0), range, "64");
        seen.push(format!("{:#?}", db.diagnostics(FileId(0))));
        assert_eq!(db.counters().item_parses, 1, "the edit was spliced into its item");
    }
    assert_eq!(seen[0], seen[1]);
    assert!(seen[0].contains("UseTypeMismatch"), "the edit is reported: {}", seen[0]);
}

/// What the IDE features answer on `text` in a database that parses the way `split` says and
/// keeps details within `budget`: the outline, folds, semantic tokens, and hover and
/// definition at every 23rd offset.
fn ide_answers(text: &str, split: Split, budget: usize) -> String {
    use hsir_analysis::ide::{self, FilePosition};
    let mut db = Database::new();
    db.set_split(split);
    db.set_detail_budget(budget);
    db.set_text(FileId(0), text.to_string());
    let analysis = db.analysis();
    let mut out = format!(
        "{:?}\n{:?}\n{:?}\n",
        ide::symbols::document_symbols(&analysis, FileId(0)),
        ide::symbols::folding_ranges(&analysis, FileId(0)),
        ide::semantic_tokens::semantic_tokens(&analysis, FileId(0), None),
    );
    for offset in (0..text.len()).step_by(23).filter(|&o| text.is_char_boundary(o)) {
        let pos = FilePosition { file: FileId(0), offset: (offset as u32).into() };
        out.push_str(&format!(
            "{offset}: {:?} {:?}\n",
            ide::hover::hover(&analysis, pos),
            ide::navigation::definition(&analysis, pos)
        ));
    }
    out
}

/// The IDE features read an item's syntax from its piece's tree (kept within the budget) or
/// from a parse of its text alone (made again beyond it), and answer as they do from the
/// whole file's tree: same ranges, same text.
#[test]
fn ide_features_answer_the_same_in_pieces() {
    let mut texts = vec![generated(30, 2)];
    if let Some(paths) = shared::mlir_files_under("corpus") {
        for name in ["Dialect-Pipeline__round-trip.mlir", "get_tanh-2-5__hw.mlir"] {
            let path = paths.iter().find(|p| p.ends_with(name)).expect("a corpus file");
            texts.push(read(path));
        }
    }
    for (t, text) in texts.iter().enumerate() {
        for budget in [usize::MAX, 0] {
            let whole = ide_answers(text, Split::Never, budget);
            let pieces = ide_answers(text, Split::Always(1), budget);
            assert!(whole == pieces, "text {t}, budget {budget}: the answers differ");
        }
    }
}

/// Files that instantiate each other's functions, some parsed in pieces, some whole (one has
/// an error in a piece), report as they do all parsed whole: the symbol table the pieces'
/// chunks build holds every file's functions, in file order.
#[test]
fn files_that_call_each_other_report_the_same_in_pieces() {
    use common::{push_function, Body};
    // File 1 calls file 0's functions and file 0 calls file 1's; file 2 is file 1 with a
    // syntax error, so its pieces send it back to a whole parse.
    let mut zero = String::from("module {\n");
    let mut one = String::from("module {\n");
    for i in 0..40 {
        push_function(&mut zero, i, if i % 5 == 0 { Body::Calls(100 + i) } else { Body::Adds });
        push_function(&mut one, 100 + i, if i % 3 == 0 { Body::Calls(i) } else { Body::Adds });
    }
    zero.push_str("}\n");
    one.push_str("}\n");
    let two = one.replacen("%s = arith.addi", "%s = arith.addi (", 1);
    let texts = [zero, one, two];
    let analyse_all = |split: Split| {
        let mut db = Database::new();
        db.set_split(split);
        db.set_threads(Threads::Exactly(2));
        db.set_detail_budget(0);
        for (i, text) in texts.iter().enumerate() {
            db.set_text(FileId(i as u32), text.clone());
        }
        let out: Vec<String> =
            (0..texts.len()).map(|i| format!("{:#?}", db.diagnostics(FileId(i as u32)))).collect();
        (out, db.counters())
    };
    let (whole, _) = analyse_all(Split::Never);
    let (pieces, counters) = analyse_all(Split::Always(1));
    assert_eq!(counters.file_parses, 4, "three files, one of them parsed whole again");
    for (file, (a, b)) in whole.iter().zip(&pieces).enumerate() {
        assert_eq!(a, b, "file {file}");
    }
    // Every instance finds its callee in the other file, forwards and backwards.
    assert!(whole.iter().all(|d| !d.contains("UnknownCallee")), "{whole:?}");
    assert_eq!(whole[0], "[]", "file 0 is clean");
    assert_ne!(whole[2], "[]", "file 2 has its error");
}

/// A file read in pieces, then given a new text that changes one function: only that function
/// is lowered again, the others keep what they had (their keys, made from their text when the
/// new text comes, match the new parse's).
#[test]
fn a_new_text_after_pieces_lowers_only_what_changed() {
    let text = generated(40, 7);
    let mut db = Database::new();
    db.set_split(Split::Always(1));
    db.set_threads(Threads::Exactly(2));
    db.set_text(FileId(0), text.clone());
    let before = format!("{:#?}", db.diagnostics(FileId(0)));
    let first = db.counters();
    assert!(first.piece_parses >= 2, "parsed in pieces: {first:?}");
    let changed = text.replacen("%s = arith.addi %x#0, %x#1", "%s = arith.addi %x#1, %x#0", 1);
    assert_ne!(changed, text);
    db.set_text(FileId(0), changed);
    let after = format!("{:#?}", db.diagnostics(FileId(0)));
    let second = db.counters();
    assert_eq!(second.file_parses, first.file_parses + 1, "the new text is parsed whole");
    assert_eq!(second.lowerings, first.lowerings + 1, "one function lowered again");
    assert_eq!(before, after, "the change reports nothing new");
}
