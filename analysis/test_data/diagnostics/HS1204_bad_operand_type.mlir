// A branch condition is one bit; spec_commit's control is a channel of one bit.
handshake.func @dynamatic_cond_br(%cond: !handshake.channel<i32>, %a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS1204: the condition of `cond_br` must be `i1`, not `<i32>`}}
  %t, %f = cond_br %cond, %a : <i32>, <i32>
  sink %f : <i32>
  end %t, %start : <i32>, <>
}

// -----

// CIRCT's custom form types the condition as `i1` itself; the generic form writes it.
handshake.func @circt_cond_br(%cond: i8, %a: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1204: the condition of `cond_br` must be `i1`, not `i8`}}
  %t, %f = "handshake.cond_br"(%cond, %a) : (i8, i32) -> (i32, i32)
  sink %f : i32
  return %t, %ctrl : i32, none
}

// -----

handshake.func @spec_commit(%ctrl: !handshake.channel<i2>, %in: !handshake.channel<i32, [spec: i1]>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS1204: the control of `spec_commit` must be a channel of `i1`, not `<i2>`}}
  %out = spec_commit [%ctrl] %in : !handshake.channel<i32, [spec: i1]>, !handshake.channel<i32>, <i2>
  end %out, %start : <i32>, <>
}

// -----

// Valid.
handshake.func @valid(%cond: !handshake.channel<i1>, %ctrl: !handshake.channel<i1>, %in: !handshake.channel<i32, [spec: i1]>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %out = spec_commit [%ctrl] %in : !handshake.channel<i32, [spec: i1]>, !handshake.channel<i32>, <i1>
  %t, %f = cond_br %cond, %out : <i1>, <i32>
  sink %f : <i32>
  end %t, %start : <i32>, <>
}

handshake.func @valid_circt(%cond: i1, %a: i32, %ctrl: none) -> (i32, none) {
  %t, %f = cond_br %cond, %a : i32
  sink %f : i32
  return %t, %ctrl : i32, none
}
