// LOOM's dataflow ops beside Handshake memory ops.
handshake.func @loop(%n: index, %mem: memref<16xi32>, %start: none) -> none {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %idx, %raw = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %v, %after = dataflow.gate %idx, %raw : index, i1 -> index, i1
  %ctrl = dataflow.carry %after, %start, %done : i1, none, none -> none
  %inv = dataflow.invariant %after, %n : i1, index -> index
  %data, %addr = load [%v] %ld, %ctrl : index, i32
  %ld, %done = extmemory[ld = 1, st = 0] (%mem : memref<16xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
  %t, %f = cond_br %raw, %ctrl : none
  sink %data : i32
  return %f : none
}
