// Functions and their instances: CIRCT's `handshake.esi_instance`, how a hardware module
// instantiates a `handshake.func`, connected by ESI channels.

// CIRCT.
handshake.func @inner(%a: i32, %ctrl: none) -> (i32, none) {
  return %a, %ctrl : i32, none
}

hw.module @outer(in %clk: !seq.clock, in %rst: i1, in %a: !esi.channel<i32>, in %ctrl: !esi.channel<i0>, out out: !esi.channel<i32>, out done: !esi.channel<i0>) {
  %out, %done = handshake.esi_instance @inner "inner0" clk %clk rst %rst (%a, %ctrl) : (!esi.channel<i32>, !esi.channel<i0>) -> (!esi.channel<i32>, !esi.channel<i0>)
  hw.output %out, %done : !esi.channel<i32>, !esi.channel<i0>
}

// -----

// Any other Handshake op outside a `handshake.func` is misplaced.
hw.module @misplaced(in %a: i32, out out: i32) {
  // expected-error @+1 {{HS1216: `handshake.br` may only appear inside a `handshake.func`}}
  %b = handshake.br %a : i32
  hw.output %b : i32
}
