//! Helpers shared by the database tests.

// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

use hsir_analysis::Counters;

/// `count` CIRCT-style functions; every `caller_every`-th one, from the second on, instantiates
/// the one before it.
pub fn generated(count: usize, caller_every: usize) -> String {
    let mut text = String::from("module {\n");
    for i in 0..count {
        let body = if i % caller_every == 1 { Body::Calls(i - 1) } else { Body::Adds };
        push_function(&mut text, i, body);
    }
    text.push_str("}\n");
    text
}

/// What a generated function does with its argument.
pub enum Body<'a> {
    /// Adds it to itself.
    Adds,
    /// Passes it through an instance of `@f{N}`, and adds the result to it.
    Calls(usize),
    /// These lines, after `%x:2 = fork [2] %a`.
    Text(&'a str),
}

/// One CIRCT-style function `@f{name}(%a: i32, %ctrl: none) -> (i32, none)`.
pub fn push_function(text: &mut String, name: impl std::fmt::Display, body: Body) {
    text.push_str(&format!(
        "  handshake.func @f{name}(%a: i32, %ctrl: none) -> (i32, none) {{\n    %x:2 = fork [2] %a : i32\n"
    ));
    match body {
        Body::Adds => text.push_str(
            "    %s = arith.addi %x#0, %x#1 : i32\n    return %s, %ctrl : i32, none\n",
        ),
        Body::Calls(callee) => text.push_str(&format!(
            "    %c:2 = fork [2] %ctrl : none\n    %r, %rc = instance @f{callee}(%x#0, %c#0) : (i32, none) -> (i32, none)\n    %s = arith.addi %r, %x#1 : i32\n    sink %rc : none\n    return %s, %c#1 : i32, none\n"
        )),
        Body::Text(lines) => text.push_str(lines),
    }
    text.push_str("  }\n");
}

/// What was done between two readings of the counters.
pub fn delta(before: Counters, after: Counters) -> Counters {
    Counters {
        file_parses: after.file_parses - before.file_parses,
        item_parses: after.item_parses - before.item_parses,
        piece_parses: after.piece_parses - before.piece_parses,
        lowerings: after.lowerings - before.lowerings,
        checks: after.checks - before.checks,
        symbol_tables: after.symbol_tables - before.symbol_tables,
        details_rebuilt: after.details_rebuilt - before.details_rebuilt,
    }
}
