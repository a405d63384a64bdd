// An unclosed `(` inside an op stops at the next definition, not at the end of the file.
handshake.func @f(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = "test.op"(%a : (i32) -> i32
  %1 = join %ctrl : none
  return %0, %1 : i32, none
}
handshake.func @g(%a: i32) -> i32 {
  return %a : i32
}
