// A buffer type written by the name it had before the standard names: OEHB, TEHB,
// elastic_fifo_inner, TFIFO. The quick fix renames it and keeps the quotes as written.
handshake.func @hw_parameters(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  // expected-warning @+1 {{HS2002: `OEHB` is the legacy name of `ONE_SLOT_BREAK_DV`}}
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "OEHB", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  // expected-warning @+1 {{HS2002: `elastic_fifo_inner` is the legacy name of `FIFO_BREAK_DV`}}
  %1 = buffer %b {hw.parameters = {BUFFER_TYPE = "elastic_fifo_inner", NUM_SLOTS = 4 : ui32}} : <i32>
  end %0, %1, %start : <i32>, <i32>, <>
}

// -----

handshake.func @inline(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  // expected-warning @+1 {{HS2002: `TEHB` is the legacy name of `ONE_SLOT_BREAK_R`}}
  %0 = buffer %a, bufferType = TEHB, numSlots = 1 : <i32>
  // expected-warning @+1 {{HS2002: `TFIFO` is the legacy name of `FIFO_BREAK_NONE`}}
  %1 = buffer %b, bufferType = TFIFO, numSlots = 2, dvLatency = 0 : <i32>
  end %0, %1, %start : <i32>, <i32>, <>
}

// -----

// A legacy name stands for its type in the other rules.
handshake.func @rules(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-warning @+2 {{HS2002: `TEHB` is the legacy name of `ONE_SLOT_BREAK_R`}}
  // expected-error @+1 {{HS2005: `TIMING` is `#handshake<timing {D: 1, V: 1, R: 0}>`, but a `ONE_SLOT_BREAK_R` buffer's latencies are D: 0, V: 0, R: 1}}
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "TEHB", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  end %0, %start : <i32>, <>
}
