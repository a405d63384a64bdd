// Ops that forward extra signals see the same ones on every operand and result.
handshake.func @mux(%sel: !handshake.channel<i1, [spec: i1]>, %a: !handshake.channel<i32, [spec: i1]>, %b: !handshake.channel<i32, [spec: i1, tag: i8]>, %start: !handshake.control<>) -> (!handshake.channel<i32, [spec: i1]>, !handshake.control<>) {
  // expected-error @+1 {{HS1205: `mux` forwards extra signals, so its operands and results must carry the same ones: `<i1, [spec: i1]>` and `<i32, [spec: i1, tag: i8]>` differ}}
  %0 = mux %sel [%a, %b] : <i1, [spec: i1]>, [<i32, [spec: i1]>, <i32, [spec: i1, tag: i8]>] to <i32, [spec: i1]>
  end %0, %start : <i32, [spec: i1]>, <>
}

// -----

// The select operand is included: its extras travel with the chosen token.
handshake.func @mux_select(%sel: !handshake.channel<i1>, %a: !handshake.channel<i32, [spec: i1]>, %b: !handshake.channel<i32, [spec: i1]>, %start: !handshake.control<>) -> (!handshake.channel<i32, [spec: i1]>, !handshake.control<>) {
  // expected-error @+1 {{HS1205: `mux` forwards extra signals}}
  %0 = mux %sel [%a, %b] : <i1>, [<i32, [spec: i1]>, <i32, [spec: i1]>] to <i32, [spec: i1]>
  end %0, %start : <i32, [spec: i1]>, <>
}

// -----

handshake.func @constant(%start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %src = source : <[test: i2]>
  // expected-error @+1 {{HS1205: `constant` forwards extra signals, so its operands and results must carry the same ones: `<[test: i2]>` and `<i32>` differ}}
  %0 = constant %src {value = 7 : i32} : <[test: i2]>, <i32>
  end %0, %start : <i32>, <>
}

// -----

handshake.func @cond_br(%cond: !handshake.channel<i1>, %a: !handshake.channel<i32, [spec: i1]>, %start: !handshake.control<>) -> (!handshake.channel<i32, [spec: i1]>, !handshake.control<>) {
  // expected-error @+1 {{HS1205: `cond_br` forwards extra signals}}
  %t, %f = cond_br %cond, %a : <i1>, <i32, [spec: i1]>
  sink %f : <i32, [spec: i1]>
  end %t, %start : <i32, [spec: i1]>, <>
}

// -----

// `select`'s condition keeps its own extras; its data inputs and result share theirs. The
// custom form writes the data type once, the generic form once per value.
handshake.func @select(%cond: !handshake.channel<i1>, %a: !handshake.channel<i32, [tag: i4]>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32, [tag: i4]>, !handshake.control<>) {
  // expected-error @+1 {{HS1205: `select` forwards extra signals, so its operands and results must carry the same ones: `<i32, [tag: i4]>` and `<i32>` differ}}
  %0 = "handshake.select"(%cond, %a, %b) : (!handshake.channel<i1>, !handshake.channel<i32, [tag: i4]>, !handshake.channel<i32>) -> !handshake.channel<i32, [tag: i4]>
  end %0, %start : <i32, [tag: i4]>, <>
}

// -----

// spec_commit takes `spec: i1` off and must leave everything else as it was.
handshake.func @spec_commit_no_spec(%ctrl: !handshake.channel<i1>, %in: !handshake.channel<i32, [spec: i2]>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS1205: the input of `spec_commit` must carry a `spec: i1` signal; `<i32, [spec: i2]>` does not}}
  %out = spec_commit [%ctrl] %in : !handshake.channel<i32, [spec: i2]>, !handshake.channel<i32>, <i1>
  end %out, %start : <i32>, <>
}

// -----

handshake.func @spec_commit_keeps_spec(%ctrl: !handshake.channel<i1>, %in: !handshake.channel<i32, [spec: i1]>, %start: !handshake.control<>) -> (!handshake.channel<i32, [spec: i1]>, !handshake.control<>) {
  // expected-error @+1 {{HS1205: the output of `spec_commit` must not carry `spec`; `<i32, [spec: i1]>` does}}
  %out = spec_commit [%ctrl] %in : !handshake.channel<i32, [spec: i1]>, !handshake.channel<i32, [spec: i1]>, <i1>
  end %out, %start : <i32, [spec: i1]>, <>
}

// -----

handshake.func @spec_commit_others(%ctrl: !handshake.channel<i1>, %in: !handshake.channel<i32, [a: i1, spec: i1]>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS1205: `spec_commit` removes only `spec`: `<i32, [a: i1, spec: i1]>` and `<i32>` differ in other signals}}
  %out = spec_commit [%ctrl] %in : !handshake.channel<i32, [a: i1, spec: i1]>, !handshake.channel<i32>, <i1>
  end %out, %start : <i32>, <>
}

// -----

// Valid: the same extras everywhere; spec_commit drops exactly `spec`.
handshake.func @valid(%sel: !handshake.channel<i1, [spec: i1]>, %a: !handshake.channel<i32, [spec: i1]>, %b: !handshake.channel<i32, [spec: i1]>, %ctrl: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = mux %sel [%a, %b] : <i1, [spec: i1]>, [<i32, [spec: i1]>, <i32, [spec: i1]>] to <i32, [spec: i1]>
  %1 = spec_commit [%ctrl] %0 : !handshake.channel<i32, [spec: i1]>, !handshake.channel<i32>, <i1>
  end %1, %start : <i32>, <>
}

handshake.func @valid_select(%cond: !handshake.channel<i1>, %a: !handshake.channel<i32, [tag: i4]>, %b: !handshake.channel<i32, [tag: i4]>, %start: !handshake.control<>) -> (!handshake.channel<i32, [tag: i4]>, !handshake.control<>) {
  %0 = select %cond [%a, %b] : <i1>, <i32, [tag: i4]>
  end %0, %start : <i32, [tag: i4]>, <>
}

handshake.func @valid_constant(%start: !handshake.control<>) -> (!handshake.channel<i32, [test: i2]>, !handshake.control<>) {
  %src = source : <[test: i2]>
  %0 = constant %src {value = 100 : i32} : <[test: i2]>, <i32, [test: i2]>
  end %0, %start : <i32, [test: i2]>, <>
}
