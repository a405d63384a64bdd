//! Parse throughput on generated Handshake IR, beside `mlir-opt-16` on the generic twin.
//!
//! `cargo bench -p hsir-parser --bench parse_throughput` generates (once, seed 42) 1 MB and
//! 10 MB files with `../shared/tools/gen_handshake.py`, in custom and `--generic` form, then
//! reports the median of several runs: hsir's `parse` (lex, grammar, tree) on one thread and on
//! two (the default on a two-core machine), on both forms, and
//! `mlir-opt-16 --allow-unregistered-dialect --mlir-timing` on the generic form (its "Parser"
//! phase, and the whole process). Ratios are computed against mlir-opt's runs in the same
//! session, so machine noise affects both sides alike.

#[path = "../../benches/support.rs"]
mod support;

use std::time::{Duration, Instant};

use support::{generated, median};

fn mb_per_s(bytes: usize, time: Duration) -> f64 {
    bytes as f64 / 1e6 / time.as_secs_f64()
}

fn time_hsir(text: &str, runs: usize, threads: usize) -> Duration {
    let options = hsir_parser::ParseOptions { threads, ..hsir_parser::ParseOptions::default() };
    let _warm = hsir_parser::parse_with(text.to_string(), options);
    let samples = (0..runs)
        .map(|_| {
            let owned = text.to_string();
            let start = Instant::now();
            let parse = hsir_parser::parse_with(owned, options);
            let elapsed = start.elapsed();
            assert!(parse.errors().is_empty(), "generated IR must parse cleanly");
            drop(parse);
            elapsed
        })
        .collect();
    median(samples)
}

/// Median "Parser" phase and whole-process wall time of mlir-opt-16, or `None` if it is not
/// installed.
fn main() {
    println!(
        "| size | hsir custom, 1 thread MB/s | hsir custom, 2 threads MB/s | hsir generic, 2 threads MB/s \
         | mlir-opt-16 parser MB/s | mlir-opt-16 process MB/s | hsir custom 2 threads / mlir-opt parser \
         | hsir custom 2 threads / mlir-opt process |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (size, runs) in [("1M", 21), ("10M", 7)] {
        let custom_path = generated(size, false);
        let generic_path = generated(size, true);
        let custom = std::fs::read_to_string(&custom_path).unwrap();
        let generic = std::fs::read_to_string(&generic_path).unwrap();
        let hsir_single = mb_per_s(custom.len(), time_hsir(&custom, runs, 1));
        let hsir_custom = mb_per_s(custom.len(), time_hsir(&custom, runs, 2));
        let hsir_generic = mb_per_s(generic.len(), time_hsir(&generic, runs, 2));
        match support::mlir_opt(&generic_path, runs, &["Parser"]) {
            Some((parser, process)) => {
                let opt_parser = mb_per_s(generic.len(), parser);
                let opt_process = mb_per_s(generic.len(), process);
                println!(
                    "| {size} | {hsir_single:.1} | {hsir_custom:.1} | {hsir_generic:.1} | {opt_parser:.1} \
                     | {opt_process:.1} | {:.1}x | {:.1}x |",
                    hsir_custom / opt_parser,
                    hsir_custom / opt_process
                );
            }
            None => println!(
                "| {size} | {hsir_single:.1} | {hsir_custom:.1} | {hsir_generic:.1} | not installed \
                 | not installed | - | - |"
            ),
        }
    }
}
