// CIRCT's `buffer [N] seq|fifo`: at least one slot; the kind is lowercase and required; only
// `seq` buffers have initial values, one per slot.
handshake.func @init_count(%a: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1207: a buffer of 2 slots needs 2 initial values, not 1}}
  %0 = buffer [2] seq %a {initValues = [1]} : i32
  return %0, %ctrl : i32, none
}

// -----

handshake.func @no_slot(%a: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1207: `buffer [0]` has no slot; a buffer holds at least one}}
  %0 = buffer [0] fifo %a : i32
  return %0, %ctrl : i32, none
}

// -----

handshake.func @init_fifo(%a: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1207: only `seq` buffers may have initial values}}
  %0 = buffer [1] fifo %a {initValues = [1]} : i32
  return %0, %ctrl : i32, none
}

// -----

handshake.func @uppercase(%a: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1207: the buffer kind is `seq` or `fifo` (lowercase), not `SEQ`}}
  %0 = buffer [1] SEQ %a : i32
  return %0, %ctrl : i32, none
}

// -----

handshake.func @missing_kind(%a: i32, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1207: `buffer [N]` needs its kind after the slot count: `seq` or `fifo`}}
  %0 = buffer [2] %a : i32
  return %0, %ctrl : i32, none
}

// -----

// Valid: CIRCT buffers of both kinds, and Dynamatic's buffers, which name their kind with
// `bufferType` and are not CIRCT's.
handshake.func @valid_circt(%a: i32, %b: none, %ctrl: none) -> (i32, none, none) {
  %0 = buffer [2] seq %a {initValues = [0, 1]} : i32
  %1 = buffer [4] fifo %b : none
  return %0, %1, %ctrl : i32, none, none
}

handshake.func @valid_dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = buffer %a, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %1 = buffer %0, bufferType = FIFO_BREAK_NONE, numSlots = 3 : <i32>
  end %1, %start : <i32>, <>
}
