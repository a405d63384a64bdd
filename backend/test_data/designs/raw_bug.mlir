// The raw_will_continue bug (seed 003, "Non-Normative Debugging Guidance") and its fix, on
// `for (i = 0; i < n; i++) mem[i] = mem[i] + k` as LOOM lowers it (the kernels of
// analysis/test_data/diagnostics/loop_kernel_raw_bug.mlir and loop_kernel_correct.mlir).
//
// `@kernel_raw_bug` keys the body's control carry by the stream's raw_will_continue (N+1
// events per loop entry) instead of the gate's after_cond (N events). Its data comes out right,
// but the loop does not end clean: a carry only passes a `next` token on a true condition, and
// the body's done token feeds `next` N-1 times (it is split by after_cond), so the carry's last
// true condition and the final false one are left on its cond operand, and the carry stays
// mid-loop. `@fill_raw_bug` has the same bug on an invariant that repeats the start token as a
// store's ctrl: an invariant needs no `next`, so it gives N+1 ctrl tokens for N stores, and
// exactly one is left on the store's ctrl (the "extra latched ctrl" of the seed). `@kernel` is
// the correct form and leaves nothing. In hardware the carry and the invariant take condition
// i with their output i+1, so their condition channels get two slots, the cond_brs' one, and
// the carry's back edge one. One invocation (a latched carry would swallow the next
// one); loops need n >= 1.

// hsir-sim: tokens=1 n=9..16 k=-100..100
handshake.func @kernel_raw_bug(%mem: memref<16xi32>, %n: index, %k: i32, %start: none) -> none attributes {argNames = ["mem", "n", "k", "start"], resNames = ["done"]} {
  %ld_data, %st_done, %ld_done = extmemory [ld = 1, st = 1] (%mem : memref<16xi32>) (%st_data, %st_addr, %ld_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %wc_f:2 = fork [2] %wc : i1
  %v, %ac = dataflow.gate %idx, %wc_f#0 : index, i1 -> index, i1
  %ac_f:2 = fork [2] %ac : i1
  %v_f:2 = fork [2] %v : index
  %wcb = buffer [2] fifo %wc_f#1 : i1
  %body = dataflow.carry %wcb, %s#2, %next_b : i1, none, none -> none
  %acb0 = buffer [2] fifo %ac_f#0 : i1
  %kk = dataflow.invariant %acb0, %k : i1, i32 -> i32
  %x, %ld_addr = load [%v_f#0] %ld_data, %body : index, i32
  %sum = arith.addi %x, %kk : i32
  %st_data, %st_addr = store [%v_f#1] %sum, %ld_done : index, i32
  %acb1 = buffer [1] fifo %ac_f#1 : i1
  %next, %exit = cond_br %acb1, %st_done : none
  %next_b = buffer [1] seq %next : none
  return %exit : none
}

// hsir-sim: tokens=1 n=9..16 k=-100..100
handshake.func @fill_raw_bug(%mem: memref<16xi32>, %n: index, %k: i32, %start: none) -> none attributes {argNames = ["mem", "n", "k", "start"], resNames = ["done"]} {
  %st_done = extmemory [ld = 0, st = 1] (%mem : memref<16xi32>) (%st_data, %st_addr) {id = 0 : i32} : (i32, index) -> (none)
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %wc_f:2 = fork [2] %wc : i1
  %v, %ac = dataflow.gate %idx, %wc_f#0 : index, i1 -> index, i1
  %ac_f:2 = fork [2] %ac : i1
  %acb0 = buffer [2] fifo %ac_f#0 : i1
  %kk = dataflow.invariant %acb0, %k : i1, i32 -> i32
  %wcb = buffer [2] fifo %wc_f#1 : i1
  %tick = dataflow.invariant %wcb, %s#2 : i1, none -> none
  %st_data, %st_addr = store [%v] %kk, %tick : index, i32
  %acb1 = buffer [1] fifo %ac_f#1 : i1
  %next, %exit = cond_br %acb1, %st_done : none
  sink %next : none
  return %exit : none
}

// hsir-sim: tokens=1 n=9..16 k=-100..100
handshake.func @kernel(%mem: memref<16xi32>, %n: index, %k: i32, %start: none) -> none attributes {argNames = ["mem", "n", "k", "start"], resNames = ["done"]} {
  %ld_data, %st_done, %ld_done = extmemory [ld = 1, st = 1] (%mem : memref<16xi32>) (%st_data, %st_addr, %ld_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %v, %ac = dataflow.gate %idx, %wc : index, i1 -> index, i1
  %ac_f:3 = fork [3] %ac : i1
  %v_f:2 = fork [2] %v : index
  %acb0 = buffer [2] fifo %ac_f#0 : i1
  %body = dataflow.carry %acb0, %s#2, %next_b : i1, none, none -> none
  %acb1 = buffer [2] fifo %ac_f#1 : i1
  %kk = dataflow.invariant %acb1, %k : i1, i32 -> i32
  %x, %ld_addr = load [%v_f#0] %ld_data, %body : index, i32
  %sum = arith.addi %x, %kk : i32
  %st_data, %st_addr = store [%v_f#1] %sum, %ld_done : index, i32
  %acb2 = buffer [1] fifo %ac_f#2 : i1
  %next, %exit = cond_br %acb2, %st_done : none
  %next_b = buffer [1] seq %next : none
  return %exit : none
}
