// A mux forwards one of its data inputs: the inputs and the result carry one data type.
handshake.func @dynamatic_result(%sel: !handshake.channel<i1>, %a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i16>, !handshake.control<>) {
  // expected-error @+1 {{HS1202: the data inputs and the result of `mux` must carry one data type: `<i32>` and `<i16>` differ}}
  %0 = mux %sel [%a, %b] : <i1>, [<i32>, <i32>] to <i16>
  end %0, %start : <i16>, <>
}

// -----

handshake.func @dynamatic_inputs(%sel: !handshake.channel<i1>, %a: !handshake.channel<i32>, %b: !handshake.channel<f32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS1202: the data inputs and the result of `mux` must carry one data type: `<i32>` and `<f32>` differ}}
  %0 = mux %sel [%a, %b] : <i1>, [<i32>, <f32>] to <i32>
  end %0, %start : <i32>, <>
}

// -----

// CIRCT's custom form writes the data type once; the generic form can disagree with itself.
handshake.func @circt(%sel: i1, %a: i32, %b: i64, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1202: the data inputs and the result of `mux` must carry one data type: `i32` and `i64` differ}}
  %0 = "handshake.mux"(%sel, %a, %b) : (i1, i32, i64) -> i32
  return %0, %ctrl : i32, none
}

// -----

// `spec_commit` removes the `spec` bit and keeps the data.
handshake.func @spec_commit(%ctrl: !handshake.channel<i1>, %in: !handshake.channel<i32, [spec: i1]>, %start: !handshake.control<>) -> (!handshake.channel<i16>, !handshake.control<>) {
  // expected-error @+1 {{HS1202: `spec_commit` keeps the data type: `<i32, [spec: i1]>` and `<i16>` differ}}
  %out = spec_commit [%ctrl] %in : !handshake.channel<i32, [spec: i1]>, !handshake.channel<i16>, <i1>
  end %out, %start : <i16>, <>
}

// -----

// Valid: one data type throughout.
handshake.func @valid_dynamatic(%sel: !handshake.channel<i1>, %a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = mux %sel [%a, %b] : <i1>, [<i32>, <i32>] to <i32>
  end %0, %start : <i32>, <>
}

handshake.func @valid_circt(%sel: index, %a: i32, %b: i32, %c: i32, %ctrl: none) -> (i32, none) {
  %0 = mux %sel [%a, %b, %c] : index, i32
  return %0, %ctrl : i32, none
}
