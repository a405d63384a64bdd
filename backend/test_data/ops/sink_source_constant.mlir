// sink consumes every token; source is always valid; constant turns each control token into
// its value. `x + 7` uses a constant fed by a source, which here never floods: it produces only
// when the adder took its last token. Any tokens.

handshake.func @sink_circt(%a: i32, %ctrl: none) -> none {
  sink %a : i32
  return %ctrl : none
}

handshake.func @constant_circt(%ctrl: none) -> (i32, index, i1) {
  %c:3 = fork [3] %ctrl : none
  %0 = constant %c#0 {value = -5 : i32} : i32
  %1 = constant %c#1 {value = 12 : index} : index
  %2 = constant %c#2 {value = true} : i1
  return %0, %1, %2 : i32, index, i1
}

handshake.func @source_circt(%x: i32) -> i32 {
  %s = source
  %k = constant %s {value = 7 : i32} : i32
  %0 = arith.addi %x, %k : i32
  return %0 : i32
}

handshake.func @source_sink_circt(%ctrl: none) -> none {
  %s = source
  sink %s : none
  return %ctrl : none
}

handshake.func @sink_dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> !handshake.control<> attributes {argNames = ["a", "start"], resNames = ["end"]} {
  sink %a : <i32>
  end %start : <>
}

handshake.func @constant_dynamatic(%start: !handshake.control<>) -> (!handshake.channel<i8>, !handshake.channel<i1>, !handshake.control<>) attributes {argNames = ["start"], resNames = ["out0", "out1", "end"]} {
  %c:3 = fork [3] %start : <>
  %0 = constant %c#0 {value = 100 : i8} : <>, <i8>
  %1 = constant %c#1 {value = false} : <>, <i1>
  end %0, %1, %c#2 : <i8>, <i1>, <>
}

handshake.func @source_dynamatic(%x: !handshake.channel<i16>, %start: !handshake.control<>) -> (!handshake.channel<i16>, !handshake.control<>) attributes {argNames = ["x", "start"], resNames = ["out0", "end"]} {
  %s = source : <>
  %k = constant %s {value = 3 : i16} : <>, <i16>
  %0 = muli %x, %k : <i16>
  end %0, %start : <i16>, <>
}
