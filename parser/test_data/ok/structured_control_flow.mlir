// scf and affine custom syntax: values bound for a region (`%i =`, `iter_args(%acc = ...)`,
// `(%a = %x)`, `(%i, %j) = / in`) are REGION_ARGs; the values after `=` are operands.
func.func @loops(%lb: index, %ub: index, %st: index, %z: f32, %x: i32, %n: index) -> f32 {
  scf.for %i = %lb to %ub step %st {
  }
  scf.for unsigned %j = %lb to %ub step %st : index {
  }
  %r:2 = scf.for %i = %lb to %ub step %st iter_args(%acc = %z, %k = %x) -> (f32, i32) {
    scf.yield %acc, %k : f32, i32
  }
  %w:2 = scf.while (%a = %x, %b = %n) : (i32, index) -> (i32, index) {
    %c = arith.cmpi slt, %a, %x : i32
    scf.condition(%c) %a, %b : i32, index
  } do {
  ^bb0(%a2: i32, %b2: index):
    scf.yield %a2, %b2 : i32, index
  }
  affine.for %k = max #map(%lb)[%ub] to 10 step 2 {
    affine.if #set(%k)[%n] {
    } else {
    }
  }
  %s = affine.for %k = 0 to %ub iter_args(%t = %z) -> (f32) {
    affine.yield %t : f32
  }
  scf.parallel (%p, %q) = (%lb, %lb) to (%ub, %ub) step (%st, %st) {
  }
  scf.forall (%p) in (%n) {
  }
  return %s : f32
}
