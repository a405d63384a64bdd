// TIMING states the latencies of the buffer's type (seed 000): ONE_SLOT_BREAK_DV D1 V1 R0,
// ONE_SLOT_BREAK_R D0 V0 R1, ONE_SLOT_BREAK_DVR D1 V1 R1, FIFO_BREAK_DV D1 V1 R0,
// FIFO_BREAK_NONE D0 V0 R0, SHIFT_REG_BREAK_DV D1 V1 R0. A latency left out is not compared.
// The quick fix writes the type's latencies. (Only `hw.parameters` carries a TIMING.)
handshake.func @mismatch(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2005: `TIMING` is `#handshake<timing {D: 0, V: 0, R: 1}>`, but a `FIFO_BREAK_DV` buffer's latencies are D: 1, V: 1, R: 0}}
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_DV", NUM_SLOTS = 4 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  // expected-error @+1 {{HS2005: `TIMING` is `#handshake<timing {R: 1}>`, but a `ONE_SLOT_BREAK_DV` buffer's latencies are D: 1, V: 1, R: 0}}
  %1 = buffer %b {hw.parameters = {NUM_SLOTS = 1 : ui32, BUFFER_TYPE = "ONE_SLOT_BREAK_DV", TIMING = #handshake<timing {R: 1}>}} : <i32>
  end %0, %1, %start : <i32>, <i32>, <>
}

// -----

// Valid: every type with its latencies, some left out, and a buffer without a type, whose
// TIMING is all hsir knows of it.
handshake.func @valid(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %1 = buffer %0 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  %2 = buffer %1 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 1}>}} : <i32>
  %3 = buffer %2 {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_DV", NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %4 = buffer %3 {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_NONE", NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 0}>}} : <i32>
  %5 = buffer %4 {hw.parameters = {BUFFER_TYPE = "SHIFT_REG_BREAK_DV", NUM_SLOTS = 3 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %6 = buffer %5 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %7 = buffer %6 {hw.parameters = {NUM_SLOTS = 5 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  end %7, %start : <i32>, <>
}
