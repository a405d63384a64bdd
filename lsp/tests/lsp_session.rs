//! Whole editor sessions against the built server: initialize, open, diagnostics, then every
//! feature at positions found in the file, rendered to one readable transcript per file.
//!
//! The positions come from the text (the first buffer, the first fork, the first operand), so
//! the same driver runs on fixtures and on corpus files.

mod common;

use std::fmt::Write;

use common::{repo_file, uri, Client};
use serde_json::{json, Value};

/// The LSP position (UTF-16) of a byte offset.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": before[start..].encode_utf16().count()})
}

fn show_range(r: &Value) -> String {
    format!(
        "{}:{}-{}:{}",
        r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"]
    )
}

/// The offset of the first `needle` on a line holding an op (`... = ...`) outside comments.
fn find_in_op(text: &str, needle: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let code = line.split("//").next().unwrap_or("");
        if let Some(eq) = code.find(" = ") {
            if let Some(i) = code[eq..].find(needle) {
                return Some(at + eq + i);
            }
        }
        at += line.len();
    }
    None
}

/// The first operand: the first `%` after an op's `=`.
fn first_operand(text: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let code = line.split("//").next().unwrap_or("");
        if let Some(eq) = code.find(" = ") {
            if let Some(i) = code[eq..].find('%') {
                return Some(at + eq + i + 1);
            }
        }
        at += line.len();
    }
    None
}

fn hover(client: &mut Client, doc: &str, text: &str, offset: usize, out: &mut String, what: &str) {
    let result = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": position(text, offset)}),
    );
    let value = result["contents"]["value"].as_str().unwrap_or("(none)");
    writeln!(out, "## hover on {what}\n{value}\n").unwrap();
}

fn session(path: &str) -> String {
    session_of(path, &repo_file(path))
}

