// Operands of a memory interface: data and address per store port first, then one address
// per load port.
// (A memory of indices, so that the swap is not also a type error.)
handshake.func @store_swapped(%a: memref<4xindex>, %i: index, %v: index, %start: none) -> none {
  // expected-note @+1 {{the memory interface}}
  %stDone = extmemory [ld = 0, st = 1] (%a : memref<4xindex>) (%stAddr, %stData) {id = 0 : i32} : (index, index) -> (none)
  // expected-error @+1 {{HS3023: store `%stData` sends its data to the address operand of store port 0 and its address to the data operand of store port 0 of `extmemory` of `%a` (id 0)}}
  %stData, %stAddr = store [%i] %v, %start : index, index
  return %stDone : none
}

// -----

handshake.func @load_on_store_port(%a: memref<4xi32>, %i: index, %v: index, %ldData: i32, %start: none) -> (i32, none) {
  // expected-error @+2 {{HS3024: `extmemory` of `%a` (id 0) declares `ld = 1, st = 1` but 1 load and 0 stores are attached to it}}
  // expected-note @+1 {{the memory interface}}
  %ld, %stDone, %ldDone = extmemory [ld = 1, st = 1] (%a : memref<4xi32>) (%ldData, %ldAddr, %v) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  // expected-error @+1 {{HS3023: load `%x` is wired to the address operand of store port 0 of `extmemory` of `%a` (id 0); a load's address goes to a load port}}
  %x, %ldAddr = load [%i] %ld, %start : index, i32
  %d = join %stDone, %ldDone : none, none
  return %x, %d : i32, none
}

// -----

// Two loads crossing their data: each must read the load-data result of its own port.
handshake.func @crossed_data(%a: memref<4xi32>, %i: index, %j: index, %start: none) -> (i32, i32, none) {
  %s:2 = fork [2] %start : none
  // expected-note @+2 {{load-data result of load port 0}}
  // expected-note @+1 {{load-data result of load port 1}}
  %ld:2, %done:2 = extmemory [ld = 2, st = 0] (%a : memref<4xi32>) (%addr0, %addr1) {id = 0 : i32} : (index, index) -> (i32, i32, none, none)
  // expected-error @+1 {{HS3023: load `%x` is on load port 0 of `extmemory` of `%a` (id 0), so its data from memory must be that port's load-data result `%ld#0`, not `%ld#1`}}
  %x, %addr0 = load [%i] %ld#1, %s#0 : index, i32
  // expected-error @+1 {{HS3023: load `%y` is on load port 1 of `extmemory` of `%a` (id 0), so its data from memory must be that port's load-data result `%ld#1`, not `%ld#0`}}
  %y, %addr1 = load [%j] %ld#0, %s#1 : index, i32
  %d = join %done#0, %done#1 : none, none
  return %x, %y, %d : i32, i32, none
}
