// A load's ctrl must derive from the start token (the function's last `none` argument) or
// from done tokens of the load's own memory interface.
handshake.func @ctrl_from_source(%a: memref<16xi32>, %i: index, %start: none) -> (i32, none) {
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<16xi32>) (%ldAddr) {id = 0 : i32} : (index) -> (i32, none)
  %src = source
  // expected-error @+1 {{HS3020: the ctrl `%src` of load `%x` derives neither from the start token `%start` nor from done tokens of `extmemory` of `%a` (id 0), its memory}}
  %x, %ldAddr = load [%i] %ld, %src : index, i32
  %done = join %ldDone, %start : none, none
  return %x, %done : i32, none
}
// expected-note @-8 {{the start token}}

// -----

// A `none` argument other than the start token does not order the access either.
handshake.func @ctrl_from_other_arg(%a: memref<16xi32>, %i: index, %go: none, %start: none) -> (i32, none) {
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<16xi32>) (%ldAddr) {id = 0 : i32} : (index) -> (i32, none)
  // expected-error @+1 {{HS3020: the ctrl `%go` of load `%x` derives neither from the start token `%start`}}
  %x, %ldAddr = load [%i] %ld, %go : index, i32
  %done = join %ldDone, %start : none, none
  return %x, %done : i32, none
}
// expected-note @-7 {{the start token}}

// -----

// Valid: the ctrl is the start token passed through a fork and a buffer, joined with a data
// value; the second load is ordered after the first by the first one's done token.
handshake.func @valid(%a: memref<16xi32>, %i: index, %j: index, %v: i32, %start: none) -> (i32, i32, none) {
  %ld:2, %ldDone:2 = extmemory [ld = 2, st = 0] (%a : memref<16xi32>) (%addr0, %addr1) {id = 0 : i32} : (index, index) -> (i32, i32, none, none)
  %s:2 = fork [2] %start : none
  %b = buffer [1] seq %s#0 : none
  %c = join %b, %v : none, i32
  %x, %addr0 = load [%i] %ld#0, %c : index, i32
  %y, %addr1 = load [%j] %ld#1, %ldDone#0 : index, i32
  %done = join %ldDone#1, %s#1 : none, none
  return %x, %y, %done : i32, i32, none
}

// -----

// Valid: LOOM's `_esi` wrappers have no `none` argument (ESI ports cannot carry one); their
// start token is the last `i1` argument, turned into a ctrl by a join.
handshake.func @load_esi(%a: memref<4xi32>, %i: index, %start: i1) -> (i32, none) {
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  %ctrl = join %start : i1
  %x, %addr = load [%i] %ld, %ctrl : index, i32
  return %x, %ldDone : i32, none
}
