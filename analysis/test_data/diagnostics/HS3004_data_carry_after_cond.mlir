// A loop-carried value (an iter_arg) has N+1 values per loop entry: its initial value, then
// one per iteration. Keyed by a gate's after_cond (N events per loop entry) the carry gives
// only N, and none at all on a loop entry that runs zero times.
// expected-remark @+1 {{HS2023: `@after_keyed` has no buffers yet and 1 cycle}}
handshake.func @after_keyed(%n: index, %init: index, %start: none) -> (index, none) {
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  // expected-note @below {{the gate giving after_cond}}
  %v, %ac = dataflow.gate %idx, %wc : index, i1 -> index, i1
  %acf:2 = fork [2] %ac : i1
  // expected-warning @below {{HS3004: loop-carried `index` value `%acc` is keyed by `%acf#0`, a gate's after_cond: after_cond has N events per loop entry (none when the loop runs zero times), but a loop-carried value takes N+1 (its initial value, then one per iteration); key it by the stream's raw_will_continue}}
  %acc = dataflow.carry %acf#0, %init, %next : i1, index, index -> index
  %sum = arith.addi %acc, %v : index
  %next, %out = cond_br %acf#1, %sum : index
  return %out, %s#2 : index, none
}

// -----

// Valid: the iter_arg keyed by raw_will_continue; body control and a body invariant keyed by
// after_cond.
// expected-remark @+1 {{HS2023: `@valid` has no buffers yet and 2 cycles in 2 separate loops}}
handshake.func @valid(%n: index, %init: index, %k: index, %start: none) -> (index, none) {
  %s:4 = fork [4] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  %wcf:3 = fork [3] %wc : i1
  %v, %ac = dataflow.gate %idx, %wcf#0 : index, i1 -> index, i1
  %acf:3 = fork [3] %ac : i1
  %acc = dataflow.carry %wcf#1, %init, %sum : i1, index, index -> index
  %in, %out = cond_br %wcf#2, %acc : index
  %kk = dataflow.invariant %acf#0, %k : i1, index -> index
  %t = arith.addi %v, %kk : index
  %sum = arith.addi %in, %t : index
  %tick = dataflow.carry %acf#1, %s#2, %again : i1, none, none -> none
  %again, %done = cond_br %acf#2, %tick : none
  %fin = join %done, %s#3 : none, none
  return %out, %fin : index, none
}
