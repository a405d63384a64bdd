//! The interpreter on every design of `test_data/ops` and `test_data/designs`, driven by the
//! inputs their directives describe and compared with the `.sim` snapshot beside each design
//! (`UPDATE_EXPECT=1` rewrites them; read the diff before committing it). Each design must pass
//! `hsir check` without syntax, type or structure errors.

use std::fmt::Write;
use std::path::Path;

use hsir_backend::sim::{self, stimulus};
use hsir_backend::Program;

const MAX_FIRINGS: u64 = 200_000;

fn list(values: &[u64]) -> String {
    let shown: Vec<String> = values.iter().map(|v| v.to_string()).collect();
    format!("[{}]", shown.join(", "))
}

/// The run of every function of one file, as text.
fn simulate(dir: &str, file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(dir).join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let (parse, decode_error) = hsir_analysis::parse_bytes(text.as_bytes());
    assert!(decode_error.is_none());
    let program = Program::new(&parse).unwrap_or_else(|errors| {
        let shown: Vec<String> =
            errors.iter().map(|d| format!("{}: {}", d.code.code(), d.message)).collect();
        panic!("{dir}/{file} does not check:\n{}", shown.join("\n"))
    });
    let mut out = String::new();
    for func in program.funcs.iter().filter(|f| !f.external) {
        let directives = stimulus::directives(&text, &program, func)
            .unwrap_or_else(|e| panic!("{dir}/{file}: {e}"));
        let inputs = stimulus::inputs(
            func,
            &directives,
            stimulus::seed(&format!("{dir}/{file}@{}", func.name)),
        );
        writeln!(out, "@{}", func.name).unwrap();
        let args = func.args();
        for (i, tokens) in inputs.args.iter().enumerate() {
            // Memref arguments are shown as memories.
            if func.shape(args[i]).is_some() {
                let name = func.item.str(func.item.values[args[i] as usize].name());
                writeln!(out, "  in {name}: {}", list(tokens)).unwrap();
            }
        }
        for (name, words) in &inputs.memories {
            writeln!(out, "  memory {name} before: {}", list(words)).unwrap();
        }
        match sim::run(&program, &func.name, &inputs, MAX_FIRINGS) {
            Ok(outcome) => {
                for (i, tokens) in outcome.results.iter().enumerate() {
                    writeln!(out, "  out {i}: {}", list(tokens)).unwrap();
                }
                for (name, words) in &outcome.memories {
                    writeln!(out, "  memory {name} after: {}", list(words)).unwrap();
                }
                for leftover in &outcome.leftovers {
                    writeln!(out, "  left: {} {}", leftover.message, list(&leftover.tokens))
                        .unwrap();
                }
                for held in &outcome.held {
                    writeln!(out, "  held: {}", held.message).unwrap();
                }
                for race in &outcome.races {
                    writeln!(out, "  race: {} ({}x)", race.message, race.count).unwrap();
                }
                if outcome.ending == sim::Ending::End {
                    writeln!(out, "  ended by `end`; stopped where the circuit would start again")
                        .unwrap();
                }
                writeln!(out, "  firings: {}", outcome.firings).unwrap();
            }
            Err(error) => writeln!(out, "  error: {error}").unwrap(),
        }
    }
    out
}

fn check_dir(dir: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(dir);
    let mut files: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".mlir"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for file in files {
        let actual = simulate(dir, &file);
        let snapshot = format!("../test_data/{dir}/{}.sim", file.trim_end_matches(".mlir"));
        expect_test::expect_file![snapshot].assert_eq(&actual);
    }
}

#[test]
fn ops() {
    check_dir("ops");
}

#[test]
fn designs() {
    check_dir("designs");
}
