// Done tokens of two memories are joined and the result also orders a later access of the
// first memory: the local memory's loads now hold up accesses of `%a`.
handshake.func @joined_midway(%a: memref<4xi32>, %i: index, %j: index, %k: index, %start: none) -> (i32, i32, i32, none) {
  %s:3 = fork [3] %start : none
  // expected-note @+1 {{done tokens of `extmemory` of `%a` (id 0) come from here}}
  %aLd:2, %aDone:2 = extmemory [ld = 2, st = 0] (%a : memref<4xi32>) (%a0, %a1) {id = 0 : i32} : (index, index) -> (i32, i32, none, none)
  // expected-note @+2 {{done tokens of `memory` (id 1) come from here}}
  // expected-note @+1 {{the other memory interface}}
  %bLd, %bDone = memory [ld = 1, st = 0] (%b0) {id = 1 : i32, lsq = false} : memref<8xi32>, (index) -> (i32, none)
  %x, %a0 = load [%i] %aLd#0, %s#0 : index, i32
  %y, %b0 = load [%j] %bLd, %s#1 : index, i32
  // expected-warning @+1 {{HS3028: this join combines done tokens of `extmemory` of `%a` (id 0) and `memory` (id 1), but it also feeds the memory op `load`}}
  %both = join %aDone#0, %bDone : none, none
  // expected-error @+2 {{HS3021: CTRL_MULTI_MEM: the ctrl `%both` of load `%z`}}
  // expected-note @+1 {{the joined token goes here}}
  %z, %a1 = load [%k] %aLd#1, %both : index, i32
  %done = join %aDone#1, %s#2 : none, none
  return %x, %y, %z, %done : i32, i32, i32, none
}

// -----

// A join of two memories' done tokens that is then dropped.
handshake.func @joined_and_dropped(%a: memref<4xi32>, %i: index, %j: index, %start: none) -> (i32, i32, none) {
  %s:3 = fork [3] %start : none
  // expected-error @+2 {{HS3027: the done token `%aDone` of load `%x` must reach the returned control `%s#2` on every path, but can end in a `sink`}}
  // expected-note @+1 {{done tokens of `extmemory` of `%a` (id 0) come from here}}
  %aLd, %aDone = extmemory [ld = 1, st = 0] (%a : memref<4xi32>) (%a0) {id = 0 : i32} : (index) -> (i32, none)
  // expected-error @+2 {{HS3027: the done token `%bDone` of load `%y` must reach the returned control `%s#2` on every path, but can end in a `sink`}}
  // expected-note @+1 {{done tokens of `memory` (id 1) come from here}}
  %bLd, %bDone = memory [ld = 1, st = 0] (%b0) {id = 1 : i32, lsq = false} : memref<8xi32>, (index) -> (i32, none)
  // expected-note @+1 {{the access}}
  %x, %a0 = load [%i] %aLd, %s#0 : index, i32
  // expected-note @+1 {{the access}}
  %y, %b0 = load [%j] %bLd, %s#1 : index, i32
  // expected-warning @+1 {{HS3028: this join combines done tokens of `extmemory` of `%a` (id 0) and `memory` (id 1), but it also feeds a `sink`}}
  %both = join %aDone, %bDone : none, none
  // expected-note @+3 {{the joined token goes here}}
  // expected-note @+2 {{the token ends here}}
  // expected-note @+1 {{the token ends here}}
  sink %both : none
  return %x, %y, %s#2 : i32, i32, none
}
