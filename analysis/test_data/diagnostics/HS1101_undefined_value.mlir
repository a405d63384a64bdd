// A use must name a value that a definition in scope gives.
handshake.func @dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  sink %a : <i32>
  // expected-error @+1 {{HS1101: use of undefined value `%b`}}
  %0 = buffer %b, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  end %0, %start : <i32>, <>
}

// -----

handshake.func @circt(%a: i32, %ctrl: none) -> (i32, none) {
  sink %a : i32
  // expected-error @+1 {{HS1101: use of undefined value `%sum`}}
  return %sum, %ctrl : i32, none
}

// -----

// Names do not cross function boundaries: `%x` of @producer is not visible in @consumer.
handshake.func @producer(%x: i32, %ctrl: none) -> none {
  sink %x : i32
  return %ctrl : none
}

handshake.func @consumer(%ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1101: use of undefined value `%x`}}
  return %x, %ctrl : i32, none
}

// -----

// The same rule holds outside Handshake.
func.func @plain(%a: i32) -> i32 {
  // expected-error @+1 {{HS1101: use of undefined value `%k`}}
  %0 = arith.addi %a, %k : i32
  return %0 : i32
}

// -----

// Valid: a Handshake function may use a value defined further down (a graph region).
handshake.func @loop(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = merge %a, %2 : i32
  %1:2 = fork [2] %0 : i32
  %2 = buffer [1] seq %1#0 {initValues = [0]} : i32
  return %1#1, %ctrl : i32, none
}
