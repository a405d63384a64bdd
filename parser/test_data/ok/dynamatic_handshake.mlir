// Dynamatic's current Handshake syntax: short channel types, extra signals, new buffers.
handshake.func @kernel(%a: !handshake.channel<i32, [e: i1 (U)]>, %sel: !handshake.channel<i1>, %b: <i32>, %start: !handshake.control<>, ...) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "sel", "b", "start"], resNames = ["out0", "end"]} {
  %0 = buffer %b, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1, dvLatency = 1 {handshake.bb = 1 : ui32} : <i32>
  %1 = mux %sel [%0, %a] : <i1>, [<i32>, <i32>] to <i32>
  %result, %index = control_merge [%start, %start] : [<>, <>] to <>, <i1>
  %2:2 = fork [2] %1 : <i32>
  %3 = buffer %2#0 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  %ctrl, %data = unbundle %3 : <i32> to _
  %4 = source : <[spec: i1]>
  %5 = constant %4 {value = 100 : i32} : <[spec: i1]>, <i32, [spec: i1]>
  sink %5 : <i32, [spec: i1]>
  end %2#1, %result : <i32>, <>
}

// The type-system proposal's spelling (seed 001): `channel<...>` and `control`, upstream
// signals written before or after their type.
handshake.func @proposal(%a: channel<i32, [tag1: i2, (U) i1]>, %c: control, %d: !handshake.control<[spec: i1]>, %e: channel<i32, [otherReady: (U) i1]>) -> channel<i38> {
  %valid, %ready = unbundle %c : control to _
  %w = compose %a : channel<i32, [tag1: i2, (U) i1]> to channel<i38>
  end %w : channel<i38>
}
