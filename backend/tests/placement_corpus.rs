//! Buffer placement on Dynamatic's loop kernels of the shared corpus, their old buffers
//! stripped: the placed design has no combinational cycle, its RTL simulates like the
//! interpreter, and each loop's initiation interval is measured in the RTL before (Dynamatic's
//! own buffers, when the file has them) and after. The figures are printed
//! (`cargo test -p hsir-backend --release --test placement_corpus -- --nocapture`) and recorded
//! in `docs/benchmarks.md`.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use common::{run_parallel, simulate_with, Generated};

use hsir_backend::buffers::{self, cfdfc, edit, timing::TimingModel, Options};
use hsir_backend::rtl::TestbenchOptions;
use hsir_backend::Program;

/// (file, function)
/// Each kernel, its function, and the loop throughput HiGHS proves optimal for the same model
/// (`benches/placement_vs_highs.py`; docs/benchmarks.md): placement must reach it.
const KERNELS: [(&str, &str, f64); 3] = [
    ("gaussian-4-2__handshake_buffered.mlir", "gaussian", 1.0 / 4.0),
    ("histogram-7-17__handshake_transformed.mlir", "histogram", 1.0 / 2.0),
    ("atax-6-6__handshake_export.mlir", "atax", 1.0 / 6.0),
];

fn corpus(file: &str) -> PathBuf {
    let path = common::shared::root().join("corpus/dynamatic").join(file);
    assert!(path.exists(), "the shared corpus lacks {}", path.display());
    path
}

/// The cycles at which tokens crossed the channel of `labels` (a value as the trace names it),
/// from a `+trace` run.
fn crossings(trace: &str, labels: &[String]) -> Vec<u64> {
    trace
        .lines()
        .filter_map(|l| l.strip_prefix("hsir-tb: trace "))
        .filter_map(|l| {
            let (cycle, rest) = l.split_once(": ")?;
            labels.iter().any(|name| rest.starts_with(&format!("{name} ("))).then_some(())?;
            cycle.parse().ok()
        })
        .collect()
}

/// The median gap between successive crossings: a loop header's initiation interval.
fn interval(cycles: &[u64]) -> Option<u64> {
    let mut gaps: Vec<u64> = cycles.windows(2).map(|w| w[1] - w[0]).filter(|&g| g > 0).collect();
    gaps.sort_unstable();
    gaps.get(gaps.len() / 2).copied()
}

/// Generates `text` as `function` with a testbench, simulates it with `+trace`, and returns
/// the trace; an error unless the testbench passed.
fn run(text: &str, function: &str, label: &str) -> Result<String, String> {
    let dir =
        std::env::temp_dir().join(format!("hsir-place-corpus-{}-{label}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{label}.mlir"));
    std::fs::write(&path, text).unwrap();
    // One call: with more, the next call's start token races into the loops (HS5007).
    let tb = TestbenchOptions { tokens: Some(1), seed: 1, probe_leftovers: true };
    let generated = Generated::with(&path, function, tb)?;
    let out = simulate_with(&generated, &["+trace"])?;
    let _ = std::fs::remove_dir_all(&dir);
    if out.contains("hsir-tb: PASS") {
        Ok(out)
    } else {
        let tail: Vec<&str> = out.lines().filter(|l| !l.contains(" trace ")).collect();
        Err(format!("the testbench did not pass:\n{}", tail.join("\n")))
    }
}

