// The shape of an access's ctrl operand is checked by the signature and type checks, not by
// the memory lints: a CIRCT load or store takes exactly one ctrl after its address(es) and data
// (HS1201 otherwise), and the ctrl is `none` (HS1105 otherwise).
handshake.func @no_ctrl(%a: memref<4xi32>, %i: index, %start: none) -> (i32, none) {
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  // expected-error @+1 {{HS1201}}
  %x, %addr = load [%i] %ld : index, i32
  %done = join %ldDone, %start : none, none
  return %x, %done : i32, none
}

// -----

// expected-note @+1 {{defined here}}
handshake.func @data_ctrl(%a: memref<4xi32>, %i: index, %v: i32, %start: none) -> (i32, none) {
  %ld, %ldDone = extmemory [ld = 1, st = 0] (%a : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  // expected-error @+1 {{HS1105}}
  %x, %addr = load [%i] %ld, %v : index, i32
  %done = join %ldDone, %start : none, none
  return %x, %done : i32, none
}
