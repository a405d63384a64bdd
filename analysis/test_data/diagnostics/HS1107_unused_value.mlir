// Every channel in a handshake.func is consumed exactly once; one nobody consumes stalls its
// producer (the quick fix adds a `sink`).
handshake.func @dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> !handshake.control<> {
  // expected-warning @+1 {{HS1107: `%0` is never consumed; a Handshake channel must be consumed exactly once, or its producer stalls}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  end %start : <>
}

// -----

// One output of a fork left dangling.
handshake.func @circt(%a: i32, %ctrl: none) -> (i32, none) {
  // expected-warning @+1 {{HS1107: `%0#1` is never consumed}}
  %0:2 = fork [2] %a : i32
  return %0#0, %ctrl : i32, none
}

// -----

// Arguments are channels too.
// expected-warning @+1 {{HS1107: `%unused` is never consumed}}
handshake.func @argument(%a: i32, %unused: i32, %ctrl: none) -> (i32, none) {
  return %a, %ctrl : i32, none
}

// -----

// Valid: every channel has one consumer; the false branch is dropped through a sink.
handshake.func @valid(%cond: !handshake.channel<i1>, %a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %t, %f = cond_br %cond, %a : <i1>, <i32>
  sink %f : <i32>
  end %t, %start : <i32>, <>
}

// -----

// Valid: memrefs are not channels, and a declaration has no body to check.
handshake.func @memref(%m: memref<4xi32>, %ctrl: none) -> none {
  %ld, %done = extmemory [ld = 1, st = 0] (%m : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  %data, %addr = load [%idx] %ld, %c#0 : index, i32
  %c:2 = fork [2] %ctrl : none
  %idx = constant %c#1 {value = 0 : index} : index
  sink %data : i32
  return %done : none
}

handshake.func private @declared(%a: i32, %ctrl: none) -> none
