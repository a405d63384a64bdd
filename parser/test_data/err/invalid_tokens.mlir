// Characters MLIR has no token for, and an unterminated string.
handshake.func private @decl(i32) -> i32;
func.func @f() {
  %0 = "test.op"() {s = "never closed} : () -> i32
  return
}
