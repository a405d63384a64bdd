//! Property tests: for any input the tree's text is the input and the parser does not panic.

use proptest::prelude::*;

fn check(text: &str) {
    let parsed = hsir_parser::parse(text);
    assert_eq!(parsed.tree().rebuild_text(), text);
    // The parse path lexes on its own (and re-splits trivia from the gaps between grammar
    // tokens); its tokens must be the public lexer's, kind for kind.
    let from_tree: Vec<(hsir_parser::SyntaxKind, u32)> =
        parsed.root().tokens().map(|t| (t.kind(), u32::from(t.text_range().start()))).collect();
    let from_lexer: Vec<(hsir_parser::SyntaxKind, u32)> =
        hsir_parser::lex(text).iter().map(|t| (t.kind, t.start)).collect();
    assert_eq!(from_tree, from_lexer);
    // The automaton reads bytes: no token may start inside a character.
    for (_, start) in &from_lexer {
        assert!(text.is_char_boundary(*start as usize), "{text:?} at {start}");
    }
    check_structure(&parsed);
    // Two threads build the same tree and errors as one.
    let one = hsir_parser::ParseOptions { threads: 1, parallel_min_bytes: 0, ..Default::default() };
    let two = hsir_parser::ParseOptions { threads: 2, parallel_min_bytes: 0, ..Default::default() };
    let single = hsir_parser::parse_with(text, one);
    let parallel = hsir_parser::parse_with(text, two);
    assert_eq!(format!("{:#?}", single.root()), format!("{:#?}", parallel.root()));
    assert_eq!(single.errors(), parallel.errors());
    // The hand-written path for everyday statements builds what the combinators build.
    let general = hsir_parser::ParseOptions { hand_parsed_statements: false, ..one };
    let general = hsir_parser::parse_with(text, general);
    assert_eq!(format!("{:#?}", single.root()), format!("{:#?}", general.root()), "{text:?}");
    assert_eq!(single.errors(), general.errors(), "{text:?}");
    for error in parsed.errors() {
        // The grammar is total: its fallback for a failed parse must never be needed.
        assert!(!error.message.contains("internal parser error"), "{text:?}");
        assert!(usize::from(error.range.end()) <= text.len());
        assert!(text.is_char_boundary(error.range.start().into()));
        assert!(text.is_char_boundary(error.range.end().into()));
    }
}

/// The tree's shape: each node's children tile its range and name it as their parent, and the
/// token queries (`token_at_offset`, `next_token`, `prev_token`) agree with the walk.
fn check_structure(parsed: &hsir_parser::Parse) {
    use hsir_parser::{SyntaxElement, TextSize};
    let root = parsed.root();
    for node in root.descendants() {
        let range = node.text_range();
        let mut at = range.start();
        for child in node.children_with_tokens() {
            let child_range = child.text_range();
            assert_eq!(child_range.start(), at, "{node:?}: gap or overlap before {child:?}");
            at = child_range.end();
            let parent = match child {
                SyntaxElement::Node(n) => n.parent().unwrap(),
                SyntaxElement::Token(t) => t.parent(),
            };
            assert_eq!(parent, node);
        }
        assert_eq!(at, range.end(), "{node:?}: children end early");
        // The grammar-only walks are the full ones with trivia left out.
        let without_trivia: Vec<_> =
            node.children_with_tokens().filter(|c| !c.kind().is_trivia()).collect();
        assert_eq!(node.grammar_children().collect::<Vec<_>>(), without_trivia, "{node:?}");
        assert_eq!(node.first_grammar_token(), node.first_token(), "{node:?}");
        assert_eq!(node.last_grammar_token(), node.last_token(), "{node:?}");
        let below: Vec<_> = node.descendants().skip(1).map(|n| n.index()).collect();
        assert_eq!(below, (node.index() + 1..node.subtree_end()).collect::<Vec<_>>());
    }
    let tokens: Vec<_> = root.tokens().collect();
    for (i, token) in tokens.iter().enumerate() {
        let found = root.token_at_offset(token.text_range().start()).unwrap();
        assert_eq!(found, *token);
        assert_eq!(found.parent(), token.parent(), "{token:?}");
        assert_eq!(token.next_token(), tokens.get(i + 1).copied());
        assert_eq!(token.prev_token(), i.checked_sub(1).map(|p| tokens[p]));
    }
    let end = TextSize::of(parsed.tree().text());
    assert_eq!(root.token_at_offset(end), tokens.last().copied());
}

#[path = "../../test-support/shared.rs"]
mod shared;

/// The corpus's texts, read once; empty (and said so) without the corpus.
fn corpus_texts() -> &'static [String] {
    static TEXTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    TEXTS.get_or_init(|| {
        let mut texts = Vec::new();
        for dialect in ["corpus/circt", "corpus/dynamatic"] {
            let Some(paths) = shared::mlir_files(dialect) else { return Vec::new() };
            texts.extend(paths.iter().map(|p| std::fs::read_to_string(p).unwrap()));
        }
        texts
    })
}

