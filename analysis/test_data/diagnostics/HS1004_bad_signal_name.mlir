// Extra-signal names become port names in RTL: letters, digits and `_` only.
handshake.func @f(
    // expected-error @+1 {{HS1004: extra signal name `spec.bit` may contain only letters, digits and `_`}}
    %a: !handshake.channel<i32, [spec.bit: i1]>,
    // expected-error @+1 {{HS1004: extra signal name `tag$` may contain only letters, digits and `_`}}
    %b: !handshake.control<[tag$: i2]>,
    %start: !handshake.control<>) -> !handshake.control<> {
  // expected-error @+1 {{HS1004: extra signal name `spec.bit` may contain only letters, digits and `_`}}
  sink %a : <i32, [spec.bit: i1]>
  // expected-error @+1 {{HS1004: extra signal name `tag$` may contain only letters, digits and `_`}}
  sink %b : !handshake.control<[tag$: i2]>
  end %start : <>
}

// -----

// Valid.
handshake.func @valid(%a: !handshake.channel<i32, [spec_bit: i1, tag0: i2]>, %start: !handshake.control<>) -> !handshake.control<> {
  sink %a : <i32, [spec_bit: i1, tag0: i2]>
  end %start : <>
}
