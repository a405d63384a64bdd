// The backend's diagnostics, as `hsir rtl --testbench` reports them (backend/tests/diagnostics.rs
// generates each case, with a testbench, and matches the annotations). `// hsir-rtl: top=F`
// names the function to generate.

handshake.func @float_rem(%a: f32, %b: f32, %start: none) -> (f32, none) {
  // expected-error @+1 {{HS5001: the backend has no RTL for `arith.remf`}}
  %0 = arith.remf %a, %b : f32
  return %0, %start : f32, none
}

// -----

// The float units are f32 and f64 only.
handshake.func @half_add(%a: f16, %b: f16, %start: none) -> (f16, none) {
  // expected-error @+1 {{HS5001: the backend has no RTL for `arith.addf` on `f16` (hsir's float units are f32 and f64)}}
  %0 = arith.addf %a, %b : f16
  return %0, %start : f16, none
}

// -----

handshake.func @float_constant(%start: none) -> (f32, none) {
  %s:2 = fork [2] %start : none
  // expected-error @+1 {{HS5001: the backend has no RTL for `constant` with this `value` (hsir reads integers, booleans and f32 / f64 numbers)}}
  %0 = constant %s#0 {value = "pi" : f32} : f32
  return %0, %s#1 : f32, none
}

// -----

// expected-remark @+2 {{HS5002: `%a` has 2 uses: hsir adds a `fork [2]`}}
// expected-remark @+1 {{HS5002: `%b` is never used: hsir adds a `sink`}}
handshake.func @copies(%a: i32, %b: i32, %start: none) -> (i32, i32, none) {
  return %a, %a, %start : i32, i32, none
}

// -----

// expected-error @+1 {{HS5003: `%a` carries 128 bits; the backend carries at most 64}}
handshake.func @wide(%a: i128, %start: none) -> (i128, none) {
  return %a, %start : i128, none
}

// -----

