// SSA: each name is defined once where it is visible. Uses bind to the first definition, so
// the second one's channel is left without a consumer.
handshake.func @dynamatic(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-note @+1 {{`%0` first defined here}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  // expected-error @+2 {{HS1102: redefinition of `%0`}}
  // expected-warning @+1 {{HS1107: `%0` is never consumed}}
  %0 = buffer %b, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  end %0, %start : <i32>, <>
}

// -----

// A result may not reuse an argument's name.
// expected-note @+1 {{`%a` first defined here}}
handshake.func @circt(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+2 {{HS1102: redefinition of `%a`}}
  // expected-warning @+1 {{HS1107: `%a` is never consumed}}
  %a = buffer [1] seq %b : i32
  return %a, %ctrl : i32, none
}

// -----

// Arguments are names too.
// expected-error @+3 {{HS1102: redefinition of `%x`}}
// expected-note @+2 {{`%x` first defined here}}
// expected-warning @+1 {{HS1107: `%x` is never consumed}}
handshake.func @args(%x: none, %x: none) -> none {
  return %x : none
}

// -----

// The same rule holds outside Handshake.
func.func @plain(%a: i32) -> i32 {
  // expected-note @+1 {{`%0` first defined here}}
  %0 = arith.addi %a, %a : i32
  // expected-error @+1 {{HS1102: redefinition of `%0`}}
  %0 = arith.muli %a, %a : i32
  return %0 : i32
}

// -----

// Valid: each function is its own scope, so names may repeat across functions.
handshake.func @first(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = buffer [1] seq %a : i32
  return %0, %ctrl : i32, none
}

handshake.func @second(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 2 : <i32>
  end %0, %start : <i32>, <>
}

// -----

// A nested loop's induction variable may not reuse a name its enclosing loop binds.
func.func @nested_loops(%lb: index, %ub: index, %step: index) {
  // expected-note @+1 {{`%i` first defined here}}
  scf.for %i = %lb to %ub step %step {
    // expected-error @+1 {{HS1102: redefinition of `%i`}}
    scf.for %i = %lb to %ub step %step {
    }
  }
  return
}
