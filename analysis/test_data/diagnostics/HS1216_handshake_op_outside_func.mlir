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

// -----

// Valid: LOOM's function units and Kanagawa's dataflow methods are dataflow regions too.
module {
  fabric.function_unit @fu_join(%ctrl: none) -> (none) [latency = 1, interval = 1] {
    %done = handshake.join %ctrl : none
    fabric.yield %done : none
  }
}

// -----

kanagawa.design @design {
  kanagawa.class sym @Adder {
    kanagawa.method.df @add(%a: i32, %b: i32, %ctrl: none) -> (i32, none) {
      %0 = handshake.merge %a : i32
      %1 = handshake.buffer [2] fifo %0 : i32
      kanagawa.return %1, %ctrl : i32, none
    }
  }
}

// -----

// A `fabric.module` is not one: it wires function units through instances.
fabric.module @top(%ctrl: none) -> (none) {
  // expected-error @+1 {{HS1216: `handshake.join` may only appear inside a `handshake.func`}}
  %done = handshake.join %ctrl : none
  fabric.yield %done : none
}
