// The merge's output goes straight to a fork and back around the loop.
handshake.func @merge_loop(%x: i32, %go: i1, %ctrl: none) -> (i32, none) {
  %c = buffer [1] seq %go {initValues = [1]} : i1
  // expected-warning @+2 {{HS2022: `merge` output `%m` circulates in a cycle and reaches the `fork` below it without a buffer slot}}
  // expected-note @+1 {{place a buffer (at least one slot) on this channel}}
  %m = merge %x, %back : i32
  // expected-note @+1 {{the first fork below the merge, reached without a slot}}
  %f:2 = fork [2] %m : i32
  %t, %e = cond_br %c, %f#0 : i32
  %back = buffer [1] seq %t : i32
  sink %f#1 : i32
  return %e, %ctrl : i32, none
}

// -----

// A slot between the merge and the fork: no reordering.
handshake.func @merge_buffered(%x: i32, %go: i1, %ctrl: none) -> (i32, none) {
  %c = buffer [1] seq %go {initValues = [1]} : i1
  %m = merge %x, %back : i32
  %mb = buffer [1] seq %m : i32
  %f:2 = fork [2] %mb : i32
  %t, %e = cond_br %c, %f#0 : i32
  %back = buffer [1] seq %t : i32
  sink %f#1 : i32
  return %e, %ctrl : i32, none
}

// -----

// Dynamatic's syntax, with the slot further down, after a cast but before the fork.
handshake.func @slot_after_cast(%x: !handshake.channel<i32>, %go: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %c = init %go {hw.parameters = {INITIAL_TOKEN = 1 : i1, BUFFER_TYPE = "ONE_SLOT_BREAK_DV"}} : <i1>
  %m = merge %x, %back : <i32>
  %w = extsi %m : <i32> to <i64>
  %n = trunci %w : <i64> to <i32>
  %nb = buffer %n, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %f:2 = fork [2] %nb : <i32>
  %t, %e = cond_br %c, %f#0 : <i1>, <i32>
  %back = buffer %t, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  sink %f#1 : <i32>
  end %e, %start : <i32>, <>
}
