// Results of a memory interface: one load-data result per load port, then one done token per
// store port, then one per load port.
handshake.func @done_typed_as_data(%a: memref<4xi32>, %i: index, %start: none) -> (i32, i32, none) {
  %s:2 = fork [2] %start : none
  // expected-error @+1 {{HS3025: result #1 of `extmemory` of `%a` (id 0) is the done token of load port 0 and must be `none`, not `i32`}}
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, i32)
  %x, %addr = load [%i] %ld, %s#0 : index, i32
  return %x, %ldDone, %s#1 : i32, i32, none
}

// -----

// A load-data result that bypasses its load. (The load port it belongs to has no load, so
// the counts are off too.)
handshake.func @data_bypasses_load(%a: memref<4xi32>, %i: index, %k: index, %start: none) -> (i32, none) {
  %s:2 = fork [2] %start : none
  // expected-error @+2 {{HS3025: `%ld#1` is the load-data result of load port 1 of `extmemory` of `%a` (id 0), but feeds `addi`}}
  // expected-error @+1 {{HS3024: `extmemory` of `%a` (id 0) declares `ld = 2, st = 0` but 1 load}}
  %ld:2, %done:2 = extmemory [ld = 2, st = 0] (%a : memref<4xi32>) (%addr0, %k) {id = 0 : i32} : (index, index) -> (i32, i32, none, none)
  %x, %addr0 = load [%i] %ld#0, %s#0 : index, i32
  // expected-note @+1 {{consumed here}}
  %y = addi %x, %ld#1 : i32
  %d = join %done#0, %done#1, %s#1 : none, none, none
  return %y, %d : i32, none
}
