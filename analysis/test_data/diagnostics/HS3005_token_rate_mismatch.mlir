// Each channel carries a number of tokens per invocation: 1 for an argument, trips(%i) + 1
// for a stream's outputs (N+1 per loop entry), trips(%i) for a gate's, true(%c) and
// 1 - true(%c) for the two sides of a `cond_br` on `%c`. An op that takes one token from each
// operand per firing needs equal counts.
handshake.func @raw_with_gated(%n: index, %start: none) -> none {
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx:2 = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  // expected-note @below {{`%if#1` receives trips(%idx#0) + 1 tokens per invocation}}
  %if:2 = fork [2] %idx#0 : index
  // expected-note @below {{`%v` receives trips(%idx#0) tokens per invocation}}
  %v, %ac = dataflow.gate %if#0, %idx#1 : index, i1 -> index, i1
  sink %ac : i1
  // The raw index has one value more per loop entry than the gated one.
  // expected-warning @below {{HS3005: the operands of `arith.addi` receive different numbers of tokens per invocation: `%if#1` gets trips(%idx#0) + 1, `%v` gets trips(%idx#0); the extra tokens of one operand are never consumed (left latched in the op) or the op waits forever}}
  %sum = arith.addi %if#1, %v : index
  sink %sum : index
  return %s#2 : none
}

// -----

// A mux after a branch must take each input from its own side of the branch; `%b` comes from
// outside, so one of its tokens is left over whenever `%c` is true.
// expected-note @below {{`%b` receives 1 token per invocation}}
handshake.func @mux_outside(%a: i32, %b: i32, %c: i1, %ctrl: none) -> (i32, none) {
  %cf:2 = fork [2] %c : i1
  // expected-note @below {{`%t` receives true(%c) tokens per invocation}}
  %t, %f = cond_br %cf#0, %a : i32
  sink %f : i32
  // expected-warning @below {{HS3005: `mux` receives the wrong number of tokens per invocation: `%b` gets 1, `%t` gets true(%c), but its select `%cf#1` picks 1 data tokens in all}}
  %m = mux %cf#1 [%b, %t] : i1, i32
  return %m, %ctrl : i32, none
}

// -----

// Valid: both mux inputs come through the branch.
handshake.func @mux_inside(%a: i32, %b: i32, %c: i1, %ctrl: none) -> (i32, none) {
  %cf:3 = fork [3] %c : i1
  %t, %f = cond_br %cf#0, %a : i32
  %tb, %fb = cond_br %cf#1, %b : i32
  sink %f : i32
  sink %tb : i32
  %m = mux %cf#2 [%fb, %t] : i1, i32
  return %m, %ctrl : i32, none
}

// -----

// An invariant takes its value once per loop entry; a per-iteration value is one too many.
handshake.func @invariant_per_iteration(%n: index, %start: none) -> none {
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  %v, %ac = dataflow.gate %idx, %wc : index, i1 -> index, i1
  // expected-note @below {{`%vf#0` receives trips(%idx) tokens per invocation}}
  %vf:2 = fork [2] %v : index
  %acf:2 = fork [2] %ac : i1
  sink %acf#1 : i1
  // expected-warning @below {{HS3005: `dataflow.invariant` receives the wrong number of tokens per invocation: `%vf#0` gets trips(%idx), but it takes 1 (its initial value once per loop entry, one per false key)}}
  %w = dataflow.invariant %acf#0, %vf#0 : i1, index -> index
  %sum = arith.addi %w, %vf#1 : index
  sink %sum : index
  return %s#2 : none
}

// -----

// `wait` holds its value until the awaited token arrives: one token from each per firing.
handshake.func @wait_rates(%n: index, %x: i32, %start: none) -> (i32, none) {
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  // expected-note @below {{`%v` receives trips(%idx) tokens per invocation}}
  %v, %ac = dataflow.gate %idx, %wc : index, i1 -> index, i1
  sink %ac : i1
  // expected-warning @below {{HS3005: the operands of `wait` receive different numbers of tokens per invocation: `%v` gets trips(%idx), `%x` gets 1}}
  %r = wait %v, %x : (index, i32) -> i32
  // expected-note @-10 {{`%x` receives 1 token per invocation}}
  return %r, %s#2 : i32, none
}

// -----

// Nested loops: the inner loop runs trips(%j) times in all, over trips(%i) entries. An outer
// value used in the inner body must be repeated by an invariant keyed by the inner after_cond.
handshake.func @nested(%n: index, %m: index, %k: index, %start: none) -> none {
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %i, %wi = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  %vi, %ai = dataflow.gate %i, %wi : index, i1 -> index, i1
  %aif:3 = fork [3] %ai : i1
  // expected-note @below {{`%vif#3` receives trips(%i) tokens per invocation}}
  %vif:4 = fork [4] %vi : index
  %mm = dataflow.invariant %aif#0, %m : i1, index -> index
  %st = dataflow.invariant %aif#1, %k : i1, index -> index
  sink %aif#2 : i1
  %z = arith.subi %vif#0, %vif#1 : index
  %j, %wj = dataflow.stream %z, %st, %mm {step_op = "+=", cont_cond = "<"}
  %vj, %aj = dataflow.gate %j, %wj : index, i1 -> index, i1
  %ajf:2 = fork [2] %aj : i1
  // expected-note @below {{`%vjf#1` receives trips(%j) tokens per invocation}}
  %vjf:2 = fork [2] %vj : index
  %rep = dataflow.invariant %ajf#0, %vif#2 : i1, index -> index
  %good = arith.addi %vjf#0, %rep : index
  sink %good : index
  sink %ajf#1 : i1
  // expected-warning @below {{HS3005: the operands of `arith.addi` receive different numbers of tokens per invocation: `%vjf#1` gets trips(%j), `%vif#3` gets trips(%i)}}
  %bad = arith.addi %vjf#1, %vif#3 : index
  sink %bad : index
  return %s#2 : none
}
