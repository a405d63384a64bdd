// Routing ops of every era that no other fixture uses: `lazy_fork`, `br`, `sync`, and
// Dynamatic's `blocker`, `ready_remover` and `valid_merger` (2025 on).

// Dynamatic 2024 (an `oehb` says so).
handshake.func @routing_2024(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %f:2 = lazy_fork [2] %a : <i32>
  %x = br %f#0 : <i32>
  %s:2 = sync %f#1, %b : <i32>, <i32>
  %j = join %x, %s#0 : <i32>, <i32>
  sink %j : <>
  %y = oehb [1] %s#1 : <i32>
  end %y, %start : <i32>, <>
}

// -----

// Dynamatic 2025 (a buffer of `NUM_SLOTS` and `TIMING` says so).
handshake.func @routing_2025(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  %f:2 = lazy_fork [2] %a : <i32>
  %x = br %f#0 : <i32>
  %blocked = blocker %x, %f#1 : <i32>, <i32>
  %free = ready_remover %b : <i32>
  %m:2 = valid_merger %blocked, %free : <i32>, <i32>
  %s:2 = sync %m#0, %m#1 : <i32>, <i32>
  %y = buffer %s#0 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  end %y, %s#1, %start : <i32>, <i32>, <>
}

// -----

// Dynamatic 2026.
handshake.func @routing_2026(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  %f:2 = lazy_fork [2] %a : <i32>
  %x = br %f#0 : <i32>
  %s:2 = sync %x, %b : <i32>, <i32>
  %blocked = blocker %s#0, %f#1 : <i32>, <i32>
  %free = ready_remover %s#1 : <i32>
  %m:2 = valid_merger %blocked, %free : <i32>, <i32>
  end %m#0, %m#1, %start : <i32>, <i32>, <>
}

// -----

// CIRCT.
handshake.func @routing_circt(%a: i32, %b: i32, %ctrl: none) -> (i32, i32, none) {
  %f:2 = lazy_fork [2] %a : i32
  %x = br %f#0 : i32
  %s:2 = sync %x, %b : i32, i32
  sink %f#1 : i32
  return %s#0, %s#1, %ctrl : i32, i32, none
}

// -----

// Dynamatic type-system proposal: `channel<T>` and `control`.
handshake.func @routing_proposal(%a: channel<i32>, %b: channel<i32>, %start: control) -> (channel<i32>, channel<i32>, control) {
  %f:2 = lazy_fork [2] %a : channel<i32>
  %x = br %f#0 : channel<i32>
  %blocked = blocker %x, %f#1 : channel<i32>, channel<i32>
  %s:2 = sync %blocked, %b : channel<i32>, channel<i32>
  end %s#0, %s#1, %start : channel<i32>, channel<i32>, control
}
