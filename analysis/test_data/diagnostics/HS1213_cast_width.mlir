// Extensions widen and truncations narrow, strictly.
handshake.func @dynamatic(%a: !handshake.channel<i32>, %b: !handshake.channel<i8>, %start: !handshake.control<>) -> (!handshake.channel<i16>, !handshake.channel<i8>, !handshake.control<>) {
  // expected-error @+1 {{HS1213: `extsi` must widen: `<i32>` to `<i16>` is 32 to 16 bits}}
  %0 = extsi %a : <i32> to <i16>
  // Same width: Dynamatic's CfToHandshake writes these and its verifier accepts them.
  // expected-remark @+1 {{HS1213: `trunci` from `<i8>` to `<i8>` keeps the width; it changes nothing}}
  %1 = trunci %b : <i8> to <i8>
  end %0, %1, %start : <i16>, <i8>, <>
}

// -----

handshake.func @circt(%a: i16, %b: f64, %ctrl: none) -> (i8, f64, none) {
  // expected-error @+1 {{HS1213: `extui` must widen: `i16` to `i8` is 16 to 8 bits}}
  %0 = arith.extui %a : i16 to i8
  // expected-error @+1 {{HS1213: `truncf` must narrow: `f64` to `f64` is 64 to 64 bits}}
  %1 = arith.truncf %b : f64 to f64
  return %0, %1, %ctrl : i8, f64, none
}

// -----

// Valid.
handshake.func @valid(%a: !handshake.channel<i6>, %b: !handshake.channel<i32>, %c: !handshake.channel<f32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i5>, !handshake.channel<f64>, !handshake.control<>) {
  %0 = extsi %a : <i6> to <i32>
  %1 = trunci %b : <i32> to <i5>
  %2 = extf %c : <f32> to <f64>
  end %0, %1, %2, %start : <i32>, <i5>, <f64>, <>
}
