// Dynamatic's floating-point ops on channels (`<f32>`, `<f64>`). Tokens are the numbers' bit
// patterns; the directives below pick them as integers (1065353216 is 1.0f, 1082130432 is 4.0f,
// 2143289344 the f32 quiet NaN, -2147483648 is -0.0f). Arithmetic rounds to nearest even, keeps
// subnormals and gives NaN results as the canonical quiet NaN. Each op is a pipeline of its
// latency (backend/src/float.rs): addf 6 / 12 cycles, mulf 2 / 6, divf 15 / 63, cmpf 0 / 1.

// Operands between 1.0 and 4.0: sums, products and quotients of ordinary numbers.
// hsir-sim: tokens=6 a=1065353216..1082130432 b=1065353216..1082130432
handshake.func @arith_f32(%a: !handshake.channel<f32>, %b: !handshake.channel<f32>, %start: !handshake.control<>) -> (!handshake.channel<f32>, !handshake.channel<f32>, !handshake.channel<f32>, !handshake.channel<f32>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["sum", "difference", "product", "quotient", "end"]} {
  %a4:4 = fork [4] %a : <f32>
  %b4:4 = fork [4] %b : <f32>
  %0 = addf %a4#0, %b4#0 {fpu_impl = #handshake<fpu_impl flopoco>} : <f32>
  %1 = subf %a4#1, %b4#1 : <f32>
  %2 = mulf %a4#2, %b4#2 : <f32>
  %3 = divf %a4#3, %b4#3 : <f32>
  end %0, %1, %2, %3, %start : <f32>, <f32>, <f32>, <f32>, <>
}

// Any bit patterns: infinities, NaNs, subnormals and overflow occur.
// hsir-sim: tokens=8
handshake.func @arith_f64(%a: !handshake.channel<f64>, %b: !handshake.channel<f64>, %start: !handshake.control<>) -> (!handshake.channel<f64>, !handshake.channel<f64>, !handshake.channel<f64>, !handshake.channel<f64>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["sum", "difference", "product", "quotient", "end"]} {
  %a4:4 = fork [4] %a : <f64>
  %b4:4 = fork [4] %b : <f64>
  %0 = addf %a4#0, %b4#0 : <f64>
  %1 = subf %a4#1, %b4#1 : <f64>
  %2 = mulf %a4#2, %b4#2 : <f64>
  %3 = divf %a4#3, %b4#3 : <f64>
  end %0, %1, %2, %3, %start : <f64>, <f64>, <f64>, <f64>, <>
}

// Every predicate, on pairs that are equal, ordered both ways, +0 and -0, and NaN.
// hsir-sim: tokens=7 a=1065353216,1065353216,1082130432,0,2143289344,-1082130432,2139095040 b=1065353216,1082130432,1065353216,-2147483648,1065353216,1065353216,2139095040
handshake.func @cmpf_f32(%a: !handshake.channel<f32>, %b: !handshake.channel<f32>, %start: !handshake.control<>) -> (!handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out0", "out1", "out2", "out3", "out4", "out5", "out6", "out7", "out8", "out9", "out10", "out11", "out12", "out13", "out14", "out15", "end"]} {
  %a16:16 = fork [16] %a : <f32>
  %b16:16 = fork [16] %b : <f32>
  %0 = cmpf false, %a16#0, %b16#0 : <f32>
  %1 = cmpf oeq, %a16#1, %b16#1 : <f32>
  %2 = cmpf ogt, %a16#2, %b16#2 : <f32>
  %3 = cmpf oge, %a16#3, %b16#3 : <f32>
  %4 = cmpf olt, %a16#4, %b16#4 : <f32>
  %5 = cmpf ole, %a16#5, %b16#5 : <f32>
  %6 = cmpf one, %a16#6, %b16#6 : <f32>
  %7 = cmpf ord, %a16#7, %b16#7 : <f32>
  %8 = cmpf ueq, %a16#8, %b16#8 : <f32>
  %9 = cmpf ugt, %a16#9, %b16#9 : <f32>
  %10 = cmpf uge, %a16#10, %b16#10 : <f32>
  %11 = cmpf ult, %a16#11, %b16#11 : <f32>
  %12 = cmpf ule, %a16#12, %b16#12 : <f32>
  %13 = cmpf une, %a16#13, %b16#13 : <f32>
  %14 = cmpf uno, %a16#14, %b16#14 : <f32>
  %15 = cmpf true, %a16#15, %b16#15 : <f32>
  end %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %start : <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <i1>, <>
}

