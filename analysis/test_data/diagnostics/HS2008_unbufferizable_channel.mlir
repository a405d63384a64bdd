// Dynamatic never buffers a memref (it is not a channel) or the port channels of a memory
// interface: the load and store channels between the accesses and a `mem_controller` or an
// `lsq`, and an LSQ's group allocations. Its start and end tokens are ordinary channels. Every
// buffer on such a channel is reported, with a quick fix that removes it.
handshake.func @memref_dynamatic(%m: memref<4xi32>, %start: !handshake.control<>) -> (!handshake.control<>) {
  // expected-note @-1 {{`%m` is a memref}}
  // expected-error @+1 {{HS2008: buffer on memref `%m`: a memref is not a channel, and is never buffered}}
  %0 = buffer %m {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_NONE", NUM_SLOTS = 1 : ui32}} : memref<4xi32>
  %fork:2 = fork [2] %start : <>
  %done = mem_controller [%0 : memref<4xi32>] %fork#0 () %fork#1 {connectedBlocks = [0 : i32]} : () -> ()
  end %done : <>
}

// -----

// CIRCT's verifier rejects it too: a memref argument is used by `extmemory` and nothing else.
// expected-error @+2 {{HS1217: memref argument #0 must be used by an `extmemory` op}}
// expected-note @+1 {{`%m` is a memref}}
handshake.func @memref_circt(%m: memref<4xi32>, %addr: index, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS2008: buffer on memref `%m`: a memref is not a channel, and is never buffered}}
  %0 = buffer [1] seq %m : memref<4xi32>
  %ld, %done = extmemory [ld = 1, st = 0] (%0 : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  %1 = join %done, %ctrl : none, none
  return %ld, %1 : i32, none
}

// -----

// Into a port (the inline syntax) and out of one (`hw.parameters`).
handshake.func @mc(%memref: memref<64xi32>, %addr: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-note @+1 {{port of `mem_controller`}}
  %ldData, %done = mem_controller [%memref: memref<64xi32>] %fork#0 (%addrBuf) %fork#1 {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>) -> !handshake.channel<i32>
  // expected-note @-1 {{the `mem_controller` whose port it is}}
  %fork:2 = fork [2] %start : <>
  %ldAddrToMem, %ldDataToSucc = load [%addr] %dataBuf : <i32>, <i32>, <i32>, <i32>
  // expected-error @+1 {{HS2008: buffer on `%ldAddrToMem`, which feeds a port of `mem_controller`: the channels of a memory interface's ports are never buffered}}
  %addrBuf = buffer %ldAddrToMem, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  // expected-error @+1 {{HS2008: buffer on `%ldData`, a port of `mem_controller`}}
  %dataBuf = buffer %ldData {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32}} : <i32>
  end %ldDataToSucc, %done : <i32>, <>
}

// -----

// A group allocation of an LSQ is a port; every buffer of a chain on it is reported.
handshake.func @lsq(%memref: memref<64xi32>, %addr: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-note @+2 {{port of `lsq`}}
  // expected-note @+1 {{port of `lsq`}}
  %ldData, %done = lsq [%memref: memref<64xi32>] (%fork#0, %group1, %ldAddrToMem, %fork#2) {groupSizes = [1 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  %fork:3 = fork [3] %start : <>
  // expected-error @+1 {{HS2008: buffer on `%fork#1`, which feeds a port of `lsq`}}
  %group0 = buffer %fork#1, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <>
  // expected-error @+1 {{HS2008: buffer on `%fork#1`, which feeds a port of `lsq`}}
  %group1 = buffer %group0, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <>
  %ldAddrToMem, %ldDataToSucc = load [%addr] %ldData : <i32>, <i32>, <i32>, <i32>
  end %ldDataToSucc, %done : <i32>, <>
}

// -----

// In a Dynamatic-style function the ports of `memory` and `extmemory` are unbufferizable too.
handshake.func @extmemory_dynamatic(%m: memref<4xi32>, %i: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-note @+2 {{port of `extmemory`}}
  // expected-note @+1 {{the `extmemory` whose port it is}}
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%m : memref<4xi32>) (%addrBuf) {id = 0 : i32} : (!handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.control<>)
  // expected-error @+1 {{HS2008: buffer on `%ld`, a port of `extmemory`}}
  %ldBuf = buffer %ld, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %addr, %x = load [%i] %ldBuf : <i32>, <i32>, <i32>, <i32>
  // expected-error @+1 {{HS2008: buffer on `%addr`, which feeds a port of `extmemory`}}
  %addrBuf = buffer %addr, bufferType = FIFO_BREAK_NONE, numSlots = 2 : <i32>
  %done = join %ldDone, %start : <>, <>
  end %x, %done : <i32>, <>
}

// -----

// Valid: buffers on the start and end tokens of a memory controller and an LSQ, and on the
// data a load gives its successors. In a CIRCT-style function the ports of `extmemory` and
// `memory` are ordinary channels: CIRCT's `handshake-insert-buffers` buffers every one of them.
handshake.func @valid(%m1: memref<64xi32>, %m2: memref<64xi32>, %addr: !handshake.channel<i32>, %addr2: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>, !handshake.control<>) {
  %ldData, %done = mem_controller [%m1: memref<64xi32>] %startBuf (%ldAddrToMem) %endBuf {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>) -> !handshake.channel<i32>
  %fork:5 = fork [5] %start : <>
  %startBuf = buffer %fork#0, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <>
  %endBuf = buffer %fork#1, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <>
  %ldAddrToMem, %ldDataToSucc = load [%addr] %ldData : <i32>, <i32>, <i32>, <i32>
  %out = buffer %ldDataToSucc, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %doneBuf = buffer %done, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <>
  %ldData2, %done2 = lsq [%m2: memref<64xi32>] (%lsqStart, %fork#3, %ldAddrToMem2, %fork#4) {groupSizes = [1 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  %lsqStart = buffer %fork#2, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <>
  %addrBuf = buffer %addr2, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %ldAddrToMem2, %ldDataToSucc2 = load [%addrBuf] %ldData2 : <i32>, <i32>, <i32>, <i32>
  end %out, %ldDataToSucc2, %doneBuf, %done2 : <i32>, <i32>, <>, <>
}

handshake.func @valid_circt(%m: memref<4xi32>, %addr: index, %ctrl: none) -> (i32, none) {
  %0 = buffer [2] fifo %addr : index
  %ld, %done = extmemory [ld = 1, st = 0] (%m : memref<4xi32>) (%0) {id = 0 : i32} : (index) -> (i32, none)
  %1 = buffer [1] seq %ld : i32
  %2 = join %done, %ctrl : none, none
  return %1, %2 : i32, none
}
