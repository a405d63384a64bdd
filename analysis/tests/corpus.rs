//! The shared corpus of real CIRCT and Dynamatic IR (`../shared/corpus`): every file without
//! `expected-error` annotations gets no error from `check`.

use std::path::{Path, PathBuf};

#[path = "../../test-support/shared.rs"]
mod shared;

fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("the corpus must be at {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            corpus_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "mlir") {
            out.push(path);
        }
    }
}

/// The folders of real compiler output the checks are judged on, from `../shared`: the 2026
/// corpus of CIRCT and Dynamatic files, Dynamatic's 2024 test files, and Dynamatic's 2025 flow
/// output on its benchmark suite (all three stages of seven kernels, both flows).
const FOLDERS: &[&str] = &["corpus", "dynamatic-2024", "dynamatic-suite/ir"];

/// Every `.mlir` file of the folders that is valid IR (files with `expected-error` annotations
/// are oracles, `tests/oracle.rs`'s), with its name relative to `../shared`; `None` (the test
/// is skipped) when a folder is missing.
fn valid_files() -> Option<Vec<(String, Vec<u8>)>> {
    let root = shared::root();
    let mut out = Vec::new();
    for folder in FOLDERS {
        let mut files = Vec::new();
        corpus_files(&shared::path(folder)?, &mut files);
        files.sort();
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            if String::from_utf8_lossy(&bytes).contains("expected-error") {
                continue;
            }
            let name = path.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
            out.push((name, bytes));
        }
    }
    Some(out)
}

