// Used by `lsp/tests/cli.rs`: calls `@scale` of `callee.mlir` with the wrong operand type,
// and leaves one channel unconsumed.
handshake.func @top(%a: i64, %ctrl: none, %unused: i32) -> (i32, none) {
  %r, %c = instance @scale(%a, %ctrl) : (i64, none) -> (i32, none)
  return %r, %c : i32, none
}
