// Dynamatic's six buffer types, in both syntaxes (`bufferType = T, numSlots = N` and
// `hw.parameters`), with one slot and, where the type allows it, several. Untimed, a buffer
// passes its tokens in order whatever its capacity. Any tokens.

handshake.func @one_slot_break_dv(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "end"]} {
  %0 = buffer %a, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  end %0, %start : <i32>, <>
}

handshake.func @one_slot_break_r(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "end"]} {
  %0 = buffer %a, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  end %0, %start : <i32>, <>
}

handshake.func @one_slot_break_dvr(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "end"]} {
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 1}>}} : <i32>
  end %0, %start : <i32>, <>
}

handshake.func @fifo_break_dv(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "out1", "end"]} {
  %f:2 = fork [2] %a : <i32>
  %0 = buffer %f#0, bufferType = FIFO_BREAK_DV, numSlots = 1 : <i32>
  %1 = buffer %f#1 {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_DV", NUM_SLOTS = 4 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  end %0, %1, %start : <i32>, <i32>, <>
}

handshake.func @fifo_break_none(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "out1", "end"]} {
  %s:2 = fork [2] %start : <>
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  %1 = buffer %s#0, bufferType = FIFO_BREAK_NONE, numSlots = 3 : <>
  end %0, %1, %s#1 : <i32>, <>, <>
}

handshake.func @shift_reg_break_dv(%a: !handshake.channel<i8>, %start: !handshake.control<>) -> (!handshake.channel<i8>, !handshake.channel<i8>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "out1", "end"]} {
  %f:2 = fork [2] %a : <i8>
  %0 = buffer %f#0, bufferType = SHIFT_REG_BREAK_DV, numSlots = 1 : <i8>
  %1 = buffer %f#1 {hw.parameters = {BUFFER_TYPE = "SHIFT_REG_BREAK_DV", NUM_SLOTS = 3 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i8>
  end %0, %1, %start : <i8>, <i8>, <>
}
