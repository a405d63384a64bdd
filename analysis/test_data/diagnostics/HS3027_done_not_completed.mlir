// After a fork, one copy of the load's done token is sunk: the returned control does not wait
// for it on that path.
handshake.func @forked_then_sunk(%a: memref<4xi32>, %i: index, %start: none) -> (i32, none) {
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  // expected-error @-1 {{HS3027: the done token `%ldDone` of load `%x` must reach the returned control `%done` on every path, but can end in a `sink`}}
  // expected-note @+1 {{the access}}
  %x, %addr = load [%i] %ld, %start : index, i32
  %d:2 = fork [2] %ldDone : none
  // expected-note @+1 {{the token ends here}}
  sink %d#1 : none
  %done = join %d#0 : none
  return %x, %done : i32, none
}

// -----

// The load's done token orders the store, but the store's done token goes nowhere but a
// branch whose false side is dropped.
handshake.func @dropped_branch(%a: memref<4xi32>, %i: index, %j: index, %v: i32, %c: i1, %start: none) -> (i32, none) {
  // expected-note @+1 {{`%s#1` receives 1 token per invocation}}
  %s:2 = fork [2] %start : none
  %ld, %stDone, %ldDone = extmemory [ld = 1, st = 1] (%a : memref<4xi32>) (%stData, %stAddr, %addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  // expected-error @-1 {{HS3027: the done token `%stDone` of store `%stData` must reach the returned control `%done` on every path, but can end in a `sink`}}
  // expected-error @-2 {{HS3027: the done token `%ldDone` of load `%x` must reach the returned control `%done` on every path, but can end in a `sink`}}
  // expected-note @+1 {{the access}}
  %x, %addr = load [%i] %ld, %s#0 : index, i32
  // expected-note @+1 {{the access}}
  %stData, %stAddr = store [%j] %v, %ldDone : index, i32
  // expected-note @+1 {{`%t` receives true(%c) tokens per invocation}}
  %t, %f = cond_br %c, %stDone : none
  // expected-note @+1 {{the token ends here}}
  sink %f : none
  // expected-note @-1 {{the token ends here}}
  // The join waits for a token the branch sends only when `%c` holds: the rate lint sees it too.
  // expected-warning @+1 {{HS3005: the operands of `join` receive different numbers of tokens per invocation: `%t` gets true(%c), `%s#1` gets 1}}
  %done = join %t, %s#1 : none, none
  return %x, %done : i32, none
}

// -----

// A done token caught in a loop that never leaves it does not reach the return either.
handshake.func @trapped(%a: memref<4xi32>, %i: index, %start: none) -> (i32, none) {
  %s:2 = fork [2] %start : none
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  // expected-error @-1 {{HS3027: the done token `%ldDone` of load `%x` must reach the returned control `%s#1` on every path, but never reaches it}}
  // expected-note @+1 {{the access}}
  %x, %addr = load [%i] %ld, %s#0 : index, i32
  %m = merge %ldDone, %back : none
  %back = buffer [1] seq %m : none
  return %x, %s#1 : i32, none
}

// -----

// Valid: LOOM keeps memory ordering domains apart unless the program needs a global
// synchronization, so a function may return one done token per domain; each done token
// reaches one of the returned controls.
handshake.func @two_domains(%a: memref<4xi32>, %b: memref<4xi32>, %i: index, %v: i32, %start: none) -> (i32, none, none) {
  %s:2 = fork [2] %start : none
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  %stDone = extmemory [ld = 0, st = 1] (%b : memref<4xi32>) (%d, %sa) {id = 1 : i32} : (i32, index) -> (none)
  %j:2 = fork [2] %i : index
  %x, %addr = load [%j#0] %ld, %s#0 : index, i32
  %d, %sa = store [%j#1] %v, %s#1 : index, i32
  return %x, %ldDone, %stDone : i32, none, none
}
