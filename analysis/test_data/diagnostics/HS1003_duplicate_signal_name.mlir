// Extra signals are found by name, so a name may appear once per type.
handshake.func @f(%a: !handshake.channel<i32>) -> (!handshake.channel<i32>) {
  // expected-error @+2 {{HS1003: extra signal name `spec` is used twice in one type}}
  // expected-note @+1 {{`spec` first named here}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32, [spec: i1, spec: i2 (U)]>
  // expected-error @+2 {{HS1003: extra signal name `t` is used twice in one type}}
  // expected-note @+1 {{`t` first named here}}
  %1 = sink %0 : channel<i32, [t: i2, (U) i4, t: (U) i1]>
  end %a : <i32>
}
