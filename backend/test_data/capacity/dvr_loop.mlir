// A loop entered through a plain `merge` (the input `%x` has priority, index 0), closed by one
// ONE_SLOT_BREAK_DVR buffer. The untimed interpreter completes it (with a merge race: a second
// `%x` token meets the first one's iteration), but the RTL deadlocks as soon as two tokens are
// in the loop:
//
// - the first `%x` token crosses the merge, the fork, `addi` / `cmpi` and `cond_br`
//   combinationally and enters `%back`'s empty slot;
// - next cycle `%back` offers it to the merge, but the merge takes the second `%x` token (the
//   lowest valid input) and offers it on `%m`; it reaches `%back`'s input, where `in_ready` is
//   `!full` = 0 (a DVR slot accepts only when empty, even while being emptied), so the merge
//   keeps it in its own slot (TEHB: the input was consumed, `ins_ready = !full` drops);
// - now both slots of the cycle are full: `%back` waits for the merge (`ins_ready` = 0 while
//   its slot is full) and the merge's token waits for `%back` (`in_ready` = 0 while full).
//   Two tokens, two slots, and neither slot can accept while it holds one: nothing moves.
//
// The capacity-aware simulation reports it before any Verilog is written (HS5011). With one
// token, or with a ONE_SLOT_BREAK_DV (which accepts while being emptied) or a two-slot FIFO on
// the back edge, the loop completes.

// hsir-sim: tokens=2 x=0..5
handshake.func @dvr_loop(%x: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["x", "start"], resNames = ["out0", "end"]} {
  %m = merge %x, %back : <i32>
  %f:2 = fork [2] %m : <i32>
  %s0 = source : <>
  %ten = constant %s0 {value = 10 : i32} : <>, <i32>
  %s1 = source : <>
  %one = constant %s1 {value = 1 : i32} : <>, <i32>
  %c = cmpi ult, %f#0, %ten : <i32>
  %n = addi %f#1, %one : <i32>
  %t, %e = cond_br %c, %n : <i1>, <i32>
  %back = buffer %t, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  end %e, %start : <i32>, <>
}

// The same loop with a two-slot FIFO_BREAK_DV on the back edge: three slots for two tokens.
// hsir-sim: tokens=2 x=0..5
handshake.func @fifo_loop(%x: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["x", "start"], resNames = ["out0", "end"]} {
  %m = merge %x, %back : <i32>
  %f:2 = fork [2] %m : <i32>
  %s0 = source : <>
  %ten = constant %s0 {value = 10 : i32} : <>, <i32>
  %s1 = source : <>
  %one = constant %s1 {value = 1 : i32} : <>, <i32>
  %c = cmpi ult, %f#0, %ten : <i32>
  %n = addi %f#1, %one : <i32>
  %t, %e = cond_br %c, %n : <i1>, <i32>
  %back = buffer %t, bufferType = FIFO_BREAK_DV, numSlots = 2 : <i32>
  end %e, %start : <i32>, <>
}

// The DVR loop as an instance: the model builds the callee's circuit in place, so the deadlock
// is found through the instance and its channels are named in the callee.
// hsir-sim: tokens=2 x=0..5
handshake.func @dvr_caller(%x: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["x", "start"], resNames = ["out0", "end"]} {
  %r:2 = instance @dvr_loop(%x, %start) : (!handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  end %r#0, %r#1 : <i32>, <>
}
