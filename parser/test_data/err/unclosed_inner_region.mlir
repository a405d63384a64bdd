// An op's region misses its `}`: the function's `}` closes it, and the next function is
// reported as starting inside an unclosed body rather than being swallowed.
func.func @one(%c: i1) {
  scf.if %c {
    "test.op"() : () -> ()
  return
}
func.func @two() {
  return
}
