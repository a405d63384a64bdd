//! The static timing analysis (`buffers::sta`) on the fixtures of `test_data/timing/sta/`, whose
//! comments work the paths out by hand, and on a loop with no buffers (its combinational
//! cycles named).

use std::path::{Path, PathBuf};

use hsir_backend::buffers::{sta, timing::TimingModel};
use hsir_backend::Program;

fn fixture(name: &str) -> (String, PathBuf) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(name);
    (std::fs::read_to_string(&path).unwrap(), path)
}

fn analyse(name: &str, model: &TimingModel) -> sta::Timing {
    let (text, _) = fixture(name);
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    let program = Program::analyse(&parse);
    assert!(program.check_all(program.funcs.iter().map(|f| f.name.as_str())).is_ok());
    sta::analyse_func(&program.funcs[0], model, 4.0)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn the_longest_path_of_a_buffered_chain_under_the_overhead_and_the_plain_sum() {
    let builtin = TimingModel::builtin();
    assert!(close(builtin.overhead(), 0.722));
    let t = analyse("timing/sta/chain.mlir", builtin);
    let p = t.longest.as_ref().expect("a path");
    assert!(close(p.delay, 0.722 + 2.0 * (1.869 - 0.722)), "{p:?}");
    assert!(close(p.plain, 3.738), "{p:?}");
    assert!(close(t.slack().unwrap(), 4.0 - p.delay));
    let units: Vec<&str> = p.units.iter().map(|u| u.label.as_str()).collect();
    // Of the two arguments that arrive together, the later operand; its fork has no delay and
    // is left out of the description.
    assert_eq!(units, ["fork %bf", "addi %x1", "addi %x2"], "{p:?}");
    assert_eq!(p.from, "argument %b");
    assert_eq!(p.to, "buffer addi %x2→fork %rf");
    assert!(t.cycles.is_empty());
    assert_eq!(
        p.describe(),
        "argument %b → addi %x1 (1.869) → addi %x2 (1.869) → buffer addi %x2→fork %rf"
    );

    // Without the overhead: the plain sum, the same path.
    let plain = builtin.with_overhead(0.0);
    let t = analyse("timing/sta/chain.mlir", &plain);
    let p = t.longest.as_ref().expect("a path");
    assert!(close(p.delay, 3.738), "{p:?}");
    assert!(close(p.plain, 3.738), "{p:?}");

    // An overhead as large as a 1-bit unit: every unit adds only what it has beyond 1.117 ns.
    let t = analyse("timing/sta/chain.mlir", &builtin.with_overhead(1.117));
    let p = t.longest.as_ref().expect("a path");
    assert!(close(p.delay, 1.117 + 2.0 * (1.869 - 1.117)), "{p:?}");
}

/// A path costs the overhead once and each unit what it has beyond it; one unit alone costs
/// its characterized delay.
#[test]
fn a_path_pays_the_overhead_once() {
    let model = TimingModel::builtin().with_overhead(0.5);
    assert!(close(model.path([1.869]), 1.869));
    assert!(close(model.path([1.869, 1.544, 1.117]), 0.5 + 1.369 + 1.044 + 0.617));
    assert!(close(model.path([0.2, 0.0]), 0.5), "units faster than the overhead add nothing");
    assert!(close(model.with_overhead(0.0).path([1.869, 1.544, 1.117]), 4.53));
}

/// A loop with no buffers: its cycles are named (each once), and no path is longer than its
/// registered parts allow.
#[test]
fn combinational_cycles_are_named() {
    let t = analyse("placement/sum_loop.mlir", TimingModel::builtin());
    let mut cycles: Vec<String> = t.cycles.iter().map(|c| c.join(" → ")).collect();
    cycles.sort();
    assert_eq!(
        cycles,
        [
            "cond_br %c_t → control_merge %ctrl",
            "fork %kt → mux %kk → cond_br %k_t",
            "mux %sum → cond_br %sum_t → addi %sum_next",
        ],
        "{t:?}"
    );
}
