// fork and lazy_fork: every output carries a copy of every input token, in order. Untimed, an
// eager and a lazy fork behave alike. Any tokens on the input are meaningful.

handshake.func @fork_circt(%a: i32) -> (i32, i32, i32) {
  %0:3 = fork [3] %a : i32
  return %0#0, %0#1, %0#2 : i32, i32, i32
}

handshake.func @fork_control_circt(%ctrl: none) -> (none, none) {
  %0:2 = fork [2] %ctrl : none
  return %0#0, %0#1 : none, none
}

handshake.func @lazy_fork_circt(%a: i8) -> (i8, i8) {
  %0:2 = lazy_fork [2] %a : i8
  return %0#0, %0#1 : i8, i8
}

handshake.func @fork_dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "out1", "end"]} {
  %0:2 = fork [2] %a : <i32>
  end %0#0, %0#1, %start : <i32>, <i32>, <>
}

handshake.func @lazy_fork_dynamatic(%a: !handshake.channel<i16>, %start: !handshake.control<>) -> (!handshake.channel<i16>, !handshake.channel<i16>, !handshake.channel<i16>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "out1", "out2", "end"]} {
  %0:3 = lazy_fork [3] %a : <i16>
  end %0#0, %0#1, %0#2, %start : <i16>, <i16>, <i16>, <>
}
