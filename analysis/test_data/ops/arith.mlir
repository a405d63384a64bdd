// Arithmetic in each era's spelling: Dynamatic's bare names on channel types (`addi`,
// `cmpi`, `select`), CIRCT's `arith` ops on raw types (`arith.addi`, `arith.select`).

// Dynamatic 2026: the bare names Dynamatic writes, `select` with its bracket.
handshake.func @integer_2026(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %x:23 = fork [23] %a : <i32>
  %r0 = addi %x#0, %x#1 : <i32>
  %r1 = subi %r0, %x#2 : <i32>
  %r2 = muli %r1, %x#3 : <i32>
  %r3 = divsi %r2, %x#4 : <i32>
  %r4 = divui %r3, %x#5 : <i32>
  %r5 = remsi %r4, %x#6 : <i32>
  %r6 = remui %r5, %x#7 : <i32>
  %r7 = andi %r6, %x#8 : <i32>
  %r8 = ori %r7, %x#9 : <i32>
  %r9 = xori %r8, %x#10 : <i32>
  %r10 = shli %r9, %x#11 : <i32>
  %r11 = shrsi %r10, %x#12 : <i32>
  %r12 = shrui %r11, %x#13 : <i32>
  %r13 = maxsi %r12, %x#14 : <i32>
  %r14 = maxui %r13, %x#15 : <i32>
  %r15 = minsi %r14, %x#16 : <i32>
  %r16 = minui %r15, %x#17 : <i32>
  %r17 = ceildivsi %r16, %x#18 : <i32>
  %r18 = ceildivui %r17, %x#19 : <i32>
  %r19 = floordivsi %r18, %x#20 : <i32>
  %l:2 = fork [2] %r19 : <i32>
  %c = cmpi slt, %l#0, %x#21 : <i32>
  %s = select %c [%l#1, %x#22] : <i1>, <i32>
  end %s, %start : <i32>, <>
}

// -----

// Dynamatic 2025 (a buffer of `NUM_SLOTS` and `TIMING` says so).
handshake.func @float_2025(%a: !handshake.channel<f32>, %start: !handshake.control<>) -> (!handshake.channel<f32>, !handshake.control<>) {
  %x:12 = fork [12] %a : <f32>
  %r0 = addf %x#0, %x#1 : <f32>
  %r1 = subf %r0, %x#2 : <f32>
  %r2 = mulf %r1, %x#3 : <f32>
  %r3 = divf %r2, %x#4 : <f32>
  %r4 = remf %r3, %x#5 : <f32>
  %r5 = maximumf %r4, %x#6 : <f32>
  %r6 = minimumf %r5, %x#7 : <f32>
  %r7 = maxnumf %r6, %x#8 : <f32>
  %r8 = minnumf %r7, %x#9 : <f32>
  %u0 = negf %r8 : <f32>
  %u1 = absf %u0 : <f32>
  %l:2 = fork [2] %u1 : <f32>
  %c = cmpf olt, %l#0, %x#10 : <f32>
  %s = select %c [%l#1, %x#11] : <i1>, <f32>
  %b = buffer %s {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <f32>
  end %b, %start : <f32>, <>
}

// -----

// CIRCT: `arith`'s spellings on raw types, and `arith.select`.
handshake.func @integer_circt(%a: i32, %ctrl: none) -> (i32, none) {
  %x:23 = fork [23] %a : i32
  %r0 = arith.addi %x#0, %x#1 : i32
  %r1 = arith.subi %r0, %x#2 : i32
  %r2 = arith.muli %r1, %x#3 : i32
  %r3 = arith.divsi %r2, %x#4 : i32
  %r4 = arith.divui %r3, %x#5 : i32
  %r5 = arith.remsi %r4, %x#6 : i32
  %r6 = arith.remui %r5, %x#7 : i32
  %r7 = arith.andi %r6, %x#8 : i32
  %r8 = arith.ori %r7, %x#9 : i32
  %r9 = arith.xori %r8, %x#10 : i32
  %r10 = arith.shli %r9, %x#11 : i32
  %r11 = arith.shrsi %r10, %x#12 : i32
  %r12 = arith.shrui %r11, %x#13 : i32
  %r13 = arith.maxsi %r12, %x#14 : i32
  %r14 = arith.maxui %r13, %x#15 : i32
  %r15 = arith.minsi %r14, %x#16 : i32
  %r16 = arith.minui %r15, %x#17 : i32
  %r17 = arith.ceildivsi %r16, %x#18 : i32
  %r18 = arith.ceildivui %r17, %x#19 : i32
  %r19 = arith.floordivsi %r18, %x#20 : i32
  %l:2 = fork [2] %r19 : i32
  %c = arith.cmpi slt, %l#0, %x#21 : i32
  %s = arith.select %c, %l#1, %x#22 : i32
  return %s, %ctrl : i32, none
}

// -----

// CIRCT, floats.
handshake.func @float_circt(%a: f32, %ctrl: none) -> (f32, none) {
  %x:12 = fork [12] %a : f32
  %r0 = arith.addf %x#0, %x#1 : f32
  %r1 = arith.subf %r0, %x#2 : f32
  %r2 = arith.mulf %r1, %x#3 : f32
  %r3 = arith.divf %r2, %x#4 : f32
  %r4 = arith.remf %r3, %x#5 : f32
  %r5 = arith.maximumf %r4, %x#6 : f32
  %r6 = arith.minimumf %r5, %x#7 : f32
  %r7 = arith.maxnumf %r6, %x#8 : f32
  %r8 = arith.minnumf %r7, %x#9 : f32
  %u0 = arith.negf %r8 : f32
  %u1 = arith.absf %u0 : f32
  %l:2 = fork [2] %u1 : f32
  %c = arith.cmpf olt, %l#0, %x#10 : f32
  %s = arith.select %c, %l#1, %x#11 : f32
  return %s, %ctrl : f32, none
}

// -----

// Dynamatic type-system proposal: `channel<T>` and `control`.
handshake.func @integer_proposal(%a: channel<i32>, %start: control) -> (channel<i32>, control) {
  %x:6 = fork [6] %a : channel<i32>
  %r0 = addi %x#0, %x#1 : channel<i32>
  %r1 = xori %r0, %x#2 : channel<i32>
  %r2 = floordivsi %r1, %x#3 : channel<i32>
  %l:2 = fork [2] %r2 : channel<i32>
  %c = cmpi ne, %l#0, %x#4 : channel<i32>
  %s = select %c [%l#1, %x#5] : channel<i1>, channel<i32>
  end %s, %start : channel<i32>, control
}

// -----

// LOOM: `arith` ops in the body of a loop of `dataflow` ops.
handshake.func @arith_loom(%n: index, %ctrl: none) -> (index, none) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ones:2 = fork [2] %c1 : index
  %idx, %will_continue = dataflow.stream %c0, %ones#0, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %i, %after = dataflow.gate %idx, %will_continue : index, i1 -> index, i1
  sink %after : i1
  %twice = arith.shli %i, %ones#1 : index
  return %twice, %ctrl : index, none
}
