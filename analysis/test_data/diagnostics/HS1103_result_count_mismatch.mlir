// The names bound by `%x, %y = ...` or `%x:N = ...` must match the op's results.
handshake.func @dynamatic(%a: !handshake.channel<i32>, %b: !handshake.control<>, %c: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS1103: `control_merge` defines 2 results but 1 is bound}}
  %0 = control_merge [%b, %c] : [<>, <>] to <>, <i1>
  sink %0 : <>
  // expected-error @+1 {{HS1103: `buffer` defines 1 result but 2 are bound}}
  %1:2 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  sink %1#1 : <i32>
  end %1#0, %start : <i32>, <>
}

// -----

handshake.func @circt(%a: i32, %cond: i1, %b: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1103: `cond_br` defines 2 results but 3 are bound}}
  %t, %f, %x = cond_br %cond, %a : i32
  sink %f : i32
  sink %x : i32
  // `sink` has no result.
  // expected-error @+1 {{HS1103: `sink` defines 0 results but 1 is bound}}
  %s = sink %b : i32
  sink %s : i32
  return %t, %ctrl : i32, none
}

// -----

// The generic form states the result count in its function type.
handshake.func @generic(%a: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1103: `fork` defines 1 result but 2 are bound}}
  %0:2 = "handshake.fork"(%a) : (i32) -> (i32)
  sink %0#1 : i32
  return %0#0, %ctrl : i32, none
}

// -----

// Valid: a fork binds exactly as many results as `[N]` says, a cond_br two.
handshake.func @valid(%a: !handshake.channel<i32>, %cond: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0:2 = fork [2] %a : <i32>
  %c:2 = fork [2] %cond : <i1>
  %t, %f = cond_br %c#0, %0#0 : <i1>, <i32>
  %t2, %f2 = cond_br %c#1, %0#1 : <i1>, <i32>
  sink %f : <i32>
  sink %f2 : <i32>
  %1 = addi %t, %t2 : <i32>
  end %1, %start : <i32>, <>
}
