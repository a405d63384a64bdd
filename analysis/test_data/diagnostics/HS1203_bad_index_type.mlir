// A mux select and a control_merge index are integers wide enough to number every input.
handshake.func @circt_mux(%sel: i1, %a: i32, %b: i32, %c: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1203: the select operand of `mux` is 1 bit wide and can pick one of 2 inputs, but there are 3}}
  %0 = mux %sel [%a, %b, %c] : i1, i32
  return %0, %ctrl : i32, none
}

// -----

handshake.func @circt_select_kind(%sel: tensor<i1>, %a: i32, %b: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1203: the select operand of `mux` must be an integer, not `tensor<i1>`}}
  %0 = mux %sel [%a, %b] : tensor<i1>, i32
  return %0, %ctrl : i32, none
}

// -----

handshake.func @circt_cmerge(%a: none, %b: none, %c: none) -> (none, i1) {
  // expected-error @+1 {{HS1203: the index result of `control_merge` is 1 bit wide and can pick one of 2 inputs, but there are 3}}
  %result, %index = control_merge %a, %b, %c : none, i1
  return %result, %index : none, i1
}

// -----

handshake.func @dynamatic_mux(%sel: !handshake.channel<f32>, %a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS1203: the select operand of `mux` must be an integer, not `<f32>`}}
  %0 = mux %sel [%a, %b] : <f32>, [<i32>, <i32>] to <i32>
  end %0, %start : <i32>, <>
}

// -----

handshake.func @dynamatic_cmerge(%a: !handshake.control<>, %b: !handshake.control<>, %c: !handshake.control<>) -> (!handshake.control<>, !handshake.channel<i1>) {
  // expected-error @+1 {{HS1203: the index result of `control_merge` is 1 bit wide and can pick one of 2 inputs, but there are 3}}
  %result, %index = control_merge [%a, %b, %c] : [<>, <>, <>] to <>, <i1>
  end %result, %index : <>, <i1>
}

// -----

// Valid: two bits pick one of four, and `index` is always wide enough.
handshake.func @valid(%a: !handshake.control<>, %b: !handshake.control<>, %c: !handshake.control<>, %x: !handshake.channel<i32>, %y: !handshake.channel<i32>, %z: !handshake.channel<i32>) -> (!handshake.control<>, !handshake.channel<i32>) {
  %result, %index = control_merge [%a, %b, %c] : [<>, <>, <>] to <>, <i2>
  %0 = mux %index [%x, %y, %z] : <i2>, [<i32>, <i32>, <i32>] to <i32>
  end %result, %0 : <>, <i32>
}

handshake.func @valid_circt(%a: none, %b: none, %c: none) -> (none, index) {
  %result, %index = control_merge %a, %b, %c : none, index
  return %result, %index : none, index
}
