//! The flat `Item` (`ir.rs`): every span and name an op, value or use holds points into the
//! item's own arrays and agrees with the other side of the relation, and an item lowers to an
//! equal `Item` wherever it sits in a file.

use hsir_analysis::ir::{self, Def, Item};

const FIRST: &str = "handshake.func @g(%a: i32) -> (i32) {\n  return %a : i32\n}\n";

const ITEM: &str = r#"handshake.func @f(%x: i32, %c: i1, %start: none) -> (i32, none) {
  %0:2 = fork [2] %x : i32
  %t, %f = cond_br %c, %0#0 : i32
  %m = merge %t, %back : i32
  %back = buffer [2] seq %f {hw.name = "b"} : i32
  sink %0#1 : i32
  %r = instance @g(%m) : (i32) -> i32
  return %r, %start : i32, none
}
"#;

fn lowered(text: &str) -> Vec<Item> {
    let parse = hsir_parser::parse(text.to_string());
    hsir_analysis::items(&parse).into_iter().map(ir::lower).collect()
}

/// Each relation read both ways: results and their definitions, operands and their ops, uses
/// and the values they name (in text order), names and the text at their ranges.
fn assert_consistent(item: &Item, text: &str) {
    for (id, op) in item.ops.iter().enumerate() {
        for (n, &v) in item.results(op).iter().enumerate() {
            let Def::Result { op: def, n: index } = item.values[v as usize].def else {
                panic!("result {v} of op {id} is not defined by an op")
            };
            assert_eq!((def as usize, index as usize), (id, n));
        }
        for &u in item.operands(op) {
            assert_eq!(item.uses[u as usize].op as usize, id);
        }
        for &r in item.op_regions(op) {
            assert_eq!(item.regions[r as usize].owner as usize, id);
        }
    }
    for (u, use_) in item.uses.iter().enumerate() {
        let range = use_.range;
        assert_eq!(item.str(use_.text()), &text[range], "use {u} names the text at its range");
        if let Some(v) = use_.value {
            assert!(item.value_uses(&item.values[v as usize]).contains(&(u as u32)));
        }
    }
    for (v, value) in item.values.iter().enumerate() {
        let uses = item.value_uses(value);
        assert!(uses.iter().all(|&u| item.uses[u as usize].value == Some(v as u32)));
        assert!(
            uses.windows(2)
                .all(|w| item.uses[w[0] as usize].range.start()
                    < item.uses[w[1] as usize].range.start()),
            "the uses of {} are in text order",
            item.str(value.name())
        );
        assert_eq!(item.str(value.name()), &text[value.range]);
    }
}

#[test]
fn spans_and_names_agree_with_what_they_point_at() {
    let items = lowered(ITEM);
    let item = &items[0];
    assert_consistent(item, ITEM);
    let fork = &item.ops[1];
    assert_eq!(item.bracket_ints(fork), &[2]);
    assert_eq!(item.results(fork).len(), 2);
    assert_eq!(item.value_uses(&item.values[item.results(fork)[0] as usize]).len(), 1);
    let buffer = item.ops.iter().find(|op| op.name == "buffer").expect("the buffer");
    assert!(item.word(buffer, "seq"));
    assert_eq!(item.attr_value(buffer, "hw.name"), Some("\"b\""));
    let merge = item.ops.iter().find(|op| op.name == "merge").expect("the merge");
    let back = item.operands(merge)[1];
    assert_eq!(item.str(item.uses[back as usize].text()), "%back", "a use before its definition");
    assert!(item.uses[back as usize].value.is_some(), "resolved in a graph region");
}

#[test]
fn an_item_that_moved_lowers_to_an_equal_item() {
    let alone = lowered(ITEM);
    let moved = lowered(&format!("{FIRST}{ITEM}"));
    assert_eq!(moved.len(), 2);
    assert_eq!(alone[0], moved[1]);
    assert_consistent(&moved[0], FIRST);
}

/// An item holds its own text, and every name is a range of it: attributes (keys unquoted,
/// values as written), bracket entries, words, symbols, keywords and block labels read through
/// `item.str` give the text at their ranges.
#[test]
fn names_are_ranges_of_the_items_own_text() {
    const MOVED: &str = r#"func.func @h(%a: i32, %p: i1) -> i32 {
  %m = memory [ld = 1, st = 0] {"quoted.key" = 7 : i32, lsq = false} : i32
  %c = arith.cmpi slt, %a, %a : i32
  cf.cond_br %p, ^bb1, ^bb1
^bb1:
  %r = func.call @h(%a, %p) : (i32, i1) -> i32
  return %r : i32
}
"#;
    let text = format!("{FIRST}{MOVED}");
    let items = lowered(&text);
    let item = &items[1];
    assert_eq!(
        &*item.text,
        MOVED.trim_end(),
        "the item's text, exactly (trivia after it is not its)"
    );
    assert_consistent(item, MOVED);
    let memory = item.ops.iter().find(|op| op.name == "memory").expect("the memory");
    assert_eq!(item.bracket_entry(memory, "ld"), Some("1"));
    assert_eq!(item.bracket_entry(memory, "st"), Some("0"));
    let keys: Vec<&str> = item.attrs(memory).iter().map(|a| item.str(a.key)).collect();
    assert_eq!(keys, ["quoted.key", "lsq"], "a string key without its quotes");
    assert_eq!(item.attr_value(memory, "quoted.key"), Some("7 : i32"));
    for attr in item.attrs(memory) {
        assert!(attr.range.contains_range(attr.key.range()));
        assert!(attr.range.contains_range(attr.value.range()));
    }
    let cmp = item.ops.iter().find(|op| op.name == "arith.cmpi").expect("the cmpi");
    let words: Vec<&str> = item.words(cmp).iter().map(|&w| item.str(w)).collect();
    assert_eq!(words, ["slt"]);
    assert_eq!(&MOVED[item.words(cmp)[0].range()], "slt");
    let call = item.ops.iter().find(|op| op.name == "func.call").expect("the call");
    assert_eq!(call.symbol.map(|s| item.str(s)), Some("@h"));
    let labels: Vec<&str> =
        item.blocks.iter().filter_map(|b| b.label).map(|l| item.str(l)).collect();
    assert_eq!(labels, ["^bb1"]);
    // Alone, the item lowers to an equal item: its text moved with it.
    assert_eq!(lowered(MOVED)[0], *item);
}

