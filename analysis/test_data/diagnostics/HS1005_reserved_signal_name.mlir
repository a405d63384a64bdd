// `valid` and `ready` name the handshake wires every channel already has.
handshake.func @f(
    // expected-error @+1 {{HS1005: extra signal name `valid` is reserved for the channel's own handshake wire}}
    %a: !handshake.channel<i32, [valid: i1]>,
    // expected-error @+1 {{HS1005: extra signal name `ready` is reserved}}
    %b: channel<i32, [ready: (U) i1]>,
    %start: !handshake.control<>) -> !handshake.control<> {
  // expected-error @+1 {{HS1005: extra signal name `valid` is reserved for the channel's own handshake wire}}
  sink %a : <i32, [valid: i1]>
  // expected-error @+1 {{HS1005: extra signal name `ready` is reserved}}
  sink %b : channel<i32, [ready: (U) i1]>
  end %start : <>
}

// -----

// Valid: names that merely contain the reserved words.
handshake.func @valid(%a: !handshake.channel<i32, [otherReady: (U) i1, valid_in: i1]>, %start: !handshake.control<>) -> !handshake.control<> {
  sink %a : <i32, [otherReady: (U) i1, valid_in: i1]>
  end %start : <>
}
