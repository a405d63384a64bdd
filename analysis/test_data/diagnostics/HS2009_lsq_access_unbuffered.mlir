// A load or store attached to an LSQ has a buffer slot on each input an op produces (seed 000,
// "Buffering before LSQ Memory Ops"): without one, back pressure from the access raises the
// loop's II by 1. A load's data from memory and a load's constant address are exempt, and so
// are function arguments. Only functions that hold a buffer are checked: before buffer
// placement no channel has one.
handshake.func @store(%memref: memref<64xi32>, %x: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) {
  // expected-note @+1 {{the LSQ}}
  %done = lsq [%memref: memref<64xi32>] (%fork#0, %fork#1, %stAddr, %stData, %fork#2) {groupSizes = [1 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.control<>)
  %fork:5 = fork [5] %start : <>
  %xs:2 = fork [2] %x : <i32>
  %addr = constant %fork#3 {value = 0 : i32} : <>, <i32>
  %data = addi %xs#0, %xs#1 : <i32>
  // expected-warning @+3 {{HS2009: `store` attached to an LSQ has no buffer slot on its inputs `%addr` and `%data`; its request reaches the LSQ a cycle after the group allocation, and without a slot to wait in, the back pressure raises the II by 1}}
  // expected-note @+2 {{no buffer slot on this input}}
  // expected-note @+1 {{no buffer slot on this input}}
  %stAddr, %stData = store [%addr] %data : <i32>, <i32>, <i32>, <i32>
  %out = buffer %fork#4, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <>
  end %out, %done : <>, <>
}

// -----

handshake.func @load(%memref: memref<64xi32>, %x: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-note @+1 {{the LSQ}}
  %ldData, %done = lsq [%memref: memref<64xi32>] (%fork#0, %fork#1, %ldAddr, %fork#2) {groupSizes = [1 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  %fork:3 = fork [3] %start : <>
  %xs:2 = fork [2] %x : <i32>
  %addr = addi %xs#0, %xs#1 : <i32>
  // expected-warning @+2 {{HS2009: `load` attached to an LSQ has no buffer slot on its input `%addr`}}
  // expected-note @+1 {{no buffer slot on this input}}
  %ldAddr, %result = load [%addr] %ldData : <i32>, <i32>, <i32>, <i32>
  %out = buffer %result {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32}} : <i32>
  end %out, %done : <i32>, <>
}

// -----

// Valid: a slot on every input, a constant address of a load, an access of a memory
// controller, and a function before buffer placement.
handshake.func @valid(%m1: memref<64xi32>, %m2: memref<64xi32>, %x: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) {
  %done1 = lsq [%m1: memref<64xi32>] (%fork#0, %fork#1, %stAddr, %stData, %fork#2) {groupSizes = [1 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.control<>)
  %fork:7 = fork [7] %start : <>
  %xs:2 = fork [2] %x : <i32>
  %addr = constant %fork#3 {value = 0 : i32} : <>, <i32>
  %addrBuf = buffer %addr, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  %dataBuf = buffer %xs#0 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32}} : <i32>
  %stAddr, %stData = store [%addrBuf] %dataBuf : <i32>, <i32>, <i32>, <i32>
  %ldData, %done2 = lsq [%m2: memref<64xi32>] (%fork#4, %fork#5, %ldAddr, %fork#6) {groupSizes = [1 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  %zero = constant %xs#1 {value = 0 : i32} : <i32>, <i32>
  %ldAddr, %result = load [%zero] %ldData : <i32>, <i32>, <i32>, <i32>
  end %result, %done1, %done2 : <i32>, <>, <>
}

handshake.func @unbuffered(%memref: memref<64xi32>, %x: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %ldData, %done = lsq [%memref: memref<64xi32>] (%fork#0, %fork#1, %ldAddr, %fork#2) {groupSizes = [1 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  %fork:3 = fork [3] %start : <>
  %xs:2 = fork [2] %x : <i32>
  %addr = addi %xs#0, %xs#1 : <i32>
  %ldAddr, %result = load [%addr] %ldData : <i32>, <i32>, <i32>, <i32>
  end %result, %done : <i32>, <>
}
