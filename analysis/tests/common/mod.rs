//! Helpers shared by the database tests.

use hsir_analysis::Counters;

/// `count` CIRCT-style functions; every `caller_every`-th one, from the second on, instantiates
/// the one before it.
pub fn generated(count: usize, caller_every: usize) -> String {
    let mut text = String::from("module {\n");
    for i in 0..count {
        text.push_str(&format!(
            "  handshake.func @f{i}(%a: i32, %ctrl: none) -> (i32, none) {{\n    %x:2 = fork [2] %a : i32\n"
        ));
        if i % caller_every == 1 {
            let callee = i - 1;
            text.push_str(&format!(
                "    %c:2 = fork [2] %ctrl : none\n    %r, %rc = instance @f{callee}(%x#0, %c#0) : (i32, none) -> (i32, none)\n    %s = arith.addi %r, %x#1 : i32\n    sink %rc : none\n    return %s, %c#1 : i32, none\n"
            ));
        } else {
            text.push_str(
                "    %s = arith.addi %x#0, %x#1 : i32\n    return %s, %ctrl : i32, none\n",
            );
        }
        text.push_str("  }\n");
    }
    text.push_str("}\n");
    text
}

/// What was done between two readings of the counters.
pub fn delta(before: Counters, after: Counters) -> Counters {
    Counters {
        file_parses: after.file_parses - before.file_parses,
        item_parses: after.item_parses - before.item_parses,
        lowerings: after.lowerings - before.lowerings,
        checks: after.checks - before.checks,
        symbol_tables: after.symbol_tables - before.symbol_tables,
        details_rebuilt: after.details_rebuilt - before.details_rebuilt,
    }
}
