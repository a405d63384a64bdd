// Function 1 never closes its body; functions 2 and 3 parse as if it had.
handshake.func @one(%a: i32) -> i32 {
  %0 = buffer [2] seq %a : i32
  return %0 : i32

handshake.func @two(%a: i32) -> i32 {
  return %a : i32
}

handshake.func @three(%a: i32) -> i32 {
  return %a : i32
}
