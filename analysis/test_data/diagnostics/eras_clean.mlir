// Real compiler output of every era that hsir once reported falsely; each case is clean.

// CIRCT's generic form: `bufferType = #handshake<buffer_type_enum fifo>` is CIRCT's FIFO, with
// the slot count in `slots`.
handshake.func @circt_generic_buffer(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = "handshake.buffer"(%a) {bufferType = #handshake<buffer_type_enum fifo>, slots = 2 : i32} : (i32) -> i32
  %1 = "handshake.buffer"(%ctrl) {bufferType = #handshake<buffer_type_enum seq>, slots = 1 : i32, initValues = [0]} : (none) -> none
  return %0, %1 : i32, none
}

// -----

// Dynamatic 2024: `end` takes the memory controller's done token after the results; the load
// port is `mc_load`, the buffer `oehb`.
handshake.func @mc_unbuffered(%memref: memref<64xi32>, %addr: !handshake.channel<i32>, %start: !handshake.control<>) -> !handshake.channel<i32> {
  sink %start : <>
  %ldData1, %done = mem_controller [%memref: memref<64xi32>] (%ldAddrToMem) {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.control<>)
  %ldAddrToMem, %ldDataToSucc = mc_load [%addr] %ldData1 {handshake.bb = 0 : ui32} : <i32>, <i32>
  %buf = oehb [1] %ldDataToSucc : <i32>
  %returnVal = return %buf : <i32>
  end %returnVal, %done : <i32>, <>
}

// -----

// Dynamatic 2025: two-operand `load` with its two types, buffers as NUM_SLOTS and TIMING, and a
// same-width `trunci` that CfToHandshake writes on purpose (a remark, not an error).
handshake.func @load_2025(%mem: memref<16xi32>, %i: !handshake.channel<i4>, %memStart: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) attributes {argNames = ["mem", "i", "mem_start", "start"], resNames = ["out0", "mem_end", "end"]} {
  %s:2 = fork [2] %start {handshake.name = "fork0"} : <>
  %outputs, %memEnd = mem_controller[%mem : memref<16xi32>] %memStart (%addressResult) %s#0 {connectedBlocks = [0 : i32], handshake.name = "mem_controller0"} :    (!handshake.channel<i4>) -> !handshake.channel<i32>
  %b0 = buffer %i {handshake.bb = 0 : ui32, hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i4>
  %addressResult, %dataResult = load[%b0] %outputs {handshake.bb = 0 : ui32, handshake.mem_interface = #handshake.mem_interface<MC>, handshake.name = "load0"} : <i4>, <i32>
  %b1 = buffer %dataResult {handshake.bb = 0 : ui32, hw.parameters = {NUM_SLOTS = 5 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  // expected-remark @+1 {{HS1213: `trunci` from `<i32>` to `<i32>` keeps the width}}
  %t = trunci %b1 {handshake.bb = 0 : ui32, handshake.name = "trunci0"} : <i32> to <i32>
  end {handshake.bb = 0 : ui32, handshake.name = "end0"} %t, %memEnd, %s#1 : <i32>, <>, <>
}
