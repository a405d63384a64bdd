//! The `highs` cargo feature: HiGHS as buffer placement's solver, and as the reference the
//! default path (microlp and the target search) is measured against.
//!
//! Built and run only with the feature (it compiles HiGHS from source and needs
//! `apt-get install cmake libclang-dev`):
//!
//! ```sh
//! cargo test --release -p hsir-backend --features highs --test highs_solver
//! ```
#![cfg(feature = "highs")]

#[path = "../../test-support/shared.rs"]
mod shared;

use std::path::{Path, PathBuf};
use std::time::Duration;

use hsir_backend::buffers::{self, lp, timing::TimingModel, Options, Solver};
use hsir_backend::Program;

/// A file of Dynamatic's corpus, or `None` (the test is skipped) without it.
fn corpus(file: &str) -> Option<PathBuf> {
    shared::path(&format!("corpus/dynamatic/{file}"))
}

fn place(text: &str, function: &str, solver: Solver, timing: &TimingModel) -> buffers::Placement {
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    let program = Program::analyse(&parse);
    let options =
        Options { strip: true, solver, time_limit: Duration::from_secs(60), ..Options::default() };
    let mut output = buffers::place_program(&program, text, &options, timing, Some(function), None)
        .expect("placement refused");
    output.placements.remove(0)
}

/// The undecomposed model of `function`, solved by HiGHS to optimality.
fn optimum(text: &str, function: &str) -> f64 {
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    let program = Program::analyse(&parse);
    let func = program.funcs.iter().find(|f| f.name == function).expect("function");
    let options = Options { strip: true, ..Options::default() };
    let model = buffers::whole_model(func, &options, TimingModel::builtin());
    let limits = lp::Limits {
        time_limit: Duration::from_secs(300),
        node_limit: None,
        gap: 0.0,
        warm_start: None,
        cancel: None,
    };
    let solved = lp::solve_highs(&model, &limits);
    assert_eq!(solved.status, lp::Status::Optimal, "HiGHS did not prove {function}'s optimum");
    solved.objective.expect("an objective")
}

#[test]
fn highs_places_the_hand_derived_loop() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/placement/sum_loop.mlir");
    let text = std::fs::read_to_string(path).unwrap();
    // Under the plain sum of delays, as `buffers.rs` runs the fixtures (their comments work
    // the timing out by hand without the calibrated overhead).
    let plain = TimingModel::builtin().with_overhead(0.0);
    let p = place(&text, "sum_loop", Solver::Highs, &plain);
    // The throughput `buffers.rs` expects of microlp (the fixture gives the reason).
    assert_eq!(p.cfdfcs.len(), 1);
    assert!((p.cfdfcs[0].throughput - 0.5).abs() < 1e-6, "throughput {}", p.cfdfcs[0].throughput);
    assert!(p.models.iter().all(|m| m.status == lp::Status::Optimal), "{:?}", p.models);
}

/// The benchmark's goal as a test, on the corpus kernels HiGHS proves quickly: the default path
/// (microlp) is within 1% of the undecomposed model's optimum, and HiGHS as the decomposed
/// path's solver is too.
#[test]
fn default_path_is_within_one_percent_of_the_optimum() {
    for (file, function) in [
        ("atax-6-6__handshake_export.mlir", "atax"),
        ("histogram-7-17__handshake_transformed.mlir", "histogram"),
    ] {
        let Some(path) = corpus(file) else { return };
        let text = std::fs::read_to_string(path).unwrap();
        let best = optimum(&text, function);
        for solver in [Solver::Microlp, Solver::Highs] {
            let p = place(&text, function, solver, TimingModel::builtin());
            let gap = (best - p.objective) / best.abs();
            assert!(
                gap <= 0.01,
                "{function} with {solver:?}: objective {} against the optimum {best} ({:.2}%)",
                p.objective,
                gap * 100.0
            );
        }
    }
}
