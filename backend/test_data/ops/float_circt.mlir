// CIRCT's `arith` floating-point ops on raw channels (`f32`, `f64`), the families of
// float_dynamatic.mlir: the same units, the same rules.

// hsir-sim: tokens=6 a=-1065353216..1082130432
handshake.func @arith_f32(%a: f32, %b: f32) -> (f32, f32, f32, f32) {
  %a4:4 = fork [4] %a : f32
  %b4:4 = fork [4] %b : f32
  %0 = arith.addf %a4#0, %b4#0 : f32
  %1 = arith.subf %a4#1, %b4#1 : f32
  %2 = arith.mulf %a4#2, %b4#2 : f32
  %3 = arith.divf %a4#3, %b4#3 : f32
  return %0, %1, %2, %3 : f32, f32, f32, f32
}

// hsir-sim: tokens=5 a=4607182418800017408..4621819117588971520
handshake.func @mul_add_f64(%a: f64, %b: f64, %c: f64) -> (f64, i1) {
  %a2:2 = fork [2] %a : f64
  %0 = arith.mulf %a2#0, %b : f64
  %1 = arith.addf %0, %c : f64
  %r:2 = fork [2] %1 : f64
  %2 = arith.cmpf ogt, %r#0, %a2#1 : f64
  return %r#1, %2 : f64, i1
}

// hsir-sim: tokens=6
handshake.func @casts(%i: i64, %f: f64, %g: f32) -> (f32, i64, f32, f64, i8) {
  %g2:2 = fork [2] %g : f32
  %0 = arith.sitofp %i : i64 to f32
  %f2:2 = fork [2] %f : f64
  %1 = arith.fptoui %f2#0 : f64 to i64
  %2 = arith.truncf %f2#1 : f64 to f32
  %3 = arith.extf %g2#0 : f32 to f64
  %4 = arith.fptosi %g2#1 : f32 to i8
  return %0, %1, %2, %3, %4 : f32, i64, f32, f64, i8
}

// The generic form: `predicate = 3` is `oge`.
handshake.func @generic_cmpf(%a: f32, %b: f32) -> (i1, f32) {
  %a2:2 = fork [2] %a : f32
  %0 = "arith.cmpf"(%a2#0, %b) {predicate = 3 : i64} : (f32, f32) -> i1
  %1 = arith.negf %a2#1 : f32
  return %0, %1 : i1, f32
}
