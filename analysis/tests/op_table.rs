//! The op table (`src/ops.rs`) is the one list of op names: no other source file of the
//! analysis, the backend or the server names a table op in a string, and every entry of the
//! table is documented, has a layout for each era it exists in, and is used by a fixture.
//!
//! The scan reads Rust string literals (`"..."` with escapes, raw `r#"..."#`, byte strings),
//! skipping comments and character literals. A literal is an op name when it equals a spelling
//! of a table op (`fork`, `handshake.fork`, `arith.addi`, `dataflow.carry`), or when it is a
//! name that starts with a table dialect's prefix (`"handshake."`, `"arith.{short}"`) and is not
//! an attribute name. MLIR text in a literal (a test's input, with spaces after its first word)
//! is not a name; a literal that is exactly an op's spelling always is.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use hsir_analysis::ops::{Dialect, OpKind, OPS};

/// Where op names must not be written, relative to the workspace root.
const ROOTS: &[&str] = &["analysis/src", "backend/src", "lsp/src"];

/// The table itself.
const TABLE: &str = "analysis/src/ops.rs";

/// Attributes of Handshake ops whose names carry a table dialect's prefix.
const ATTRIBUTE_NAMES: &[&str] = &[
    "handshake.name",
    "handshake.bb",
    "handshake.bufProps",
    "handshake.mem_interface",
    "handshake.deps",
    "handshake.arg_name",
];

/// Literals that are spelled like an op but do not name one: (file, literal, why).
const ALLOWED: &[(&str, &str, &str)] = &[
    ("analysis/src/check_item.rs", "lsq", "the `lsq = false` attribute of `memory`"),
    ("analysis/src/ide/graph.rs", "buffer", "the SVG class of buffer nodes, a drawing category"),
    ("lsp/src/main.rs", "func", "the `--func` option of `hsir buffers`"),
    ("lsp/src/cli/check.rs", "end", "the `end` of a range in `hsir check`'s JSON, as LSP names it"),
    (
        "backend/src/buffers/timing.rs",
        "buffer",
        "the `[buffer TYPE]` section keyword of the timing file's format",
    ),
    ("backend/src/netlist.rs", "init", "the `init` port of the Verilog library's `hsir_carry`"),
    ("backend/src/program.rs", "end", "a Verilog keyword, which a signal name must avoid"),
    ("backend/src/program.rs", "fork", "a Verilog keyword, which a signal name must avoid"),
    ("backend/src/program.rs", "join", "a Verilog keyword, which a signal name must avoid"),
    ("backend/src/program.rs", "not", "a Verilog keyword, which a signal name must avoid"),
    ("backend/src/program.rs", "wait", "a Verilog keyword, which a signal name must avoid"),
    ("backend/src/program.rs", "return", "a Verilog keyword, which a signal name must avoid"),
    ("backend/src/cosim.rs", "return", "the C function's return value, as cosim reports name it"),
];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A string literal of a Rust file: its 1-based line and its value.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Literal {
    line: usize,
    value: String,
}

/// The string literals of Rust source text, in order, comments and character literals
/// skipped. Escapes of normal strings are resolved (`\n`, `\"`, `\u{..}`, line continuations);
/// raw strings are taken as written.
fn string_literals(text: &str) -> Vec<Literal> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            // Block comments nest.
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == '\'' {
            // A character literal (`'"'`, `'\''`, `'\u{22}'`) or a lifetime (`'a`).
            if next == Some('\\') {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if chars.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
            }
        } else if is_ident(c) {
            let start = i;
            while i < chars.len() && is_ident(chars[i]) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            // `r"..."`, `r#"..."#`, `br"..."`, `cr"..."`: raw strings.
            if matches!(word.as_str(), "r" | "br" | "cr") {
                let mut hashes = 0;
                while chars.get(i + hashes) == Some(&'#') {
                    hashes += 1;
                }
                if chars.get(i + hashes) == Some(&'"') {
                    let start_line = line;
                    i += hashes + 1;
                    let mut value = String::new();
                    while let Some(&ch) = chars.get(i) {
                        if ch == '"' && (0..hashes).all(|k| chars.get(i + 1 + k) == Some(&'#')) {
                            i += 1 + hashes;
                            break;
                        }
                        if ch == '\n' {
                            line += 1;
                        }
                        value.push(ch);
                        i += 1;
                    }
                    out.push(Literal { line: start_line, value });
                }
                // Otherwise a raw identifier (`r#type`) or a plain word.
            }
            // `b"..."` and `c"..."` continue as normal strings at the quote.
        } else if c == '"' {
            let start_line = line;
            i += 1;
            let mut value = String::new();
            while let Some(&ch) = chars.get(i) {
                match ch {
                    '"' => {
                        i += 1;
                        break;
                    }
                    '\\' => {
                        let escaped = chars.get(i + 1).copied().unwrap_or('\\');
                        i += 2;
                        match escaped {
                            'n' => value.push('\n'),
                            't' => value.push('\t'),
                            'r' => value.push('\r'),
                            '0' => value.push('\0'),
                            'x' => {
                                let hex: String =
                                    chars[i..(i + 2).min(chars.len())].iter().collect();
                                i += 2;
                                value.extend(
                                    u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32),
                                );
                            }
                            'u' => {
                                let close = chars[i..].iter().position(|&c| c == '}').unwrap_or(0);
                                let hex: String = chars[i + 1..i + close].iter().collect();
                                i += close + 1;
                                value.extend(
                                    u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32),
                                );
                            }
                            '\n' => {
                                // A line continuation: the newline and the next line's
                                // leading whitespace are not part of the string.
                                line += 1;
                                while chars.get(i).is_some_and(|c| c.is_whitespace()) {
                                    if chars[i] == '\n' {
                                        line += 1;
                                    }
                                    i += 1;
                                }
                            }
                            other => value.push(other),
                        }
                    }
                    '\n' => {
                        line += 1;
                        value.push(ch);
                        i += 1;
                    }
                    _ => {
                        value.push(ch);
                        i += 1;
                    }
                }
            }
            out.push(Literal { line: start_line, value });
        } else {
            i += 1;
        }
    }
    out
}

