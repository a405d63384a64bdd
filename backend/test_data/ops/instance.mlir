// instance: the callee's body runs inline on the caller's channels, once per instance. `@twice`
// applies `@scale` (a * 3 + b) twice in a chain; `@scale` runs on its own too. Any tokens.

handshake.func @scale(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {
  %src = source
  %three = constant %src {value = 3 : i32} : i32
  %0 = arith.muli %a, %three : i32
  %1 = arith.addi %0, %b : i32
  return %1, %ctrl : i32, none
}

handshake.func @twice(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {
  %b2:2 = fork [2] %b : i32
  %x:2 = instance @scale(%a, %b2#0, %ctrl) : (i32, i32, none) -> (i32, none)
  %y:2 = instance @scale(%x#0, %b2#1, %x#1) : (i32, i32, none) -> (i32, none)
  return %y#0, %y#1 : i32, none
}
