// Used by `lsp/tests/cli.rs`: a callee in one file, called from `caller.mlir`.
handshake.func @scale(%a: i32, %ctrl: none) -> (i32, none) {
  return %a, %ctrl : i32, none
}