/// Every spelling of every table op: the Handshake short name (`fork`) and the dotted name
/// (`handshake.fork`, `arith.addi`, `dataflow.carry`, `pipeline.stage`).
fn op_spellings() -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for def in OPS {
        for &(dialect, short) in def.names {
            if dialect == Dialect::Handshake {
                out.insert(short.to_string());
            }
            out.insert(format!("{}{short}", dialect.prefix()));
        }
    }
    out
}

const PREFIXES: [Dialect; 4] =
    [Dialect::Handshake, Dialect::Arith, Dialect::Dataflow, Dialect::Pipeline];

/// Why a literal names a table op, if it does.
fn names_an_op(value: &str, spellings: &BTreeSet<String>) -> Option<&'static str> {
    if spellings.contains(value) {
        return Some("an op's name");
    }
    // A name, a prefix or a name pattern: nothing but the first word of MLIR text.
    let is_name = !value.contains(char::is_whitespace);
    let prefixed = PREFIXES.iter().any(|d| value.starts_with(d.prefix()));
    if is_name && prefixed && !ATTRIBUTE_NAMES.contains(&value) {
        return Some("a name in an op dialect");
    }
    None
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every literal under `roots` that names a table op and is not allowed, as
/// `file:line: "literal" (why)`, and the allow-list entries nothing matched.
fn offenders(roots: &[&str]) -> (Vec<String>, Vec<String>) {
    let root = workspace_root();
    let spellings = op_spellings();
    let mut found = Vec::new();
    let mut used = BTreeSet::new();
    for dir in roots {
        let mut files = Vec::new();
        rust_files(&root.join(dir), &mut files);
        files.sort();
        for path in files {
            let relative = path.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            if relative == TABLE {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            for literal in string_literals(&text) {
                let Some(why) = names_an_op(&literal.value, &spellings) else { continue };
                let allowed = ALLOWED
                    .iter()
                    .position(|(file, value, _)| *file == relative && *value == literal.value);
                match allowed {
                    Some(index) => {
                        used.insert(index);
                    }
                    None => found
                        .push(format!("{relative}:{}: {:?} ({why})", literal.line, literal.value)),
                }
            }
        }
    }
    let stale = ALLOWED
        .iter()
        .enumerate()
        .filter(|(i, (file, ..))| {
            !used.contains(i) && roots.iter().any(|r| file.starts_with(&format!("{r}/")))
        })
        .map(|(_, (file, value, _))| format!("{file}: {value:?}"))
        .collect();
    (found, stale)
}

#[test]
fn no_op_names_outside_the_table() {
    let (found, stale) = offenders(ROOTS);
    assert!(
        found.is_empty() && stale.is_empty(),
        "op names outside analysis/src/ops.rs (match on `OpKind`, or read the table):\n{}\n\nallow-list entries that match nothing:\n{}",
        found.join("\n"),
        stale.join("\n")
    );
}

#[test]
fn the_scan_reads_rust_string_literals() {
    let source = r###"
        // "fork" in a comment
        /* "join" in a /* nested */ block comment */
        let a = "handshake.fork"; let q = '"'; let l: &'static str = "x\"y\n";
        let r = r#"raw "quoted" text"#; let b = b"bytes"; let e = "a\u{62}c";
        let c = "continued \
                 line";
        fn f<'a>(s: &'a str) -> char { '\'' }
        let last = "end";
    "###;
    let values: Vec<(usize, String)> =
        string_literals(source).into_iter().map(|l| (l.line, l.value)).collect();
    let expected = [
        (4, "handshake.fork"),
        (4, "x\"y\n"),
        (5, "raw \"quoted\" text"),
        (5, "bytes"),
        (5, "abc"),
        (6, "continued line"),
        (9, "end"),
    ];
    assert_eq!(values, expected.iter().map(|(l, v)| (*l, v.to_string())).collect::<Vec<_>>(),);
    let spellings = op_spellings();
    for name in ["fork", "handshake.fork", "arith.addi", "addi", "dataflow.carry", "end"] {
        assert!(names_an_op(name, &spellings).is_some(), "{name}");
    }
    for name in ["pipeline.stage", "pipeline.latency.return", "control_merge", "arith.select"] {
        assert!(names_an_op(name, &spellings).is_some(), "{name}");
    }
    for name in ["handshake.", "arith.{short}", "dataflow.loop"] {
        assert!(names_an_op(name, &spellings).is_some(), "{name}");
    }
    for text in ["handshake.name", "hw.module", "carry", "handshake.func @f() {}", "comb.add"] {
        assert!(names_an_op(text, &spellings).is_none(), "{text}");
    }
}

