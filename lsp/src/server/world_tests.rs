//! Incremental equals fresh: random edits (multi-byte characters, combining accents, CRLF
//! line ends, edits across lines and at line ends, deletions) go through `World::change`, the
//! code `didChange` runs, and after each batch the published diagnostics, hovers and the
//! document outline equal those of a fresh world opened on the same text.

use tower_lsp_server::ls_types as lsp;

use super::{Change, World};
use crate::position::{Encoding, Pos};
use crate::server::{features, proto};

#[path = "../../../test-support/rng.rs"]
mod rng;
use rng::Rng;

const URI: &str = "file:///incremental.mlir";

/// The LSP position of a byte offset, counted here without the server's line index.
fn position(text: &str, offset: usize, encoding: Encoding) -> Pos {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character = match encoding {
        Encoding::Utf16 => before[line_start..].chars().map(char::len_utf16).sum(),
        Encoding::Utf8 => before.len() - line_start,
    };
    Pos { line: line as u32, character: character as u32 }
}

/// Whether `at` is a char boundary of `text` that does not split a CRLF (LSP has no position
/// between them).
fn valid(text: &str, at: usize) -> bool {
    text.is_char_boundary(at)
        && !(at > 0 && text.as_bytes()[at - 1] == b'\r' && text[at..].starts_with('\n'))
}

/// A random valid position in `text`.
fn boundary(text: &str, rng: &mut Rng) -> usize {
    let mut at = rng.below(text.len() + 1);
    while !valid(text, at) {
        at -= 1;
    }
    at
}

/// Pieces an edit inserts: multi-byte characters, a combining accent, line ends, and IR.
const PIECES: &[&str] = &[
    "\u{e9}",
    "\u{1f600}",
    "e\u{301}",
    "\r\n",
    "\n",
    " ",
    "%x",
    "{",
    "}",
    "<",
    ">",
    "[",
    "]",
    ":",
    "=",
    "\"",
    "#",
    "// \u{e9}\u{1f600}\n",
    "{a = \u{1f600}}",
    "%v = fork [2] %a : <i32>\n",
    "handshake.func @g(%a: i32) -> (i32) {\n  end %a : i32\n}\n",
    "%r = \"t.op\"() {attr = \"\u{e9}\"} : () -> i32\n",
    "  sink %x : <i32>\r\n",
];

/// One random edit of `text`: its range and its new text.
fn random_edit(text: &str, rng: &mut Rng) -> (usize, usize, String) {
    let start = boundary(text, rng);
    let end = match rng.below(6) {
        // An insertion.
        0..=2 => start,
        // A deletion within a few characters, or to the end of the line.
        3 => {
            let mut end = start;
            for _ in 0..=rng.below(4) {
                match text[end..].chars().next() {
                    Some('\r') if text[end..].starts_with("\r\n") => end += 2,
                    Some(c) => end += c.len_utf8(),
                    None => break,
                }
            }
            end
        }
        4 => start + text[start..].find('\n').map_or(text.len() - start, |i| i),
        // Across lines.
        _ => {
            let limit = (start + 200).min(text.len());
            let mut end = start + rng.below(limit - start + 1);
            while !valid(text, end) {
                end -= 1;
            }
            end.max(start)
        }
    };
    let mut new_text = String::new();
    if rng.below(3) > 0 || start == end {
        for _ in 0..=rng.below(3) {
            new_text.push_str(PIECES[rng.below(PIECES.len())]);
        }
    }
    (start, end, new_text)
}

fn new_world(encoding: Encoding) -> World {
    World::new(encoding, proto::DiagnosticOptions { related: true, ..Default::default() })
}

/// The last diagnostics `world` published for the document, as JSON.
fn published(world: &mut World, last: &mut Option<serde_json::Value>) -> serde_json::Value {
    for body in world.take_publishes() {
        *last = Some(serde_json::from_slice(&body).expect("a publish is JSON"));
    }
    last.clone().expect("diagnostics were published")
}

fn document() -> lsp::TextDocumentIdentifier {
    lsp::TextDocumentIdentifier { uri: proto::uri(URI).expect("a URI") }
}

/// Hovers at `positions` and the outline, as JSON.
fn answers(world: &mut World, positions: &[Pos]) -> serde_json::Value {
    let hovers: Vec<_> = positions
        .iter()
        .map(|&p| {
            features::hover(
                world,
                lsp::HoverParams {
                    text_document_position_params: lsp::TextDocumentPositionParams {
                        text_document: document(),
                        position: proto::pos_out(p),
                    },
                    work_done_progress_params: Default::default(),
                },
            )
        })
        .collect();
    let symbols = features::document_symbols(
        world,
        lsp::DocumentSymbolParams {
            text_document: document(),
            work_done_progress_params: Default::default(),
            partial_result_params: Default::default(),
        },
    );
    serde_json::json!({"hovers": hovers, "symbols": symbols})
}

