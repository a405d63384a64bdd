// Hover fixture (see dynamatic2025.mlir): Dynamatic 2024's oehb / tehb, CIRCT's raw types,
// `none` and `seq` / `fifo` buffers.
handshake.func @buffers_2024(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = oe$0hb [1] %a : <i32>
  %1 = te$0hb [2] %0 : <i32>
  end %1, %start : <i32>, <>
}

// -----

handshake.func @circt(%x: i$032, %y: f$032, %ctrl: no$0ne, ...) -> (i32, none) {
  %0 = buffer [2] s$0eq %x : i32
  %1 = buffer [1] fi$0fo %0 : i32
  %2 = arith.fptosi %y : f32 to i32
  %3 = arith.addi %1, %2 : i32
  return %3, %ctrl : i32, none
}
