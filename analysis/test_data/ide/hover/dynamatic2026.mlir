// Hover fixture (see dynamatic2025.mlir): Dynamatic 2026's BUFFER_TYPE, inline buffer types,
// an LSQ's groups, a comparison and a float unit.
handshake.func @f(%a: !handshake.channel<f32>, %b: !handshake.channel<f32>, %start: !handshake.control<>) -> (!handshake.channel<i1>, !handshake.control<>) {
  %0 = buffer %a {hw.parameters = {BUFFER_$0TYPE = "ONE_SLOT_$0BREAK_R", NUM_SLOTS = 1 : ui32}} : <f32>
  %1 = buffer %b, bufferType = FIFO_BREAK_$0DV, num$0Slots = 3 : <f32>
  %2 = cmpf olt, %0, %1 {fpu_$0impl = #handshake<fpu_impl flopoco>, handshake.name = "cmpf0"} : <f32>
  end %2, %start : <i1>, <>
}

// -----

handshake.func @lsq(%m: memref<8xi32>, %mstart: !handshake.control<>, %g0: !handshake.control<>, %addr: !handshake.channel<i32>, %data: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) {
  %done = lsq[%m : memref<8xi32>] (%mstart, %g0, %addr, %data, %start) {connected$0Blocks = [1 : i32], group$0Sizes = [1 : i32], handshake.name = "lsq0"} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) -> !handshake.control<>
  end %done, %start : <>, <>
}