/// Applies `edits` random edits to `base` through `World::change`, comparing with a fresh
/// world every `every` edits and at the end.
fn run(seed: u64, base: &str, edits: usize, every: usize, encoding: Encoding) {
    let mut rng = Rng(seed);
    let mut world = new_world(encoding);
    world.open(URI.to_string(), 0, base.to_string());
    let mut text = base.to_string();
    let mut last = None;
    published(&mut world, &mut last);
    let mut version = 0;
    let mut done = 0;
    while done < edits {
        // A didChange carries one to three changes, each in the text the one before made.
        let mut changes = Vec::new();
        for _ in 0..=rng.below(3).min(edits - done - 1) {
            let (start, end, new_text) = random_edit(&text, &mut rng);
            let range = (position(&text, start, encoding), position(&text, end, encoding));
            text.replace_range(start..end, &new_text);
            changes.push(Change { range: Some(range), text: new_text });
            done += 1;
        }
        version += 1;
        world.change(URI.to_string(), version, changes);
        let file = world.docs[URI].file;
        assert_eq!(world.db.text(file), Some(text.as_str()), "seed {seed}, after {done} edits");
        assert!(world.messages.is_empty(), "seed {seed}: {:?}", world.messages);
        if done % every != 0 && done < edits {
            continue;
        }
        let incremental = published(&mut world, &mut last);
        let mut fresh = new_world(encoding);
        fresh.open(URI.to_string(), version, text.clone());
        let expected = published(&mut fresh, &mut None);
        if incremental != expected {
            let list = |v: &serde_json::Value| v["params"]["diagnostics"].as_array().cloned();
            let (a, b) =
                (list(&incremental).unwrap_or_default(), list(&expected).unwrap_or_default());
            let only = |x: &[serde_json::Value], y: &[serde_json::Value]| {
                x.iter().filter(|d| !y.contains(d)).map(|d| d.to_string()).collect::<Vec<_>>()
            };
            panic!(
                "seed {seed}: diagnostics after {done} edits differ from a fresh analysis;\n\
                 only incremental: {:#?}\nonly fresh: {:#?}\ntext:\n{text}",
                only(&a, &b),
                only(&b, &a)
            );
        }
        let positions: Vec<Pos> =
            (0..6).map(|_| position(&text, boundary(&text, &mut rng), encoding)).collect();
        assert_eq!(
            answers(&mut world, &positions),
            answers(&mut fresh, &positions),
            "seed {seed}: hovers or outline after {done} edits differ at {positions:?} in:\n{text}"
        );
    }
}

const LOOP_KERNEL: &str = include_str!("../../../backend/test_data/designs/loop_kernel.mlir");
const LSQ: &str = include_str!("../../../backend/test_data/designs/lsq.mlir");

#[test]
fn random_edits_analyse_as_a_fresh_open_of_the_text() {
    for seed in 1..=6 {
        run(seed * 0x9e37_79b9, LOOP_KERNEL, 300, 5, Encoding::Utf16);
    }
    run(7 * 0x9e37_79b9, LSQ, 300, 10, Encoding::Utf8);
}

#[test]
fn random_edits_with_crlf_line_ends() {
    let crlf = LSQ.replace('\n', "\r\n");
    for seed in 11..=13 {
        run(seed * 0x9e37_79b9, &crlf, 300, 10, Encoding::Utf16);
    }
}

/// The soak's length: 1,500 edits in a row, compared every 50.
#[test]
fn fifteen_hundred_edits_in_a_row() {
    run(0x5eed, LOOP_KERNEL, 1500, 50, Encoding::Utf16);
}

/// Replays `edits` (byte ranges of the text each makes, and new texts) through
/// `World::change` and compares with a fresh world after each.
fn replay(base: &str, edits: &[(usize, usize, &str)]) {
    let mut world = new_world(Encoding::Utf16);
    world.open(URI.to_string(), 0, base.to_string());
    let mut text = base.to_string();
    let mut last = None;
    published(&mut world, &mut last);
    for (version, &(start, end, new_text)) in (1..).zip(edits) {
        let range =
            (position(&text, start, Encoding::Utf16), position(&text, end, Encoding::Utf16));
        text.replace_range(start..end, new_text);
        world.change(
            URI.to_string(),
            version,
            vec![Change { range: Some(range), text: new_text.to_string() }],
        );
        let mut fresh = new_world(Encoding::Utf16);
        fresh.open(URI.to_string(), version, text.clone());
        assert_eq!(
            published(&mut world, &mut last),
            published(&mut fresh, &mut None),
            "after edit {version}, the text:\n{text}"
        );
    }
}

/// Found by the random edits: a function that loses its signature is reported at the next
/// token, inside the next item (`end ...`), whose text did not change: the item kept what it
/// reported before instead.
#[test]
fn an_error_that_lands_in_the_next_item_is_reported_there() {
    let base = "handshake.func @f() {\n}\n%r = \"t.op\"() {a = \u{1f600}} : () -> i32\n";
    let cut = base.find(" @f").unwrap();
    replay(base, &[(cut, cut + " @f() {\n}".len(), ""), (cut, cut, " @f() {\n}")]);
}

/// Found by the random edits: with CRLF line ends, an unterminated string that ends an item
/// runs on to the `\r` after the item, so the item's text alone does not say what it holds.
#[test]
fn an_unterminated_string_at_the_end_of_an_item_before_a_crlf() {
    let base = "%r = \"t.op\"() : () -> i32 \"k\"\r\n%q = \"t.\u{e9}\"() : () -> i32\r\n";
    let quote = base.find("\"k").unwrap();
    replay(base, &[(quote, quote + 1, ""), (quote, quote, "\"")]);
}

/// Found by the random edits (seed 124 of `sweep`): an unclosed `<` between items swallows
/// the items after it, so an item after it that parses alone is not an item of the file.
#[test]
fn an_unclosed_bracket_between_items_swallows_the_items_after_it() {
    run(124 * 0x9e37_79b9, LSQ, 1500, 10, Encoding::Utf16);
}
