// Body-local control runs once per iteration (N times per loop entry), so it is keyed by a
// gate's after_cond; a stream's raw_will_continue has N+1 events per loop entry.
handshake.func @carry_raw(%mem: memref<8xi32>, %n: index, %start: none) -> none {
  %ld, %ld_done = extmemory [ld = 1, st = 0] (%mem : memref<8xi32>) (%ld_addr) {id = 0 : i32} : (index) -> (i32, none)
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  // expected-note @below {{the stream: raw_will_continue has N+1 events per loop entry}}
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  %wcf:2 = fork [2] %wc : i1
  // expected-note @below {{the gate: its after_cond has N events per loop entry}}
  // expected-note @below {{`%v` receives trips(%idx) tokens per invocation}}
  %v, %ac = dataflow.gate %idx, %wcf#0 : index, i1 -> index, i1
  %acf:2 = fork [2] %ac : i1
  sink %acf#1 : i1
  // expected-error @below {{HS3003: control `dataflow.carry` `%body` is keyed by `%wcf#1`, a stream's raw_will_continue, and drives the ctrl of a `load` without a `cond_br` on that condition: the loop body runs N times per loop entry but the raw stream has N+1 events, so the `load` gets one extra ctrl token; key body control by the gate's after_cond}}
  // expected-note @below {{`%body` receives trips(%idx) + 1 tokens per invocation}}
  %body = dataflow.carry %wcf#1, %s#2, %next : i1, none, none -> none
  // expected-note @below {{ctrl of the `load`}}
  // expected-warning @below {{HS3005: the operands of `load` receive different numbers of tokens per invocation: `%v` gets trips(%idx), `%body` gets trips(%idx) + 1}}
  %x, %ld_addr = load [%v] %ld, %body : index, i32
  sink %x : i32
  %next, %exit = cond_br %acf#0, %ld_done : none
  return %exit : none
}

// -----

// An invariant repeating a control token is body control too. Names do not matter: here
// `%after_cond` is the stream's raw_will_continue and `%raw_cond` the gate's after_cond.
handshake.func @invariant_raw(%mem: memref<8xi32>, %n: index, %val: i32, %start: none) -> none {
  // expected-note @+1 {{the done token}}
  %st_done = extmemory [ld = 0, st = 1] (%mem : memref<8xi32>) (%st_data, %st_addr) {id = 0 : i32} : (i32, index) -> (none)
  %s:4 = fork [4] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  // expected-note @below {{the stream}}
  %i, %after_cond = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  %raw:2 = fork [2] %after_cond : i1
  // expected-note @below {{the gate}}
  // expected-note @below {{`%v` receives trips(%i) tokens}}
  %v, %raw_cond = dataflow.gate %i, %raw#0 : index, i1 -> index, i1
  // expected-note @below {{`%vi` receives trips(%i) tokens}}
  %vi = dataflow.invariant %raw_cond, %val : i1, i32 -> i32
  // expected-error @below {{HS3003: control `dataflow.invariant` `%tick` is keyed by `%raw#1`, a stream's raw_will_continue, and drives the ctrl of a `store`}}
  // expected-note @below {{`%tick` receives trips(%i) + 1 tokens}}
  %tick = dataflow.invariant %raw#1, %s#2 : i1, none -> none
  // expected-note @below {{ctrl of the `store`}}
  // expected-warning @below {{HS3005: the operands of `store` receive different numbers of tokens per invocation: `%v` gets trips(%i), `%vi` gets trips(%i), `%tick` gets trips(%i) + 1}}
  // expected-note @+1 {{the store}}
  %st_data, %st_addr = store [%v] %vi, %tick : index, i32
  // The store's done token is dropped, which the memory lints report on their own.
  // expected-error @+1 {{HS3026: the done token `%st_done` of store `%st_data` is discarded}}
  sink %st_done : none
  return %s#3 : none
}

// -----

// Splitting the body's done token by raw_will_continue leaves one condition token behind.
handshake.func @done_split_raw(%mem: memref<8xi32>, %n: index, %start: none) -> none {
  // expected-note @below {{the done token comes from this memory}}
  // expected-note @below {{`%ld_done` receives trips(%idx) tokens}}
  %ld, %ld_done = extmemory [ld = 1, st = 0] (%mem : memref<8xi32>) (%ld_addr) {id = 0 : i32} : (index) -> (i32, none)
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  // expected-note @below {{the stream}}
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  // expected-note @below {{`%wcf#1` receives trips(%idx) + 1 tokens}}
  %wcf:2 = fork [2] %wc : i1
  // expected-note @below {{the gate}}
  %v, %ac = dataflow.gate %idx, %wcf#0 : index, i1 -> index, i1
  %body = dataflow.carry %ac, %s#2, %next : i1, none, none -> none
  %x, %ld_addr = load [%v] %ld, %body : index, i32
  sink %x : i32
  // expected-error @below {{HS3003: `cond_br` splits the loop-body done token `%ld_done` by `%wcf#1`, a stream's raw_will_continue: the body runs N times per loop entry but the raw stream has N+1 events, so one condition token is left latched in the `cond_br`}}
  // expected-warning @below {{HS3005: the operands of `cond_br` receive different numbers of tokens per invocation: `%wcf#1` gets trips(%idx) + 1, `%ld_done` gets trips(%idx)}}
  %next, %exit = cond_br %wcf#1, %ld_done : none
  return %exit : none
}

// -----

// Valid: the balanced form. The raw-keyed carry runs N+1 times, but a `cond_br` on the same
// raw_will_continue passes N of its tokens to the body and the last one out of the loop.
handshake.func @balanced(%mem: memref<8xi32>, %n: index, %start: none) -> none {
  %ld, %ld_done = extmemory [ld = 1, st = 0] (%mem : memref<8xi32>) (%ld_addr) {id = 0 : i32} : (index) -> (i32, none)
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  %wcf:3 = fork [3] %wc : i1
  %v, %ac = dataflow.gate %idx, %wcf#0 : index, i1 -> index, i1
  sink %ac : i1
  %loop = dataflow.carry %wcf#1, %s#2, %ld_done : i1, none, none -> none
  %body, %exit = cond_br %wcf#2, %loop : none
  %x, %ld_addr = load [%v] %ld, %body : index, i32
  sink %x : i32
  return %exit : none
}

// -----

// Valid: a loop-carried data value (an iter_arg) is keyed by raw_will_continue: it has N+1
// values per loop entry, the initial one and one per iteration, and the last leaves the loop.
// expected-remark @+1 {{HS2023: `@iter_arg` has no buffers yet and 1 cycle}}
handshake.func @iter_arg(%n: index, %init: index, %start: none) -> (index, none) {
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"}
  %wcf:3 = fork [3] %wc : i1
  %v, %ac = dataflow.gate %idx, %wcf#0 : index, i1 -> index, i1
  sink %ac : i1
  %acc = dataflow.carry %wcf#1, %init, %sum : i1, index, index -> index
  %in, %out = cond_br %wcf#2, %acc : index
  %sum = arith.addi %in, %v : index
  return %out, %s#2 : index, none
}
