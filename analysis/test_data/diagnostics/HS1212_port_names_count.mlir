// `argNames` and `resNames` give one string per argument and per result.
// expected-error @+1 {{HS1212: `argNames` has 2 entries for 3 arguments}}
handshake.func @arg_count(%a: i32, %b: i32, %c: none) -> none attributes {argNames = ["a", "b"]} {
  sink %a : i32
  sink %b : i32
  return %c : none
}

// -----

// expected-error @+1 {{HS1212: every entry of `argNames` must be a string}}
handshake.func @arg_kind(%a: i32, %b: none) -> none attributes {argNames = ["a", 2 : i32]} {
  sink %a : i32
  return %b : none
}

// -----

// expected-error @+1 {{HS1212: `resNames` has 1 entry for 2 results}}
handshake.func @res_count(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0"]} {
  end %a, %start : <i32>, <>
}

// -----

// Declarations are checked too.
// expected-error @+1 {{HS1212: every entry of `resNames` must be a string}}
handshake.func private @declared(%a: i32, %b: none) -> none attributes {resNames = [7 : i32]}

// -----

// Valid.
handshake.func @valid(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "start"], resNames = ["out0", "end"]} {
  end %a, %start : <i32>, <>
}
