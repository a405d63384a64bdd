// CTRL_MULTI_MEM: the load of the local memory waits for a done token of `%a`, which ties two
// independent ctrl-done networks together.
handshake.func @multi(%a: memref<16xi32>, %i: index, %j: index, %start: none) -> (i32, i32, none) {
  %s:2 = fork [2] %start : none
  // expected-note @+1 {{the other memory interface}}
  %aLd, %aDone = extmemory [ld = 1, st = 0] (%a : memref<16xi32>) (%aAddr) {id = 0 : i32} : (index) -> (i32, none)
  %bLd, %bDone = memory [ld = 1, st = 0] (%bAddr) {id = 1 : i32, lsq = false} : memref<8xi32>, (index) -> (i32, none)
  %x, %aAddr = load [%i] %aLd, %s#0 : index, i32
  // expected-error @+1 {{HS3021: CTRL_MULTI_MEM: the ctrl `%aDone` of load `%y`, an access of `memory` (id 1), depends on done tokens of `extmemory` of `%a` (id 0)}}
  %y, %bAddr = load [%j] %bLd, %aDone : index, i32
  %done = join %bDone, %s#1 : none, none
  return %x, %y, %done : i32, i32, none
}

// -----

// Through a join with the start token the dependence is still there.
handshake.func @through_join(%a: memref<16xi32>, %i: index, %j: index, %start: none) -> (i32, i32, none) {
  %s:3 = fork [3] %start : none
  // expected-note @+1 {{the other memory interface}}
  %aLd, %aDone = extmemory [ld = 1, st = 0] (%a : memref<16xi32>) (%aAddr) {id = 0 : i32} : (index) -> (i32, none)
  %bLd, %bDone = memory [ld = 1, st = 0] (%bAddr) {id = 1 : i32, lsq = false} : memref<8xi32>, (index) -> (i32, none)
  %x, %aAddr = load [%i] %aLd, %s#0 : index, i32
  %c = join %s#1, %aDone : none, none
  // expected-error @+1 {{HS3021: CTRL_MULTI_MEM: the ctrl `%c` of load `%y`}}
  %y, %bAddr = load [%j] %bLd, %c : index, i32
  %done = join %bDone, %s#2 : none, none
  return %x, %y, %done : i32, i32, none
}
