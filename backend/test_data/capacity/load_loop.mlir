// A loop through a `mem_controller`'s load port, entered through a plain `merge` (the input `%x`
// has priority), with one ONE_SLOT_BREAK_DV buffer after the merge. The loaded word is masked
// to 0 and added to the next index, so the loop waits for the memory on every iteration. The
// untimed interpreter completes it, but the RTL deadlocks as soon as two tokens are in the loop,
// for a memory reason: the load port keeps the word it read until it is taken, and the token
// whose address it read stays in the DV slot meanwhile (the fork still owes that token's copy to
// `addi`), so one token fills two slots:
//
// - the first `%x` token crosses the merge into `%b`'s slot; next cycle the fork sends its
//   address to the load port (`hsir_ext_memory` takes it) and its copies to `cmpi` and `addi`,
//   where the copy to `addi` waits for the word; the merge takes the second `%x` token and, `%b`
//   being full and not emptied, keeps it in its own slot;
// - the word comes back, `addi` and `cond_br` fire towards the merge, whose slot is full: the
//   back edge waits for the merge, the merge for `%b`, `%b` for the fork, the fork for `addi`,
//   and `addi` for `cond_br`. Two tokens, three slots (the merge's, `%b`'s, the load port's
//   word), none free to move into.
//
// With one token, or with a two-slot FIFO on the back edge (`@load_loop_fifo`), it completes.

// hsir-sim: tokens=2 x=0..5
handshake.func @load_loop(%mem: memref<8xi32>, %x: !handshake.channel<i32>, %mem_start: !handshake.control<>, %ctrl_end: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) attributes {argNames = ["mem", "x", "mem_start", "ctrl_end", "start"], resNames = ["out0", "mem_end", "end"]} {
  %ld_data, %mem_end = mem_controller[%mem : memref<8xi32>] %mem_start (%ld_addr) %ctrl_end {connectedBlocks = [1 : i32]} : (!handshake.channel<i3>) -> !handshake.channel<i32>
  %m = merge %x, %back : <i32>
  %b = buffer %m {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %f:3 = fork [3] %b : <i32>
  %a = trunci %f#0 : <i32> to <i3>
  %ld_addr, %d = load[%a] %ld_data : <i3>, <i32>
  %s0 = source : <>
  %zero = constant %s0 {value = 0 : i32} : <>, <i32>
  %z = andi %d, %zero : <i32>
  %s1 = source : <>
  %one = constant %s1 {value = 1 : i32} : <>, <i32>
  %n1 = addi %f#1, %one : <i32>
  %n = addi %n1, %z : <i32>
  %s2 = source : <>
  %ten = constant %s2 {value = 10 : i32} : <>, <i32>
  %c = cmpi ult, %f#2, %ten : <i32>
  %t, %e = cond_br %c, %n : <i1>, <i32>
  %back = br %t : <i32>
  end %e, %mem_end, %start : <i32>, <>, <>
}

// The same loop with a two-slot FIFO_BREAK_DV on the back edge.
// hsir-sim: tokens=2 x=0..5
handshake.func @load_loop_fifo(%mem: memref<8xi32>, %x: !handshake.channel<i32>, %mem_start: !handshake.control<>, %ctrl_end: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) attributes {argNames = ["mem", "x", "mem_start", "ctrl_end", "start"], resNames = ["out0", "mem_end", "end"]} {
  %ld_data, %mem_end = mem_controller[%mem : memref<8xi32>] %mem_start (%ld_addr) %ctrl_end {connectedBlocks = [1 : i32]} : (!handshake.channel<i3>) -> !handshake.channel<i32>
  %m = merge %x, %back : <i32>
  %b = buffer %m {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %f:3 = fork [3] %b : <i32>
  %a = trunci %f#0 : <i32> to <i3>
  %ld_addr, %d = load[%a] %ld_data : <i3>, <i32>
  %s0 = source : <>
  %zero = constant %s0 {value = 0 : i32} : <>, <i32>
  %z = andi %d, %zero : <i32>
  %s1 = source : <>
  %one = constant %s1 {value = 1 : i32} : <>, <i32>
  %n1 = addi %f#1, %one : <i32>
  %n = addi %n1, %z : <i32>
  %s2 = source : <>
  %ten = constant %s2 {value = 10 : i32} : <>, <i32>
  %c = cmpi ult, %f#2, %ten : <i32>
  %t, %e = cond_br %c, %n : <i1>, <i32>
  %back = buffer %t {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  end %e, %mem_end, %start : <i32>, <>, <>
}
