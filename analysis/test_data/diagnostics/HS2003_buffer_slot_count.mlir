// NUM_SLOTS / numSlots is a strictly positive integer: the number of tokens the buffer holds.
// (CIRCT's `buffer [0]` is HS1207's.)
handshake.func @hw_parameters(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2003: `NUM_SLOTS` is 0; a buffer holds at least one slot}}
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_NONE", NUM_SLOTS = 0 : ui32}} : <i32>
  end %0, %start : <i32>, <>
}

// -----

handshake.func @inline(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2003: `numSlots` is -2; a buffer holds at least one slot}}
  %0 = buffer %a, bufferType = FIFO_BREAK_DV, numSlots = -2 : <i32>
  // expected-error @+1 {{HS2003: `numSlots` is `many`, not a whole number of slots}}
  %1 = buffer %b, bufferType = FIFO_BREAK_NONE, numSlots = many : <i32>
  end %0, %1, %start : <i32>, <i32>, <>
}
