// LOOM's dataflow ops inside a CIRCT-style function.
handshake.func @kernel(%mem: memref<16xi32>, %n: index, %k: i32, %start: none) -> none {
  %ld_data, %st_done, %ld_done = extmemory [ld = 1, st = 1] (%mem : memref<16xi32>) (%st_data, %st_addr, %ld_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %s:3 = fork [3] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
   %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
   %v, %ac = dataflow.gate %idx, %wc : index, i1 -> index, i1
  %ac_f:3 = fork [3] %ac : i1
  %v_f:2 = fork [2] %v : index
  %body = dataflow.carry %ac_f#0,%s#2,%next : i1, none, none -> none
  %kk = dataflow.invariant %ac_f#1, %k : i1, i32->i32
  %x, %ld_addr = load [%v_f#0] %ld_data, %body : index, i32
  %sum = arith.addi %x, %kk : i32
  %st_data, %st_addr = store [%v_f#1] %sum, %ld_done : index, i32
  %next, %exit = cond_br %ac_f#2, %st_done : none
  return %exit : none
}
