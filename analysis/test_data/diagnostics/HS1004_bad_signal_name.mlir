// Extra-signal names become port names in RTL: letters, digits and `_` only.
handshake.func @f(%a: !handshake.channel<i32>) -> (!handshake.channel<i32>) {
  // expected-error @+1 {{HS1004: extra signal name `spec.bit` may contain only letters, digits and `_`}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32, [spec.bit: i1]>
  // expected-error @+1 {{HS1004: extra signal name `tag$` may contain only letters, digits and `_`}}
  %1 = sink %0 : !handshake.control<[tag$: i2]>
  end %a : <i32>
}
