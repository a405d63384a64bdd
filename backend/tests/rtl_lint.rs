//! The Verilog component library (`backend/rtl/*.v`) against its contract (`rtl/README.md`):
//! every module lints clean with `verilator --lint-only -Wall` and compiles with
//! `iverilog -g2005 -Wall` for several parameter sets; the README's module table, its exact port
//! lists and the files agree; lint waivers appear only where the README allows them.
//!
//! Needs `verilator` and `iverilog` on PATH; without them the test fails and says how to
//! install them (never passes silently).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

const INSTALL: &str = "install both with `apt-get install verilator iverilog`";

/// Parameter sets per module: each string is `NAME=VALUE` pairs separated by spaces (string
/// values in double quotes, `VALUE` / `INIT_DATA` as sized literals). An empty string lints
/// the defaults.
const PARAM_SETS: &[(&str, &[&str])] = &[
    ("hsir_fork", &["N=1 W=1", "N=2 W=8", "N=3 W=64"]),
    ("hsir_lazy_fork", &["N=1 W=1", "N=2 W=32", "N=3 W=64"]),
    ("hsir_join", &["N=1", "N=2", "N=5"]),
    ("hsir_merge", &["N=1 W=1", "N=2 W=8", "N=3 W=64"]),
    ("hsir_mux", &["N=1 W=1 SW=1", "N=2 W=32 SW=1", "N=3 W=64 SW=2", "N=5 W=8 SW=4"]),
    ("hsir_control_merge", &["N=1 W=1 IW=1", "N=2 W=32 IW=1", "N=3 W=64 IW=2", "N=5 W=8 IW=3"]),
    ("hsir_cond_br", &["W=1", "W=8", "W=64"]),
    ("hsir_sink", &[""]),
    ("hsir_source", &[""]),
    ("hsir_constant", &["W=1 VALUE=1'b1", "W=8 VALUE=8'd200", "W=64 VALUE=64'hFFFFFFFFFFFFFFFF"]),
    (
        "hsir_one_slot_break_dv",
        &["W=1", "W=32", "W=64 INIT_VALID=1 INIT_DATA=64'h8000000000000001", "W=8 INIT_VALID=1"],
    ),
    ("hsir_one_slot_break_r", &["W=1", "W=32", "W=64"]),
    ("hsir_one_slot_break_dvr", &["W=1", "W=32", "W=64"]),
    ("hsir_fifo_break_dv", &["W=1 SLOTS=1", "W=8 SLOTS=2", "W=32 SLOTS=3", "W=64 SLOTS=4"]),
    ("hsir_fifo_break_none", &["W=1 SLOTS=1", "W=8 SLOTS=2", "W=32 SLOTS=3", "W=64 SLOTS=4"]),
    ("hsir_shift_reg_break_dv", &["W=1 SLOTS=1", "W=8 SLOTS=2", "W=32 SLOTS=3", "W=64 SLOTS=4"]),
    ("hsir_seq_stage", &["W=1", "W=32", "W=64 INIT_VALID=1 INIT_DATA=64'd7"]),
    (
        "hsir_binary",
        &[
            "W=32 OW=32 OP=\"addi\"",
            "W=1 OW=1 OP=\"subi\"",
            "W=64 OW=64 OP=\"muli\"",
            "W=32 OW=32 OP=\"muli\" LATENCY=4",
            "W=8 OW=8 OP=\"divsi\" LATENCY=35",
            "W=8 OW=1 OP=\"cmpi_eq\" LATENCY=1",
            "W=1 OW=1 OP=\"divsi\"",
            "W=64 OW=64 OP=\"divsi\"",
            "W=8 OW=8 OP=\"divui\"",
            "W=64 OW=64 OP=\"remsi\"",
            "W=32 OW=32 OP=\"remui\"",
            "W=8 OW=8 OP=\"andi\"",
            "W=8 OW=8 OP=\"ori\"",
            "W=8 OW=8 OP=\"xori\"",
            "W=64 OW=64 OP=\"shli\"",
            "W=1 OW=1 OP=\"shrsi\"",
            "W=32 OW=32 OP=\"shrsi\"",
            "W=64 OW=64 OP=\"shrui\"",
            "W=32 OW=32 OP=\"maxsi\"",
            "W=8 OW=8 OP=\"maxui\"",
            "W=64 OW=64 OP=\"minsi\"",
            "W=1 OW=1 OP=\"minui\"",
            "W=32 OW=1 OP=\"cmpi_eq\"",
            "W=8 OW=1 OP=\"cmpi_ne\"",
            "W=64 OW=1 OP=\"cmpi_slt\"",
            "W=1 OW=1 OP=\"cmpi_sle\"",
            "W=32 OW=1 OP=\"cmpi_sgt\"",
            "W=8 OW=1 OP=\"cmpi_sge\"",
            "W=64 OW=1 OP=\"cmpi_ult\"",
            "W=32 OW=1 OP=\"cmpi_ule\"",
            "W=8 OW=1 OP=\"cmpi_ugt\"",
            "W=1 OW=1 OP=\"cmpi_uge\"",
        ],
    ),
    (
        "hsir_unary",
        &[
            "IW=1 OW=8 OP=\"extsi\"",
            "IW=32 OW=64 OP=\"extsi\"",
            "IW=8 OW=8 OP=\"extsi\"",
            "IW=1 OW=64 OP=\"extui\"",
            "IW=64 OW=32 OP=\"trunci\"",
            "IW=8 OW=1 OP=\"trunci\"",
            "IW=16 OW=16 OP=\"trunci\"",
            "IW=1 OW=1 OP=\"not\"",
            "IW=64 OW=64 OP=\"not\"",
            "IW=32 OW=32 OP=\"bitcast\"",
        ],
    ),
    ("hsir_select", &["W=1", "W=32", "W=64"]),
    ("hsir_wait", &["NT=1 W=1", "NT=2 W=32", "NT=3 W=64"]),
    ("hsir_load", &["AW=1 W=1", "AW=10 W=32", "AW=64 W=64"]),
    ("hsir_store", &["AW=1 W=1", "AW=10 W=32", "AW=64 W=64"]),
    (
        "hsir_memory",
        &[
            "NLD=1 NST=1 W=32 AW=10 DEPTH=1024",
            "NLD=2 NST=1 W=8 AW=4 DEPTH=5",
            "NLD=1 NST=2 W=64 AW=64 DEPTH=16",
            "NLD=3 NST=2 W=1 AW=2 DEPTH=100",
            "NLD=1 NST=1 W=8 AW=1 DEPTH=1",
        ],
    ),
    (
        "hsir_ext_memory",
        &["NLD=1 NST=1 W=32 AW=10", "NLD=2 NST=1 W=8 AW=1", "NLD=1 NST=3 W=64 AW=64"],
    ),
    ("hsir_mc_control", &["NCTRL=1 CW=1", "NCTRL=2 CW=8", "NCTRL=3 CW=32", "NCTRL=1 CW=64"]),
    (
        "hsir_lsq",
        &[
            "",
            "NG=1 NLD=2 NST=1 W=32 AW=9 DEPTH=16 NCHAR=3 LAYOUT=\"lls\"",
            "NG=2 NLD=3 NST=2 W=8 AW=4 DEPTH=32 NCHAR=6 LAYOUT=\"lls_ls\"",
            "NG=3 NLD=1 NST=2 W=1 AW=1 DEPTH=4 NCHAR=5 LAYOUT=\"s_s_l\"",
            "NG=1 NLD=1 NST=1 W=64 AW=64 DEPTH=2 NCHAR=1 LAYOUT=\"s\"",
            "NG=2 NLD=2 NST=1 W=16 AW=7 DEPTH=8 NCHAR=3 LAYOUT=\"l_l\"",
            "NG=1 NLD=1 NST=1 W=32 AW=4 DEPTH=16 NCHAR=2 LAYOUT=\"ls\" MC=1",
            "NG=2 NLD=1 NST=2 W=8 AW=3 DEPTH=8 NCHAR=4 LAYOUT=\"s_ls\" MC=1",
        ],
    ),
    (
        "hsir_stream",
        &[
            "W=1 STEP_OP=\"+=\" COND=\"<\"",
            "W=32 STEP_OP=\"-=\" COND=\">\"",
            "W=64 STEP_OP=\"*=\" COND=\"<=\"",
            "W=8 STEP_OP=\"/=\" COND=\">=\"",
            "W=32 STEP_OP=\"<<=\" COND=\"!=\"",
            "W=64 STEP_OP=\">>=\" COND=\">\"",
        ],
    ),
    ("hsir_gate", &["W=1", "W=32", "W=64"]),
    ("hsir_carry", &["W=1", "W=32", "W=64"]),
    ("hsir_invariant", &["W=1", "W=32", "W=64"]),
    (
        "hsir_float_binary",
        &[
            "EW=8 MW=23 OW=32 OP=\"addf\" LATENCY=6",
            "EW=11 MW=52 OW=64 OP=\"subf\" LATENCY=12",
            "EW=8 MW=23 OW=32 OP=\"mulf\" LATENCY=0",
            "EW=11 MW=52 OW=64 OP=\"mulf\" LATENCY=1",
            "EW=8 MW=23 OW=32 OP=\"divf\" LATENCY=15",
            "EW=11 MW=52 OW=64 OP=\"divf\" LATENCY=2",
            "EW=8 MW=23 OW=1 OP=\"cmpf_oge\" LATENCY=0",
            "EW=11 MW=52 OW=1 OP=\"cmpf_uno\" LATENCY=1",
            "EW=8 MW=23 OW=1 OP=\"cmpf_true\" LATENCY=0",
            "EW=5 MW=10 OW=16 OP=\"addf\" LATENCY=3",
        ],
    ),
    (
        "hsir_float_unary",
        &[
            "IW=32 OW=32 IEW=8 OEW=8 OP=\"negf\" LATENCY=0",
            "IW=32 OW=64 IEW=8 OEW=11 OP=\"extf\" LATENCY=0",
            "IW=64 OW=32 IEW=11 OEW=8 OP=\"truncf\" LATENCY=2",
            "IW=32 OW=32 IEW=0 OEW=8 OP=\"sitofp\" LATENCY=5",
            "IW=1 OW=64 IEW=0 OEW=11 OP=\"uitofp\" LATENCY=1",
            "IW=64 OW=32 IEW=0 OEW=8 OP=\"sitofp\" LATENCY=5",
            "IW=32 OW=32 IEW=8 OEW=0 OP=\"fptosi\" LATENCY=5",
            "IW=64 OW=2 IEW=11 OEW=0 OP=\"fptoui\" LATENCY=0",
            "IW=64 OW=64 IEW=11 OEW=0 OP=\"fptosi\" LATENCY=5",
        ],
    ),
];