/// The session on `text`, headed by `path`.
fn session_of(path: &str, text: &str) -> String {
    let text = text.to_string();
    let doc = uri("doc.mlir");
    let (mut client, init) = Client::initialized(Value::Null);
    let mut out = String::new();
    let caps = &init["capabilities"];
    let mut names: Vec<&String> = caps.as_object().map(|o| o.keys().collect()).unwrap_or_default();
    names.sort();
    writeln!(
        out,
        "# {path}\ncapabilities: {}\n",
        names.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
    )
    .unwrap();

    client.open(&doc, &text);
    let published = client.diagnostics(&doc, Some(0));
    let diagnostics = published["diagnostics"].as_array().cloned().unwrap_or_default();
    writeln!(out, "## diagnostics ({})", diagnostics.len()).unwrap();
    for d in diagnostics.iter().take(12) {
        writeln!(
            out,
            "{} {} [{}] {} (related: {}, docs: {})",
            show_range(&d["range"]),
            d["code"].as_str().unwrap_or("?"),
            d["severity"],
            d["message"].as_str().unwrap_or(""),
            d["relatedInformation"].as_array().map_or(0, Vec::len),
            d["codeDescription"]["href"].as_str().map_or("none", |h| {
                if h.ends_with(&format!("{}.md", d["code"].as_str().unwrap_or("-"))) {
                    "yes"
                } else {
                    "WRONG"
                }
            }),
        )
        .unwrap();
    }
    out.push('\n');

    if let Some(at) = find_in_op(&text, "%") {
        hover(&mut client, &doc, &text, at + 1, &mut out, "the first result");
    }
    if let Some(at) = find_in_op(&text, "buffer") {
        hover(&mut client, &doc, &text, at, &mut out, "the first buffer");
    }
    if let Some(at) = find_in_op(&text, "fork") {
        hover(&mut client, &doc, &text, at, &mut out, "the first fork");
    }

    if let Some(at) = first_operand(&text) {
        let here = json!({"textDocument": {"uri": doc}, "position": position(&text, at)});
        let def = client.request("textDocument/definition", here.clone());
        let targets: Vec<String> = def
            .as_array()
            .into_iter()
            .flatten()
            .map(|t| show_range(&t["targetSelectionRange"]))
            .collect();
        writeln!(
            out,
            "## definition of the first operand at {}\n{}\n",
            show_range(&json!({"start": position(&text, at), "end": position(&text, at)})),
            targets.join(", ")
        )
        .unwrap();

        let mut refs = here.clone();
        refs["context"] = json!({"includeDeclaration": true});
        let found = client.request("textDocument/references", refs);
        let found: Vec<String> =
            found.as_array().into_iter().flatten().map(|l| show_range(&l["range"])).collect();
        writeln!(out, "## references\n{}\n", found.join(", ")).unwrap();

        let prepared = client.request("textDocument/prepareRename", here.clone());
        let mut rename = here.clone();
        rename["newName"] = json!("renamed");
        let edit = client.request("textDocument/rename", rename);
        let edits: Vec<String> = edit["changes"][doc.as_str()]
            .as_array()
            .into_iter()
            .flatten()
            .map(|e| {
                format!("{} -> {}", show_range(&e["range"]), e["newText"].as_str().unwrap_or(""))
            })
            .collect();
        writeln!(out, "## rename (prepared {})\n{}\n", show_range(&prepared), edits.join(", "))
            .unwrap();

        let highlights = client.request("textDocument/documentHighlight", here.clone());
        let highlights: Vec<String> = highlights
            .as_array()
            .into_iter()
            .flatten()
            .map(|h| {
                format!(
                    "{} {}",
                    show_range(&h["range"]),
                    if h["kind"] == 3 { "write" } else { "read" }
                )
            })
            .collect();
        writeln!(out, "## highlight\n{}\n", highlights.join(", ")).unwrap();

        let help = client.request("textDocument/signatureHelp", here.clone());
        let signature = &help["signatures"][0];
        let active = help["activeParameter"]
            .as_u64()
            .and_then(|i| signature["parameters"][i as usize]["label"].as_array().cloned());
        let label = signature["label"].as_str().unwrap_or("(none)");
        let active = active.map_or("-".to_string(), |r| {
            let (a, b) = (r[0].as_u64().unwrap() as usize, r[1].as_u64().unwrap() as usize);
            label
                .encode_utf16()
                .skip(a)
                .take(b - a)
                .map(|u| char::from_u32(u as u32).unwrap_or('?'))
                .collect()
        });
        writeln!(out, "## signature help\n{label}\nactive: {active}\n").unwrap();

        let completion = client.request("textDocument/completion", here);
        let labels: Vec<String> = completion
            .as_array()
            .into_iter()
            .flatten()
            .take(8)
            .map(|c| {
                format!(
                    "{} ({})",
                    c["label"].as_str().unwrap_or(""),
                    c["detail"].as_str().unwrap_or("-")
                )
            })
            .collect();
        writeln!(out, "## completion at the first operand (first 8)\n{}\n", labels.join("\n"))
            .unwrap();
    }

    let tokens =
        client.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": doc}}));
    let data = tokens["data"].as_array().cloned().unwrap_or_default();
    let legend = &caps["semanticTokensProvider"]["legend"]["tokenTypes"];
    let (mut line, mut col) = (0u64, 0u64);
    let mut rendered = Vec::new();
    for t in data.chunks(5).take(16) {
        let (dl, ds, len, ty) = (
            t[0].as_u64().unwrap(),
            t[1].as_u64().unwrap(),
            t[2].as_u64().unwrap(),
            t[3].as_u64().unwrap(),
        );
        if dl > 0 {
            line += dl;
            col = ds
        } else {
            col += ds
        }
        let l = text.lines().nth(line as usize).unwrap_or("");
        let word: String = l
            .encode_utf16()
            .skip(col as usize)
            .take(len as usize)
            .map(|u| char::from_u32(u as u32).unwrap_or('?'))
            .collect();
        rendered.push(format!(
            "{line}:{col} {word:?} {}{}",
            legend[ty as usize].as_str().unwrap_or("?"),
            if t[4].as_u64() != Some(0) { format!(" +{}", t[4]) } else { String::new() }
        ));
    }
    writeln!(
        out,
        "## semantic tokens ({} in all, first 16)\n{}\n",
        data.len() / 5,
        rendered.join("\n")
    )
    .unwrap();

    let lines = text.lines().count();
    let hints = client.request(
        "textDocument/inlayHint",
        json!({
            "textDocument": {"uri": doc},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}},
        }),
    );
    let hints: Vec<String> = hints
        .as_array()
        .into_iter()
        .flatten()
        .take(10)
        .map(|h| {
            format!(
                "{}:{} {}",
                h["position"]["line"],
                h["position"]["character"],
                h["label"].as_str().unwrap_or("")
            )
        })
        .collect();
    writeln!(out, "## inlay hints (first 10)\n{}\n", hints.join("\n")).unwrap();

    let symbols =
        client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": doc}}));
    let symbols: Vec<String> = symbols
        .as_array()
        .into_iter()
        .flatten()
        .take(6)
        .map(|s| {
            format!(
                "{} [{}] {} children",
                s["name"].as_str().unwrap_or(""),
                s["detail"].as_str().unwrap_or("-"),
                s["children"].as_array().map_or(0, Vec::len)
            )
        })
        .collect();
    writeln!(out, "## document symbols (first 6)\n{}\n", symbols.join("\n")).unwrap();

    let options = json!({"tabSize": 2, "insertSpaces": true});
    let edits = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": doc}, "options": options}),
    );
    let edits = edits.as_array().cloned().unwrap_or_default();
    let formatted = apply(&text, &edits);
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": doc, "version": 1}, "contentChanges": [{"text": formatted}],
        }),
    );
    let again = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": doc}, "options": options}),
    );
    let reformatted = client.diagnostics(&doc, Some(1));
    writeln!(
        out,
        "## formatting\n{} edits; formatting the result again: {} edits; diagnostics before {}, after {}\n",
        edits.len(),
        again.as_array().map_or(0, Vec::len),
        diagnostics.len(),
        reformatted["diagnostics"].as_array().map_or(0, Vec::len),
    )
    .unwrap();
    client.notify(
        "textDocument/didChange",
        json!({
            "textDocument": {"uri": doc, "version": 2}, "contentChanges": [{"text": text}],
        }),
    );
    client.diagnostics(&doc, Some(2));

    let mut actions = Vec::new();
    for d in &diagnostics {
        let found = client.request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": doc}, "range": d["range"], "context": {"diagnostics": [d]},
            }),
        );
        for a in found.as_array().into_iter().flatten() {
            let edits = a["edit"]["changes"][doc.as_str()].as_array().map_or(0, Vec::len);
            actions.push(format!(
                "{}: {} ({} edits)",
                d["code"].as_str().unwrap_or("?"),
                a["title"].as_str().unwrap_or(""),
                edits
            ));
        }
    }
    actions.dedup();
    writeln!(out, "## code actions\n{}", actions.join("\n")).unwrap();
    client.shutdown();
    out
}

