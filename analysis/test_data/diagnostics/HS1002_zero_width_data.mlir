// A channel's data bus needs at least one bit; a token without data is `control` (`<>`).
handshake.func @f(%a: !handshake.channel<i32>) -> (!handshake.channel<i32>) {
  // expected-error @+1 {{HS1002: channel data type `i0` has zero width}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i0>
  // expected-error @+1 {{HS1002: channel data type `ui0` has zero width}}
  %1 = sink %0 : channel<ui0, [e: i1]>
  end %a : <i32>
}