/// Files allowed to carry `verilator lint_off` comments (ports unused by design).
const WAIVED: &[&str] = &["hsir_sink", "hsir_source"];

fn rtl_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("rtl")
}

/// The `.v` files, by module name.
fn verilog_files() -> Vec<(String, PathBuf)> {
    let mut files: Vec<(String, PathBuf)> = fs::read_dir(rtl_dir())
        .expect("read backend/rtl")
        .map(|e| e.expect("read backend/rtl entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "v"))
        .map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), p))
        .collect();
    files.sort();
    files
}

fn readme() -> String {
    fs::read_to_string(rtl_dir().join("README.md")).expect("read backend/rtl/README.md")
}

/// Modules named in the first column of README.md's module table.
fn readme_modules(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`'))
        .map(|(name, _)| name.to_string())
        .filter(|name| name.starts_with("hsir_"))
        .collect()
}

/// `- `hsir_x` #(P, Q): a, b, c` lines of the "Exact ports" section.
fn readme_ports(text: &str) -> Vec<(String, Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("- `hsir_") else { continue };
        let Some((name, rest)) = rest.split_once('`') else { continue };
        let Some(rest) = rest.trim_start().strip_prefix("#(") else { continue };
        let Some((params, ports)) = rest.split_once("):") else { continue };
        out.push((format!("hsir_{name}"), list(params), list(ports)));
    }
    out
}