/// Applies LSP text edits (UTF-16 positions, non-overlapping) to `text`.
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| -> usize {
        let line = p["line"].as_u64().unwrap() as usize;
        let character = p["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let line_text = text[start..].split('\n').next().unwrap_or("");
        let mut units = 0;
        for (i, c) in line_text.char_indices() {
            if units >= character {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line_text.len()
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (start, end, new) in spans {
        out.replace_range(start..end, new);
    }
    out
}

fn check(path: &str, snapshot: &str) {
    let actual = session(path);
    expect_test::expect_file![format!(
        "{}/tests/snapshots/session/{snapshot}",
        env!("CARGO_MANIFEST_DIR")
    )]
    .assert_eq(&actual);
}

#[test]
fn circt_buffers_fixture() {
    check("analysis/test_data/diagnostics/HS2005_buffer_timing_mismatch.mlir", "hs2005.txt");
}

#[test]
fn loop_kernel_with_the_raw_will_continue_bug() {
    check("analysis/test_data/diagnostics/loop_kernel_raw_bug.mlir", "loop_kernel_raw_bug.txt");
}

/// As `check`, on a file of the shared data (`rel` under it), headed `../shared/<rel>` wherever
/// the data is; skipped without it.
fn check_shared(rel: &str, snapshot: &str) {
    let Some(path) = common::shared::path(rel) else { return };
    let text = std::fs::read_to_string(path).unwrap();
    let actual = session_of(&format!("../shared/{rel}"), &text);
    expect_test::expect_file![format!(
        "{}/tests/snapshots/session/{snapshot}",
        env!("CARGO_MANIFEST_DIR")
    )]
    .assert_eq(&actual);
}

#[test]
fn dynamatic_corpus_gaussian() {
    check_shared("corpus/dynamatic/gaussian-4-2__handshake_buffered.mlir", "gaussian.txt");
}

#[test]
fn circt_corpus_insert_buffer_all() {
    check_shared("corpus/circt/Dialect-Handshake__insert-buffer-all.mlir", "insert_buffer_all.txt");
}
