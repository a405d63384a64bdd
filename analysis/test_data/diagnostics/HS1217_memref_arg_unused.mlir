// In CIRCT's Handshake a memref argument becomes memory ports through an `extmemory` op.
// expected-error @+1 {{HS1217: memref argument #0 must be used by an `extmemory` op, which gives the function its memory ports}}
handshake.func @unused(%m: memref<2xi64>, %ctrl: none) -> none {
  return %ctrl : none
}

// -----

// Another use does not count.
handshake.func private @consume(memref<4xi32>, none) -> none

// expected-error @+1 {{HS1217: memref argument #1 must be used by an `extmemory` op}}
handshake.func @other_use(%ctrl: none, %m: memref<4xi32>) -> none {
  %0 = instance @consume(%m, %ctrl) : (memref<4xi32>, none) -> none
  return %0 : none
}

// -----

// Valid: the memref goes through extmemory; declarations have no body to use it in.
handshake.func @valid(%m: memref<4xi32>, %addr: index, %ctrl: none) -> (i32, none) {
  %ld, %done = extmemory [ld = 1, st = 0] (%m : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  %0 = join %done, %ctrl : none, none
  return %ld, %0 : i32, none
}

handshake.func private @declared(memref<4xi32>, none) -> none

// -----

// Valid: Dynamatic connects memrefs through `mem_controller` and `lsq`.
handshake.func @dynamatic(%m: memref<8xi32>, %memStart: !handshake.control<>, %addr: !handshake.channel<i3>, %ctrlEnd: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) {
  %ld, %memEnd = mem_controller [%m : memref<8xi32>] %memStart (%addr) %ctrlEnd {connectedBlocks = [0 : i32]} : (!handshake.channel<i3>) -> !handshake.channel<i32>
  end %ld, %memEnd, %start : <i32>, <>, <>
}