fn list(text: &str) -> Vec<String> {
    text.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let line = rest.find("//");
        let block = rest.find("/*");
        let line_first = match (line, block) {
            (Some(l), Some(b)) => l < b,
            (Some(_), None) => true,
            _ => false,
        };
        match (line, block) {
            (Some(l), _) if line_first => {
                out.push_str(&rest[..l]);
                rest = rest[l..].find('\n').map_or("", |e| &rest[l + e..]);
            }
            (_, Some(b)) => {
                out.push_str(&rest[..b]);
                rest = rest[b + 2..].find("*/").map_or("", |e| &rest[b + 2 + e + 2..]);
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// The text inside the parenthesis opening at `open` (which must be `(`), and what follows it.
fn paren_block(text: &str, open: usize) -> Option<(&str, &str)> {
    let mut depth = 0usize;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some((&text[open + 1..open + i], &text[open + i + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

fn last_identifier(text: &str) -> Option<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .rfind(|w| w.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_'))
        .map(str::to_string)
}

/// Module names, parameter names and port names declared in a file's module headers.
fn module_headers(text: &str) -> Vec<(String, Vec<String>, Vec<String>)> {
    let text = strip_comments(text);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("module ") {
        let starts_word =
            at == 0 || !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        rest = &rest[at + "module ".len()..];
        if !starts_word {
            continue;
        }
        let name_end =
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        let name = rest[..name_end].to_string();
        let mut after = rest[name_end..].trim_start();
        let mut params = Vec::new();
        if let Some(p) = after.strip_prefix('#') {
            let p = p.trim_start();
            let Some((block, tail)) = paren_block(p, 0) else { break };
            params = block
                .split(',')
                .filter_map(|item| last_identifier(item.split('=').next().unwrap_or("")))
                .collect();
            after = tail.trim_start();
        }
        let mut ports = Vec::new();
        if after.starts_with('(') {
            if let Some((block, _)) = paren_block(after, 0) {
                ports = block.split(',').filter_map(last_identifier).collect();
            }
        }
        out.push((name, params, ports));
    }
    out
}

fn require_tool(name: &str, version_flag: &str) {
    match Command::new(name).arg(version_flag).output() {
        Ok(_) => {}
        Err(e) => panic!(
            "`{name}` could not be run ({e}); the RTL lint test needs verilator and iverilog: {INSTALL}"
        ),
    }
}

struct Job {
    module: String,
    file: PathBuf,
    params: Vec<(String, String)>,
    set: String,
}

fn parse_set(set: &str) -> Vec<(String, String)> {
    set.split_whitespace()
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or_else(|| panic!("bad parameter `{kv}`"));
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// Runs both tools on one parameter set; returns a report per tool that complained.
fn run(job: &Job) -> Vec<String> {
    let mut problems = Vec::new();
    let mut verilator = Command::new("verilator");
    verilator.args(["--lint-only", "-Wall", "--top-module", &job.module]);
    for (k, v) in &job.params {
        verilator.arg(format!("-G{k}={v}"));
    }
    verilator.arg(&job.file);
    let mut iverilog = Command::new("iverilog");
    iverilog.args(["-g2005", "-Wall", "-o", "/dev/null", "-s", &job.module]);
    for (k, v) in &job.params {
        iverilog.arg(format!("-P{}.{k}={v}", job.module));
    }
    iverilog.arg(&job.file);
    for (tool, mut cmd) in
        [("verilator --lint-only -Wall", verilator), ("iverilog -g2005", iverilog)]
    {
        match cmd.output() {
            Ok(out) => {
                let text = format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
                if !out.status.success() || !text.trim().is_empty() {
                    problems.push(format!(
                        "{} [{}] {tool} ({}):\n{}",
                        job.module,
                        job.set,
                        out.status,
                        text.trim_end()
                    ));
                }
            }
            Err(e) => problems
                .push(format!("{} [{}] {tool} could not run: {e}; {INSTALL}", job.module, job.set)),
        }
    }
    problems
}

#[test]
fn readme_table_matches_files() {
    let text = readme();
    let listed = readme_modules(&text);
    let files: BTreeSet<String> = verilog_files().into_iter().map(|(m, _)| m).collect();
    let missing: Vec<_> = listed.difference(&files).collect();
    let unlisted: Vec<_> = files.difference(&listed).collect();
    assert!(
        missing.is_empty() && unlisted.is_empty(),
        "README.md's module table and backend/rtl/*.v disagree:\n  listed without a file: {missing:?}\n  files not in the table: {unlisted:?}"
    );
    assert!(listed.len() >= 30, "README.md's module table lost rows: {listed:?}");
}

#[test]
fn readme_ports_match_files() {
    let text = readme();
    let documented = readme_ports(&text);
    let mut problems = Vec::new();
    let names: BTreeSet<String> = documented.iter().map(|(m, _, _)| m.clone()).collect();
    for module in readme_modules(&text) {
        if !names.contains(&module) {
            problems.push(format!("{module}: no line in README.md's \"Exact ports\" section"));
        }
    }
    let files: Vec<(String, PathBuf)> = verilog_files();
    for (module, params, ports) in &documented {
        let Some((_, path)) = files.iter().find(|(m, _)| m == module) else {
            problems.push(format!("{module}: port line in README.md but no file"));
            continue;
        };
        let source = fs::read_to_string(path).expect("read a .v file");
        let headers = module_headers(&source);
        match headers.as_slice() {
            [(name, file_params, file_ports)] => {
                if name != module {
                    problems.push(format!("{}: declares module `{name}`", path.display()));
                }
                if file_params != params {
                    problems.push(format!(
                        "{module}: parameters are {file_params:?}, README.md says {params:?}"
                    ));
                }
                if file_ports != ports {
                    problems.push(format!(
                        "{module}: ports are {file_ports:?}, README.md says {ports:?}"
                    ));
                }
            }
            _ => problems.push(format!(
                "{}: expected exactly one module, found {:?}",
                path.display(),
                headers.iter().map(|h| &h.0).collect::<Vec<_>>()
            )),
        }
    }
    assert!(problems.is_empty(), "README.md and the RTL disagree:\n{}", problems.join("\n"));
}

#[test]
fn waivers_only_where_allowed() {
    let mut problems = Vec::new();
    for (module, path) in verilog_files() {
        let source = fs::read_to_string(&path).expect("read a .v file");
        if source.contains("lint_off") && !WAIVED.contains(&module.as_str()) {
            problems.push(format!("{}: lint waiver outside {WAIVED:?}", path.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_module_lints_and_compiles() {
    require_tool("verilator", "--version");
    require_tool("iverilog", "-V");

    let files = verilog_files();
    let mut jobs = Vec::new();
    let mut problems = Vec::new();
    for (module, file) in &files {
        let Some((_, sets)) = PARAM_SETS.iter().find(|(m, _)| m == module) else {
            problems.push(format!("{module}: no parameter sets in rtl_lint.rs's PARAM_SETS"));
            continue;
        };
        for set in *sets {
            jobs.push(Job {
                module: module.clone(),
                file: file.clone(),
                params: parse_set(set),
                set: set.to_string(),
            });
        }
    }
    for (module, _) in PARAM_SETS {
        if !files.iter().any(|(m, _)| m == module) {
            problems.push(format!("{module}: in PARAM_SETS but backend/rtl/{module}.v is missing"));
        }
    }

    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 4);
    let next = AtomicUsize::new(0);
    let found = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                let mut reports = run(job);
                if !reports.is_empty() {
                    found.lock().unwrap().append(&mut reports);
                }
            });
        }
    });
    let mut found = found.into_inner().unwrap();
    found.sort();
    problems.extend(found);
    assert!(
        problems.is_empty(),
        "{} problem(s) in backend/rtl ({} parameter sets):\n\n{}",
        problems.len(),
        jobs.len(),
        problems.join("\n\n")
    );
}
