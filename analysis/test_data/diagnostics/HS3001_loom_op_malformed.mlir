// LOOM's dataflow ops have fixed shapes: `stream` takes three `index` operands and gives an
// `index` and an `i1`; `gate` is `T, i1 -> T, i1`; `carry` is `i1, T, T -> T`; `invariant`
// is `i1, T -> T`.
handshake.func @stream_types(%a: i32, %b: index, %c: index, %ctrl: none) -> (index, i1, none) {
  // expected-error @+1 {{HS3001: the start operand of `dataflow.stream` must be `index`, not `i32`}}
  %idx, %wc = dataflow.stream %a, %b, %c {step_op = "+=", cont_cond = "<"} : i32, index, index
  return %idx, %wc, %ctrl : index, i1, none
}

// -----

handshake.func @gate_types(%v: index, %c: i32, %ctrl: none) -> (i32, i1, none) {
  // expected-error @+2 {{HS3001: the condition operand of `dataflow.gate` must be `i1`, not `i32`}}
  // expected-error @+1 {{HS3001: `dataflow.gate` passes its value through: the value is `index` but the result is `i32`}}
  %av, %ac = dataflow.gate %v, %c : index, i32 -> i32, i1
  return %av, %ac, %ctrl : i32, i1, none
}

// -----

handshake.func @carry_types(%d: i32, %a: i32, %b: f32, %ctrl: none) -> (i32, none) {
  // expected-error @+2 {{HS3001: the key (first operand) of `dataflow.carry` must be an `i1` condition, not `i32`}}
  // expected-error @+1 {{HS3001: `dataflow.carry` needs one type for its initial value, its carried value and its result, but `i32`, `f32`, `i32` are written}}
  %o = dataflow.carry %d, %a, %b : i32, i32, f32 -> i32
  return %o, %ctrl : i32, none
}

// -----

handshake.func @invariant_types(%d: i1, %a: i32, %ctrl: none) -> (f32, none) {
  // expected-error @+1 {{HS3001: `dataflow.invariant` needs one type for its value and its result, but `i32`, `f32` are written}}
  %o = dataflow.invariant %d, %a : i1, i32 -> f32
  return %o, %ctrl : f32, none
}

// -----

handshake.func @type_counts(%d: i1, %a: i32, %ctrl: none) -> (i32, i32, none) {
  %df:2 = fork [2] %d : i1
  %af:3 = fork [3] %a : i32
  // expected-error @+1 {{HS3001: `dataflow.carry` has 3 operands and 1 result, but 2 operand types and 1 result type are written}}
  %o = dataflow.carry %df#0, %af#0, %af#1 : i1, i32 -> i32
  // expected-error @+1 {{HS3001: `dataflow.invariant` must write its types (`: i1, T -> T`)}}
  %p = dataflow.invariant %df#1, %af#2
  return %o, %p, %ctrl : i32, i32, none
}

// -----

// Valid: a stream's types may be left out (`index` operands, `(index, i1)` results), written
// as a function type, or as its operand types only.
handshake.func @valid(%s: index, %t: index, %ctrl: none) -> (index, index, none) {
  %sf:6 = fork [6] %s : index
  sink %t : index
  %i0, %w0 = dataflow.stream %sf#0, %sf#1, %sf#2 {step_op = "+=", cont_cond = "<"}
  %i1, %w1 = dataflow.stream %sf#3, %sf#4, %sf#5 {step_op = "-=", cont_cond = ">="} : (index, index, index) -> (index, i1)
  %v0, %c0 = dataflow.gate %i0, %w0 : index, i1 -> index, i1
  %v1, %c1 = dataflow.gate %i1, %w1 : index, i1 -> index, i1
  sink %c0 : i1
  sink %c1 : i1
  return %v0, %v1, %ctrl : index, index, none
}
