// br passes every token; cond_br sends each data token to its true output when the paired
// condition token is 1, else to its false output. Any tokens.

handshake.func @br_circt(%a: i32) -> i32 {
  %0 = br %a : i32
  return %0 : i32
}

handshake.func @cond_br_circt(%c: i1, %a: i32) -> (i32, i32) {
  %t, %f = cond_br %c, %a : i32
  return %t, %f : i32, i32
}

handshake.func @cond_br_control_circt(%c: i1, %ctrl: none) -> (none, none) {
  %t, %f = cond_br %c, %ctrl : none
  return %t, %f : none, none
}

handshake.func @br_dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "end"]} {
  %0 = br %a : <i32>
  end %0, %start : <i32>, <>
}

handshake.func @cond_br_dynamatic(%c: !handshake.channel<i1>, %a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["c", "a", "start"], resNames = ["t", "f", "end"]} {
  %t, %f = cond_br %c, %a : <i1>, <i32>
  end %t, %f, %start : <i32>, <i32>, <>
}
