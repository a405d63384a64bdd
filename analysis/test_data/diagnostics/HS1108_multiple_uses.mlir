// A channel has one consumer; several consumers need a `fork` (the quick fix inserts one). In
// a function that already has forks (materialized), each value is held to the rule; before
// materialization HS1110 says it once for the function.
// expected-warning @+1 {{HS1108: `%a` is consumed 2 times; a Handshake channel must be consumed exactly once, through a `fork` when several ops need it}}
handshake.func @dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-note @+1 {{consumed here}}
  %0 = muli %a, %a : <i32>
  // expected-note @-1 {{consumed here}}
  %s:2 = fork [2] %start : <>
  sink %s#1 : <>
  end %0, %s#0 : <i32>, <>
}

// -----

handshake.func @circt(%a: i32, %b: i32, %ctrl: none) -> (i32, i32, none) {
  %c:1 = fork [1] %ctrl : none
  // expected-warning @+1 {{HS1108: `%0` is consumed 3 times}}
  %0 = addi %a, %b : i32
  // expected-note @+1 {{consumed here}}
  %1 = buffer [1] seq %0 : i32
  sink %1 : i32
  // expected-note @+2 {{consumed here}}
  // expected-note @+1 {{consumed here}}
  return %0, %0, %c#0 : i32, i32, none
}

// -----

// Valid: the fork gives each consumer its own copy.
handshake.func @valid(%a: i32, %ctrl: none) -> (i32, none) {
  %0:2 = fork [2] %a : i32
  %1 = muli %0#0, %0#1 : i32
  return %1, %ctrl : i32, none
}
