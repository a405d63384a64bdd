// A function without forks whose values are consumed several times has not been through fork
// and sink materialization (Dynamatic's handshake.mlir, CIRCT before
// handshake-materialize-forks-sinks): the single-use rule is stated once, not per value.
// expected-remark @+1 {{HS1110: this function has not been through fork and sink materialization: 3 values are consumed several times and 1 never consumed}}
handshake.func @early(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = addi %a, %a : <i32>
  %1 = muli %0, %0 : <i32>
  %2 = subi %b, %1 : <i32>
  end %1, %start : <i32>, <>
}

// -----

// CIRCT's spelling, before handshake-materialize-forks-sinks.
// expected-remark @+1 {{HS1110: this function has not been through fork and sink materialization: 1 value is consumed several times and 0 never consumed}}
handshake.func @circt(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = arith.addi %a, %a : i32
  return %0, %ctrl : i32, none
}

// -----

// Once a function has forks, each value is held to the rule on its own.
handshake.func @materialized(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %f:2 = fork [2] %a : <i32>
  // expected-warning @+1 {{HS1108}}
  %0 = addi %f#0, %f#1 : <i32>
  // expected-note @+2 {{consumed here}}
  // expected-note @+1 {{consumed here}}
  %1 = muli %0, %0 : <i32>
  end %1, %start : <i32>, <>
}
