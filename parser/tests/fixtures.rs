//! Parser fixtures: `test_data/ok/*.mlir` parse without errors, `test_data/err/*.mlir` with
//! some; each has a tree snapshot beside it (`.rast`). `UPDATE_EXPECT=1 cargo test` refreshes
//! the snapshots.

use std::path::{Path, PathBuf};

use expect_test::expect_file;

fn fixtures(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    files
}

fn render(parse: &hsir_parser::Parse) -> String {
    let mut out = format!("{:#?}", parse.root());
    for error in parse.errors() {
        out.push_str(&format!("error {:?}: {:?}: {}\n", error.range, error.kind, error.message));
    }
    out
}

fn check_folder(folder: &str, expect_errors: bool) {
    for path in fixtures(folder) {
        let text = std::fs::read_to_string(&path).unwrap();
        let parse = hsir_parser::parse(text.clone());
        assert_eq!(parse.tree().rebuild_text(), text, "{} does not roundtrip", path.display());
        if expect_errors {
            assert!(!parse.errors().is_empty(), "{} parsed without errors", path.display());
        } else {
            assert!(
                parse.errors().is_empty(),
                "{} has errors: {:#?}",
                path.display(),
                parse.errors()
            );
        }
        expect_file![path.with_extension("rast")].assert_eq(&render(&parse));
    }
}

#[test]
fn ok_fixtures() {
    check_folder("ok", false);
}

#[test]
fn err_fixtures() {
    check_folder("err", true);
}
