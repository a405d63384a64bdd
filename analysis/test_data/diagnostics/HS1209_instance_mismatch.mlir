// An instance passes its callee's arguments and receives its results, at their types.
handshake.func private @callee(%a: i32, %ctrl: none) -> (i32, none)

handshake.func @operand_type(%a: i64, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1209: operand 0 of `@callee` is `i32`, not `i64`}}
  %0:2 = instance @callee(%a, %ctrl) : (i64, none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}

// -----

handshake.func private @callee(%a: i32, %ctrl: none) -> (i32, none)

handshake.func @result_type(%a: i32, %ctrl: none) -> (i64, none) {
  // expected-error @+1 {{HS1209: result 0 of `@callee` is `i32`, not `i64`}}
  %0:2 = instance @callee(%a, %ctrl) : (i32, none) -> (i64, none)
  return %0#0, %0#1 : i64, none
}

// -----

handshake.func private @callee(%a: i32, %ctrl: none) -> (i32, none)

handshake.func @result_count(%a: i32, %ctrl: none) -> (i32, none) {
  %c:2 = fork [2] %ctrl : none
  // expected-error @+1 {{HS1209: `@callee` gives 2 results, the instance lists 1}}
  %0 = instance @callee(%a, %c#0) : (i32, none) -> i32
  return %0, %c#1 : i32, none
}

// -----

handshake.func private @callee(%a: i32, %ctrl: none) -> (i32, none)

handshake.func @operand_count(%ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1209: `@callee` takes 2 operands, 1 given}}
  %0:2 = instance @callee(%ctrl) : (none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}

// -----

handshake.func private @callee(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)

handshake.func @dynamatic(%a: !handshake.channel<i32, [spec: i1]>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS1209: operand 0 of `@callee` is `<i32>`, not `<i32, [spec: i1]>`}}
  %0:2 = instance @callee(%a, %start) : (!handshake.channel<i32, [spec: i1]>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  end %0#0, %0#1 : <i32>, <>
}

// -----

// Valid: the instance matches the callee, defined in the same file or declared.
handshake.func @adder(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {
  %0 = addi %a, %b : i32
  return %0, %ctrl : i32, none
}

handshake.func @top(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {
  %0:2 = instance @adder(%a, %b, %ctrl) : (i32, i32, none) -> (i32, none)
  return %0#0, %0#1 : i32, none
}
