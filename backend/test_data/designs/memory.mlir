// CIRCT's internal `memory`, stored then loaded, with LOOM's loop ops and ctrl-done network
// (seed 003): a first loop stores `i * k` at `i` for i < n; its done token lets a second loop
// load the words back and sum them. Each loop's body control is a carry keyed by its
// gate's after_cond, and the body's done token (the store's, then the load's) is split by that
// after_cond into the next iteration and the exit; the sum is loop-carried data, keyed by the
// raw condition. Returns k * n(n-1)/2 and leaves `mem0` holding i * k below n, zeros above.
//
// One invocation: a second one's first loop would store while the first one's second loop
// loads, in an order only timing decides. Loops need n >= 1 (for n = 0 LOOM's body carry still
// passes its initial token).

// hsir-sim: tokens=1 n=1..8 k=-1000..1000
handshake.func @store_then_load(%n: index, %k: i32, %start: none) -> (i32, none) {
  %ld_data, %st_done, %ld_done = memory [ld = 1, st = 1] (%st_data, %st_addr, %ld_addr) {id = 0 : i32, lsq = false} : memref<8xi32>, (i32, index, index) -> (i32, none, none)
  %nf:2 = fork [2] %n : index
  %s:6 = fork [6] %start : none
  // First loop: mem[i] = i * k.
  %a0 = constant %s#0 {value = 0 : index} : index
  %a1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %a0, %a1, %nf#0 {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %v, %ac = dataflow.gate %idx, %wc : index, i1 -> index, i1
  %acf:3 = fork [3] %ac : i1
  %vf:2 = fork [2] %v : index
  %acb0 = buffer [2] fifo %acf#0 : i1
  %kk = dataflow.invariant %acb0, %k : i1, i32 -> i32
  %acb1 = buffer [2] fifo %acf#1 : i1
  %body = dataflow.carry %acb1, %s#2, %next_b : i1, none, none -> none
  %vi = arith.index_cast %vf#0 : index to i32
  %prod = arith.muli %vi, %kk : i32
  %st_data, %st_addr = store [%vf#1] %prod, %body : index, i32
  %acb2 = buffer [1] fifo %acf#2 : i1
  %next, %done1 = cond_br %acb2, %st_done : none
  %next_b = buffer [1] seq %next : none
  // Second loop: sum of mem[i]. Its indices may run ahead; its loads wait for the first
  // loop's done token, the initial value of its body control.
  %b0 = constant %s#3 {value = 0 : index} : index
  %b1 = constant %s#4 {value = 1 : index} : index
  %zero = constant %s#5 {value = 0 : i32} : i32
  %idx2, %wc2 = dataflow.stream %b0, %b1, %nf#1 {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %wc2f:3 = fork [3] %wc2 : i1
  %v2, %ac2 = dataflow.gate %idx2, %wc2f#0 : index, i1 -> index, i1
  %ac2f:2 = fork [2] %ac2 : i1
  %ac2b0 = buffer [2] fifo %ac2f#0 : i1
  %body2 = dataflow.carry %ac2b0, %done1, %next2_b : i1, none, none -> none
  %x, %ld_addr = load [%v2] %ld_data, %body2 : index, i32
  %wc2b1 = buffer [2] fifo %wc2f#1 : i1
  %acc = dataflow.carry %wc2b1, %zero, %acc_next_b : i1, i32, i32 -> i32
  %wc2b2 = buffer [1] fifo %wc2f#2 : i1
  %acc_body, %sum = cond_br %wc2b2, %acc : i32
  %acc_next = arith.addi %acc_body, %x : i32
  %acc_next_b = buffer [1] seq %acc_next : i32
  %ac2b1 = buffer [1] fifo %ac2f#1 : i1
  %next2, %done2 = cond_br %ac2b1, %ld_done : none
  %next2_b = buffer [1] seq %next2 : none
  return %sum, %done2 : i32, none
}