// f64 comparisons take one cycle (Dynamatic's timing data), f32 ones none.
// hsir-sim: tokens=6
handshake.func @cmpf_f64(%a: !handshake.channel<f64>, %b: !handshake.channel<f64>, %start: !handshake.control<>) -> (!handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.channel<i1>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out0", "out1", "out2", "out3", "end"]} {
  %a4:4 = fork [4] %a : <f64>
  %b4:4 = fork [4] %b : <f64>
  %0 = cmpf olt, %a4#0, %b4#0 : <f64>
  %1 = cmpf uge, %a4#1, %b4#1 : <f64>
  %2 = cmpf ord, %a4#2, %b4#2 : <f64>
  %3 = cmpf une, %a4#3, %b4#3 : <f64>
  end %0, %1, %2, %3, %start : <i1>, <i1>, <i1>, <i1>, <>
}

// Conversions: integers to floats (rounded), floats to integers (truncated, saturated; NaN
// gives 0), between formats, and negation. `f`: 1.5, -2.5, 1e10, -1e10, NaN, 65535.9, 70000,
// -0.5, a subnormal, 2.9.
// hsir-sim: tokens=10 f=1069547520,-1071644672,1343554297,-803929351,2143289344,1199570918,1200142336,-1090519040,2140872,1077516698
handshake.func @conversions(%i: !handshake.channel<i32>, %f: !handshake.channel<f32>, %d: !handshake.channel<f64>, %start: !handshake.control<>) -> (!handshake.channel<f32>, !handshake.channel<f64>, !handshake.channel<i32>, !handshake.channel<i16>, !handshake.channel<f64>, !handshake.channel<f32>, !handshake.channel<f32>, !handshake.control<>) attributes {argNames = ["i", "f", "d", "start"], resNames = ["out0", "out1", "out2", "out3", "out4", "out5", "out6", "end"]} {
  %i2:2 = fork [2] %i : <i32>
  %f4:4 = fork [4] %f : <f32>
  %0 = sitofp %i2#0 : <i32> to <f32>
  %1 = uitofp %i2#1 : <i32> to <f64>
  %2 = fptosi %f4#0 : <f32> to <i32>
  %3 = fptoui %f4#1 : <f32> to <i16>
  %4 = extf %f4#2 : <f32> to <f64>
  %5 = truncf %d : <f64> to <f32>
  %6 = negf %f4#3 : <f32>
  end %0, %1, %2, %3, %4, %5, %6, %start : <f32>, <f64>, <i32>, <i16>, <f64>, <f32>, <f32>, <>
}

// Float constants are their bit patterns: decimal (rounded to nearest even) or MLIR's hex.
// hsir-sim: tokens=4 x=1065353216..1082130432
handshake.func @constants(%x: !handshake.channel<f32>, %start: !handshake.control<>) -> (!handshake.channel<f32>, !handshake.channel<f32>, !handshake.control<>) attributes {argNames = ["x", "start"], resNames = ["scaled", "shifted", "end"]} {
  %x2:2 = fork [2] %x : <f32>
  %s3:3 = fork [3] %start : <>
  %half = constant %s3#0 {value = 1.000000e-01 : f32} : <>, <f32>
  %three = constant %s3#1 {value = 0x40400000 : f32} : <>, <f32>
  %0 = mulf %x2#0, %half : <f32>
  %1 = subf %x2#1, %three : <f32>
  end %0, %1, %s3#2 : <f32>, <f32>, <>
}