handshake.func private @ext(i32, none) -> (i32, none)
handshake.func @calls(%a: i32, %start: none) -> (i32, none) {
  // expected-error @+1 {{HS5004: `instance` of `@ext`, a declaration without a body}}
  %0:2 = instance @ext(%a, %start) : (i32, none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}

// -----

// hsir-rtl: top=kernel
// expected-error @+1 {{HS5005: no function or module `@kernel` in this file; it has @kernel_0}}
handshake.func @kernel_0(%a: i32, %start: none) -> (i32, none) {
  return %a, %start : i32, none
}

// -----

// One select token: the mux takes one `%a`; the other tokens stay where they are.
// hsir-sim: s=0
handshake.func @pick(%s: i1, %a: i32, %b: i32, %start: none) -> (i32, none) {
  // expected-warning @+2 {{HS5006: 2 tokens left on the data 0 of `mux` (`%a`)}}
  // expected-warning @+1 {{HS5006: 3 tokens left on the data 1 of `mux` (`%b`)}}
  %0 = mux %s [%a, %b] : i1, i32
  return %0, %start : i32, none
}

// -----

handshake.func @race(%a: i32, %b: i32, %start: none) -> (i32, none) {
  // expected-warning @+1 {{HS5007: `merge` (`%0`): the tokens of inputs 0 and 1 are not ordered by the circuit}}
  %0 = merge %a, %b : i32
  return %0, %start : i32, none
}

// -----

// A declaration that names its arguments is still a declaration.
handshake.func private @pop(%queue: i32, %ctrl: none) -> (i32, none) attributes {argNames = ["queue", "ctrl"]}
handshake.func @pops(%q: i32, %start: none) -> (i32, none) {
  // expected-error @+1 {{HS5004: `instance` of `@pop`, a declaration without a body}}
  %0:2 = instance @pop(%q, %start) : (i32, none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}

// -----

handshake.func @first(%a: i32, %start: none) -> (i32, none) {
  return %a, %start : i32, none
}
// expected-remark @+1 {{HS5008: generating `@second`, the last of 2 functions nothing instantiates (@first, @second)}}
handshake.func @second(%a: i32, %start: none) -> (i32, none) {
  return %a, %start : i32, none
}

// -----

handshake.func @init(%a: i32, %start: none) -> (i32, none) {
  // expected-error @+1 {{HS5001: `buffer` with `initValues` that are not all integers}}
  %b = buffer [2] seq %a {initValues = [1.5, 2]} : i32
  return %b, %start : i32, none
}

// -----

// Dynamatic's LSQ-MC form whose requests reach no `mem_controller` (its load data comes from
// the argument `%d` and its requests go to the results): the RTL needs the controller's store
// port to say when the LSQ's stores are written.
handshake.func @lsq_behind_mc(%a: !handshake.channel<i3>, %d: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i3>, !handshake.control<>) attributes {argNames = ["a", "d", "start"], resNames = ["x", "to_mc", "end"]} {
  %s:2 = fork [2] %start : <>
  // expected-error @+1 {{HS5001: `lsq [MC]` whose results do not reach a `mem_controller`'s load and store ports}}
  %q:4 = lsq[MC] (%s#0, %l_a, %d) {groupSizes = [1 : i32]} : (!handshake.control<>, !handshake.channel<i3>, !handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<i32>)
  %l_a, %x = load[%a] %q#0 {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  sink %q#2 : <i3>
  sink %q#3 : <i32>
  end %x, %q#1, %s#1 : <i32>, <i3>, <>
}

// -----

// `groupSizes` says two accesses, the operands hold one.
handshake.func @lsq_sizes(%mem: memref<8xi32>, %a: !handshake.channel<i3>, %mem_start: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) attributes {argNames = ["mem", "a", "mem_start", "start"], resNames = ["x", "mem_end", "end"]} {
  %s:3 = fork [3] %start : <>
  // expected-error @+1 {{HS5001: `lsq` whose ports hsir cannot read: group 0 has 1 access, `groupSizes` says 2}}
  %q:2 = lsq[%mem : memref<8xi32>] (%mem_start, %s#0, %l_a, %s#1) {groupSizes = [2 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i3>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  %l_a, %x = load[%a] %q#0 {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  end %x, %q#1, %s#2 : <i32>, <>, <>
}

// -----

// The top is refused when a function it instantiates has errors, even when its own text has
// none; the refusal names the callee, and gives the callee's errors.
// hsir-rtl: top=top
// expected-note @+1 {{defined here}}
handshake.func @broken(%a: i32, %b: i64, %start: none) -> (i32, none) {
  // expected-error @+1 {{HS1105: `%b` is used as `i32` here, but its type is `i64`}}
  %c = arith.addi %a, %b : i32
  return %c, %start : i32, none
}
handshake.func @top(%a: i32, %b: i64, %start: none) -> (i32, none) {
  // expected-error @+1 {{HS5009: `@top` instantiates `@broken`, which has errors}}
  %0:2 = instance @broken(%a, %b, %start) : (i32, i64, none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}

// -----

// Dataflow lint errors stop RTL generation (HS5010, then the lint errors themselves).
// expected-error @+1 {{HS5010: `@sunk_done` has 1 dataflow lint error, which its RTL would build in}}
handshake.func @sunk_done(%a: memref<4xi32>, %i: index, %start: none) -> (i32, none) {
  // expected-error @+1 {{HS3027: the done token `%ldDone` of load `%x` must reach the returned control `%done` on every path, but can end in a `sink`}}
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  // expected-note @+1 {{the access}}
  %x, %addr = load [%i] %ld, %start : index, i32
  %d:2 = fork [2] %ldDone : none
  // expected-note @+1 {{the token ends here}}
  sink %d#1 : none
  %done = join %d#0 : none
  return %x, %done : i32, none
}

// -----

// A function with no buffers whose loop nothing breaks: a remark (HS2023) in `hsir check`, an
// error for RTL, which would build the loop as combinational logic.
// expected-error @+2 {{HS5010: `@open_counter` has 1 dataflow lint error, which its RTL would build in; place buffers (`hsir buffers FILE --in-place`, or "Place buffers" in the editor), or generate it anyway}}
// expected-error @+1 {{HS2023: `@open_counter` has no buffers yet and 1 cycle that no buffer breaks, e.g. `%a` -> `%at` -> back}}
handshake.func @open_counter(%x: i32, %c: i1, %ctrl: none) -> (i32, none) {
  %a = merge %x, %at : i32
  %at, %ae = cond_br %c, %a : i32
  return %ae, %ctrl : i32, none
}

// -----

// A loop whose two slots (the merge's own and a DVR buffer's) both fill with the two `%x`
// tokens: a deadlock in hardware the untimed interpreter cannot see, found by the cycle-level
// simulation before any Verilog is written.
// hsir-sim: tokens=2 x=0..5
handshake.func @dvr_deadlock(%x: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS5011: `@dvr_deadlock` deadlocks in hardware with 2 tokens per argument, after 2 cycles: the cycle `%m` -> `%f#0` -> `%c` -> `%t` -> `%back` -> `%m` holds 2 tokens and has 2 slots, none free to move into (output `out0` got 0 of 2 tokens); add slots to the cycle}}
  %m = merge %x, %back : <i32>
  %f:2 = fork [2] %m : <i32>
  %s:2 = fork [2] %src : <>
  %src = source : <>
  %ten = constant %s#0 {value = 10 : i32} : <>, <i32>
  %one = constant %s#1 {value = 1 : i32} : <>, <i32>
  %c = cmpi ult, %f#0, %ten : <i32>
  %n = addi %f#1, %one : <i32>
  %t, %e = cond_br %c, %n : <i1>, <i32>
  %back = buffer %t, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  end %e, %start : <i32>, <>
}
