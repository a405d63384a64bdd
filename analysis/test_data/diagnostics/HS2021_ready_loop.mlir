// The loop's only buffer registers data and valid; ready still runs around it combinationally.
handshake.func @ready_loop(%x: !handshake.channel<i32>, %go: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %g:2 = fork [2] %go : <i1>
  %sel = init %g#0 {hw.parameters = {INITIAL_TOKEN = 0 : i1, BUFFER_TYPE = "ONE_SLOT_BREAK_DV"}} : <i1>
  // expected-note @+1 {{channel `%b` into `mux`}}
  %m = mux %sel [%x, %b] : <i1>, [<i32>, <i32>] to <i32>
  // expected-note @+1 {{channel `%m` into `cond_br`}}
  %t, %e = cond_br %g#1, %m : <i1>, <i32>
  // expected-note @+2 {{channel `%t` into `buffer`}}
  // expected-warning @+1 {{HS2021: ready-path loop: the cycle through `%b` -> `%m` -> `%t` has no buffer that breaks ready}}
  %b = buffer %t, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  end %e, %start : <i32>, <>
}

// -----

// A pipelined unit registers data and valid but not ready: the same warning, at the unit.
handshake.func @through_mulf(%x: !handshake.channel<f32>, %go: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.channel<f32>, !handshake.control<>) {
  %g:2 = fork [2] %go : <i1>
  %sel = init %g#0 {hw.parameters = {INITIAL_TOKEN = 0 : i1, BUFFER_TYPE = "ONE_SLOT_BREAK_DV"}} : <i1>
  %xb = buffer %x, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <f32>
  // expected-note @+1 {{channel `%t` into `mux`}}
  %m = mux %sel [%xb, %t] : <i1>, [<f32>, <f32>] to <f32>
  // expected-note @+1 {{channel `%m` into `fork`}}
  %mf:2 = fork [2] %m : <f32>
  // expected-warning @+2 {{HS2021: ready-path loop: the cycle through `%p` -> `%t` -> `%m` -> `%mf#1`}}
  // expected-note @+1 {{channel `%mf#1` into `mulf`}}
  %p = mulf %mf#0, %mf#1 : <f32>
  // expected-note @+1 {{channel `%p` into `cond_br`}}
  %t, %e = cond_br %g#1, %p : <i1>, <f32>
  end %e, %start : <f32>, <>
}

// -----

// ONE_SLOT_BREAK_DVR breaks both paths: nothing to report.
handshake.func @full_break(%x: !handshake.channel<i32>, %go: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %g:2 = fork [2] %go : <i1>
  %sel = init %g#0 {hw.parameters = {INITIAL_TOKEN = 0 : i1, BUFFER_TYPE = "ONE_SLOT_BREAK_DV"}} : <i1>
  %m = mux %sel [%x, %b] : <i1>, [<i32>, <i32>] to <i32>
  %t, %e = cond_br %g#1, %m : <i1>, <i32>
  %b = buffer %t, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  end %e, %start : <i32>, <>
}
