// A buffer type is one of Dynamatic's six: ONE_SLOT_BREAK_DV, ONE_SLOT_BREAK_R,
// ONE_SLOT_BREAK_DVR, FIFO_BREAK_DV, FIFO_BREAK_NONE, SHIFT_REG_BREAK_DV. A near miss gets the
// closest name as a suggestion and a quick fix. (CIRCT's `buffer [N] seq|fifo` names its kind
// otherwise: HS1207.)
handshake.func @hw_parameters(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2001: unknown buffer type `ONE_SLOT_BREAK_D`; did you mean `ONE_SLOT_BREAK_DV`?}}
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_D", NUM_SLOTS = 1 : ui32}} : <i32>
  end %0, %start : <i32>, <>
}

// -----

handshake.func @inline(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2001: unknown buffer type `fifo_break_dv`; did you mean `FIFO_BREAK_DV`?}}
  %0 = buffer %a, bufferType = fifo_break_dv, numSlots = 2 : <i32>
  // expected-error @+1 {{HS2001: unknown buffer type `ELASTIC_BUFFER`; the types are `ONE_SLOT_BREAK_DV`, `ONE_SLOT_BREAK_R`, `ONE_SLOT_BREAK_DVR`, `FIFO_BREAK_DV`, `FIFO_BREAK_NONE` and `SHIFT_REG_BREAK_DV`}}
  %1 = buffer %b, bufferType = ELASTIC_BUFFER, numSlots = 2 : <i32>
  end %0, %1, %start : <i32>, <i32>, <>
}

// -----

// A near miss of a legacy name suggests the type it stands for.
handshake.func @near_legacy(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2001: unknown buffer type `oehb`; did you mean `ONE_SLOT_BREAK_DV`?}}
  %0 = buffer %a, bufferType = oehb, numSlots = 1 : <i32>
  end %0, %start : <i32>, <>
}

// -----

// An `init` is configured like a buffer, and its type is checked too.
handshake.func @init(%c: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.channel<i1>, !handshake.control<>) {
  // expected-error @+1 {{HS2001: unknown buffer type `ONE_SLOT`}}
  %0 = init %c {hw.parameters = {INITIAL_TOKEN = 0 : i1, BUFFER_TYPE = "ONE_SLOT"}} : <i1>
  end %0, %start : <i1>, <>
}

// -----

// The generic form writes the type as its case number in Dynamatic's enum (0 to 5).
handshake.func @generic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2001: unknown buffer type `9`}}
  %0 = "handshake.buffer"(%a) {bufferType = 9 : i64, numSlots = 1 : i64} : (!handshake.channel<i32>) -> !handshake.channel<i32>
  end %0, %start : <i32>, <>
}

// -----

// Valid: the six types, in both syntaxes, and a case number.
handshake.func @valid(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %1 = buffer %0, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %2 = buffer %1, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  %3 = buffer %2 {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_DV", NUM_SLOTS = 4 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %4 = buffer %3 {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_NONE", NUM_SLOTS = 2 : ui32}} : <i32>
  %5 = buffer %4, bufferType = SHIFT_REG_BREAK_DV, numSlots = 3, dvLatency = 3 : <i32>
  %6 = "handshake.buffer"(%5) {bufferType = 2 : i64, numSlots = 1 : i64} : (!handshake.channel<i32>) -> !handshake.channel<i32>
  end %6, %start : <i32>, <>
}
