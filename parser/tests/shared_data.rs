//! The tests' finder of the shared data (`test-support/shared.rs`) and the script that fetches
//! the data (`scripts/fetch-shared.py`, from `scripts/shared-sources.tsv`).

#[path = "../../test-support/shared.rs"]
mod shared;

use std::path::Path;
use std::process::Command;
use std::sync::Mutex;

/// Held by each test: one of them changes the environment the finder reads.
static ENV: Mutex<()> = Mutex::new(());

/// One test: the finder reads the environment, which the test changes.
#[test]
fn the_finder_follows_hsir_shared_and_skips_or_fails_as_asked() {
    let _env = ENV.lock().unwrap_or_else(|e| e.into_inner());
    let saved: Vec<_> = ["HSIR_SHARED", "HSIR_REQUIRE_SHARED", "CI"]
        .into_iter()
        .map(|key| (key, std::env::var_os(key)))
        .collect();
    let dir = std::env::temp_dir().join(format!("hsir-shared-finder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("corpus/circt")).unwrap();
    std::fs::write(dir.join("corpus/circt/a.mlir"), "").unwrap();
    std::fs::write(dir.join("corpus/circt/notes.txt"), "").unwrap();
    std::env::set_var("HSIR_SHARED", &dir);
    std::env::set_var("HSIR_REQUIRE_SHARED", "0");
    assert_eq!(shared::root(), shared::workspace().join(&dir));
    assert_eq!(shared::path("corpus/circt"), Some(dir.join("corpus/circt")));
    assert_eq!(shared::mlir_files("corpus/circt"), Some(vec![dir.join("corpus/circt/a.mlir")]));
    // Missing: skipped (`None`), unless required.
    assert_eq!(shared::path("dynamatic-suite"), None);
    assert_eq!(shared::dynamatic_suite(), None);
    std::env::set_var("HSIR_REQUIRE_SHARED", "1");
    let failed = std::panic::catch_unwind(|| shared::path("dynamatic-suite")).unwrap_err();
    let message = failed.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("the shared test data `dynamatic-suite` is missing")
            && message.contains("scripts/fetch-shared.py"),
        "{message}"
    );
    // CI requires the data unless told otherwise.
    std::env::remove_var("HSIR_REQUIRE_SHARED");
    std::env::set_var("CI", "true");
    assert!(shared::required());
    std::env::set_var("HSIR_REQUIRE_SHARED", "0");
    assert!(!shared::required());
    std::env::remove_var("CI");
    // A relative HSIR_SHARED is relative to the workspace root.
    std::env::set_var("HSIR_SHARED", "elsewhere");
    assert_eq!(shared::root(), shared::workspace().join("elsewhere"));
    std::env::remove_var("HSIR_SHARED");
    assert_eq!(shared::root(), shared::workspace().join("../shared"));
    std::fs::remove_dir_all(&dir).unwrap();
    for (key, value) in saved {
        match value {
            Some(v) => std::env::set_var(key, v),
            None => std::env::remove_var(key),
        }
    }
}

fn python() -> Option<Command> {
    match Command::new("python3").arg("--version").output() {
        Ok(o) if o.status.success() => Some(Command::new("python3")),
        _ => {
            eprintln!("skipped: python3 is not installed");
            None
        }
    }
}

fn script() -> std::path::PathBuf {
    shared::workspace().join("scripts/fetch-shared.py")
}

/// The list the script fetches is the shared data: every file there, byte for byte. (Run
/// against a copy of the shared folder; without one, skipped.)
#[test]
fn the_fetch_list_matches_the_shared_data() {
    let _env = ENV.lock().unwrap_or_else(|e| e.into_inner());
    let Some(root) = shared::path("") else { return };
    if shared::path("corpus").is_none() {
        return;
    }
    let Some(mut python) = python() else { return };
    let output = python.arg(script()).arg("--check").arg("--dest").arg(&root).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    // Every `.mlir`, `.c` and `.h` file of the data is in the list.
    let list =
        std::fs::read_to_string(shared::workspace().join("scripts/shared-sources.tsv")).unwrap();
    let listed: std::collections::BTreeSet<&str> =
        list.lines().filter(|l| !l.starts_with('#')).filter_map(|l| l.split('\t').next()).collect();
    for folder in [
        "corpus/circt",
        "corpus/dynamatic",
        "dynamatic-2024",
        "dynamatic-suite/ir",
        "dynamatic-suite/c",
    ] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if [".mlir", ".c", ".h"].iter().any(|e| name.ends_with(e)) {
                let rel = format!("{folder}/{name}");
                assert!(
                    listed.contains(rel.as_str()),
                    "{rel} is not in scripts/shared-sources.tsv"
                );
            }
        }
    }
}

/// Fetching from a mirror laid out as GitHub's raw files (made here from the shared data) into
/// an empty folder gives the shared data's layout, each file checked; an unreachable server is
/// exit 2 with what to do instead.
#[test]
fn fetching_rebuilds_the_layout_and_says_what_to_do_offline() {
    let _env = ENV.lock().unwrap_or_else(|e| e.into_inner());
    let Some(mut python) = python() else { return };
    let scratch = std::env::temp_dir().join(format!("hsir-fetch-shared-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let offline = python
        .arg(script())
        .args(["--dest"])
        .arg(scratch.join("out"))
        .args(["--base-url", "http://127.0.0.1:9", "--timeout", "5"])
        .output()
        .unwrap();
    assert_eq!(offline.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&offline.stderr);
    assert!(stderr.contains("copy the shared folder"), "{stderr}");

    let Some(root) = shared::path("corpus") else { return };
    let root = root.parent().unwrap().to_path_buf();
    let list =
        std::fs::read_to_string(shared::workspace().join("scripts/shared-sources.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = list
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .filter(|cells: &Vec<&str>| {
            cells[0].starts_with("corpus/circt/") || cells[0].starts_with("dynamatic-suite/c/")
        })
        .collect();
    let mirror = scratch.join("mirror");
    for cells in &rows {
        let served = mirror.join(cells[1]).join(cells[2]).join(cells[3]);
        std::fs::create_dir_all(served.parent().unwrap()).unwrap();
        std::fs::copy(root.join(cells[0]), served).unwrap();
    }
    let out = scratch.join("out");
    let fetched = Command::new("python3")
        .arg(script())
        .arg("--dest")
        .arg(&out)
        .arg("--base-url")
        .arg(format!("file://{}", mirror.display()))
        .output()
        .unwrap();
    // The mirror serves only some of the files: those arrive intact, the rest are named.
    assert_eq!(fetched.status.code(), Some(1), "{}", String::from_utf8_lossy(&fetched.stderr));
    for cells in &rows {
        let got = std::fs::read(out.join(cells[0])).unwrap();
        assert_eq!(got, std::fs::read(root.join(cells[0])).unwrap(), "{}", cells[0]);
    }
    let stderr = String::from_utf8_lossy(&fetched.stderr);
    assert!(stderr.contains("corpus/dynamatic/"), "{stderr}");
    assert!(!Path::new(&out.join("dynamatic-suite/RESULTS.tsv")).exists());
    std::fs::remove_dir_all(&scratch).unwrap();
}
