// Ops hsir does not know are reported once, as information; their operands and results are
// not checked, but the rest of the function is.
handshake.func @circt(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {
  // expected-remark @+1 {{HS1109: hsir does not know `test.scramble`; its operands and results are not checked}}
  %0 = "test.scramble"(%a) : (i32) -> i64
  // expected-remark @+1 {{HS1109: hsir does not know `hw.constant`}}
  %1 = hw.constant 5 : i8
  // The known ops around them are still checked.
  // expected-note @-6 {{defined here}}
  // expected-error @+1 {{HS1105: `%b` is used as `i64` here, but its type is `i32`}}
  %2 = addi %0, %b : i64
  %3 = trunci %2 : i64 to i32
  return %3, %ctrl : i32, none
}

// -----

// An op without a dialect prefix is read as Handshake; one hsir does not know is reported.
handshake.func @dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-remark @+1 {{HS1109: hsir does not know `frobnicate`}}
  %0 = frobnicate %a : <i32>
  end %0, %start : <i32>, <>
}

// -----

// Valid: every op here is known.
handshake.func @known(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i1>, !handshake.control<>) {
  %0 = cmpi slt, %a, %b : <i32>
  %1 = not %0 : <i1>
  end %1, %start : <i1>, <>
}
