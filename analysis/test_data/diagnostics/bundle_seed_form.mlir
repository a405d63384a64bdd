// The type-system proposal's bundle / unbundle form (seed 001): the types written are the
// results' (unbundle) or the channel's (bundle), and upstream signals swap sides.
// expected-remark @+1 {{HS2023: `@roundTrip` has no buffers yet and 1 cycle}}
handshake.func @roundTrip(%ch: channel<i32, [tag: i2, ack: (U) i1]>) -> channel<i32, [tag: i2, ack: (U) i1]> {
  %ctrl, %data, %tag = unbundle %ch, %ack : control, i32, i2
  %again, %ack = bundle %ctrl, %data [%tag] : channel<i32, [tag: i2, ack: (U) i1]>
  end %again : channel<i32, [tag: i2, ack: (U) i1]>
}

// -----

handshake.func @missingUpstream(%ch: channel<i32, [ack: (U) i1]>) -> (control, i32) {
  // expected-error @+1 {{HS1201: unbundling `<i32, [ack: i1 (U)]>` takes the channel and 1 upstream signal, 1 operand given}}
  %ctrl, %data = unbundle %ch : control, i32
  end %ctrl, %data : control, i32
}

// -----

handshake.func @wrongResult(%ch: channel<i32>) -> (control, i16) {
  // expected-error @+1 {{HS1202: unbundling `<i32>` gives `i32` where `i16` is written}}
  %ctrl, %data = unbundle %ch : control, i16
  end %ctrl, %data : control, i16
}
