// CIRCT's `arith` integer ops on channels, one function per family. Each op joins its two
// operands. Division by zero gives all ones (divui, divsi) or the dividend (remui, remsi); the
// most negative value over -1 gives itself (divsi) and 0 (remsi); shifts by the width or more
// give 0, or the sign for shrsi.

handshake.func @add_sub_mul(%a: i32, %b: i32) -> (i32, i32, i32) {
  %a3:3 = fork [3] %a : i32
  %b3:3 = fork [3] %b : i32
  %0 = arith.addi %a3#0, %b3#0 : i32
  %1 = arith.subi %a3#1, %b3#1 : i32
  %2 = arith.muli %a3#2, %b3#2 : i32
  return %0, %1, %2 : i32, i32, i32
}

// hsir-sim: tokens=8 b=-2..2
handshake.func @div_rem(%a: i8, %b: i8) -> (i8, i8, i8, i8) {
  %a4:4 = fork [4] %a : i8
  %b4:4 = fork [4] %b : i8
  %0 = arith.divsi %a4#0, %b4#0 : i8
  %1 = arith.divui %a4#1, %b4#1 : i8
  %2 = arith.remsi %a4#2, %b4#2 : i8
  %3 = arith.remui %a4#3, %b4#3 : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}

// hsir-sim: tokens=4 a=-128,-128,-7,7 b=-1,0,2,-2
handshake.func @div_edges(%a: i8, %b: i8) -> (i8, i8) {
  %a2:2 = fork [2] %a : i8
  %b2:2 = fork [2] %b : i8
  %0 = arith.divsi %a2#0, %b2#0 : i8
  %1 = arith.remsi %a2#1, %b2#1 : i8
  return %0, %1 : i8, i8
}

handshake.func @bitwise(%a: i16, %b: i16) -> (i16, i16, i16) {
  %a3:3 = fork [3] %a : i16
  %b3:3 = fork [3] %b : i16
  %0 = arith.andi %a3#0, %b3#0 : i16
  %1 = arith.ori %a3#1, %b3#1 : i16
  %2 = arith.xori %a3#2, %b3#2 : i16
  return %0, %1, %2 : i16, i16, i16
}

// hsir-sim: tokens=8 b=0..10
handshake.func @shifts(%a: i8, %b: i8) -> (i8, i8, i8) {
  %a3:3 = fork [3] %a : i8
  %b3:3 = fork [3] %b : i8
  %0 = arith.shli %a3#0, %b3#0 : i8
  %1 = arith.shrsi %a3#1, %b3#1 : i8
  %2 = arith.shrui %a3#2, %b3#2 : i8
  return %0, %1, %2 : i8, i8, i8
}

// hsir-sim: tokens=6
handshake.func @min_max(%a: i8, %b: i8) -> (i8, i8, i8, i8) {
  %a4:4 = fork [4] %a : i8
  %b4:4 = fork [4] %b : i8
  %0 = arith.maxsi %a4#0, %b4#0 : i8
  %1 = arith.maxui %a4#1, %b4#1 : i8
  %2 = arith.minsi %a4#2, %b4#2 : i8
  %3 = arith.minui %a4#3, %b4#3 : i8
  return %0, %1, %2, %3 : i8, i8, i8, i8
}

// Every predicate; operands near zero so that equal, signed-negative and unsigned-large
// cases all occur.
// hsir-sim: tokens=8 a=-2..2 b=-2..2
handshake.func @cmpi(%a: i8, %b: i8) -> (i1, i1, i1, i1, i1, i1, i1, i1, i1, i1) {
  %a10:10 = fork [10] %a : i8
  %b10:10 = fork [10] %b : i8
  %0 = arith.cmpi eq, %a10#0, %b10#0 : i8
  %1 = arith.cmpi ne, %a10#1, %b10#1 : i8
  %2 = arith.cmpi slt, %a10#2, %b10#2 : i8
  %3 = arith.cmpi sle, %a10#3, %b10#3 : i8
  %4 = arith.cmpi sgt, %a10#4, %b10#4 : i8
  %5 = arith.cmpi sge, %a10#5, %b10#5 : i8
  %6 = arith.cmpi ult, %a10#6, %b10#6 : i8
  %7 = arith.cmpi ule, %a10#7, %b10#7 : i8
  %8 = arith.cmpi ugt, %a10#8, %b10#8 : i8
  %9 = arith.cmpi uge, %a10#9, %b10#9 : i8
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
}

// Conversions: sign- and zero-extension, truncation; `index_cast` sign-extends.
// hsir-sim: tokens=6
handshake.func @casts(%a: i8, %b: i32, %c: i32) -> (i32, i32, i4, index) {
  %a2:2 = fork [2] %a : i8
  %0 = arith.extsi %a2#0 : i8 to i32
  %1 = arith.extui %a2#1 : i8 to i32
  %2 = arith.trunci %b : i32 to i4
  %3 = arith.index_cast %c : i32 to index
  return %0, %1, %2, %3 : i32, i32, i4, index
}

// select joins its three operands and passes the true value when the condition is 1.
handshake.func @select(%c: i1, %t: i32, %f: i32) -> i32 {
  %0 = arith.select %c, %t, %f : i32
  return %0 : i32
}
