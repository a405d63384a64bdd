//! Hover, signature help and inlay hints (`ide::hover`, `ide::signature_help`,
//! `ide::inlay_hints`) on small fixtures with a `$0` cursor, rendered to readable snapshots.
//! Refresh with `UPDATE_EXPECT=1 cargo test -p hsir-analysis --test ide_hover`.

#[path = "../../test-support/shared.rs"]
mod shared;

use expect_test::{expect, Expect};
use hsir_analysis::ide::hover::hover;
use hsir_analysis::ide::inlay_hints::inlay_hints;
use hsir_analysis::ide::signature_help::signature_help;
use hsir_analysis::ide::{FilePosition, Fixture};
use hsir_analysis::{Database, FileId, TextRange, TextSize};

// ---- rendering ---------------------------------------------------------------------------

fn render_hover(fixture: &str) -> String {
    let mut f = Fixture::parse(fixture);
    let cursor = f.cursor.expect("the fixture has one `$0`");
    let analysis = f.db.analysis();
    let text = analysis.text(cursor.file).unwrap_or_default();
    match hover(&analysis, cursor) {
        Some(h) => format!("hovered `{}`\n{}", &text[h.range], h.markdown.trim_end()),
        None => "no hover".to_string(),
    }
}

/// Each case: its name, then the hover.
fn check_hovers(cases: &[(&str, &str)], expect: Expect) {
    let mut out = String::new();
    for (name, fixture) in cases {
        out.push_str(&format!("=== {name}\n{}\n\n", render_hover(fixture)));
    }
    expect.assert_eq(&out);
}

fn render_signature_help(fixture: &str) -> String {
    let mut f = Fixture::parse(fixture);
    let cursor = f.cursor.expect("the fixture has one `$0`");
    let analysis = f.db.analysis();
    let Some(help) = signature_help(&analysis, cursor) else { return "no signature help".into() };
    // The label with the active parameter in «».
    let mut label = help.label.clone();
    if let Some(active) = help.active_parameter {
        let (start, end) = help.parameters[active as usize];
        label.insert(end as usize, '»');
        label.insert(start as usize, '«');
    }
    let params: Vec<&str> =
        help.parameters.iter().map(|&(s, e)| &help.label[s as usize..e as usize]).collect();
    format!(
        "{label}\n  params: {}\n  doc: {}",
        params.join(" | "),
        help.documentation.as_deref().unwrap_or("-")
    )
}

fn check_signature_help(cases: &[(&str, &str)], expect: Expect) {
    let mut out = String::new();
    for (name, fixture) in cases {
        out.push_str(&format!("=== {name}\n{}\n", render_signature_help(fixture)));
    }
    expect.assert_eq(&out);
}

/// The text with each hint inserted at its offset as `⟨kind: label⟩`.
fn render_hints(db: &mut Database, file: FileId, range: TextRange) -> String {
    let analysis = db.analysis();
    let text = analysis.text(file).unwrap_or_default().to_string();
    let hints = inlay_hints(&analysis, file, range);
    let mut out = String::new();
    let mut last = usize::from(range.start());
    for hint in &hints {
        let at = usize::from(hint.offset);
        out.push_str(&text[last..at]);
        out.push_str(&format!("⟨{:?} {}⟩", hint.kind, hint.label));
        last = at;
    }
    out.push_str(&text[last..usize::from(range.end())]);
    out
}

fn check_hints(fixture: &str, expect: Expect) {
    let mut f = Fixture::parse(fixture);
    let file = f.files[0].1;
    let len = TextSize::of(f.db.text(file).unwrap_or_default());
    let range = f.selection.map_or(TextRange::up_to(len), |s| s.range);
    expect.assert_eq(&render_hints(&mut f.db, file, range));
}

// ---- fixtures ----------------------------------------------------------------------------

const CIRCT_FUNC: &str = r#"
handshake.func @circt(%x: i32, %ctrl: none, ...) -> (i32, none) {
  %0:2 = fork [2] %x : i32
  %1 = buffer [2] seq %0#0 : i32
  %2 = buffer [1] fifo %1 : i32
  %3 = arith.addi %2, %0#1 : i32
  return %3, %ctrl : i32, none
}
"#;

fn at(fixture: &str, needle: &str, within: usize) -> String {
    let start = fixture.find(needle).unwrap_or_else(|| panic!("`{needle}` in the fixture"));
    let mut out = fixture.to_string();
    out.insert_str(start + within, "$0");
    out
}

