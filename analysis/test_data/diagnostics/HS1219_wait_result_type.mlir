// `wait` passes its second operand on once the first has arrived: the result has its type.
handshake.func @proposal(%x: channel<i32>, %y: channel<i16>, %start: control) -> (channel<i32>, control) {
  // expected-error @+1 {{HS1219: `wait` gives the second operand's type `<i16>`, not `<i32>`}}
  %r = wait %x, %y : (channel<i32>, channel<i16>) -> channel<i32>
  end %r, %start : channel<i32>, control
}

// -----

handshake.func @dynamatic(%x: !handshake.channel<i32>, %y: !handshake.channel<f32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS1219: `wait` gives the second operand's type `<f32>`, not `<i32>`}}
  %r = wait %x, %y : (!handshake.channel<i32>, !handshake.channel<f32>) -> !handshake.channel<i32>
  end %r, %start : <i32>, <>
}

// -----

// Valid: the waited-for token may be of any type; the result is the second operand's.
handshake.func @valid(%x: channel<i32>, %y: channel<i32>, %token: control, %z: channel<f32>, %start: control) -> (channel<i32>, channel<f32>, control) {
  %r = wait %x, %y : (channel<i32>, channel<i32>) -> channel<i32>
  %s = wait %token, %z : (control, channel<f32>) -> channel<f32>
  end %r, %s, %start : channel<i32>, channel<f32>, control
}
