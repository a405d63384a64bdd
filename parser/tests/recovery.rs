//! Error recovery: a broken function does not disturb the functions after it, closers are never
//! stolen, and hostile nesting neither overflows the stack nor hangs.

use hsir_parser::{parse, SyntaxKind, SyntaxNode};

/// Kinds and texts of a subtree, without offsets, so that equal structure at different places
/// compares equal.
fn shape(node: SyntaxNode<'_>) -> String {
    let mut out = String::new();
    let base = node.ancestors().count();
    for element in node.descendants_with_tokens() {
        let depth = match element {
            hsir_parser::SyntaxElement::Node(n) => n.ancestors().count(),
            hsir_parser::SyntaxElement::Token(t) => t.parent().ancestors().count() + 1,
        } - base;
        out.push_str(&format!("{}{:?}", " ".repeat(depth), element.kind()));
        if let hsir_parser::SyntaxElement::Token(t) = element {
            out.push_str(&format!(" {:?}", t.text()));
        }
        out.push('\n');
    }
    out
}

fn functions(node: SyntaxNode<'_>) -> Vec<SyntaxNode<'_>> {
    node.descendants()
        .filter(|n| {
            n.kind() == SyntaxKind::OP
                && n.children().any(|c| c.kind() == SyntaxKind::FUNC_SIGNATURE)
        })
        .collect()
}

const HEALTHY: [&str; 3] = [
    "handshake.func @two(%a: i32, %c: none) -> (i32, none) {\n  %0:2 = fork [2] %a : i32\n  %1 = join %0#1 : i32\n  return %0#0, %1 : i32, none\n}\n",
    "handshake.func @three(%a: <i32>) -> <i32> {\n  %0 = buffer %a, bufferType = FIFO_BREAK_DV, numSlots = 2 : <i32>\n  end %0 : <i32>\n}\n",
    "func.func @four(%x: i32) -> i32 {\n  %y = arith.addi %x, %x : i32\n  return %y : i32\n}\n",
];

/// Ways to break the first function, each of which must leave the others intact.
const BREAKAGES: [&str; 7] = [
    // Body never closed.
    "handshake.func @one(%a: i32) -> i32 {\n  %0 = join %a : i32\n  return %a : i32\n\n",
    // Unclosed parenthesis inside an op.
    "handshake.func @one(%a: i32) -> i32 {\n  %0 = \"t.op\"(%a : (i32) -> i32\n  return %0 : i32\n}\n",
    // Unclosed bracket and brace inside an op.
    "handshake.func @one(%a: i32) -> i32 {\n  %0 = fork [2 %a {x = [1, : i32\n  return %0 : i32\n}\n",
    // Junk lines and a missing op name.
    "handshake.func @one(%a: i32) -> i32 {\n  ) ] : = ;;\n  %0 =\n  return %a : i32\n}\n",
    // An inner region never closed.
    "func.func @one(%c: i1) {\n  scf.if %c {\n    scf.yield\n  return\n}\n",
    // A broken signature.
    "handshake.func @one(%a i32 -> {\n  return\n}\n",
    // An unterminated string.
    "func.func @one() {\n  %0 = \"t.op\"() {s = \"open} : () -> i32\n  return\n}\n",
];

#[test]
fn an_error_in_function_one_leaves_functions_two_to_n_intact() {
    let healthy_text: String = HEALTHY.concat();
    let healthy = parse(healthy_text.clone());
    assert!(healthy.errors().is_empty(), "{:#?}", healthy.errors());
    let expected: Vec<String> = functions(healthy.root()).iter().map(|f| shape(*f)).collect();
    assert_eq!(expected.len(), HEALTHY.len());

    for broken in BREAKAGES {
        for wrapped in [false, true] {
            let text = if wrapped {
                format!("module {{\n{broken}{healthy_text}}}\n")
            } else {
                format!("{broken}{healthy_text}")
            };
            let parsed = parse(text.clone());
            assert_eq!(parsed.tree().rebuild_text(), text);
            assert!(!parsed.errors().is_empty(), "no error for:\n{text}");
            let found: Vec<String> = functions(parsed.root())
                .iter()
                .filter(|f| !f.text().contains("@one"))
                .map(|f| shape(*f))
                .collect();
            assert_eq!(found, expected, "functions 2..N changed when function 1 was:\n{broken}");
        }
    }
}

#[test]
fn recovery_never_consumes_a_closer_it_does_not_own() {
    // The `)` and `]` close the groups of the generic op; the inner `{` is left unclosed and
    // must not take them.
    let text = "%0 = \"t.op\"() ({\n  %1 = \"t.inner\"() : () -> i32\n}) [^bb1] : () -> ()\n";
    let parsed = parse(text);
    assert!(parsed.errors().is_empty(), "{:#?}", parsed.errors());
    let text = "%0 = \"t.op\"() ({\n  %1 = \"t.inner\"() : () -> i32\n) : () -> ()\n";
    let parsed = parse(text);
    let paren_groups: Vec<_> = parsed
        .root()
        .descendants()
        .filter(|n| n.kind() == SyntaxKind::PAREN_GROUP && n.text().starts_with("({"))
        .collect();
    assert_eq!(paren_groups.len(), 1);
    assert!(paren_groups[0].text().ends_with(')'), "the paren group must keep its `)`");
    assert_eq!(parsed.errors().len(), 1, "{:#?}", parsed.errors());
    assert!(parsed.errors()[0].message.contains("unclosed `{`"));
}

fn nested(open: &str, close: &str, depth: usize) -> String {
    let mut text = String::from("%0 = \"t.op\"() {a = ");
    text.push_str(&open.repeat(depth));
    text.push_str(&close.repeat(depth));
    text.push_str("} : () -> ()\n");
    text
}

#[test]
fn deep_nesting_neither_overflows_nor_hangs() {
    for (open, close) in [("(", ")"), ("[", "]"), ("{", "}"), ("<", ">")] {
        for depth in [hsir_parser::MAX_DEPTH - 10, 100_000] {
            let text = nested(open, close, depth);
            let parsed = parse(text.clone());
            assert_eq!(parsed.tree().rebuild_text(), text);
            let too_deep =
                parsed.errors().iter().any(|e| e.kind == hsir_parser::SyntaxErrorKind::TooDeep);
            assert_eq!(too_deep, depth > hsir_parser::MAX_DEPTH, "{open} x {depth}");
        }
    }
    // Regions: 100,000 nested `{` of ops, and unbalanced openers alone.
    let regions =
        format!("{}{}", "\"t.op\"() ({\n".repeat(100_000), "}) : () -> ()\n".repeat(100_000));
    assert_eq!(parse(regions.clone()).tree().rebuild_text(), regions);
    let openers = "(".repeat(100_000) + &"{".repeat(100_000) + &"[<".repeat(50_000);
    assert_eq!(parse(openers.clone()).tree().rebuild_text(), openers);
}

#[test]
fn failed_strict_parses_deep_inside_brackets_do_not_backtrack_exponentially() {
    // Each of these nests a construct whose strict reading (function type, channel
    // parameters, typed attribute) fails only at the innermost level. A grammar that retried
    // every level generically after a strict failure would take 2^120 steps.
    let depth = hsir_parser::MAX_DEPTH - 8;
    let cases = [
        format!("%0 = op %a : {}x{}\n", "(".repeat(depth), ")".repeat(depth)),
        format!("%0 = op %a : {}bad{}\n", "<".repeat(depth), ">".repeat(depth)),
        format!("%0 = op %a : {}i32 ]{}\n", "!handshake.channel<".repeat(depth), ">".repeat(depth)),
        format!("%0 = op {{a = {}1 : {}}}\n", "[(".repeat(depth / 2), ")]".repeat(depth / 2)),
        format!("#a = {}@{}\n", "(<".repeat(depth / 2), ">)".repeat(depth / 2)),
        // Function types whose results are never closed, within the depth limit and beyond it.
        format!("%0 = op : {}\n", "(i32) -> (".repeat(depth / 2)),
        format!("%0 = op : {}{}\n", "(i32) -> (".repeat(depth + 10), ")".repeat(depth + 10)),
        format!("handshake.func @f(%a: {}\n", "(i32) -> (".repeat(depth / 2)),
    ];
    for text in cases {
        let parsed = parse(text.clone());
        assert_eq!(parsed.tree().rebuild_text(), text);
    }
}

#[test]
fn an_unclosed_function_gives_up_at_the_next_module() {
    let text = "handshake.func @one(%a: i32) -> i32 {\n  return %a : i32\n\nmodule {\n  handshake.func @two(%a: i32) -> i32 {\n    return %a : i32\n  }\n}\n";
    let parsed = parse(text);
    assert_eq!(parsed.tree().rebuild_text(), text);
    let top: Vec<_> = parsed.root().children().filter(|n| n.kind() == SyntaxKind::OP).collect();
    assert_eq!(top.len(), 2, "{:#?}", parsed.root());
    assert!(top[1].text().starts_with("module"));
    assert!(functions(top[1]).iter().any(|f| f.text().contains("@two")));
    assert_eq!(parsed.errors().len(), 1, "{:#?}", parsed.errors());
    assert!(parsed.errors()[0].message.contains("unclosed `{`"));
}

/// The depth limit does not depend on where a two-thread parse splits the text: here the split
/// falls among the closers, with thousands of brackets open, so the second half is lexed again
/// knowing what is open.
#[test]
fn depth_limit_is_the_same_on_two_threads() {
    use hsir_parser::{parse_with, ParseOptions, SyntaxErrorKind};
    let one = ParseOptions { threads: 1, parallel_min_bytes: 0, ..Default::default() };
    let two = ParseOptions { threads: 2, parallel_min_bytes: 0, ..Default::default() };
    let regions = format!("{}{}", "\"t.op\"() ({\n".repeat(2_000), "}) : () -> ()\n".repeat(2_000));
    let lines = format!(
        "%0 = \"t.op\"() {{a = {}{}}} : () -> ()\n",
        "[\n".repeat(3_000),
        "]\n".repeat(3_000)
    );
    for text in [regions, lines] {
        let single = parse_with(text.clone(), one);
        let parallel = parse_with(text, two);
        assert!(single.errors().iter().any(|e| e.kind == SyntaxErrorKind::TooDeep));
        assert_eq!(single.errors(), parallel.errors());
        assert_eq!(format!("{:#?}", single.root()), format!("{:#?}", parallel.root()));
    }
}