/// Types are ids into the item's one table, each distinct type there once: the spellings of
/// one type share an id, every written type's range is the text of its spelling, and lists and
/// function types are runs of the item's written types.
#[test]
fn types_are_ids_into_one_table_of_the_item() {
    const TYPED: &str = r#"handshake.func @t(%a: !handshake.channel<i32>, %c: <i1>, %s: <>) -> (<i32>, control) {
  %0 = mux %c [%a, %a] : <i1>, [<i32>, channel<i32>] to <i32>
  %1 = source : control
  %2 = constant %1 {value = 1 : i32} : <>, <i32>
  %r = instance @g(%0, %2) : (<i32>, !handshake.channel<i32>) -> (<i32>)
  end %r, %s : <i32>, <>
}
"#;
    let items = lowered(TYPED);
    let item = &items[0];
    assert_consistent(item, TYPED);
    let shown: Vec<String> = item.type_table.iter().map(|t| t.to_string()).collect();
    assert_eq!(shown, ["<i32>", "<i1>", "<>"], "each distinct type once, in first-seen order");
    // Every written type, whatever its spelling, names the table's entry of its type.
    let mut written = Vec::new();
    for op in &item.ops {
        for entry in item.types(op).iter().chain(item.types_after(op)) {
            match *entry {
                ir::TypeEntry::One(w) => written.push(w),
                ir::TypeEntry::List(list, _) => written.extend_from_slice(item.written(list)),
                ir::TypeEntry::Function(ins, outs, _) => {
                    assert_eq!((item.written(ins).len(), item.written(outs).len()), (2, 1));
                    written.extend(item.written(ins).iter().chain(item.written(outs)));
                }
            }
        }
    }
    let spelled: Vec<(&str, String)> =
        written.iter().map(|w| (&TYPED[w.range], item.ty(w.ty).to_string())).collect();
    for (text, ty) in &spelled {
        let same_spelling = spelled.iter().filter(|(t, _)| t == text);
        assert!(same_spelling.clone().all(|(_, other)| other == ty), "{text} is one type");
    }
    assert!(spelled.contains(&("channel<i32>", "<i32>".to_string())));
    assert!(spelled.contains(&("control", "<>".to_string())));
    let ids = |text: &str| -> Vec<ir::TypeId> {
        written.iter().filter(|w| &TYPED[w.range] == text).map(|w| w.ty).collect()
    };
    let channel = ids("!handshake.channel<i32>")[0];
    assert!(ids("<i32>").iter().chain(&ids("channel<i32>")).all(|&id| id == channel));
    assert_eq!(ids("control")[0], ids("<>")[0]);
    assert_ne!(ids("<i1>")[0], channel);
    // Ports and arguments name the same entries.
    let sig = item.ops[0].signature.as_ref().expect("a signature");
    assert_eq!(sig.args[0].ty, Some(channel));
    assert_eq!(item.value_ty(&item.values[0]).map(|t| t.to_string()).as_deref(), Some("<i32>"));
    assert_eq!(sig.results[1].ty, ids("control").first().copied());
}

/// An item of many distinct types (more than lowering looks up one by one) still holds each
/// once, and a type written again, in another spelling, names its first entry.
#[test]
fn many_types_are_each_in_the_table_once() {
    let widths: Vec<u32> = (1..=48).collect();
    let mut text = String::from("handshake.func @m(%a: none) -> (none) {\n");
    for (n, w) in widths.iter().enumerate() {
        text.push_str(&format!("  %c{n} = constant %a {{value = 0 : i{w}}} : <>, <i{w}>\n"));
    }
    for (n, w) in widths.iter().enumerate().rev() {
        text.push_str(&format!("  sink %c{n} : !handshake.channel<i{w}>\n"));
    }
    text.push_str("  end %a : none\n}\n");
    let items = lowered(&text);
    let item = &items[0];
    assert_consistent(item, &text);
    let shown: Vec<String> = item.type_table.iter().map(|t| t.to_string()).collect();
    let mut distinct = shown.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), shown.len(), "each type once: {shown:?}");
    assert_eq!(shown.len(), 2 + widths.len(), "none, <>, and a channel per width");
    for op in &item.ops {
        for entry in item.types(op) {
            let ir::TypeEntry::One(w) = *entry else { continue };
            let spelled = &text[w.range];
            let first = shown.iter().position(|s| *s == item.ty(w.ty).to_string());
            assert_eq!(first, Some(w.ty.index() as usize), "{spelled}");
            if let Some(width) = spelled.strip_prefix("!handshake.channel<") {
                assert_eq!(item.ty(w.ty).to_string(), format!("<{width}"));
            }
        }
    }
}
