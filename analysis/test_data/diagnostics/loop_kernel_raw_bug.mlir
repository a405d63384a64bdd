// The kernel of loop_kernel_correct.mlir with the raw_will_continue bug: the body's control
// carry is keyed by the stream's raw_will_continue. The data comes out right, but the load
// receives one ctrl token more per loop entry than it has addresses, and it stays latched.
handshake.func @kernel(%mem: memref<16xi32>, %n: index, %k: i32, %start: none) -> none {
  %ld_data, %st_done, %ld_done = extmemory [ld = 1, st = 1] (%mem : memref<16xi32>) (%st_data, %st_addr, %ld_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  // expected-note @below {{the stream: raw_will_continue has N+1 events per loop entry}}
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %wc_f:2 = fork [2] %wc : i1
  // expected-note @below {{the gate: its after_cond has N events per loop entry}}
  %v, %ac = dataflow.gate %idx, %wc_f#0 : index, i1 -> index, i1
  %ac_f:2 = fork [2] %ac : i1
  // expected-note @below {{`%v_f#0` receives trips(%idx) tokens per invocation}}
  %v_f:2 = fork [2] %v : index
  // expected-error @below {{HS3003: control `dataflow.carry` `%body` is keyed by `%wc_f#1`, a stream's raw_will_continue, and drives the ctrl of a `load` without a `cond_br` on that condition}}
  // expected-note @below {{`%body` receives trips(%idx) + 1 tokens per invocation}}
  %body = dataflow.carry %wc_f#1, %s#2, %next : i1, none, none -> none
  %kk = dataflow.invariant %ac_f#0, %k : i1, i32 -> i32
  // expected-note @below {{ctrl of the `load`}}
  // expected-warning @below {{HS3005: the operands of `load` receive different numbers of tokens per invocation: `%v_f#0` gets trips(%idx), `%body` gets trips(%idx) + 1}}
  %x, %ld_addr = load [%v_f#0] %ld_data, %body : index, i32
  %sum = arith.addi %x, %kk : i32
  %st_data, %st_addr = store [%v_f#1] %sum, %ld_done : index, i32
  %next, %exit = cond_br %ac_f#1, %st_done : none
  return %exit : none
}

// -----

// The same kernel with the other half of the bug: the body's done token is split by
// raw_will_continue. The store's done tokens run out one event early, so one condition token
// stays latched in the `cond_br`.
handshake.func @kernel_done_split(%mem: memref<16xi32>, %n: index, %k: i32, %start: none) -> none {
  // expected-note @below {{the done token comes from this memory}}
  // expected-note @below {{`%st_done` receives trips(%idx) tokens per invocation}}
  %ld_data, %st_done, %ld_done = extmemory [ld = 1, st = 1] (%mem : memref<16xi32>) (%st_data, %st_addr, %ld_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  // expected-note @below {{the stream}}
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  // expected-note @below {{`%wc_f#1` receives trips(%idx) + 1 tokens per invocation}}
  %wc_f:2 = fork [2] %wc : i1
  // expected-note @below {{the gate}}
  %v, %ac = dataflow.gate %idx, %wc_f#0 : index, i1 -> index, i1
  %ac_f:2 = fork [2] %ac : i1
  %v_f:2 = fork [2] %v : index
  %body = dataflow.carry %ac_f#0, %s#2, %next : i1, none, none -> none
  %kk = dataflow.invariant %ac_f#1, %k : i1, i32 -> i32
  %x, %ld_addr = load [%v_f#0] %ld_data, %body : index, i32
  %sum = arith.addi %x, %kk : i32
  %st_data, %st_addr = store [%v_f#1] %sum, %ld_done : index, i32
  // expected-error @below {{HS3003: `cond_br` splits the loop-body done token `%st_done` by `%wc_f#1`, a stream's raw_will_continue}}
  // expected-warning @below {{HS3005: the operands of `cond_br` receive different numbers of tokens per invocation: `%wc_f#1` gets trips(%idx) + 1, `%st_done` gets trips(%idx)}}
  %next, %exit = cond_br %wc_f#1, %st_done : none
  return %exit : none
}
