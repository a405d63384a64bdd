// join: one control token once every input holds a token (data is dropped). sync (CIRCT): one
// token from every input, each passed on to its own output. Any tokens are meaningful; every
// argument gets the same number, so nothing is left over.

handshake.func @join_circt(%a: i32, %b: none, %c: i1) -> none {
  %0 = join %a, %b, %c : i32, none, i1
  return %0 : none
}

handshake.func @sync_circt(%a: none, %b: i32, %c: i8) -> (none, i32, i8) {
  %0:3 = sync %a, %b, %c : none, i32, i8
  return %0#0, %0#1, %0#2 : none, i32, i8
}

handshake.func @join_dynamatic(%a: !handshake.channel<i32>, %b: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out0", "end"]} {
  %0 = join %a, %b : <i32>, <>
  end %0, %start : <>, <>
}