/// One random edit: delete, insert or replace a span of bytes. Works on bytes, then decodes at
/// the edge as the CLI and the server do, so edits may split UTF-8 sequences.
#[derive(Debug, Clone)]
enum Edit {
    Delete { at: usize, len: usize },
    Insert { at: usize, bytes: Vec<u8> },
    Replace { at: usize, bytes: Vec<u8> },
}

fn edit_strategy() -> impl Strategy<Value = Edit> {
    let mlir_bytes = prop::collection::vec(
        prop::sample::select(b"%^@#!(){}[]<>,:=->.\"\\ \n\tabcx0123456789/-*?|".to_vec()),
        1..12,
    );
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(at, len)| Edit::Delete { at, len }),
        (any::<usize>(), mlir_bytes.clone()).prop_map(|(at, bytes)| Edit::Insert { at, bytes }),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Edit::Replace { at, bytes }),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for edit in edits {
        let n = bytes.len().max(1);
        match edit {
            Edit::Delete { at, len } => {
                let at = at % n;
                let end = (at + len).min(bytes.len());
                if at < end {
                    bytes.drain(at..end);
                }
            }
            Edit::Insert { at, bytes: new } => {
                let at = at % (bytes.len() + 1);
                bytes.splice(at..at, new.iter().copied());
            }
            Edit::Replace { at, bytes: new } => {
                let at = at % n;
                let end = (at + new.len()).min(bytes.len());
                bytes.splice(at..end, new.iter().copied());
            }
        }
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_roundtrip(text in any::<String>()) {
        check(&text);
    }

    #[test]
    fn mlir_alphabet_strings_roundtrip(text in "[%^@#!(){}\\[\\]<>,:=\\-.\"\\\\ \n\ta-z0-9_/]{0,200}") {
        check(&text);
    }

    /// Characters of several bytes next to every kind of token, in strings, comments and
    /// symbols, and where no token may hold them.
    #[test]
    fn mlir_alphabet_with_wide_characters_roundtrip(text in "[%^@#!(){}\\[\\]<>,:=\\-.\"\\\\ \n\ta-z0-9_/é€✓😀]{0,200}") {
        check(&text);
    }

    #[test]
    fn arbitrary_bytes_decode_then_roundtrip(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        let (text, error) = hsir_parser::decode(&bytes);
        prop_assert_eq!(error.is_some(), std::str::from_utf8(&bytes).is_err());
        if error.is_none() {
            prop_assert_eq!(text.as_bytes(), &bytes[..]);
        }
        check(&text);
    }
}

/// Lines made of the words everyday statements are made of, and of the ones that make the
/// general grammar decide differently (regions, keyword groups, `->`, `to`, `loc`, labels,
/// function names, line breaks inside groups, `%i =` and `in` after an op name), in random
/// order.
fn statement_lines() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "%a",
        "%b",
        "%r:2",
        "%c#1",
        "=",
        "=",
        ",",
        ",",
        ":",
        ":",
        "i32",
        "none",
        "i1",
        "control",
        "<",
        ">",
        "[",
        "]",
        "(",
        ")",
        "{",
        "}",
        "->",
        "to",
        "fork",
        "mux",
        "\"d.op\"",
        "value",
        "1",
        "-",
        "2.5",
        "true",
        "\"s\"",
        "loc",
        "^bb1",
        "@f",
        "!t.x",
        "#a",
        "handshake.func",
        "module",
        "fifo",
        "attributes",
        "scf.for",
        "in",
        "do",
        "\n",
        "// note\n",
    ]);
    let line = prop::collection::vec(word, 0..16).prop_map(|words| words.join(" "));
    let start = prop::sample::select(vec!["", "%0 = op ", "%0, %1 = op ", "op ", "%0:2 = "]);
    let statement = (start, line).prop_map(|(start, line)| format!("  {start}{line}"));
    (prop::collection::vec(statement, 1..8), any::<bool>()).prop_map(|(lines, in_function)| {
        let body = lines.join("\n");
        if in_function {
            format!("handshake.func @f(%x: i32) {{\n{body}\n}}\n")
        } else {
            body
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn statement_shaped_lines_roundtrip(text in statement_lines()) {
        check(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn edited_corpus_files_roundtrip(
        file in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit_strategy(), 1..6),
    ) {
        let texts = corpus_texts();
        if texts.is_empty() {
            return Ok(());
        }
        let original = file.get(texts);
        let bytes = apply(original, &edits);
        let (text, _) = hsir_parser::decode(&bytes);
        check(&text);
    }
}
