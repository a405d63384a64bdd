// `dvLatency` (the inline syntax) is what Dynamatic's verifier requires of the type: 0 for
// ONE_SLOT_BREAK_R and FIFO_BREAK_NONE, 1 for ONE_SLOT_BREAK_DV, ONE_SLOT_BREAK_DVR and
// FIFO_BREAK_DV, and `numSlots` for SHIFT_REG_BREAK_DV. The quick fix writes that value.
handshake.func @one_slot(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2007: the `dvLatency` of a `ONE_SLOT_BREAK_R` buffer is 0, not 1}}
  %0 = buffer %a, bufferType = ONE_SLOT_BREAK_R, numSlots = 1, dvLatency = 1 : <i32>
  // expected-error @+1 {{HS2007: the `dvLatency` of a `ONE_SLOT_BREAK_DVR` buffer is 1, not 0}}
  %1 = buffer %b, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1, dvLatency = 0 : <i32>
  end %0, %1, %start : <i32>, <i32>, <>
}

// -----

handshake.func @multi_slot(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %c: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2007: the `dvLatency` of a `SHIFT_REG_BREAK_DV` buffer equals its `numSlots`, 3, not 1}}
  %0 = buffer %a, bufferType = SHIFT_REG_BREAK_DV, numSlots = 3, dvLatency = 1 : <i32>
  // expected-error @+1 {{HS2007: the `dvLatency` of a `FIFO_BREAK_DV` buffer is 1, not 4}}
  %1 = buffer %b, bufferType = FIFO_BREAK_DV, numSlots = 4, dvLatency = 4 : <i32>
  // expected-error @+1 {{HS2007: the `dvLatency` of a `FIFO_BREAK_NONE` buffer is 0, not `one`}}
  %2 = buffer %c, bufferType = FIFO_BREAK_NONE, numSlots = 2, dvLatency = one : <i32>
  end %0, %1, %2, %start : <i32>, <i32>, <i32>, <>
}

// -----

// Valid: each type with its latency, and Dynamatic's older IR, which writes none.
handshake.func @valid(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1, dvLatency = 1 : <i32>
  %1 = buffer %0, bufferType = ONE_SLOT_BREAK_R, numSlots = 1, dvLatency = 0 : <i32>
  %2 = buffer %1, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1, dvLatency = 1 : <i32>
  %3 = buffer %2, bufferType = FIFO_BREAK_DV, numSlots = 4, dvLatency = 1 : <i32>
  %4 = buffer %3, bufferType = FIFO_BREAK_NONE, numSlots = 4, dvLatency = 0 : <i32>
  %5 = buffer %4, bufferType = SHIFT_REG_BREAK_DV, numSlots = 5, dvLatency = 5 : <i32>
  %6 = buffer %5, bufferType = FIFO_BREAK_NONE, numSlots = 2 : <i32>
  end %6, %start : <i32>, <>
}
