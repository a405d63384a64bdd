// Dynamatic's integer ops on channels, the families of arith_circt.mlir (which says what the
// edge cases give), plus Dynamatic's bitwise `not`. Every function passes its start token to
// its end.

handshake.func @add_sub_mul_dyn(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out0", "out1", "out2", "end"]} {
  %a3:3 = fork [3] %a : <i32>
  %b3:3 = fork [3] %b : <i32>
  %0 = addi %a3#0, %b3#0 : <i32>
  %1 = subi %a3#1, %b3#1 : <i32>
  %2 = muli %a3#2, %b3#2 : <i32>
  end %0, %1, %2, %start : <i32>, <i32>, <i32>, <>
}

// hsir-sim: tokens=8 b=-2..2
handshake.func @div_rem_dyn(%a: !handshake.channel<i8>, %b: !handshake.channel<i8>, %start: !handshake.control<>) -> (!handshake.channel<i8>, !handshake.channel<i8>, !handshake.channel<i8>, !handshake.channel<i8>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out0", "out1", "out2", "out3", "end"]} {
  %a4:4 = fork [4] %a : <i8>
  %b4:4 = fork [4] %b : <i8>
  %0 = divsi %a4#0, %b4#0 : <i8>
  %1 = divui %a4#1, %b4#1 : <i8>
  %2 = remsi %a4#2, %b4#2 : <i8>
  %3 = remui %a4#3, %b4#3 : <i8>
  end %0, %1, %2, %3, %start : <i8>, <i8>, <i8>, <i8>, <>
}

// hsir-sim: tokens=4 a=-128,-128,-7,7 b=-1,0,2,-2
handshake.func @div_edges_dyn(%a: !handshake.channel<i8>, %b: !handshake.channel<i8>, %start: !handshake.control<>) -> (!handshake.channel<i8>, !handshake.channel<i8>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out0", "out1", "end"]} {
  %a2:2 = fork [2] %a : <i8>
  %b2:2 = fork [2] %b : <i8>
  %0 = divsi %a2#0, %b2#0 : <i8>
  %1 = remsi %a2#1, %b2#1 : <i8>
  end %0, %1, %start : <i8>, <i8>, <>
}

handshake.func @bitwise_dyn(%a: !handshake.channel<i16>, %b: !handshake.channel<i16>, %start: !handshake.control<>) -> (!handshake.channel<i16>, !handshake.channel<i16>, !handshake.channel<i16>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out0", "out1", "out2", "end"]} {
  %a3:3 = fork [3] %a : <i16>
  %b3:3 = fork [3] %b : <i16>
  %0 = andi %a3#0, %b3#0 : <i16>
  %1 = ori %a3#1, %b3#1 : <i16>
  %2 = xori %a3#2, %b3#2 : <i16>
  end %0, %1, %2, %start : <i16>, <i16>, <i16>, <>
}

// hsir-sim: tokens=8 b=0..10
handshake.func @shifts_dyn(%a: !handshake.channel<i8>, %b: !handshake.channel<i8>, %start: !handshake.control<>) -> (!handshake.channel<i8>, !handshake.channel<i8>, !handshake.channel<i8>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out0", "out1", "out2", "end"]} {
  %a3:3 = fork [3] %a : <i8>
  %b3:3 = fork [3] %b : <i8>
  %0 = shli %a3#0, %b3#0 : <i8>
  %1 = shrsi %a3#1, %b3#1 : <i8>
  %2 = shrui %a3#2, %b3#2 : <i8>
  end %0, %1, %2, %start : <i8>, <i8>, <i8>, <>
}

// hsir-sim: tokens=6
handshake.func @min_max_dyn(%a: !handshake.channel<i8>, %b: !handshake.channel<i8>, %start: !handshake.control<>) -> (!handshake.channel<i8>, !handshake.channel<i8>, !handshake.channel<i8>, !handshake.channel<i8>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out0", "out1", "out2", "out3", "end"]} {
  %a4:4 = fork [4] %a : <i8>
  %b4:4 = fork [4] %b : <i8>
  %0 = maxsi %a4#0, %b4#0 : <i8>
  %1 = maxui %a4#1, %b4#1 : <i8>
  %2 = minsi %a4#2, %b4#2 : <i8>
  %3 = minui %a4#3, %b4#3 : <i8>
  end %0, %1, %2, %3, %start : <i8>, <i8>, <i8>, <i8>, <>
}

// Every predicate; operands near zero so that equal, signed-negative and unsigned-large
// cases all occur.
// hsir-sim: tokens=8 a=-2..2 b=-2..2
handshake.func @cmpi_dyn(%a: !handshake.channel<i8>, %b: !handshake.channel<i8>, %start: !handshake.control<>) -> (!handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out0", "out1", "out2", "out3", "out4", "out5", "out6", "out7", "out8", "out9", "end"]} {
  %a10:10 = fork [10] %a : <i8>
  %b10:10 = fork [10] %b : <i8>
  %0 = cmpi eq, %a10#0, %b10#0 : <i8>
  %1 = cmpi ne, %a10#1, %b10#1 : <i8>
  %2 = cmpi slt, %a10#2, %b10#2 : <i8>
  %3 = cmpi sle, %a10#3, %b10#3 : <i8>
  %4 = cmpi sgt, %a10#4, %b10#4 : <i8>
  %5 = cmpi sge, %a10#5, %b10#5 : <i8>
  %6 = cmpi ult, %a10#6, %b10#6 : <i8>
  %7 = cmpi ule, %a10#7, %b10#7 : <i8>
  %8 = cmpi ugt, %a10#8, %b10#8 : <i8>
  %9 = cmpi uge, %a10#9, %b10#9 : <i8>
  end %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %start : <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <>
}

// Conversions: sign- and zero-extension, truncation; `index_cast` sign-extends; bitwise `not`.
// hsir-sim: tokens=6
handshake.func @casts_dyn(%a: !handshake.channel<i8>, %b: !handshake.channel<i32>, %c: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i4>, !handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "b", "c", "start"], resNames = ["out0", "out1", "out2", "out3", "end"]} {
  %a2:2 = fork [2] %a : <i8>
  %0 = extsi %a2#0 : <i8> to <i32>
  %1 = extui %a2#1 : <i8> to <i32>
  %2 = trunci %b : <i32> to <i4>
  %3 = not %c : <i32>
  end %0, %1, %2, %3, %start : <i32>, <i32>, <i4>, <i32>, <>
}

// select joins its three operands and passes the true value when the condition is 1.
handshake.func @select_dyn(%c: !handshake.channel<i1>, %t: !handshake.channel<i32>, %f: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["c", "t", "f", "start"], resNames = ["out0", "end"]} {
  %0 = select %c [%t, %f] : <i1>, <i32>
  end %0, %start : <i32>, <>
}
