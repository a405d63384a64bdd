// A constant's `value` has the type of the data its result carries.
handshake.func @circt(%ctrl: none) -> (i32, none) {
  %c:2 = fork [2] %ctrl : none
  // expected-error @+1 {{HS1206: the value is `i31` but the constant's result carries `i32`}}
  %0 = constant %c#0 {value = 1 : i31} : i32
  return %0, %c#1 : i32, none
}

// -----

handshake.func @dynamatic(%start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %src = source : <>
  // expected-error @+1 {{HS1206: the value is `i8` but the constant's result carries `i32`}}
  %0 = constant %src {value = 5 : i8} : <>, <i32>
  end %0, %start : <i32>, <>
}

// -----

handshake.func @float(%start: !handshake.control<>) -> (!handshake.channel<f64>, !handshake.control<>) {
  %src = source : <>
  // expected-error @+1 {{HS1206: the value is `f32` but the constant's result carries `f64`}}
  %0 = constant %src {value = 1.500000e+00 : f32} : <>, <f64>
  end %0, %start : <f64>, <>
}

// -----

// Valid: the value's type is the result's data type.
handshake.func @valid(%start: !handshake.control<>) -> (!handshake.channel<i6>, !handshake.channel<f32>, !handshake.control<>) {
  %s:3 = fork [3] %start : <>
  %0 = constant %s#0 {value = 20 : i6} : <>, <i6>
  %1 = constant %s#1 {value = 2.500000e+00 : f32} : <>, <f32>
  end %0, %1, %s#2 : <i6>, <f32>, <>
}

handshake.func @valid_circt(%ctrl: none) -> (index, none) {
  %c:2 = fork [2] %ctrl : none
  %0 = constant %c#0 {value = 0 : index} : index
  return %0, %c#1 : index, none
}
