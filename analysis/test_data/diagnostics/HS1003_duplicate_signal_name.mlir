// Extra signals are found by name, so a name may appear once per type.
handshake.func @f(
    // expected-error @+2 {{HS1003: extra signal name `spec` is used twice in one type}}
    // expected-note @+1 {{`spec` first named here}}
    %a: !handshake.channel<i32, [spec: i1, spec: i2 (U)]>,
    // expected-error @+2 {{HS1003: extra signal name `t` is used twice in one type}}
    // expected-note @+1 {{`t` first named here}}
    %b: channel<i32, [t: i2, (U) i4, t: (U) i1]>,
    %start: !handshake.control<>) -> !handshake.control<> {
  // expected-error @+2 {{HS1003: extra signal name `spec` is used twice in one type}}
  // expected-note @+1 {{`spec` first named here}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32, [spec: i1, spec: i2 (U)]>
  // expected-error @+2 {{HS1003: extra signal name `spec` is used twice in one type}}
  // expected-note @+1 {{`spec` first named here}}
  sink %0 : <i32, [spec: i1, spec: i2 (U)]>
  // expected-error @+2 {{HS1003: extra signal name `t` is used twice in one type}}
  // expected-note @+1 {{`t` first named here}}
  sink %b : channel<i32, [t: i2, (U) i4, t: (U) i1]>
  end %start : <>
}

// -----

// Valid: unnamed signals may repeat a type, and names are per type.
handshake.func @valid(%a: !handshake.channel<i32, [i1, i1, spec: i1]>, %b: !handshake.control<[spec: i1]>, %start: !handshake.control<>) -> !handshake.control<> {
  sink %a : <i32, [i1, i1, spec: i1]>
  sink %b : <[spec: i1]>
  end %start : <>
}
