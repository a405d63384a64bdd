// An unclosed `iter_args(` gives up at the definition on the next line; the loop's bound value
// is still a REGION_ARG, and the function after it is intact.
func.func @f(%lb: index, %ub: index, %z: f32) {
  %r = scf.for %i = %lb to %ub step %lb iter_args(%acc = %z -> (f32) {
  %x = arith.addf %z, %z : f32
  return
}
func.func @g() {
  return
}
