// Buffers in each era's syntax: Dynamatic 2024's `oehb`, `tehb` and `tfifo`, 2025's
// `NUM_SLOTS` + `TIMING`, 2026's `BUFFER_TYPE`, CIRCT's `seq` / `fifo`.

// Dynamatic 2024.
handshake.func @buffers_2024(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = oehb [1] %a : <i32>
  %1 = tehb [1] %0 : <i32>
  %2 = tfifo [4] %1 : <i32>
  end %2, %start : <i32>, <>
}

// -----

// Dynamatic 2025: the buffer's type is implied by its slots and timing.
handshake.func @buffers_2025(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %1 = buffer %0 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  %2 = buffer %1 {hw.parameters = {NUM_SLOTS = 4 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  end %2, %start : <i32>, <>
}

// -----

// Dynamatic 2026.
handshake.func @buffers_2026(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %1 = buffer %0 {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_NONE", NUM_SLOTS = 4 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 0}>}} : <i32>
  end %1, %start : <i32>, <>
}

// -----

// CIRCT.
handshake.func @buffers_circt(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = buffer [1] seq %a : i32
  %1 = buffer [4] fifo %0 : i32
  return %1, %ctrl : i32, none
}
