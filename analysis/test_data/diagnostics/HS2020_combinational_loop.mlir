// A placed function (it has a buffer that registers data and valid) with a loop that no
// register breaks: the mux, the cond_br and back.
handshake.func @open_loop(%x: i32, %go: i1, %ctrl: none) -> (i32, none) {
  %xb = buffer [1] seq %x : i32
  %g:2 = fork [2] %go : i1
  %sel = buffer [1] seq %g#0 {initValues = [0]} : i1
  // expected-error @+2 {{HS2020: combinational loop: the cycle through `%m` -> `%t` has no buffer that breaks data and valid}}
  // expected-note @+1 {{channel `%t` into `mux`, part of the cycle}}
  %m = mux %sel [%xb, %t] : i1, i32
  // expected-note @+1 {{channel `%m` into `cond_br`, part of the cycle}}
  %t, %e = cond_br %g#1, %m : i32
  return %e, %ctrl : i32, none
}

// -----

// The same loop with the buffer on the back edge: closed.
handshake.func @closed_loop(%x: i32, %go: i1, %ctrl: none) -> (i32, none) {
  %g:2 = fork [2] %go : i1
  %sel = buffer [1] seq %g#0 {initValues = [0]} : i1
  %m = mux %sel [%x, %tb] : i1, i32
  %t, %e = cond_br %g#1, %m : i32
  %tb = buffer [1] seq %t : i32
  return %e, %ctrl : i32, none
}

// -----

// Dynamatic's syntax: a FIFO_BREAK_NONE slot does not register anything, so the loop is still
// open; the function counts as placed because of the ONE_SLOT_BREAK_DV on its input.
handshake.func @transparent_fifo(%x: !handshake.channel<i32>, %go: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %xb = buffer %x, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %g:2 = fork [2] %go : <i1>
  %sel = init %g#0 {hw.parameters = {INITIAL_TOKEN = 0 : i1, BUFFER_TYPE = "ONE_SLOT_BREAK_DV"}} : <i1>
  // expected-error @+2 {{HS2020: combinational loop: the cycle through `%m` -> `%t` -> `%tb`}}
  // expected-note @+1 {{channel `%tb` into `mux`}}
  %m = mux %sel [%xb, %tb] : <i1>, [<i32>, <i32>] to <i32>
  // expected-note @+1 {{channel `%m` into `cond_br`}}
  %t, %e = cond_br %g#1, %m : <i1>, <i32>
  // expected-note @+1 {{channel `%t` into `buffer`}}
  %tb = buffer %t {hw.parameters = {NUM_SLOTS = 2 : ui32, BUFFER_TYPE = "FIFO_BREAK_NONE", TIMING = #handshake<timing {D: 0, V: 0, R: 0}>}} : <i32>
  end %e, %start : <i32>, <>
}

// -----

// Not placed yet: the only buffer holds the loop's initial token, so the open loop is left to
// buffer placement: no HS2020, one HS2023 remark for the function.
// expected-remark @+1 {{HS2023: `@unplaced` has no buffers yet and 1 cycle that no buffer breaks, e.g. `%m` -> `%t` -> back}}
handshake.func @unplaced(%x: i32, %go: i1, %ctrl: none) -> (i32, none) {
  %sel = buffer [1] seq %g#0 {initValues = [0]} : i1
  %g:2 = fork [2] %go : i1
  %m = mux %sel [%x, %t] : i1, i32
  %t, %e = cond_br %g#1, %m : i32
  return %e, %ctrl : i32, none
}
