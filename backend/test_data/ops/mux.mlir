// mux: the select token picks the input whose token passes. A cond_br on the same select
// feeds the inputs, so exactly the selected one holds a token and nothing is left over: the
// output is `a + 1` when `s` is 0 and `a * 2` when it is 1 (CIRCT), or a three-way choice
// (Dynamatic, `s` in 0..2: `not a`, `a`, `a + 1`). Any number of tokens. Every
// constant has its own source: a fork of one source would stall on the branch not taken.

handshake.func @mux_circt(%s: i1, %a: i32) -> i32 {
  %s2:2 = fork [2] %s : i1
  %t, %f = cond_br %s2#0, %a : i32
  %src1 = source
  %src2 = source
  %one = constant %src1 {value = 1 : i32} : i32
  %two = constant %src2 {value = 2 : i32} : i32
  %f1 = arith.addi %f, %one : i32
  %t2 = arith.muli %t, %two : i32
  %0 = mux %s2#1 [%f1, %t2] : i1, i32
  return %0 : i32
}

// hsir-sim: s=0..2
handshake.func @mux_dynamatic(%s: !handshake.channel<i2>, %a: !handshake.channel<i8>, %start: !handshake.control<>) -> (!handshake.channel<i8>, !handshake.control<>) attributes {argNames = ["s", "a", "start"], resNames = ["out0", "end"]} {
  %s3:3 = fork [3] %s : <i2>
  %src1 = source : <>
  %src2 = source : <>
  %c2 = constant %src1 {value = -2 : i2} : <>, <i2>
  %c1 = constant %src2 {value = 1 : i8} : <>, <i8>
  %is2 = cmpi eq, %s3#0, %c2 : <i2>
  %is2f:2 = fork [2] %is2 : <i1>
  %a2, %a01 = cond_br %is2f#0, %a : <i1>, <i8>
  %s2, %s01 = cond_br %is2f#1, %s3#1 : <i1>, <i2>
  sink %s2 : <i2>
  %bit = trunci %s01 : <i2> to <i1>
  %a1, %a0 = cond_br %bit, %a01 : <i1>, <i8>
  %n0 = not %a0 : <i8>
  %p2 = addi %a2, %c1 : <i8>
  %0 = mux %s3#2 [%n0, %a1, %p2] : <i2>, [<i8>, <i8>, <i8>] to <i8>
  end %0, %start : <i8>, <>
}
