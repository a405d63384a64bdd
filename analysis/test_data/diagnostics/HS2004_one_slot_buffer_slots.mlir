// Every ONE_SLOT_* buffer holds exactly one slot; more slots are a chain of them, a FIFO or a
// shift register. The quick fix sets the count to 1.
handshake.func @hw_parameters(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2004: a `ONE_SLOT_BREAK_DV` buffer holds exactly one slot, not 2}}
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  end %0, %start : <i32>, <>
}

// -----

handshake.func @inline(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2004: a `ONE_SLOT_BREAK_R` buffer holds exactly one slot, not 3}}
  %0 = buffer %a, bufferType = ONE_SLOT_BREAK_R, numSlots = 3, dvLatency = 0 : <i32>
  // expected-warning @+2 {{HS2002: `OEHB` is the legacy name of `ONE_SLOT_BREAK_DV`}}
  // expected-error @+1 {{HS2004: a `ONE_SLOT_BREAK_DV` buffer holds exactly one slot, not 4}}
  %1 = buffer %b, bufferType = OEHB, numSlots = 4 : <i32>
  end %0, %1, %start : <i32>, <i32>, <>
}

// -----

// Valid: several slots as a chain of one-slot buffers, or in one FIFO.
handshake.func @valid(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  %1 = buffer %0, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  %2 = buffer %b, bufferType = FIFO_BREAK_DV, numSlots = 2 : <i32>
  end %1, %2, %start : <i32>, <i32>, <>
}
