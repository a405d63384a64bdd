// CIRCT's `extmemory`: `c[i] = a[i] + b[i]` for i < n on three memref arguments, with LOOM's
// loop ops and one ctrl-done network per memory (seed 003): each memory's access is driven by
// its own carry keyed by the gate's after_cond, its done token split by that after_cond, and
// the three exits are joined only for the function's return. `c` starts random; words at and
// above n keep their values. Loops need n >= 1.

// hsir-sim: n=1..8
handshake.func @vadd(%a: memref<8xi32>, %b: memref<8xi32>, %c: memref<8xi32>, %n: index, %start: none) -> none attributes {argNames = ["a", "b", "c", "n", "start"], resNames = ["done"]} {
  %a_data, %a_done = extmemory [ld = 1, st = 0] (%a : memref<8xi32>) (%a_addr) {id = 0 : i32} : (index) -> (i32, none)
  %b_data, %b_done = extmemory [ld = 1, st = 0] (%b : memref<8xi32>) (%b_addr) {id = 1 : i32} : (index) -> (i32, none)
  %c_done = extmemory [ld = 0, st = 1] (%c : memref<8xi32>) (%c_data, %c_addr) {id = 2 : i32} : (i32, index) -> (none)
  %s:5 = fork [5] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %v, %ac = dataflow.gate %idx, %wc : index, i1 -> index, i1
  %acf:6 = fork [6] %ac : i1
  %vf:3 = fork [3] %v : index
  %acb0 = buffer [2] fifo %acf#0 : i1
  %acb1 = buffer [2] fifo %acf#1 : i1
  %acb2 = buffer [2] fifo %acf#2 : i1
  %ka = dataflow.carry %acb0, %s#2, %next_a_b : i1, none, none -> none
  %kb = dataflow.carry %acb1, %s#3, %next_b_b : i1, none, none -> none
  %kc = dataflow.carry %acb2, %s#4, %next_c_b : i1, none, none -> none
  %x, %a_addr = load [%vf#0] %a_data, %ka : index, i32
  %y, %b_addr = load [%vf#1] %b_data, %kb : index, i32
  %sum = arith.addi %x, %y : i32
  %c_data, %c_addr = store [%vf#2] %sum, %kc : index, i32
  %acb3 = buffer [1] fifo %acf#3 : i1
  %acb4 = buffer [1] fifo %acf#4 : i1
  %acb5 = buffer [1] fifo %acf#5 : i1
  %next_a, %exit_a = cond_br %acb3, %a_done : none
  %next_b, %exit_b = cond_br %acb4, %b_done : none
  %next_c, %exit_c = cond_br %acb5, %c_done : none
  %next_a_b = buffer [1] seq %next_a : none
  %next_b_b = buffer [1] seq %next_b : none
  %next_c_b = buffer [1] seq %next_c : none
  %done = join %exit_a, %exit_b, %exit_c : none, none, none
  return %done : none
}