#[test]
fn hover_circt_values_and_ops() {
    let cases = [
        ("fork result group at its definition", at(CIRCT_FUNC, "%0:2", 1)),
        ("a use with an index", at(CIRCT_FUNC, "%0#1", 2)),
        ("a none argument is a control channel", at(CIRCT_FUNC, "%ctrl:", 1)),
        ("the fork op", at(CIRCT_FUNC, "fork [2]", 2)),
        ("a CIRCT fifo buffer after a seq buffer", at(CIRCT_FUNC, "buffer [1]", 0)),
        ("arith inside handshake", at(CIRCT_FUNC, "arith.addi", 3)),
        ("the function's own name", at(CIRCT_FUNC, "@circt", 2)),
        ("whitespace", at(CIRCT_FUNC, "  %1 =", 1)),
        ("a type", at(CIRCT_FUNC, ": i32\n  %1", 3)),
    ];
    let cases: Vec<(&str, &str)> = cases.iter().map(|(n, f)| (*n, f.as_str())).collect();
    check_hovers(
        &cases,
        expect![[r#"
            === fork result group at its definition
            hovered `%0`
            ```mlir
            %0#0 : i32
            ```

            **channel** of `i32`: 32-bit data with valid and ready (CIRCT reads a raw type in a `handshake.func` as a channel of it)

            **34 wires**: 32 data + 1 valid + 1 ready

            **produced by** result 0 of `fork` (`%0:2`)

            **consumed by**
            - operand 0 (input) of `buffer` (`%1`)

            ---

            ```mlir
            %0#1 : i32
            ```

            **channel** of `i32`: 32-bit data with valid and ready (CIRCT reads a raw type in a `handshake.func` as a channel of it)

            **34 wires**: 32 data + 1 valid + 1 ready

            **produced by** result 1 of `fork` (`%0:2`)

            **consumed by**
            - operand 1 (right operand) of `arith.addi` (`%3`)

            === a use with an index
            hovered `%0#1`
            ```mlir
            %0#1 : i32
            ```

            **channel** of `i32`: 32-bit data with valid and ready (CIRCT reads a raw type in a `handshake.func` as a channel of it)

            **34 wires**: 32 data + 1 valid + 1 ready

            **produced by** result 1 of `fork` (`%0:2`)

            **consumed by**
            - operand 1 (right operand) of `arith.addi` (`%3`)

            === a none argument is a control channel
            hovered `%ctrl`
            ```mlir
            %ctrl : none
            ```

            **control** channel: a token without data, valid and ready only (CIRCT reads a raw type in a `handshake.func` as a channel of it)

            **2 wires**: 1 valid + 1 ready

            **produced by** argument #1 of `@circt`

            **consumed by**
            - operand 1 (result 1) of `return`

            === the fork op
            hovered `fork`
            **`fork`**

            Copies every input token to all of its outputs; the input is released once every output has taken its copy (eager fork).

            ```mlir
            (i32) -> (i32, i32)
            ```

            **CIRCT** form: `fork [N] %input : T`; operands: input

            === a CIRCT fifo buffer after a seq buffer
            hovered `buffer`
            **`buffer`**

            Holds tokens in slots on a channel; depending on its type it registers the data and valid paths, the ready path, or both.

            ```mlir
            (i32) -> (i32)
            ```

            **CIRCT** form: `buffer [N] seq|fifo %input : T`; operands: input

            **buffer** `fifo`, 1 slot

            - latency: D1 V1 R0
            - breaks: data, valid
            - bypasses: ready
            - channel: 2 buffers, `%1` → **`%2`**
            - along the channel: D3 V3 R2

            === arith inside handshake
            hovered `arith.addi`
            **`arith.addi`**

            Adds two integers (wrapping).

            ```mlir
            (i32, i32) -> (i32)
            ```

            **CIRCT** form: `addi %lhs, %rhs : T`; operands: left operand, right operand

            === the function's own name
            hovered `@circt`
            ```mlir
            handshake.func @circt(%x: i32, %ctrl: none) -> (i32, none)
            ```

            === whitespace
            no hover

            === a type
            hovered `i32`
            ```mlir
            i32
            ```

            **channel** of `i32`: 32-bit data with valid and ready (CIRCT reads a raw type in a `handshake.func` as a channel of it)

            **34 wires**: 32 data + 1 valid + 1 ready

            a raw type: CIRCT's Handshake makes it a channel of itself (`none`: control)

            the function is written in CIRCT's syntax

        "#]],
    );
}

const DYNAMATIC_FUNC: &str = r#"
handshake.func @dyn(%a: !handshake.channel<i32, [e: i1 (U)]>, %c: <i1>, %start: !handshake.control<>) -> (<i32, [e: i1 (U)]>, <>) attributes {argNames = ["a", "c", "start"], resNames = ["out0", "end"]} {
  %s:2 = fork [2] %start : <>
  %k = constant %s#0 {value = 3 : i32} : <>, <i32, [e: i1 (U)]>
  %m = mux %c [%a, %k] : <i1>, [<i32, [e: i1 (U)]>, <i32, [e: i1 (U)]>] to <i32, [e: i1 (U)]>
  %b0 = buffer %m {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32, [e: i1 (U)]>
  %b1 = buffer %b0, bufferType = TEHB, numSlots = 1 : <i32, [e: i1 (U)]>
  %t, %f = cond_br %c, %b1 : <i1>, <i32, [e: i1 (U)]>
  sink %f : <i32, [e: i1 (U)]>
  end %t, %s#1 : <i32, [e: i1 (U)]>, <>
}
"#;

#[test]
fn hover_dynamatic_values_and_buffers() {
    let cases = [
        ("an argument with an upstream extra signal", at(DYNAMATIC_FUNC, "%a:", 1)),
        ("a control value in the short form", at(DYNAMATIC_FUNC, "%s:2", 1)),
        ("the mux result, used by a buffer", at(DYNAMATIC_FUNC, "%m =", 1)),
        ("the select operand of the mux, at its use", at(DYNAMATIC_FUNC, "%c [", 1)),
        ("an hw.parameters buffer", at(DYNAMATIC_FUNC, "buffer %m", 1)),
        ("an inline legacy-named buffer second on the chain", at(DYNAMATIC_FUNC, "buffer %b0", 1)),
        ("cond_br op", at(DYNAMATIC_FUNC, "cond_br", 0)),
        ("the constant op", at(DYNAMATIC_FUNC, "constant %s", 4)),
        ("a result consumed by sink", at(DYNAMATIC_FUNC, "%f =", 1)),
        ("downstream and upstream extras, proposal spelling", "handshake.func @p(%$0x: channel<f32, [spec: i1, (U) i4]>, %y: control) -> (channel<f32, [spec: i1, (U) i4]>, control) {\n  end %x, %y : channel<f32, [spec: i1, (U) i4]>, control\n}".to_string()),
        ("proposal control", "handshake.func @p(%x: channel<f32, [spec: i1, (U) i4]>, %$0y: control) -> (channel<f32, [spec: i1, (U) i4]>, control) {\n  end %x, %y : channel<f32, [spec: i1, (U) i4]>, control\n}".to_string()),
        ("an unused result", at(DYNAMATIC_FUNC.replace("  sink %f : <i32, [e: i1 (U)]>\n", "").as_str(), "%f =", 1)),
    ];
    let cases: Vec<(&str, &str)> = cases.iter().map(|(n, f)| (*n, f.as_str())).collect();
    check_hovers(
        &cases,
        expect![[r#"
            === an argument with an upstream extra signal
            hovered `%a`
            ```mlir
            %a : <i32, [e: i1 (U)]>
            ```

            **channel** of `i32`: 32-bit data with valid and ready
            - extra signal `e: i1`: 1 bit, upstream `(U)`, with ready

            **35 wires**: 32 data + 1 valid + 1 ready + 1 upstream extra

            **produced by** argument #0 of `@dyn`

            **consumed by**
            - operand 1 (data 0) of `mux` (`%m`)

            === a control value in the short form
            hovered `%s`
            ```mlir
            %s#0 : <>
            ```

            **control** channel: a token without data, valid and ready only

            **2 wires**: 1 valid + 1 ready

            **produced by** result 0 of `fork` (`%s:2`)

            **consumed by**
            - operand 0 (control (trigger)) of `constant` (`%k`)

            ---

            ```mlir
            %s#1 : <>
            ```

            **control** channel: a token without data, valid and ready only

            **2 wires**: 1 valid + 1 ready

            **produced by** result 1 of `fork` (`%s:2`)

            **consumed by**
            - operand 1 (result 1) of `end`

            === the mux result, used by a buffer
            hovered `%m`
            ```mlir
            %m : <i32, [e: i1 (U)]>
            ```

            **channel** of `i32`: 32-bit data with valid and ready
            - extra signal `e: i1`: 1 bit, upstream `(U)`, with ready

            **35 wires**: 32 data + 1 valid + 1 ready + 1 upstream extra

            **produced by** result 0 of `mux` (`%m`)

            **consumed by**
            - operand 0 (input) of `buffer` (`%b0`)

            === the select operand of the mux, at its use
            hovered `%c`
            ```mlir
            %c : <i1>
            ```

            **channel** of `i1`: 1-bit data with valid and ready

            **3 wires**: 1 data + 1 valid + 1 ready

            **produced by** argument #1 of `@dyn`

            **consumed by**
            - operand 0 (select) of `mux` (`%m`)
            - operand 0 (condition) of `cond_br` (`%t`, `%f`)

            === an hw.parameters buffer
            hovered `buffer`
            **`buffer`**

            Holds tokens in slots on a channel; depending on its type it registers the data and valid paths, the ready path, or both.

            ```mlir
            (<i32, [e: i1 (U)]>) -> (<i32, [e: i1 (U)]>)
            ```

            **Dynamatic 2026** form: `buffer %input, bufferType = ONE_SLOT_BREAK_DV, numSlots = N, dvLatency = L : T`; operands: input

            **buffer** `ONE_SLOT_BREAK_DV` (legacy name `OEHB`), 1 slot

            - latency: D1 V1 R0
            - breaks: data, valid
            - bypasses: ready
            - channel: 2 buffers, **`%b0`** → `%b1`
            - along the channel: D1 V1 R1

            === an inline legacy-named buffer second on the chain
            hovered `buffer`
            **`buffer`**

            Holds tokens in slots on a channel; depending on its type it registers the data and valid paths, the ready path, or both.

            ```mlir
            (<i32, [e: i1 (U)]>) -> (<i32, [e: i1 (U)]>)
            ```

            **Dynamatic 2026** form: `buffer %input, bufferType = ONE_SLOT_BREAK_DV, numSlots = N, dvLatency = L : T`; operands: input

            **buffer** `ONE_SLOT_BREAK_R` (legacy name `TEHB`), 1 slot

            - latency: D0 V0 R1
            - breaks: ready
            - bypasses: data, valid
            - channel: 2 buffers, `%b0` → **`%b1`**
            - along the channel: D1 V1 R1

            === cond_br op
            hovered `cond_br`
            **`cond_br`**

            Sends the data token to the true or the false output, as the condition token says.

            ```mlir
            (<i1>, <i32, [e: i1 (U)]>) -> (<i32, [e: i1 (U)]>, <i32, [e: i1 (U)]>)
            ```

            **Dynamatic 2026** form: `cond_br %condition, %data : Tcondition, T`; operands: condition, data

            === the constant op
            hovered `constant`
            **`constant`**

            Emits its constant value each time its control input delivers a token.

            ```mlir
            (<>) -> (<i32, [e: i1 (U)]>)
            ```

            **Dynamatic 2026** form: `constant %control {value = V : T} : Tcontrol, T`; operands: control (trigger)

            === a result consumed by sink
            hovered `%f`
            ```mlir
            %f : <i32, [e: i1 (U)]>
            ```

            **channel** of `i32`: 32-bit data with valid and ready
            - extra signal `e: i1`: 1 bit, upstream `(U)`, with ready

            **35 wires**: 32 data + 1 valid + 1 ready + 1 upstream extra

            **produced by** result 1 of `cond_br` (`%t`, `%f`)

            **consumed by**
            - operand 0 (input) of `sink`

            === downstream and upstream extras, proposal spelling
            hovered `%x`
            ```mlir
            %x : <f32, [spec: i1, i4 (U)]>
            ```

            **channel** of `f32`: 32-bit data with valid and ready
            - extra signal `spec: i1`: 1 bit, downstream, with the data
            - extra signal `i4`: 4 bits, upstream `(U)`, with ready

            **39 wires**: 32 data + 1 valid + 1 ready + 1 downstream extra + 4 upstream extra

            **produced by** argument #0 of `@p`

            **consumed by**
            - operand 0 (result 0) of `end`

            === proposal control
            hovered `%y`
            ```mlir
            %y : <>
            ```

            **control** channel: a token without data, valid and ready only

            **2 wires**: 1 valid + 1 ready

            **produced by** argument #1 of `@p`

            **consumed by**
            - operand 1 (result 1) of `end`

            === an unused result
            hovered `%f`
            ```mlir
            %f : <i32, [e: i1 (U)]>
            ```

            **channel** of `i32`: 32-bit data with valid and ready
            - extra signal `e: i1`: 1 bit, upstream `(U)`, with ready

            **35 wires**: 32 data + 1 valid + 1 ready + 1 upstream extra

            **produced by** result 1 of `cond_br` (`%t`, `%f`)

            **consumed by** nothing: unused

        "#]],
    );
}

const LOOM_FUNC: &str = r#"
handshake.func @kernel(%mem: memref<16xi32>, %n: index, %k: i32, %start: none) -> none {
  %ld_data, %st_done, %ld_done = extmemory [ld = 1, st = 1] (%mem : memref<16xi32>) (%st_data, %st_addr, %ld_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %v, %ac = dataflow.gate %idx, %wc : index, i1 -> index, i1
  %ac_f:3 = fork [3] %ac : i1
  %v_f:2 = fork [2] %v : index
  %body = dataflow.carry %ac_f#0, %s#2, %next : i1, none, none -> none
  %kk = dataflow.invariant %ac_f#1, %k : i1, i32 -> i32
  %x, %ld_addr = load [%v_f#0] %ld_data, %body : index, i32
  %sum = arith.addi %x, %kk : i32
  %st_data, %st_addr = store [%v_f#1] %sum, %ld_done : index, i32
  %next, %exit = cond_br %ac_f#2, %st_done : none
  return %exit : none
}
"#;

#[test]
fn hover_loom_and_memory() {
    let cases = [
        ("dataflow.stream", at(LOOM_FUNC, "dataflow.stream", 3)),
        ("dataflow.carry", at(LOOM_FUNC, "dataflow.carry", 10)),
        ("stream's will-continue result", at(LOOM_FUNC, "%wc =", 1)),
        ("the load's data from memory, produced by extmemory", at(LOOM_FUNC, "%ld_data,", 1)),
        ("the store address, consumed by extmemory", at(LOOM_FUNC, "%st_addr = store", 1)),
        ("a memref argument", at(LOOM_FUNC, "%mem:", 1)),
        ("extmemory op", at(LOOM_FUNC, "extmemory", 1)),
    ];
    let cases: Vec<(&str, &str)> = cases.iter().map(|(n, f)| (*n, f.as_str())).collect();
    check_hovers(
        &cases,
        expect![[r#"
            === dataflow.stream
            hovered `dataflow.stream`
            **`dataflow.stream`**

            LOOM: emits the indices of a loop from start by step while the condition against the bound holds, and with each one whether the loop will continue (`raw_will_continue`).

            ```mlir
            (index, index, index) -> (index, i1)
            ```

            **LOOM** form: `dataflow.stream %start, %step, %bound {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)`; operands: start, step, bound

            === dataflow.carry
            hovered `dataflow.carry`
            **`dataflow.carry`**

            LOOM: a loop-carried value: takes the initial value, then the carried one while the condition is true.

            ```mlir
            (i1, none, none) -> (none)
            ```

            **LOOM** form: `dataflow.carry %condition, %initial, %carried : i1, T, T -> T`; operands: condition, initial value, carried value

            === stream's will-continue result
            hovered `%wc`
            ```mlir
            %wc : i1
            ```

            **channel** of `i1`: 1-bit data with valid and ready (CIRCT reads a raw type in a `handshake.func` as a channel of it)

            **3 wires**: 1 data + 1 valid + 1 ready

            **produced by** result 1 of `dataflow.stream` (`%idx`, `%wc`)

            **consumed by**
            - operand 1 (condition) of `dataflow.gate` (`%v`, `%ac`)

            === the load's data from memory, produced by extmemory
            hovered `%ld_data`
            ```mlir
            %ld_data : i32
            ```

            **channel** of `i32`: 32-bit data with valid and ready (CIRCT reads a raw type in a `handshake.func` as a channel of it)

            **34 wires**: 32 data + 1 valid + 1 ready

            **produced by** result 0 of `extmemory` (`%ld_data`, `%st_done`, `%ld_done`)

            **consumed by**
            - operand 1 (data from memory) of `load` (`%x`, `%ld_addr`)

            === the store address, consumed by extmemory
            hovered `%st_addr`
            ```mlir
            %st_addr : index
            ```

            **channel** of `index`: data of a width fixed when it is lowered, with valid and ready (CIRCT reads a raw type in a `handshake.func` as a channel of it)

            **produced by** result 1 of `store` (`%st_data`, `%st_addr`)

            **consumed by**
            - operand 2 (store 0 address) of `extmemory` (`%ld_data`, `%st_done`, `%ld_done`)

            === a memref argument
            hovered `%mem`
            ```mlir
            %mem : memref<16xi32>
            ```

            a memory reference: the ports of a memory, not a channel

            **memory** of 16 × `i32` (32-bit elements, 512 bits in all); an address takes 4 bits

            **produced by** argument #0 of `@kernel`

            **consumed by**
            - operand 0 (memref) of `extmemory` (`%ld_data`, `%st_done`, `%ld_done`)

            === extmemory op
            hovered `extmemory`
            **`extmemory`**

            A memory outside the circuit, reached through the function's memref argument and its load and store ports.

            ```mlir
            (memref<16xi32>, i32, index, index) -> (i32, none, none)
            ```

            **LOOM** form: `extmemory [ld = L, st = S] (%memref : memref<NxT>) (%store_data, %store_address, ..., %load_address, ...) : (...) -> (...)`; operands: memref, store data and address, then load addresses

        "#]],
    );
}

const PIPELINE: &str = r#"
hw.module @matching(in %arg0 : i32, in %arg1 : i8, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out0: i32, out out1: i8) {
  %p:3 = pipeline.scheduled(%a0 : i32 = %arg0, %a1 : i8 = %arg1) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out0: i32, out1: i8) {
    %true = hw.constant true
    %sum = comb.add %a0, %a0 : i32
    pipeline.stage ^bb1 regs(%sum : i32) pass(%a1 : i8)
  ^bb1(%r : i32, %q : i8, %s1_enable : i1):
    %twice = comb.add %r, %r : i32
    pipeline.stage ^bb2 regs(%twice : i32, %q : i8)
  ^bb2(%r2 : i32, %q2 : i8, %s2_enable : i1):
    pipeline.return %r2, %q2 : i32, i8
  }
  hw.output %p#0, %p#1 : i32, i8
}

// -----

hw.module @crossings(in %arg0 : i32, in %ext : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    %c1 = hw.constant 1 : i32
    %0 = comb.add %a0, %c1 : i32
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %1 = pipeline.src %0 : i32
    %2 = comb.add %1, %c1 : i32
    %3 = comb.add %2, %ext : i32
    pipeline.return %3 : i32
  }
  hw.output %p#0 : i32
}
"#;

#[test]
fn hover_pipeline_values() {
    let cases = [
        ("a value registered into the next stage", at(PIPELINE, "%sum =", 1)),
        ("a pipeline input passed through", at(PIPELINE, "%a1 :", 1)),
        ("a register arriving in stage 1", at(PIPELINE, "^bb1(%r", 6)),
        ("a pass-through arriving in stage 1, then registered", at(PIPELINE, "%q : i8,", 1)),
        ("a stage's enable", at(PIPELINE, "%s1_enable : i1):\n    %twice", 2)),
        ("a value used only in its own stage", at(PIPELINE, "%2 =", 1)),
        ("a value read through pipeline.src", at(PIPELINE, "%0 = comb", 1)),
        ("an outside value read in a stage", at(PIPELINE, "%ext :", 1)),
        ("pipeline.stage", at(PIPELINE, "pipeline.stage ^bb1 regs", 10)),
        ("comb.add", at(PIPELINE, "comb.add %a0", 2)),
    ];
    let cases: Vec<(&str, &str)> = cases.iter().map(|(n, f)| (*n, f.as_str())).collect();
    check_hovers(
        &cases,
        expect![[r#"
            === a value registered into the next stage
            hovered `%sum`
            ```mlir
            %sum
            ```

            type not inferred; its op is typed `: i32`

            **produced by** result 0 of `comb.add` (`%sum`)

            **consumed by**
            - operand 0 (register 0) of `pipeline.stage`

            **pipeline**: defined in the entry stage (stage 0)
            - crosses into stage 1 (`^bb1`) as a register (`regs`)

            === a pipeline input passed through
            hovered `%a1`
            ```mlir
            %a1 : i8
            ```

            a plain 8-bit value: 8 wires, no handshake

            **produced by** input #1 of `pipeline.scheduled` (its entry stage)

            **consumed by**
            - operand 1 (pass-through 0) of `pipeline.stage`

            **pipeline**: defined in the entry stage (stage 0)
            - crosses into stage 1 (`^bb1`) as a pass-through (`pass`, no register)

            === a register arriving in stage 1
            hovered `%r`
            ```mlir
            %r : i32
            ```

            a plain 32-bit value: 32 wires, no handshake

            **produced by** argument #0 of block `^bb1` of `pipeline.scheduled`

            **consumed by**
            - operand 0 of `comb.add` (`%twice`)
            - operand 1 of `comb.add` (`%twice`)

            **pipeline**: defined in stage 1 (`^bb1`)
            - arrives as register 0 of the previous stage's `regs`, from `%sum`
            - used in the stage that defines it, by `comb.add`

            === a pass-through arriving in stage 1, then registered
            hovered `%q`
            ```mlir
            %q : i8
            ```

            a plain 8-bit value: 8 wires, no handshake

            **produced by** argument #1 of block `^bb1` of `pipeline.scheduled`

            **consumed by**
            - operand 1 (register 1) of `pipeline.stage`

            **pipeline**: defined in stage 1 (`^bb1`)
            - arrives as pass-through 0 of the previous stage's `pass` (no register), from `%a1`
            - crosses into stage 2 (`^bb2`) as a register (`regs`)

            === a stage's enable
            hovered `%s1_enable`
            ```mlir
            %s1_enable : i1
            ```

            a plain 1-bit value: 1 wire, no handshake

            **produced by** argument #2 of block `^bb1` of `pipeline.scheduled`

            **consumed by** nothing: unused

            **pipeline**: defined in stage 1 (`^bb1`)
            - the stage's enable

            === a value used only in its own stage
            hovered `%2`
            ```mlir
            %2
            ```

            type not inferred; its op is typed `: i32`

            **produced by** result 0 of `comb.add` (`%2`)

            **consumed by**
            - operand 0 of `comb.add` (`%3`)

            **pipeline**: defined in stage 1 (`^bb1`)
            - used in the stage that defines it, by `comb.add`

            === a value read through pipeline.src
            hovered `%0`
            ```mlir
            %0
            ```

            type not inferred; its op is typed `: i32`

            **produced by** result 0 of `comb.add` (`%0`)

            **consumed by**
            - operand 0 (value of an earlier stage) of `pipeline.src` (`%1`)

            **pipeline**: defined in the entry stage (stage 0)
            - read in stage 1 (`^bb1`) through `pipeline.src`

            === an outside value read in a stage
            hovered `%ext`
            ```mlir
            %ext : i32
            ```

            a plain 32-bit value: 32 wires, no handshake

            **produced by** argument #1 of `@crossings`

            **consumed by**
            - operand 1 of `comb.add` (`%3`)

            **pipeline**: defined outside the pipeline, an external input that any stage may read without a register

            === pipeline.stage
            hovered `pipeline.stage`
            **`pipeline.stage`**

            Ends a stage and starts the next: `regs(...)` are registered across the boundary, `pass(...)` go through without a register.

            ```mlir
            : i32, i8
            ```

            === comb.add
            hovered `comb.add`
            **`comb.add`**

            Combinational logic (CIRCT `comb`): its result follows its operands in the same cycle.

            ```mlir
            : i32
            ```

        "#]],
    );
}

#[test]
fn hover_symbols_across_files() {
    let workspace = r#"//- lib.mlir
handshake.func @callee(%x: i32, %c: none) -> (i32, none) {
  return %x, %c : i32, none
}
handshake.func private @ext(i32, none) -> (i32, none)
//- main.mlir
handshake.func @caller(%a: i32, %start: none) -> (i32, none) {
  %0:2 = instance @callee(%a, %start) : (i32, none) -> (i32, none)
  %1:2 = instance @ext(%0#0, %0#1) : (i32, none) -> (i32, none)
  %2:2 = instance @missing(%1#0, %1#1) : (i32, none) -> (i32, none)
  return %2#0, %2#1 : i32, none
}
"#;
    let cases = [
        ("a callee in another file", at(workspace, "@callee(%a", 3)),
        ("an external declaration", at(workspace, "@ext(%0", 1)),
        ("an unknown callee", at(workspace, "@missing", 1)),
        ("the instance op", at(workspace, "instance @callee", 1)),
        ("an instance result", at(workspace, "%0:2 = instance", 1)),
    ];
    let cases: Vec<(&str, &str)> = cases.iter().map(|(n, f)| (*n, f.as_str())).collect();
    check_hovers(
        &cases,
        expect![[r#"
            === a callee in another file
            hovered `@callee`
            ```mlir
            handshake.func @callee(%x: i32, %c: none) -> (i32, none)
            ```

            defined in another file

            === an external declaration
            hovered `@ext`
            ```mlir
            handshake.func @ext(i32, none) -> (i32, none)
            ```

            an external declaration: no body

            defined in another file

            === an unknown callee
            hovered `@missing`
            `@missing`: no function of this name in the workspace

            === the instance op
            hovered `instance`
            **`instance`**

            An instance of another function, connected by the channels of its arguments and results.

            ```mlir
            (i32, none) -> (i32, none)
            ```

            **CIRCT** form: `instance @callee(%arg, ...) : (T, ...) -> (U, ...)`; operands: argument

            instance of
            ```mlir
            handshake.func @callee(%x: i32, %c: none) -> (i32, none)
            ```

            === an instance result
            hovered `%0`
            ```mlir
            %0#0 : i32
            ```

            **channel** of `i32`: 32-bit data with valid and ready (CIRCT reads a raw type in a `handshake.func` as a channel of it)

            **34 wires**: 32 data + 1 valid + 1 ready

            **produced by** result 0 of `instance` (`%0:2`)

            **consumed by**
            - operand 0 (argument 0 of `@ext`) of `instance` (`%1:2`)

            ---

            ```mlir
            %0#1 : none
            ```

            **control** channel: a token without data, valid and ready only (CIRCT reads a raw type in a `handshake.func` as a channel of it)

            **2 wires**: 1 valid + 1 ready

            **produced by** result 1 of `instance` (`%0:2`)

            **consumed by**
            - operand 1 (argument 1 of `@ext`) of `instance` (`%1:2`)

        "#]],
    );
}

#[test]
fn hover_never_panics_on_broken_text() {
    let texts = [
        "",
        "$0",
        "handshake.func @f(%a: i32) -> (i32) {\n  %0 = fork [2] %$0",
        "handshake.func @f(%a: i32$0",
        "%0 = $0",
        "// -----\n$0\n// -----\n",
        "handshake.func @f() {\n  %0:3 = fork [3] %x : <i32, [\n$0",
        "hw.module @m() {\n  %p:2 = pipeline.scheduled() clock(%c) {\n  pipeline.stage ^bb1 regs($0%x : i32)\n^bb1(%r : i32, %e : i1):\n",
        "handshake.func @f(%a: i32) -> i32 {\n  %0 = mux %a [%a, %a] : i32, i32\n  return %0$0 : i32\n}",
    ];
    for text in texts {
        let mut f = Fixture::parse(text);
        let Some(cursor) = f.cursor else { continue };
        let analysis = f.db.analysis();
        let len = TextSize::of(analysis.text(cursor.file).unwrap_or_default());
        for offset in 0..=u32::from(len) {
            let pos = FilePosition { file: cursor.file, offset: offset.into() };
            if let Some(h) = hover(&analysis, pos) {
                assert!(h.range.end() <= len, "{text:?}: {h:?}");
            }
            let _ = signature_help(&analysis, pos);
        }
        let _ = inlay_hints(&analysis, cursor.file, TextRange::up_to(len));
    }
}

// ---- signature help ----------------------------------------------------------------------

#[test]
fn signature_help_while_typing() {
    let cases = [
        ("mux, select", "handshake.func @f(%s: i1, %a: i32, %b: i32) -> i32 {\n  %0 = mux %s$0\n}"),
        ("mux, first data", "handshake.func @f(%s: i1, %a: i32, %b: i32) -> i32 {\n  %0 = mux %s [$0\n}"),
        ("mux, second data", "handshake.func @f(%s: i1, %a: i32, %b: i32) -> i32 {\n  %0 = mux %s [%a, $0\n}"),
        ("mux, a third data input", "handshake.func @f(%s: i1, %a: i32, %b: i32) -> i32 {\n  %0 = mux %s [%a, %b, $0\n}"),
        ("cond_br, data", "  %t, %f = cond_br %c, $0"),
        ("cond_br, in the types", "  %t, %f = cond_br %c, %d : $0"),
        ("load (CIRCT), data", "  %d, %a = load [%addr] %ld$0"),
        ("load (CIRCT), ctrl", "  %d, %a = load [%addr] %ld, $0"),
        ("load (Dynamatic)", "  %d, %a = load [%addr] $0 : <i32>"),
        ("store, address", "  %d, %a = store [$0"),
        ("control_merge (Dynamatic)", "  %r, %i = control_merge [%a, $0] : [<>, <>] to <>, <i1>"),
        ("control_merge (CIRCT)", "  %r, %i = control_merge %a$0"),
        ("fork", "  %0:3 = fork [3] $0"),
        ("buffer (Dynamatic)", "  %0 = buffer $0, bufferType = FIFO_BREAK_DV, numSlots = 2 : <i32>"),
        ("buffer (CIRCT)", "  %0 = buffer [2] seq $0"),
        ("constant", "  %0 = constant $0 {value = 1 : i32} : <>, <i32>"),
        ("join", "  %0 = join %a, %b, $0"),
        ("extmemory", "  %d, %sd, %ld = extmemory [ld = 1, st = 1] (%mem : memref<4xi32>) (%sdata, %saddr, $0"),
        ("dataflow.carry", "  %o = dataflow.carry %c, $0"),
        ("cmpi", "  %o = arith.cmpi slt, %a, $0"),
        ("handshake.sink with prefix", "  handshake.sink $0"),
        ("on the op name", "  %0 = mu$0"),
        ("an unknown op", "  %0 = comb.add %a, $0"),
        ("a comment line", "  // mux %a, $0"),
    ];
    check_signature_help(
        &cases,
        expect![[r#"
            === mux, select
            mux «%select» [%data0, %data1]
              params: %select | %data0 | %data1
              doc: Passes on the token of the data input the select token picks; the select is consumed with it.
            === mux, first data
            mux %select [«%data0», %data1]
              params: %select | %data0 | %data1
              doc: Passes on the token of the data input the select token picks; the select is consumed with it.
            === mux, second data
            mux %select [%data0, «%data1»]
              params: %select | %data0 | %data1
              doc: Passes on the token of the data input the select token picks; the select is consumed with it.
            === mux, a third data input
            mux %select [%data0, %data1, «%data2»]
              params: %select | %data0 | %data1 | %data2
              doc: Passes on the token of the data input the select token picks; the select is consumed with it.
            === cond_br, data
            cond_br %condition, «%data»
              params: %condition | %data
              doc: Sends the data token to the true or the false output, as the condition token says.
            === cond_br, in the types
            cond_br %condition, %data
              params: %condition | %data
              doc: Sends the data token to the true or the false output, as the condition token says.
            === load (CIRCT), data
            load [%address] «%data_from_memory», %control
              params: %address | %data_from_memory | %control
              doc: A load port: sends an address to a memory and passes the data it returns on.
            === load (CIRCT), ctrl
            load [%address] %data_from_memory, «%control»
              params: %address | %data_from_memory | %control
              doc: A load port: sends an address to a memory and passes the data it returns on.
            === load (Dynamatic)
            load [%address] «%data_from_memory»
              params: %address | %data_from_memory
              doc: A load port: sends an address to a memory and passes the data it returns on.
            === store, address
            store [«%address»] %data, %control
              params: %address | %data | %control
              doc: A store port: sends an address and a data token to a memory.
            === control_merge (Dynamatic)
            control_merge [%in0, «%in1»]
              params: %in0 | %in1
              doc: Passes on a token from whichever input has one, and says which input it came from on its index result.
            === control_merge (CIRCT)
            control_merge «%in0», %in1
              params: %in0 | %in1
              doc: Passes on a token from whichever input has one, and says which input it came from on its index result.
            === fork
            fork [N] «%input»
              params: %input
              doc: Copies every input token to all of its outputs; the input is released once every output has taken its copy (eager fork).
            === buffer (Dynamatic)
            buffer «%input», bufferType = TYPE, numSlots = N
              params: %input
              doc: Holds tokens in slots on a channel; depending on its type it registers the data and valid paths, the ready path, or both.
            === buffer (CIRCT)
            buffer [N] seq|fifo «%input»
              params: %input
              doc: Holds tokens in slots on a channel; depending on its type it registers the data and valid paths, the ready path, or both.
            === constant
            constant «%control» {value = V}
              params: %control
              doc: Emits its constant value each time its control input delivers a token.
            === join
            join %in0, %in1, «%in2»
              params: %in0 | %in1 | %in2
              doc: Waits for a token on every input, then emits one control token; the data is dropped.
            === extmemory
            extmemory [ld = 1, st = 1] (%memref) (%store_data0, %store_address0, «%load_address0»)
              params: %memref | %store_data0 | %store_address0 | %load_address0
              doc: A memory outside the circuit, reached through the function's memref argument and its load and store ports.
            === dataflow.carry
            dataflow.carry %condition, «%initial», %carried
              params: %condition | %initial | %carried
              doc: LOOM: a loop-carried value: takes the initial value, then the carried one while the condition is true.
            === cmpi
            arith.cmpi predicate, %lhs, «%rhs»
              params: %lhs | %rhs
              doc: Compares two integers by its predicate (`eq`, `ne`, `slt`, `ult`, ...); the result is one bit.
            === handshake.sink with prefix
            handshake.sink «%input»
              params: %input
              doc: Consumes and drops every token it receives.
            === on the op name
            no signature help
            === an unknown op
            no signature help
            === a comment line
            no signature help
        "#]],
    );
}

#[test]
fn signature_help_uses_the_workspace() {
    let cases = [
        (
            "instance of a function in the file",
            "handshake.func @g(%x: i32, %c: none) -> (i32, none) {\n  return %x, %c : i32, none\n}\nhandshake.func @f(%a: i32, %s: none) -> (i32, none) {\n  %0:2 = instance @g(%a, $0\n}",
        ),
        (
            "end with the function's results (Dynamatic)",
            "handshake.func @f(%a: <i32>, %s: <>) -> (<i32>, <>) {\n  end %a, $0\n}",
        ),
    ];
    check_signature_help(
        &cases,
        expect![[r#"
            === instance of a function in the file
            instance @g(%x: i32, «%c: none»)
              params: %x: i32 | %c: none
              doc: An instance of another function, connected by the channels of its arguments and results.
            === end with the function's results (Dynamatic)
            end %result0 : <i32>, «%result1 : <>»
              params: %result0 : <i32> | %result1 : <>
              doc: The function's exit: waits for its result tokens (and the memories' done tokens) and ends the invocation. In Dynamatic's 2024 IR the memories' done tokens follow the results.
        "#]],
    );
}

// ---- inlay hints -------------------------------------------------------------------------

#[test]
fn inlay_hints_circt() {
    check_hints(
        CIRCT_FUNC,
        expect![[r#"

        handshake.func @circt(%x: i32, %ctrl: none, ...) -> (i32, none) {
          %0:2⟨Type : i32 ×2⟩ = fork [2] %x : i32
          %1⟨Latency D2 V2 R2⟩ = buffer [2] seq %0#0 : i32
          %2⟨Latency D1 V1 R0 (Σ D3 V3 R2)⟩ = buffer [1] fifo %1 : i32
          %3 = arith.addi %2, %0#1 : i32
          return %3, %ctrl : i32, none
        }
    "#]],
    );
}

#[test]
fn inlay_hints_dynamatic() {
    check_hints(
        DYNAMATIC_FUNC,
        expect![[r#"

        handshake.func @dyn(%a: !handshake.channel<i32, [e: i1 (U)]>, %c: <i1>, %start: !handshake.control<>) -> (<i32, [e: i1 (U)]>, <>) attributes {argNames = ["a", "c", "start"], resNames = ["out0", "end"]} {
          %s:2⟨Type : <> ×2⟩ = fork [2] %start : <>
          %k = constant %s#0 {value = 3 : i32} : <>, <i32, [e: i1 (U)]>
          %m = mux %c [%a, %k] : <i1>, [<i32, [e: i1 (U)]>, <i32, [e: i1 (U)]>] to <i32, [e: i1 (U)]>
          %b0⟨Latency D1 V1 R0⟩ = buffer %m {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32, [e: i1 (U)]>
          %b1⟨Latency D0 V0 R1 (Σ D1 V1 R1)⟩ = buffer %b0, bufferType = TEHB, numSlots = 1 : <i32, [e: i1 (U)]>
          %t⟨Type : <i32, [e: i1 (U)]>⟩, %f⟨Type : <i32, [e: i1 (U)]>⟩ = cond_br %c, %b1 : <i1>, <i32, [e: i1 (U)]>
          sink %f : <i32, [e: i1 (U)]>
          end %t, %s#1 : <i32, [e: i1 (U)]>, <>
        }
    "#]],
    );
}

#[test]
fn inlay_hints_loom() {
    check_hints(
        LOOM_FUNC,
        expect![[r#"

        handshake.func @kernel(%mem: memref<16xi32>, %n: index, %k: i32, %start: none) -> none {
          %ld_data, %st_done, %ld_done = extmemory [ld = 1, st = 1] (%mem : memref<16xi32>) (%st_data, %st_addr, %ld_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
          %s:3⟨Type : none ×3⟩ = fork [3] %start : none
          %c0 = constant %s#0 {value = 0 : index} : index
          %c1 = constant %s#1 {value = 1 : index} : index
          %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
          %v, %ac = dataflow.gate %idx, %wc : index, i1 -> index, i1
          %ac_f:3⟨Type : i1 ×3⟩ = fork [3] %ac : i1
          %v_f:2⟨Type : index ×2⟩ = fork [2] %v : index
          %body = dataflow.carry %ac_f#0, %s#2, %next : i1, none, none -> none
          %kk = dataflow.invariant %ac_f#1, %k : i1, i32 -> i32
          %x⟨Type : i32⟩, %ld_addr⟨Type : index⟩ = load [%v_f#0] %ld_data, %body : index, i32
          %sum = arith.addi %x, %kk : i32
          %st_data⟨Type : i32⟩, %st_addr⟨Type : index⟩ = store [%v_f#1] %sum, %ld_done : index, i32
          %next⟨Type : none⟩, %exit⟨Type : none⟩ = cond_br %ac_f#2, %st_done : none
          return %exit : none
        }
    "#]],
    );
}

#[test]
fn inlay_hints_pipeline() {
    check_hints(
        PIPELINE,
        expect![[r#"

        hw.module @matching(in %arg0 : i32, in %arg1 : i8, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out0: i32, out out1: i8) {
          %p:3 = pipeline.scheduled(%a0 : i32 = %arg0, %a1 : i8 = %arg1) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out0: i32, out1: i8) {
            ⟨Stage stage 0⟩%true = hw.constant true
            %sum = comb.add %a0, %a0 : i32
            pipeline.stage ^bb1 regs(%sum : i32) pass(%a1 : i8)
          ⟨Stage stage 1⟩^bb1(%r : i32, %q : i8, %s1_enable : i1):
            %twice = comb.add %r, %r : i32
            pipeline.stage ^bb2 regs(%twice : i32, %q : i8)
          ⟨Stage stage 2⟩^bb2(%r2 : i32, %q2 : i8, %s2_enable : i1):
            pipeline.return %r2, %q2 : i32, i8
          }
          hw.output %p#0, %p#1 : i32, i8
        }

        // -----

        hw.module @crossings(in %arg0 : i32, in %ext : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
          %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
            ⟨Stage stage 0⟩%c1 = hw.constant 1 : i32
            %0 = comb.add %a0, %c1 : i32
            pipeline.stage ^bb1
          ⟨Stage stage 1⟩^bb1(%s1_enable : i1):
            %1 = pipeline.src %0 : i32
            %2 = comb.add %1, %c1 : i32
            %3 = comb.add %2, %ext : i32
            pipeline.return %3 : i32
          }
          hw.output %p#0 : i32
        }
    "#]],
    );
}

#[test]
fn inlay_hints_only_in_range() {
    // The selection covers the two buffer lines: the fork's type hint is left out. Each line is
    // shown after a `|` so that its indentation survives the snapshot.
    let fixture =
        CIRCT_FUNC.replace("  %1 = buffer", "$0  %1 = buffer").replace("  %3 =", "$0  %3 =");
    let mut f = Fixture::parse(&fixture);
    let selection = f.selection.expect("two markers");
    let hints = render_hints(&mut f.db, selection.file, selection.range);
    let shown: String = hints.lines().map(|l| format!("|{l}\n")).collect();
    expect![[r#"
        |  %1⟨Latency D2 V2 R2⟩ = buffer [2] seq %0#0 : i32
        |  %2⟨Latency D1 V1 R0 (Σ D3 V3 R2)⟩ = buffer [1] fifo %1 : i32
    "#]]
    .assert_eq(&shown);
}

// ---- the corpus --------------------------------------------------------------------------

/// A corpus file's text, or `None` (the test is skipped) without the corpus.
fn corpus(path: &str) -> Option<String> {
    let path = shared::path(&format!("corpus/{path}"))?;
    Some(std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

#[test]
fn corpus_gaussian_buffered() {
    let Some(text) = corpus("dynamatic/gaussian-4-2__handshake_buffered.mlir") else { return };
    let mut db = Database::new();
    let file = FileId(0);
    db.set_text(file, text.clone());
    let mut out = String::new();
    {
        let analysis = db.analysis();
        for (needle, within) in [("%11 = buffer", 6), ("%12:2 = fork", 1), ("%result, %index", 10)]
        {
            let at = text.find(needle).expect("in the corpus file") + within;
            let h = hover(&analysis, FilePosition { file, offset: TextSize::from(at as u32) });
            let h = h.expect("a hover");
            out.push_str(&format!(
                "=== {needle}\nhovered `{}`\n{}\n\n",
                &text[h.range],
                h.markdown.trim_end()
            ));
        }
        let line = text.find("%14 = mux %16#1 [%7, ").expect("the mux line")
            + "%14 = mux %16#1 [%7, ".len();
        let help =
            signature_help(&analysis, FilePosition { file, offset: TextSize::from(line as u32) })
                .expect("signature help on the mux");
        out.push_str(&format!(
            "=== signature help\n{} active {:?}\n\n",
            help.label, help.active_parameter
        ));
    }
    // Hints on the lines of the first buffers.
    let start = text.find("    %9 = mux").expect("line") as u32;
    let end = text.find("    %13 = extsi").expect("line") as u32;
    let hints = render_hints(&mut db, file, TextRange::new(start.into(), end.into()));
    // Attributes make the lines long; keep what the hints are about.
    for line in hints.lines() {
        let short: String = match line.find(" {") {
            Some(cut) => line[..cut].to_string(),
            None => line.to_string(),
        };
        out.push_str(&format!("{short}\n"));
    }
    expect![[r#"
        === %11 = buffer
        hovered `buffer`
        **`buffer`**

        Holds tokens in slots on a channel; depending on its type it registers the data and valid paths, the ready path, or both.

        ```mlir
        (<i6>) -> (<i6>)
        ```

        **Dynamatic 2025** form: `buffer %input {hw.parameters = {NUM_SLOTS = N : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : T`; operands: input

        **buffer** `ONE_SLOT_BREAK_R` (legacy name `TEHB`), 1 slot

        - latency: D0 V0 R1
        - breaks: ready
        - bypasses: data, valid
        - channel: 2 buffers, `%10` → **`%11`**
        - along the channel: D1 V1 R1

        === %12:2 = fork
        hovered `%12`
        ```mlir
        %12#0 : <i6>
        ```

        **channel** of `i6`: 6-bit data with valid and ready

        **8 wires**: 6 data + 1 valid + 1 ready

        **produced by** result 0 of `fork` (`%12:2`)

        **consumed by**
        - operand 0 (input) of `br` (`%25`)

        ---

        ```mlir
        %12#1 : <i6>
        ```

        **channel** of `i6`: 6-bit data with valid and ready

        **8 wires**: 6 data + 1 valid + 1 ready

        **produced by** result 1 of `fork` (`%12:2`)

        **consumed by**
        - operand 0 (input) of `extsi` (`%13`)

        === %result, %index
        hovered `%index`
        ```mlir
        %index : <i1>
        ```

        **channel** of `i1`: 1-bit data with valid and ready

        **3 wires**: 1 data + 1 valid + 1 ready

        **produced by** result 1 of `control_merge` (`%result`, `%index`)

        **consumed by**
        - operand 0 (input) of `fork` (`%16:2`)

        === signature help
        mux %select [%data0, %data1] active Some(2)

            %9 = mux %16#0 [%5, %trueResult_36]
            %10⟨Latency D1 V1 R0⟩ = buffer %9, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1
            %11⟨Latency D0 V0 R1 (Σ D1 V1 R1)⟩ = buffer %10, bufferType = ONE_SLOT_BREAK_R, numSlots = 1
            %12:2⟨Type : <i6> ×2⟩ = fork [2] %11
    "#]].assert_eq(&out);
}

/// Dynamatic's memory interfaces give their results the types written after `->`; a
/// `mem_controller` binds one more, its done token.
#[test]
fn memory_interface_results_have_types() {
    let fixture = |cursor_line: &str| {
        format!(
            "handshake.func @f(%m: memref<8xi32>, %memStart: !handshake.control<>, %a0: !handshake.channel<i3>, %ctrlEnd: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) {{\n  {cursor_line}\n  end %ld0, %memEnd, %start : <i32>, <>, <>\n}}\n"
        )
    };
    let line = "%ld0, %memEnd = mem_controller [%m : memref<8xi32>] %memStart (%a0) %ctrlEnd {connectedBlocks = [0 : i32]} : (!handshake.channel<i3>) -> !handshake.channel<i32>";
    let first = render_hover(&fixture(&line.replacen("%ld0", "%l$0d0", 1)));
    let done = render_hover(&fixture(&line.replacen("%memEnd", "%mem$0End", 1)));
    assert!(first.contains("```mlir\n%ld0 : <i32>"), "{first}");
    assert!(done.contains("```mlir\n%memEnd : <>"), "{done}");
}

/// Signature help in each Dynamatic era: the era is read from the function around the cursor
/// (2024's `mc_load` and `end` with done tokens, 2025's two-type `load`).
#[test]
fn signature_help_per_era() {
    let f2024 = "handshake.func @f(%m: memref<4xi32>, %a: !handshake.channel<i32>, %start: !handshake.control<>) -> !handshake.channel<i32> {\n  %d, %done = mem_controller [%m: memref<4xi32>] (%x) {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.control<>)\n  %x, %y = mc_load [%a] $0\n}";
    let end2024 = "handshake.func @f(%m: memref<4xi32>, %a: !handshake.channel<i32>, %start: !handshake.control<>) -> !handshake.channel<i32> {\n  %d, %done = mem_controller [%m: memref<4xi32>] (%x) {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.control<>)\n  %x, %y = mc_load [%a] %d : <i32>, <i32>\n  end %y, $0\n}";
    let f2025 = "handshake.func @f(%a: !handshake.channel<i4>, %d: !handshake.channel<f32>, %start: !handshake.control<>) -> !handshake.control<> {\n  %b = buffer %a {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i4>\n  %x, %y = load[%b] $0\n}";
    let cases = [("mc_load (2024)", f2024), ("end (2024)", end2024), ("load (2025)", f2025)];
    check_signature_help(
        &cases,
        expect![[r#"
        === mc_load (2024)
        mc_load [%address] «%data_from_memory»
          params: %address | %data_from_memory
          doc: Dynamatic 2024: a load port of a memory controller (`mem_controller`).
        === end (2024)
        end %result0 : !handshake.channel<i32>, «%memory_done0»
          params: %result0 : !handshake.channel<i32> | %memory_done0
          doc: The function's exit: waits for its result tokens (and the memories' done tokens) and ends the invocation. In Dynamatic's 2024 IR the memories' done tokens follow the results.
        === load (2025)
        load [%address] «%data_from_memory»
          params: %address | %data_from_memory
          doc: A load port: sends an address to a memory and passes the data it returns on.
    "#]],
    );
}

/// Hover on what is not a value or an op: a Dynamatic type, a buffer type's keyword or string,
/// a block label (issue 25: these were empty).
#[test]
fn hover_on_types_buffer_types_and_blocks() {
    let dynamatic = "handshake.func @f(%a: !handshake.channel<i32, [spec: i1]>, %start: !handshake.control<>) -> (!handshake.channel<i32, [spec: i1]>, !handshake.control<>) {\n  %0 = buffer %a, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32, [spec: i1]>\n  %1 = buffer %0 {hw.parameters = {BUFFER_TYPE = \"FIFO_BREAK_NONE\", NUM_SLOTS = 2 : ui32}} : <i32, [spec: i1]>\n  end %1, %start : <i32, [spec: i1]>, <>\n}";
    let pipeline = "hw.module @m(in %a : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out : i32, out done : i1) {\n  %out, %done = pipeline.scheduled(%a0 : i32 = %a) clock(%clk) reset(%rst) go(%go) entryEn(%s0) -> (out : i32) {\n    pipeline.stage ^bb1 regs(%a0 : i32)\n  ^bb1(%r : i32, %s1 : i1):\n    pipeline.return %r : i32\n  }\n  hw.output %out, %done : i32, i1\n}";
    let at = |text: &str, needle: &str, into: usize| {
        let i = text.find(needle).unwrap() + into;
        format!("{}$0{}", &text[..i], &text[i..])
    };
    check_hovers(
        &[
            ("a channel type with an extra signal", &at(dynamatic, "<i32, [spec", 2)),
            ("an inline buffer type", &at(dynamatic, "ONE_SLOT_BREAK_DV", 3)),
            ("a buffer type in hw.parameters", &at(dynamatic, "\"FIFO_BREAK_NONE\"", 3)),
            ("a block named as a successor", &at(pipeline, "^bb1 regs", 2)),
            ("a block at its label", &at(pipeline, "^bb1(%r", 2)),
        ],
        expect![[r#"
            === a channel type with an extra signal
            hovered `!handshake.channel<i32, [spec: i1]>`
            ```mlir
            <i32, [spec: i1]>
            ```

            **channel** of `i32`: 32-bit data with valid and ready
            - extra signal `spec: i1`: 1 bit, downstream, with the data

            **35 wires**: 32 data + 1 valid + 1 ready + 1 downstream extra

            Dynamatic's full spelling of a channel type; its ops write the short form `<T>`

            the function is written in Dynamatic 2026's syntax

            === an inline buffer type
            hovered `ONE_SLOT_BREAK_DV`
            **buffer type** `ONE_SLOT_BREAK_DV` (legacy name `OEHB`)

            - latency: D1 V1 R0
            - breaks: data, valid
            - slots: exactly one

            === a buffer type in hw.parameters
            hovered `"FIFO_BREAK_NONE"`
            **buffer type** `FIFO_BREAK_NONE` (legacy name `TFIFO`)

            - latency: D0 V0 R0
            - breaks: nothing
            - slots: any number

            === a block named as a successor
            hovered `^bb1`
            **block** `^bb1` of `pipeline.scheduled`

            1 op; arguments: `%r : i32`, `%s1 : i1`

            **predecessors**: the entry block (`pipeline.stage`)

            **pipeline stage** 1

            === a block at its label
            hovered `^bb1`
            **block** `^bb1` of `pipeline.scheduled`

            1 op; arguments: `%r : i32`, `%s1 : i1`

            **predecessors**: the entry block (`pipeline.stage`)

            **pipeline stage** 1

        "#]],
    );
}

/// Data-driven hovers: every `analysis/test_data/ide/hover/*.mlir` marks the positions hovered
/// with `$0`; its `.expected` beside it holds each position's hover. Refresh with
/// `UPDATE_EXPECT=1 cargo test -p hsir-analysis --test ide_hover`.
#[test]
fn hover_fixtures() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data/ide/hover");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the hover fixtures")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".mlir"))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    for name in names {
        let marked = std::fs::read_to_string(dir.join(&name)).expect("a fixture");
        let mut text = marked.clone();
        let mut cursors = Vec::new();
        while let Some(at) = text.find("$0") {
            text.replace_range(at..at + 2, "");
            cursors.push(at);
        }
        assert!(!cursors.is_empty(), "{name} marks no position");
        let mut db = Database::new();
        let file = FileId(0);
        db.set_text(file, text.clone());
        let analysis = db.analysis();
        let mut out = String::new();
        for at in cursors {
            let line = text[..at].matches('\n').count() + 1;
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
            // The word around the position, to say what was hovered.
            let word_start = text[line_start..at]
                .rfind(|c: char| c.is_whitespace() || "(){}[],=".contains(c))
                .map_or(line_start, |i| line_start + i + 1);
            let word_end = text[at..line_end]
                .find(|c: char| c.is_whitespace() || "(){}[],=".contains(c))
                .map_or(line_end, |i| at + i);
            let word = format!("{}|{}", &text[word_start..at], &text[at..word_end]);
            let position = FilePosition { file, offset: TextSize::from(at as u32) };
            let shown = match hover(&analysis, position) {
                Some(h) => format!("hovered `{}`\n{}", &text[h.range], h.markdown.trim_end()),
                None => "no hover".to_string(),
            };
            out.push_str(&format!("=== {line}: {word}\n{shown}\n\n"));
        }
        expect_test::expect_file![dir.join(format!("{name}.expected"))].assert_eq(&out);
    }
}
