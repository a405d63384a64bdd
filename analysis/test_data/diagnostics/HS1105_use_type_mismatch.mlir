// The types an op writes give each of its operands a type, which must be the value's own.
// expected-note @+1 {{defined here}}
handshake.func @dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i16>, !handshake.control<>) {
  // expected-error @+1 {{HS1105: `%a` is used as `<i16>` here, but its type is `<i32>`}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i16>
  end %0, %start : <i16>, <>
}

// -----

// Extra signals are part of the type.
handshake.func @extras(%a: !handshake.channel<i32, [spec: i1]>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-note @+1 {{defined here}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32, [spec: i1]>
  // expected-error @+1 {{HS1105: `%0` is used as `<i32>` here, but its type is `<i32, [spec: i1]>`}}
  %1 = buffer %0, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  end %1, %start : <i32>, <>
}

// -----

// expected-note @+1 {{defined here}}
handshake.func @circt(%sel: i1, %a: i32, %b: i64, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1105: `%b` is used as `i32` here, but its type is `i64`}}
  %0 = mux %sel [%a, %b] : i1, i32
  return %0, %ctrl : i32, none
}

// -----

// A result takes its type from its own op, so the mismatch is reported at the use.
handshake.func @results(%a: i32, %ctrl: none) -> (i32, none) {
  %c:2 = fork [2] %ctrl : none
  // expected-note @+1 {{defined here}}
  %0 = constant %c#0 {value = 1 : i8} : i8
  // expected-error @+1 {{HS1105: `%0` is used as `i32` here, but its type is `i8`}}
  %1 = addi %a, %0 : i32
  return %1, %c#1 : i32, none
}

// -----

// Valid: types agree; Dynamatic's `_` placeholder matches any type.
handshake.func @valid(%channel: !handshake.channel<i32>) -> !handshake.channel<i32> {
  %ctrl, %data = unbundle %channel : <i32> to _
  %again = bundle %ctrl, %data : _ to <i32>
  end %again : !handshake.channel<i32>
}
