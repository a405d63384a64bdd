//! Where the tests of every crate find the shared test data: real compiler output of CIRCT and
//! Dynamatic (`corpus/`, `dynamatic-2024/`, `dynamatic-suite/`) and tools (`tools/`), kept
//! beside the checkout in `../shared`, never in the repository. Each crate's tests include this
//! one file (`#[path = "../../test-support/shared.rs"] mod shared;`) and find the data only
//! through it.
//!
//! - `HSIR_SHARED` names another folder (relative to the workspace root);
//! - without the data, a test prints `skipped: ...` with how to get it and passes, unless the
//!   data is required: `HSIR_REQUIRE_SHARED=1`, or `CI=true` (CI runs every test;
//!   `HSIR_REQUIRE_SHARED=0` lets a CI run skip too). Then it fails, naming what is missing.
//!
//! `scripts/fetch-shared.py` fetches the compiler output at the commits the data's
//! `SOURCES.md` files pin.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The shared folder: `$HSIR_SHARED` (relative to the workspace root when relative), else
/// `../shared` beside the workspace. It may not exist.
pub fn root() -> PathBuf {
    match std::env::var_os("HSIR_SHARED") {
        Some(dir) if !dir.is_empty() => workspace().join(dir),
        _ => workspace().join("../shared"),
    }
}

/// Whether missing shared data fails a test instead of skipping it.
pub fn required() -> bool {
    match std::env::var("HSIR_REQUIRE_SHARED").as_deref() {
        Ok("1") | Ok("true") => true,
        Ok("0") | Ok("false") => false,
        _ => std::env::var("CI").is_ok_and(|v| v == "true" || v == "1"),
    }
}

/// `<shared>/<rel>` (a file or a folder) if it exists. Otherwise `None`, after printing that
/// the caller is skipped and how to get the data; a panic when the data is `required`.
pub fn path(rel: &str) -> Option<PathBuf> {
    let full = root().join(rel);
    if full.exists() {
        return Some(full);
    }
    let how = "run `python3 scripts/fetch-shared.py`, or copy the shared folder to ../shared beside the checkout (HSIR_SHARED names another folder)";
    if required() {
        panic!("the shared test data `{rel}` is missing at {}: {how}; it is required here (CI=true or HSIR_REQUIRE_SHARED=1)", full.display());
    }
    eprintln!("skipped: the shared test data `{rel}` is missing at {}; {how}", full.display());
    None
}

/// The `.mlir` files of `<shared>/<rel>`, sorted; `None` (skipped) without the folder.
pub fn mlir_files(rel: &str) -> Option<Vec<PathBuf>> {
    let dir = path(rel)?;
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    Some(files)
}

/// The `.mlir` files of `<shared>/<rel>` and of its folders, at any depth, sorted; `None`
/// (skipped) without the folder.
pub fn mlir_files_under(rel: &str) -> Option<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut dirs = vec![path(rel)?];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for entry in entries {
            let path =
                entry.unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display())).path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "mlir") {
                files.push(path);
            }
        }
    }
    files.sort();
    Some(files)
}

/// The text `tools/gen_handshake.py ARGS` prints (large valid Handshake IR), or `None` (skipped)
/// without the tool.
pub fn gen_handshake(args: &[&str]) -> Option<String> {
    let tool = path("tools/gen_handshake.py")?;
    let output =
        std::process::Command::new("python3").arg(&tool).args(args).output().expect("python3 runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    Some(String::from_utf8(output.stdout).expect("gen_handshake.py prints UTF-8"))
}

/// Dynamatic's 2025 suite (`dynamatic-suite`: `ir/`, `c/`, `RESULTS.tsv`), or `None` (skipped)
/// without its IR.
pub fn dynamatic_suite() -> Option<PathBuf> {
    path("dynamatic-suite/ir")?;
    path("dynamatic-suite").map(|p| p.canonicalize().unwrap_or(p))
}
