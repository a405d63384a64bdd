// `valid` and `ready` name the handshake wires every channel already has.
handshake.func @f(%a: !handshake.channel<i32>) -> (!handshake.channel<i32>) {
  // expected-error @+1 {{HS1005: extra signal name `valid` is reserved for the channel's own handshake wire}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32, [valid: i1]>
  // expected-error @+1 {{HS1005: extra signal name `ready` is reserved}}
  %1 = sink %0 : channel<i32, [ready: (U) i1]>
  end %a : <i32>
}
