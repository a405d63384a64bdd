// `// -----` ends every open construct, as MLIR's split-input-file does.
handshake.func @one(%a: i32) -> i32 {
  %0 = "test.op"(%a, [
// -----
handshake.func @two(%a: i32) -> i32 {
  return %a : i32
}
