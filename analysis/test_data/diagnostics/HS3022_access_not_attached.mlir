// The memory-side results of a load or store must feed exactly one memory interface.
handshake.func @address_to_sink(%i: index, %ldData: i32, %start: none) -> (i32, none) {
  %s:2 = fork [2] %start : none
  // expected-error @+1 {{HS3022: the address result `%ldAddr` of load `%x` feeds `sink`, which is not a memory interface}}
  %x, %ldAddr = load [%i] %ldData, %s#0 : index, i32
  // expected-note @+1 {{consumed here}}
  sink %ldAddr : index
  return %x, %s#1 : i32, none
}

// -----

// A store whose data goes to one memory and its address to another.
handshake.func @two_interfaces(%a: memref<4xi32>, %b: memref<4xi32>, %i: index, %v: i32, %w: i32, %la: index, %lb: index, %start: none) -> (i32, i32, none) {
  %s:2 = fork [2] %start : none
  // expected-note @+1 {{one interface}}
  %aLd, %aStDone, %aLdDone = extmemory [ld = 1, st = 1] (%a : memref<4xi32>) (%stData, %i, %la) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  // expected-note @+1 {{the other interface}}
  %bLd, %bStDone, %bLdDone = extmemory [ld = 1, st = 1] (%b : memref<4xi32>) (%w, %stAddr, %lb) {id = 1 : i32} : (i32, index, index) -> (i32, none, none)
  %j = constant %s#0 {value = 0 : index} : index
  // expected-error @+1 {{HS3022: store `%stData` feeds two memory interfaces, `extmemory` of `%a` (id 0) and `extmemory` of `%b` (id 1)}}
  %stData, %stAddr = store [%j] %v, %s#1 : index, i32
  %d = join %aStDone, %aLdDone, %bStDone, %bLdDone : none, none, none, none
  return %aLd, %bLd, %d : i32, i32, none
}