// ---- the table's entries ------------------------------------------------------------------

fn mlir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            mlir_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "mlir") {
            out.push(path);
        }
    }
}

/// The ops the fixtures of `test_data/` use, by kind, read from their syntax trees.
fn ops_in_fixtures() -> BTreeSet<OpKind> {
    use hsir_parser::ast::{AstNode, Op};
    let mut files = Vec::new();
    mlir_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data"), &mut files);
    let mut out = BTreeSet::new();
    for path in files {
        let (parse, _) = hsir_analysis::parse_bytes(&std::fs::read(&path).unwrap());
        for node in parse.root().descendants() {
            if let Some(kind) = Op::cast(node).and_then(|op| op.name()).and_then(OpKind::from_name)
            {
                out.insert(kind);
            }
        }
    }
    out
}

#[test]
fn every_op_is_documented_laid_out_and_used_by_a_fixture() {
    let used = ops_in_fixtures();
    let mut problems = Vec::new();
    for def in OPS {
        let kind = def.kind;
        if def.doc.trim().is_empty() {
            problems.push(format!("{kind:?} has no documentation"));
        }
        for era in def.eras {
            if !def.layouts.iter().any(|l| l.eras.contains(era)) {
                problems
                    .push(format!("{kind:?} exists in {} but has no layout there", era.label()));
            }
        }
        if !used.contains(&kind) {
            let (dialect, short) = def.names[0];
            problems.push(format!(
                "{kind:?} ({}{short}) is used by no fixture under analysis/test_data/",
                dialect.prefix()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The cases of `test_data/ops/` are per era: each function says which era it is written in,
/// in the comment above it (`// Dynamatic 2025: ...`), and hsir reads it in that era.
#[test]
fn op_fixtures_are_read_in_the_era_they_say() {
    use hsir_analysis::ops::Era;
    use hsir_analysis::{Database, FileId};
    let mut files = Vec::new();
    mlir_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/ops"), &mut files);
    files.sort();
    assert!(!files.is_empty());
    let mut problems = Vec::new();
    let mut db = Database::new();
    for (index, path) in files.iter().enumerate() {
        let file = FileId(index as u32);
        let text = std::fs::read_to_string(path).unwrap();
        db.set_text(file, text.clone());
        let analysis = db.analysis();
        for item in analysis.items(file) {
            let Some(typed) = item.typed else { continue };
            let start = usize::from(item.start);
            // The comment lines right above the function, annotations aside.
            let comment: Vec<&str> = text[..start]
                .lines()
                .rev()
                .skip_while(|l| l.trim().is_empty())
                .take_while(|l| l.starts_with("//") && !l.starts_with("// -----"))
                .filter(|l| !l.contains("expected-"))
                .collect();
            let said = comment.last().and_then(|first| {
                Era::ALL.into_iter().find(|era| first.starts_with(&format!("// {}", era.label())))
            });
            let line = text[..start].lines().count() + 1;
            match said {
                None => problems.push(format!(
                    "{}:{line}: the comment above the function does not start with its era",
                    path.display()
                )),
                Some(era) if era != typed.era => problems.push(format!(
                    "{}:{line}: says {} but is read as {}",
                    path.display(),
                    era.label(),
                    typed.era.label()
                )),
                Some(_) => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