#[test]
fn valid_files_of_every_era_get_no_errors() {
    let Some(files) = valid_files() else { return };
    let mut failures = Vec::new();
    let mut per_folder = std::collections::BTreeMap::new();
    for (name, bytes) in &files {
        let folder = FOLDERS.iter().find(|f| name.starts_with(*f)).unwrap();
        *per_folder.entry(*folder).or_insert(0) += 1;
        let (parse, decode_error) = hsir_analysis::parse_bytes(bytes);
        let errors: Vec<String> = decode_error
            .into_iter()
            .chain(hsir_analysis::check(&parse))
            .filter(|d| d.severity == hsir_analysis::Severity::Error)
            .map(|d| format!("  {}: {} at {:?}", d.code.code(), d.message, d.range))
            .collect();
        if !errors.is_empty() {
            failures.push(format!("{name}:\n{}", errors.join("\n")));
        }
    }
    // The whole of each folder: 71 + 49 valid corpus files, 19 of 2024, 42 of the suite.
    assert!(per_folder["corpus"] > 100, "{per_folder:?}");
    assert!(per_folder["dynamatic-2024"] >= 19, "{per_folder:?}");
    assert!(per_folder["dynamatic-suite/ir"] >= 42, "{per_folder:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every warning on a valid file, by file and code, each with the reason it is right to raise
/// it there.
const WARNINGS: &[(&str, &str, &str)] = &[
    // ---- the 2026 corpus ----
    ("corpus/circt/Conversion-HandshakeToDC__basic.mlir", "HS1107", "a lowering test whose function never consumes its argument `%arg2`"),
    ("corpus/circt/Dialect-Handshake__insert-buffer-all.mlir", "HS1107", "a buffer-insertion test leaves a fork output unconsumed"),
    ("corpus/circt/Dialect-Handshake__insert-buffer-all.mlir", "HS1108", "the same test uses a value twice in a function that has forks"),
    ("corpus/circt/Dialect-Handshake__materialize.mlir", "HS1107", "the materialization test's input: an argument with no consumer, in a function with forks"),
    ("corpus/circt/integration-Dialect-Ibis__end_to_end.mlir", "HS4012", "the pipeline rationale's older syntax, which CIRCT still reads"),
    ("corpus/dynamatic/CreatingPasses-test__creating-passes.mlir", "HS1107", "a tutorial snippet that never consumes its control_merge index"),
    ("corpus/dynamatic/HandshakeOptimizeBitwidths__arith-backward.mlir", "HS1107", "op-level test snippets that never consume `%start`"),
    ("corpus/dynamatic/HandshakeOptimizeBitwidths__arith-forward.mlir", "HS1107", "op-level test snippets that never consume `%start`"),
    ("corpus/dynamatic/HandshakeOptimizeBitwidths__bound-opti.mlir", "HS3005", "op-level test snippet: `cmpi` compares an argument (one token) with a cond_br's false side (one token only when the condition is false)"),
    ("corpus/dynamatic/HandshakeOptimizeBitwidths__gh792.mlir", "HS1107", "a regression snippet that never consumes `%arg1`"),
    ("corpus/dynamatic/HandshakeOptimizeBitwidths__handshake-backward.mlir", "HS1107", "op-level test snippets that never consume `%start`"),
    ("corpus/dynamatic/HandshakeOptimizeBitwidths__handshake-special.mlir", "HS1107", "an op-level test snippet that never consumes `%start`"),
    ("corpus/dynamatic/HandshakeOptimizeBitwidths__handshake-special.mlir", "HS3005", "op-level test snippet: muxes selected by an argument (one token) whose data inputs are fed back through cond_br outputs"),
    ("corpus/dynamatic/Handshake__ops.mlir", "HS1107", "op round-trip snippets whose results (control_merge indices, ...) nothing consumes"),
    ("corpus/dynamatic/Transforms__handshake-materialize.mlir", "HS1107", "the materialization test's input, in functions that already have forks"),
    ("corpus/dynamatic/Transforms__handshake-materialize.mlir", "HS1108", "the materialization test's input: a fork output used twice"),
    ("corpus/dynamatic/Transforms__handshake-reshape-channels.mlir", "HS1107", "reshape snippets that never consume an operand"),
    ("corpus/dynamatic/hls-fuzzer__check-bitwidth-fork.mlir", "HS1107", "a fuzzer reduction that leaves a fork output unconsumed"),
    ("corpus/dynamatic/rewrites__d_lhs.mlir", "HS2021", "hand-written rewrite pattern: mux, fork, cond_br and one ONE_SLOT_BREAK_DV slot around the loop, so ready is combinational"),
    ("corpus/dynamatic/rewrites__f_lhs.mlir", "HS2021", "two loops, each closed by a DV-only slot; nothing on them breaks ready"),
    ("corpus/dynamatic/rewrites__f_rhs.mlir", "HS2021", "the rewritten form keeps a DV-only slot on its loop, so ready still runs around it"),
    // ---- Dynamatic's 2024 test files ----
    ("dynamatic-2024/Dialect-Handshake__ops.mlir", "HS1211", "`-> (i1, i32)` ended by one channel: Dynamatic 2024 never verified `end` against the function, so this is a warning in that era"),
    ("dynamatic-2024/Transforms-HandshakeOptimizeBitwidths__arith-backward.mlir", "HS1107", "op-level test snippets that never consume `%start`"),
    ("dynamatic-2024/Transforms-HandshakeOptimizeBitwidths__arith-forward.mlir", "HS1107", "op-level test snippets that never consume `%start`"),
    ("dynamatic-2024/Transforms-HandshakeOptimizeBitwidths__handshake-backward.mlir", "HS1107", "op-level test snippets that never consume `%start`"),
    ("dynamatic-2024/Transforms-HandshakeOptimizeBitwidths__handshake-forward.mlir", "HS1107", "op-level test snippets that never consume `%start`"),
    ("dynamatic-2024/Transforms-HandshakeOptimizeBitwidths__handshake-special.mlir", "HS1107", "an op-level test snippet that never consumes `%start`"),
    ("dynamatic-2024/Transforms-HandshakeOptimizeBitwidths__handshake-special.mlir", "HS3005", "op-level test snippet: muxes selected by an argument (one token) whose data inputs are fed back through cond_br outputs"),
    ("dynamatic-2024/Transforms__handshake-canonicalize.mlir", "HS1107", "canonicalization inputs that never consume a control_merge index"),
    ("dynamatic-2024/Transforms__handshake-canonicalize.mlir", "HS3005", "canonicalization snippets: merges fed by one argument token and a loop-back cond_br output"),
    ("dynamatic-2024/Transforms__handshake-materialize.mlir", "HS1107", "the materialization test's input, in functions that already have forks"),
    ("dynamatic-2024/Transforms__handshake-materialize.mlir", "HS1108", "the materialization test's input: fork outputs used twice"),
    ("dynamatic-2024/Transforms__infer-basic-blocks.mlir", "HS1107", "basic-block inference snippets whose results nothing consumes"),
    ("dynamatic-2024/Transforms__infer-basic-blocks.mlir", "HS1108", "a basic-block inference snippet that uses a value twice beside a fork"),
];

/// The suite's buffered and exported kernels with an LSQ: Dynamatic's 2025 placement did not
/// yet give an LSQ access's inputs the slot seed 000's later heuristic asks for (HS2009, the II
/// advice), on every such kernel.
const SUITE_LSQ_KERNELS: &[&str] = &["atax", "atax_float", "bicg", "kernel_2mm"];

/// The suite's FTD kernels with a store outside the entry block: after buffering, the FTD flow
/// gives their memory interfaces the start token as `ctrlEnd` (HS3029), so `end` may fire
/// before their last stores land (`hsir cosim` measures it on bicg_FTD). The unbuffered
/// `__handshake.mlir` still has the return block's control there.
const SUITE_FTD_LATE_STORE_KERNELS: &[&str] =
    &["atax", "atax_float", "bicg", "kernel_2mm", "matvec"];

/// HS3029 on the suite's exports: on every FTD kernel with a store outside the entry block,
/// naming the interface and the start token; on no LEGACY kernel (whose interfaces end on the
/// return block's control) and on no FTD kernel without stores (fir, gcd).
#[test]
fn ctrl_end_from_start_fires_on_ftd_exports_and_not_on_legacy_ones() {
    let Some(dir) = shared::path("dynamatic-suite/ir") else { return };
    let kernels = ["atax", "atax_float", "bicg", "fir", "gcd", "kernel_2mm", "matvec"];
    for kernel in kernels {
        for flow in ["FTD", "LEGACY"] {
            let path = dir.join(format!("{kernel}_{flow}__handshake_export.mlir"));
            let bytes = std::fs::read(&path).unwrap();
            let (parse, _) = hsir_analysis::parse_bytes(&bytes);
            let found: Vec<String> = hsir_analysis::check(&parse)
                .into_iter()
                .filter(|d| d.code.code() == "HS3029")
                .map(|d| {
                    assert_eq!(d.severity, hsir_analysis::Severity::Warning);
                    d.message
                })
                .collect();
            let expected = flow == "FTD" && SUITE_FTD_LATE_STORE_KERNELS.contains(&kernel);
            assert_eq!(!found.is_empty(), expected, "{kernel}_{flow}: {found:#?}");
            for message in &found {
                assert!(message.contains("is the start token `%arg"), "{message}");
                assert!(message.contains("(`start`)"), "{message}");
                assert!(message.starts_with("the end control `%"), "{message}");
            }
            if kernel == "bicg" && flow == "FTD" {
                // Both LSQs, of `s` (`%arg1`) and `q` (`%arg2`); not the load-only controllers.
                assert_eq!(found.len(), 2, "{found:#?}");
                assert!(
                    found.iter().any(|m| m.contains("of `lsq` of `%arg1` (`lsq3`)")),
                    "{found:#?}"
                );
                assert!(
                    found.iter().any(|m| m.contains("of `lsq` of `%arg2` (`lsq2`)")),
                    "{found:#?}"
                );
            }
        }
    }
}

#[test]
fn warnings_on_real_files_are_the_justified_ones() {
    let mut found = std::collections::BTreeSet::new();
    let Some(files) = valid_files() else { return };
    for (name, bytes) in files {
        let (parse, _) = hsir_analysis::parse_bytes(&bytes);
        for d in hsir_analysis::check(&parse) {
            if d.severity == hsir_analysis::Severity::Warning {
                found.insert((name.clone(), d.code.code().to_string()));
            }
        }
    }
    let mut expected: std::collections::BTreeSet<(String, String)> =
        WARNINGS.iter().map(|(f, c, _)| (f.to_string(), c.to_string())).collect();
    for kernel in SUITE_LSQ_KERNELS {
        for flow in ["FTD", "LEGACY"] {
            for stage in ["buffered", "export"] {
                let file = format!("dynamatic-suite/ir/{kernel}_{flow}__handshake_{stage}.mlir");
                expected.insert((file, "HS2009".to_string()));
            }
        }
    }
    for kernel in SUITE_FTD_LATE_STORE_KERNELS {
        for stage in ["buffered", "export"] {
            let file = format!("dynamatic-suite/ir/{kernel}_FTD__handshake_{stage}.mlir");
            expected.insert((file, "HS3029".to_string()));
        }
    }
    let unexpected: Vec<_> = found.difference(&expected).collect();
    let gone: Vec<_> = expected.difference(&found).collect();
    assert!(
        unexpected.is_empty() && gone.is_empty(),
        "warnings on real files changed; justify or fix each.\nnew: {unexpected:#?}\ngone: {gone:#?}"
    );
}
