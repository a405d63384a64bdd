// Every buffer type in one design. `a` is forked into two paths of different buffers (the
// three one-slot types on one, the FIFOs and the shift register on the other) that meet again
// at an adder, so in RTL the two paths' different latencies and capacities must still pair
// the right tokens; `b` crosses a chain of FIFOs and a shift register and is returned with the
// control. Returns `2a` and `b`, any number of tokens.

handshake.func @all_buffers(%a: !handshake.channel<i32>, %b: !handshake.channel<i16>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i16>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["twice", "b_out", "end"]} {
  %af:2 = fork [2] %a : <i32>
  %p0 = buffer %af#0, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %p1 = buffer %p0, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %p2 = buffer %p1 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 1}>}} : <i32>
  %q0 = buffer %af#1, bufferType = FIFO_BREAK_DV, numSlots = 3 : <i32>
  %q1 = buffer %q0, bufferType = FIFO_BREAK_NONE, numSlots = 2 : <i32>
  %q2 = buffer %q1 {hw.parameters = {BUFFER_TYPE = "SHIFT_REG_BREAK_DV", NUM_SLOTS = 4 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %twice = addi %p2, %q2 : <i32>
  %b0 = buffer %b, bufferType = FIFO_BREAK_DV, numSlots = 1 : <i16>
  %b1 = buffer %b0, bufferType = FIFO_BREAK_NONE, numSlots = 4 : <i16>
  %b2 = buffer %b1, bufferType = SHIFT_REG_BREAK_DV, numSlots = 1 : <i16>
  %c0 = buffer %start, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <>
  %c1 = buffer %c0, bufferType = FIFO_BREAK_NONE, numSlots = 2 : <>
  end %twice, %b2, %c1 : <i32>, <i16>, <>
}