#[test]
fn corpus_loop_kernels_place_simulate_and_report_their_intervals() {
    if common::shared::path("corpus/dynamatic").is_none() {
        return;
    }
    let failures = run_parallel(KERNELS.to_vec(), |(file, function, optimum)| {
        let name = format!("{file}:@{function}");
        let mut text = std::fs::read_to_string(corpus(file)).unwrap();
        if function == "histogram" {
            // Its loop count is an argument: a small one, and features that hit the same
            // bins (the corpus file has no inputs of its own; this line is added at test time).
            text = format!("// hsir-sim: tokens=1 n=0..10 feature=0..7\n{text}");
        }
        let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
        let program = Program::analyse(&parse);
        // A generous time limit: the throughput found must not depend on the machine's load.
        let options =
            Options { strip: true, time_limit: Duration::from_secs(60), ..Options::default() };
        let output = buffers::place_program(
            &program,
            &text,
            &options,
            TimingModel::builtin(),
            Some(function),
            None,
        )
        .map_err(|e| format!("{name}: placement refused: {e:?}"))?;
        let placed = edit::apply(&text, &output.edits);
        let reached: Vec<f64> = output.placements[0].cfdfcs.iter().map(|k| k.throughput).collect();
        if reached.iter().any(|&t| t < optimum - 1e-6) {
            return Err(format!(
                "{name}: loop throughput {reached:?}, where the optimum of the model is {optimum}"
            ));
        }
        // No combinational cycle (nor a ready cycle, nor a merge in a cycle without a slot).
        let (parse_placed, _) = hsir_analysis::parse_bytes(placed.as_bytes());
        let cycles: Vec<String> = hsir_analysis::check(&parse_placed)
            .into_iter()
            .filter(|d| ["HS2020", "HS2021", "HS2022"].contains(&d.code.code()))
            .map(|d| format!("{}: {}", d.code.code(), d.message))
            .collect();
        if !cycles.is_empty() {
            return Err(format!("{name}: the placed design has cycles:\n{}", cycles.join("\n")));
        }
        // Each loop's header: the merge-like op its back edges enter, by its output values.
        let p = &output.placements[0];
        let func = program.funcs.iter().find(|f| f.name == function).unwrap();
        let loops = cfdfc::find(&p.graph, None);
        let mut headers: Vec<(String, Vec<String>)> = Vec::new();
        for k in &loops.cfdfcs {
            let units: BTreeSet<usize> =
                k.back_edges.iter().map(|&b| p.graph.channels[b].to).collect();
            for u in units {
                let labels: BTreeSet<String> = p.graph.outs[u]
                    .iter()
                    .map(|&c| {
                        let v = &func.item.values[p.graph.channels[c].value as usize];
                        let name = func.item.str(v.name());
                        [name.to_string(), format!("{name}#{}", v.index)]
                    })
                    .flat_map(|pair| pair.into_iter())
                    .collect();
                headers.push((p.graph.units[u].label.clone(), labels.into_iter().collect()));
            }
        }
        let after = run(&placed, function, &format!("{function}-after"))
            .map_err(|e| format!("{name} (placed): {e}"))?;
        // Before: the file as Dynamatic wrote it. `histogram` is from before Dynamatic's
        // placement (two transparent buffers, cycles unbroken) and does not finish; that is
        // reported, not a failure of ours.
        let before = run(&text, function, &format!("{function}-before")).ok();
        let mut lines = vec![format!(
            "{name}: {} buffers placed; throughput {:?}",
            p.placed.iter().map(|x| x.chain.len()).sum::<usize>(),
            p.cfdfcs.iter().map(|k| format!("{:.3}", k.throughput)).collect::<Vec<_>>()
        )];
        let mut measured = 0;
        for (header, labels) in &headers {
            let ii_after = interval(&crossings(&after, labels));
            let ii_before = before.as_ref().and_then(|t| interval(&crossings(t, labels)));
            measured += ii_after.is_some() as usize;
            let shown = |ii: Option<u64>| ii.map_or("-".to_string(), |i| i.to_string());
            let before_text = if before.is_some() {
                shown(ii_before)
            } else {
                "none (the unplaced design does not finish)".to_string()
            };
            lines.push(format!(
                "  loop at {header}: II before {before_text}, after {}",
                shown(ii_after)
            ));
        }
        println!("{}", lines.join("\n"));
        if measured == 0 {
            return Err(format!("{name}: no loop header crossed twice in the trace"));
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{} failures:\n\n{}", failures.len(), failures.join("\n\n"));
}
