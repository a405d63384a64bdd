//! IR before fork and sink materialization (Dynamatic's unbuffered `__handshake.mlir`): values
//! with several uses or none, including the results of ops that only rename a channel (a
//! `load`'s data), get their forks and sinks in the netlist (HS5002 notes), as the interpreter
//! gives them.

#[path = "../../test-support/shared.rs"]
mod shared;

use hsir_analysis::DiagnosticCode;
use hsir_backend::rtl::{self, Options, TestbenchOptions};
use hsir_backend::Program;

fn generate(text: &str) -> rtl::Output {
    let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
    // Unbuffered IR has cycles no buffer breaks (HS2023, which stops RTL generation); these
    // tests look at the forks and sinks, so they generate it anyway.
    let options = Options {
        testbench: Some(TestbenchOptions { tokens: Some(1), ..TestbenchOptions::default() }),
        allow_lint_errors: true,
        ..Options::default()
    };
    rtl::generate(&parse, &options).unwrap_or_else(|errors| {
        let shown: Vec<String> =
            errors.iter().map(|d| format!("{}: {}", d.code.code(), d.message)).collect();
        panic!("refused:\n{}", shown.join("\n"))
    })
}

/// A `load`'s data used twice: the netlist forks the memory's load-data channel, which the
/// `load` only renames.
#[test]
fn a_loads_data_with_two_uses_is_forked() {
    let text = "handshake.func @twice(%mem: memref<4xi32>, %a: !handshake.channel<i2>, %mem_start: !handshake.control<>, %start: !handshake.control<>, ...) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) attributes {argNames = [\"mem\", \"a\", \"mem_start\", \"start\"], resNames = [\"out0\", \"mem_end\", \"end\"]} {\n  %ld, %mem_end = mem_controller[%mem : memref<4xi32>] %mem_start (%addr) %start {connectedBlocks = [0 : i32]} : (!handshake.channel<i2>) -> !handshake.channel<i32>\n  %addr, %data = load[%a] %ld : <i2>, <i32>\n  %sum = addi %data, %data : <i32>\n  end %sum, %mem_end, %start : <i32>, <>, <>\n}\n";
    let output = generate(text);
    let notes: Vec<&str> = output
        .diagnostics
        .iter()
        .filter(|d| d.code == DiagnosticCode::BackendMaterialized)
        .map(|d| d.message.as_str())
        .collect();
    assert!(notes.iter().any(|m| m.contains("`%data` has 2 uses")), "{notes:?}");
    let design = &output.files[1].text;
    assert!(design.contains("hsir_fork"), "no fork in the design");
}

/// Every unbuffered IR of the suite generates RTL with a testbench (the interpreter runs it),
/// but `gcd`, whose loops need the inputs of its C `main()` (random ones may never end).
#[test]
fn the_suites_unbuffered_ir_generates() {
    let Some(dir) = shared::path("dynamatic-suite/ir") else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with("__handshake.mlir"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 14);
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut text = std::fs::read_to_string(&path).unwrap();
        if name.starts_with("gcd") {
            text = format!("// hsir-sim: tokens=1 a=7966496 b=314080416\n{text}");
        }
        let (parse, _) = hsir_analysis::parse_bytes(text.as_bytes());
        assert!(Program::new(&parse).is_ok(), "{name} does not check");
        let output = generate(&text);
        assert!(output.files.iter().any(|f| f.name.ends_with("_tb.v")), "{name}: no testbench");
    }
}
