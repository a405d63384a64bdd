// An instance names a handshake.func of the workspace.
handshake.func @missing(%a: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1210: no function named `@nowhere` in the workspace}}
  %0:2 = instance @nowhere(%a, %ctrl) : (i32, none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}

// -----

func.func @software(%a: i32) -> i32 {
  return %a : i32
}

handshake.func @not_handshake(%a: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1210: `@software` is a `func.func`, not a `handshake.func`}}
  %0:2 = instance @software(%a, %ctrl) : (i32, none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}

// -----

// Functions of another `// -----` case are not visible.
handshake.func @dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS1210: no function named `@software`}}
  %0:2 = instance @software(%a, %start) : (!handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  end %0#0, %0#1 : <i32>, <>
}

// -----

// Valid: a declared handshake.func, in the same case.
handshake.func private @external(!handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)

handshake.func @valid(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0:2 = instance @external(%a, %start) : (!handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  end %0#0, %0#1 : <i32>, <>
}
