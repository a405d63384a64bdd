// Handshake ops live in a handshake.func, which gives their values channel semantics.
func.func @software(%a: none) -> none {
  // expected-error @+1 {{HS1216: `handshake.join` may only appear inside a `handshake.func`}}
  %0 = handshake.join %a : none
  return %0 : none
}

// -----

hw.module @hardware(in %a : !handshake.channel<i32>, out out0 : !handshake.channel<i32>) {
  // expected-error @+1 {{HS1216: `handshake.buffer` may only appear inside a `handshake.func`}}
  %0 = handshake.buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  hw.output %0 : !handshake.channel<i32>
}

// -----

// Valid: a handshake.func inside a module, and the ops inside it.
module {
  handshake.func @kernel(%a: i32, %ctrl: none) -> (i32, none) {
    %0 = handshake.buffer [1] seq %a : i32
    return %0, %ctrl : i32, none
  }
}
