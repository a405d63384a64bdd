// A complete LOOM-style kernel with two memories: `%a` (external) and a local scratch memory.
// Each memory has its own ctrl-done chain from the start token; their done tokens meet only in
// the join that becomes the returned control. It gets no diagnostics.
handshake.func @kernel(%a: memref<16xi32>, %i: index, %j: index, %start: none) -> (i32, none) {
  %s:3 = fork [3] %start : none
  %ia:2 = fork [2] %i : index
  %ja:2 = fork [2] %j : index

  // Memory A: load a[i], then (after the load's done token) store it back at a[i].
  %aLdData, %aStDone, %aLdDone = extmemory [ld = 1, st = 1] (%a : memref<16xi32>) (%aStData, %aStAddr, %aLdAddr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %x, %aLdAddr = load [%ia#0] %aLdData, %s#0 : index, i32
  %xs:3 = fork [3] %x : i32
  %aStData, %aStAddr = store [%ia#1] %xs#0, %aLdDone : index, i32

  // Memory B: store x at b[j], then load b[j] after the store is done.
  %bLdData, %bStDone, %bLdDone = memory [ld = 1, st = 1] (%bStData, %bStAddr, %bLdAddr) {id = 1 : i32, lsq = false} : memref<8xi32>, (i32, index, index) -> (i32, none, none)
  %bStData, %bStAddr = store [%ja#0] %xs#1, %s#1 : index, i32
  %y, %bLdAddr = load [%ja#1] %bLdData, %bStDone : index, i32

  %sum = addi %xs#2, %y : i32
  // Both memories' completion, joined only into the returned control.
  %done = join %aStDone, %bLdDone, %s#2 : none, none, none
  return %sum, %done : i32, none
}
