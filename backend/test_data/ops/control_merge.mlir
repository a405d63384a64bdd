// control_merge: the token of whichever input holds one, and that input's index. The inputs are
// made mutually exclusive by a cond_br on `c`; one token per argument (see merge.mlir). The
// index is 0 when `c` is 1 (the true branch feeds input 0).

// hsir-sim: tokens=1 c=1
handshake.func @control_merge_circt(%c: i1, %ctrl: none) -> (none, index) {
  %t, %f = cond_br %c, %ctrl : none
  %0, %1 = control_merge %t, %f : none, index
  return %0, %1 : none, index
}

// hsir-sim: tokens=1 c=0
handshake.func @control_merge_data_circt(%c: i1, %a: i32) -> (i32, index) {
  %t, %f = cond_br %c, %a : i32
  %0, %1 = control_merge %t, %f : i32, index
  return %0, %1 : i32, index
}

// hsir-sim: tokens=1 c=0
handshake.func @control_merge_dynamatic(%c: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.channel<i1>) attributes {argNames = ["c", "start"], resNames = ["out0", "index"]} {
  %t, %f = cond_br %c, %start : <i1>, <>
  %0, %1 = control_merge [%t, %f] : [<>, <>] to <>, <i1>
  end %0, %1 : <>, <i1>
}
