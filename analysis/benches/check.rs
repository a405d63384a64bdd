//! Full check and re-check after a one-character edit, on generated Handshake IR, beside
//! `mlir-opt-16` parsing and verifying the generic twin in the same session.
//!
//! `cargo bench -p hsir-analysis --bench check` generates the 10 MB file and its generic twin
//! with `../shared/tools/gen_handshake.py` (seed 42, kept in `target/bench-data`), then:
//! - cold: a new `Database`, `set_text`, `diagnostics` (parse, lower, check every item);
//! - re-check: a one-character edit inside a function body in the middle of the file (a space
//!   inserted, then removed, alternately), then `diagnostics` again;
//! - `mlir-opt-16 --allow-unregistered-dialect --mlir-timing` on the generic twin: its "Parser"
//!   plus "Verifier" phases, and the whole process.
//!
//! - the dataflow lints against the type checks alone, on the 10 MB file's lowered items, one
//!   thread: the time of `check_types` over every item, and of `lints::lint` over every item
//!   given what `check_types` learnt (goal: the lints take at most 2x the type checks).
//!
//! Medians of several runs; ratios use runs from this session only.

#[path = "../../benches/support.rs"]
mod support;

use std::time::{Duration, Instant};

use support::{generated, median};

use hsir_analysis::{Database, FileId, TextRange, TextSize};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// An error other than a dataflow lint's: the generator wires random graphs whose cycles are
/// often left without a register, which the cycle lint rightly reports (HS2020).
fn type_error(d: &hsir_analysis::Diagnostic) -> bool {
    let code = d.code.code();
    d.severity == hsir_analysis::Severity::Error
        && !code.starts_with("HS2")
        && !code.starts_with("HS3")
}

/// Median cold check time, and the database left by the last run.
fn cold(text: &str, runs: usize) -> (Duration, Database) {
    let mut samples = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        drop(last.take());
        let owned = text.to_string();
        let start = Instant::now();
        let mut db = Database::new();
        db.set_text(FileId(0), owned);
        let diagnostics = db.diagnostics(FileId(0));
        samples.push(start.elapsed());
        let errors = diagnostics.iter().filter(|d| type_error(d)).count();
        assert_eq!(errors, 0, "generated IR type-checks cleanly");
        last = Some(db);
    }
    (median(samples), last.expect("at least one run"))
}

/// Median time of a one-character edit plus re-check, alternating insert and delete.
fn recheck(db: &mut Database, text: &str, runs: usize) -> Duration {
    // Inside the body of the function in the middle of the file: just after a `{` that ends a
    // `handshake.func` line.
    let middle = text.len() / 2;
    let func = text[middle..].find("handshake.func").expect("a function after the middle") + middle;
    let body = text[func..].find("{\n").expect("a body") + func + 2;
    let at = TextSize::from(body as u32);
    let before = db.counters();
    let mut samples = Vec::new();
    for i in 0..runs {
        let start = Instant::now();
        if i % 2 == 0 {
            db.edit(FileId(0), TextRange::empty(at), " ");
        } else {
            db.edit(FileId(0), TextRange::at(at, TextSize::from(1)), "");
        }
        let diagnostics = db.diagnostics(FileId(0));
        samples.push(start.elapsed());
        assert!(!diagnostics.iter().any(type_error));
    }
    let after = db.counters();
    assert_eq!(
        after.file_parses, before.file_parses,
        "an edit in a body does not reparse the file"
    );
    assert_eq!(after.lowerings - before.lowerings, runs as u64, "one item lowered per edit");
    median(samples)
}

/// Median "Parser" + "Verifier" phase time and whole-process time of mlir-opt-16.
/// Median time of the type checks and of the lints over every item of `text`, one thread.
fn lints_vs_types(text: &str, runs: usize) -> (Duration, Duration, usize) {
    use hsir_analysis::ast_node_range;
    let parse = hsir_parser::parse(text);
    let items: Vec<(hsir_analysis::ir::Item, &str)> = hsir_analysis::items(&parse)
        .into_iter()
        .map(|op| {
            let range = ast_node_range(op);
            (hsir_analysis::ir::lower(op), &text[range])
        })
        .collect();
    let table: std::collections::HashMap<String, std::sync::Arc<hsir_analysis::Callee>> = items
        .iter()
        .filter_map(|(item, _)| hsir_analysis::callee_of(item))
        .map(|(name, callee)| (name, std::sync::Arc::new(callee)))
        .collect();
    let mut symbols = |name: &str| table.get(name).cloned();
    let (mut types_samples, mut lint_samples) = (Vec::new(), Vec::new());
    let mut reported = 0;
    for _ in 0..runs {
        let mut acc = Vec::new();
        let start = Instant::now();
        let typed: Vec<_> = items
            .iter()
            .map(|(item, text)| hsir_analysis::check_types(item, text, &mut symbols, &mut acc))
            .collect();
        types_samples.push(start.elapsed());
        let start = Instant::now();
        for ((item, text), typed) in items.iter().zip(&typed) {
            if let Some(typed) = typed {
                hsir_analysis::lints::lint(item, text, typed, &mut acc);
            }
        }
        lint_samples.push(start.elapsed());
        reported = acc.len();
    }
    (median(types_samples), median(lint_samples), reported)
}

fn main() {
    let runs = 5;
    println!(
        "| file | hsir cold check ms | hsir re-check ms | mlir-opt-16 parse+verify ms \
         | mlir-opt-16 process ms | cold / parse+verify | cold / process |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for size in ["1M", "10M"] {
        let path = generated(size, false);
        let text = std::fs::read_to_string(&path).expect("generated file is readable");
        let (cold_time, mut db) = cold(&text, runs);
        let re = recheck(&mut db, &text, 41);
        let generic = generated(size, true);
        match support::mlir_opt(&generic, runs, &["Parser", "Verifier"]) {
            Some((phases, process)) => println!(
                "| {size} | {:.1} | {:.3} | {:.1} | {:.1} | {:.1}x | {:.1}x |",
                ms(cold_time),
                ms(re),
                ms(phases),
                ms(process),
                phases.as_secs_f64() / cold_time.as_secs_f64(),
                process.as_secs_f64() / cold_time.as_secs_f64(),
            ),
            None => println!(
                "| {size} | {:.1} | {:.3} | (mlir-opt-16 not installed) | | | |",
                ms(cold_time),
                ms(re)
            ),
        }
    }

    let text =
        std::fs::read_to_string(generated("10M", false)).expect("generated file is readable");
    let (types, lints, reported) = lints_vs_types(&text, 7);
    println!();
    println!("| file | type checks ms | dataflow lints ms | lints / type checks | diagnostics |");
    println!("| --- | --- | --- | --- | --- |");
    println!(
        "| 10M | {:.1} | {:.1} | {:.2}x | {reported} |",
        ms(types),
        ms(lints),
        lints.as_secs_f64() / types.as_secs_f64()
    );
}
