// `end` (Dynamatic) and `return` (CIRCT) give the function's results, in number and type.
// expected-note @+1 {{the function's signature}}
handshake.func @count(%a: i32, %ctrl: none) -> (i32, none) {
  sink %a : i32
  // expected-error @+1 {{HS1211: the function has 2 results, but `return` gives 1}}
  return %ctrl : none
}

// -----

handshake.func @circt_type(%a: i64, %ctrl: none) -> (i32, none) {
  // expected-note @-1 {{declared here}}
  // expected-error @+1 {{HS1211: result 0 of the function is `i32`, but `%a` is `i64`}}
  return %a, %ctrl : i64, none
}

// -----

// expected-note @+1 {{declared here}}
handshake.func @dynamatic_type(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i16>, !handshake.control<>) {
  // expected-error @+1 {{HS1211: result 0 of the function is `<i16>`, but `%a` is `<i32>`}}
  end %a, %start : <i32>, <>
}

// -----

// expected-note @+1 {{the function's signature}}
handshake.func @dynamatic_count(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> !handshake.control<> {
  // expected-error @+1 {{HS1211: the function has 1 result, but `end` gives 2}}
  end %a, %start : <i32>, <>
}

// -----

// Valid.
handshake.func @valid_circt(%a: i32, %ctrl: none) -> (i32, none) {
  return %a, %ctrl : i32, none
}

handshake.func @valid_dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  end %a, %start : <i32>, <>
}
