// `ld` / `st` must count the loads and stores attached to the interface. Here the store port
// is fed by plain values instead of a store.
handshake.func @missing_store(%a: memref<4xi32>, %i: index, %v: i32, %k: index, %start: none) -> (i32, none) {
  // expected-error @+1 {{HS3024: `extmemory` of `%a` (id 0) declares `ld = 1, st = 1` but 1 load and 0 stores are attached to it}}
  %ld, %stDone, %ldDone = extmemory [ld = 1, st = 1] (%a : memref<4xi32>) (%v, %k, %addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %x, %addr = load [%i] %ld, %start : index, i32
  %d = join %stDone, %ldDone : none, none
  return %x, %d : i32, none
}

// -----

// Valid: one load and one store on `ld = 1, st = 1`.
handshake.func @valid(%a: memref<4xi32>, %i: index, %j: index, %v: i32, %start: none) -> (i32, none) {
  %s:2 = fork [2] %start : none
  %ld, %stDone, %ldDone = extmemory [ld = 1, st = 1] (%a : memref<4xi32>) (%stData, %stAddr, %addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %x, %addr = load [%i] %ld, %s#0 : index, i32
  %stData, %stAddr = store [%j] %v, %s#1 : index, i32
  %d = join %stDone, %ldDone : none, none
  return %x, %d : i32, none
}
