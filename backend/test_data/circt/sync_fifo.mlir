// Two values synchronised, one of them through a three-slot FIFO, and a constant made from
// each control token.
handshake.func @sync_fifo(%a: i32, %b: i16, %ctrl: none) -> (i32, i16, i8, none) attributes {argNames = ["a", "b", "ctrl"], resNames = ["a_out", "b_out", "k", "outCtrl"]} {
  %s:2 = sync %a, %b : i32, i16
  %x = buffer [3] fifo %s#0 : i32
  %cs:2 = fork [2] %ctrl : none
  %k = constant %cs#0 {value = 42 : i8} : i8
  return %x, %s#1, %k, %cs#1 : i32, i16, i8, none
}
