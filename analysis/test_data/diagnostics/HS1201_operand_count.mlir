// Ops with a fixed number of operands, and merge-like ops that need at least one input.
handshake.func @circt(%a: i32, %b: i32, %ctrl: none) -> none {
  // expected-error @+1 {{HS1201: `sink` takes 1 operand here, 2 given}}
  sink %a, %b : i32
  // expected-error @+1 {{HS1201: `merge` needs at least one data operand}}
  %0 = merge : none
  %1 = join %0, %ctrl : none, none
  return %1 : none
}

// -----

handshake.func @dynamatic(%cond: !handshake.channel<i1>, %sel: !handshake.channel<i1>, %a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS1201: `cond_br` takes 2 operands here, 1 given}}
  %t, %f = cond_br %cond : <i1>, <i32>
  sink %t : <i32>
  sink %f : <i32>
  // expected-error @+1 {{HS1201: `mux` needs at least one data operand}}
  %0 = mux %sel [] : <i1>, [] to <i32>
  sink %0 : <i32>
  end %a, %start : <i32>, <>
}

// -----

// The generic form lists the operand types, and they must match the operands.
handshake.func @generic(%a: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1201: `buffer` takes 2 operands here, 1 given}}
  %0 = "handshake.buffer"(%a) {numSlots = 1 : i32, bufferType = 0 : i32} : (i32, i32) -> i32
  return %0, %ctrl : i32, none
}

// -----

// Valid: variadic ops take any number of operands.
handshake.func @valid(%a: none, %b: none, %c: none, %ctrl: none) -> (none, none) {
  %0 = join %a, %b, %c : none, none, none
  %1 = merge %0 : none
  return %1, %ctrl : none, none
}
