// Characters MLIR has no token for, and a string that is never closed.
// expected-error @+1 {{HS0006: invalid character sequence ";"}}
handshake.func private @decl(i32) -> i32;
// The string swallows the dictionary's `}`, so the dictionary takes the function's and the
// function body is left open.
// expected-error @+1 {{HS0003: unclosed `{`}}
func.func @f() {
  // expected-error @+1 {{HS0006: unterminated string literal}}
  %0 = "test.op"() {s = "never closed} : () -> i32
  return
}
