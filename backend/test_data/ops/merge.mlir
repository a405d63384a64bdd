// merge: the token of whichever input holds one. The inputs are made mutually exclusive by a
// cond_br on `c`, so the output does not depend on timing. With more than one token per
// argument, tokens of later invocations could wait at the other input, so one token only; the
// two functions take the two branches.

// hsir-sim: tokens=1 c=1
handshake.func @merge_circt(%c: i1, %a: i32) -> i32 {
  %t, %f = cond_br %c, %a : i32
  %0 = merge %t, %f : i32
  return %0 : i32
}

// hsir-sim: tokens=1 c=0
handshake.func @merge_dynamatic(%c: !handshake.channel<i1>, %a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["c", "a", "start"], resNames = ["out0", "end"]} {
  %t, %f = cond_br %c, %a : <i1>, <i32>
  %0 = merge %t, %f : <i32>
  end %0, %start : <i32>, <>
}
