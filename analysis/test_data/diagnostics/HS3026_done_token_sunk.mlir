// The store's done token is thrown away: nothing waits for the store to complete.
handshake.func @store_done_sunk(%a: memref<4xi32>, %i: index, %v: i32, %start: none) -> none {
  %s:2 = fork [2] %start : none
  %stDone = extmemory [ld = 0, st = 1] (%a : memref<4xi32>) (%stData, %stAddr) {id = 0 : i32} : (i32, index) -> (none)
  // expected-note @-1 {{the done token}}
  // expected-note @+1 {{the store}}
  %stData, %stAddr = store [%i] %v, %s#0 : index, i32
  // expected-error @+1 {{HS3026: the done token `%stDone` of store `%stData` is discarded}}
  sink %stDone : none
  return %s#1 : none
}

// -----

// Through a buffer it is the same.
handshake.func @through_buffer(%a: memref<4xi32>, %i: index, %start: none) -> (i32, none) {
  %s:2 = fork [2] %start : none
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  // expected-note @-1 {{the done token}}
  // expected-note @+1 {{the load}}
  %x, %addr = load [%i] %ld, %s#0 : index, i32
  %b = buffer [2] fifo %ldDone : none
  // expected-error @+1 {{HS3026: the done token `%ldDone` of load `%x` is discarded}}
  sink %b : none
  return %x, %s#1 : i32, none
}
