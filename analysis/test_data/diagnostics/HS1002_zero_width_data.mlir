// A channel's data bus needs at least one bit; a token without data is `control` (`<>`).
handshake.func @f(
    // expected-error @+1 {{HS1002: channel data type `i0` has zero width}}
    %a: !handshake.channel<i0>,
    // expected-error @+1 {{HS1002: channel data type `ui0` has zero width}}
    %b: channel<ui0, [e: i1]>,
    %start: !handshake.control<>) -> !handshake.control<> {
  // expected-error @+1 {{HS1002: channel data type `i0` has zero width}}
  sink %a : <i0>
  // expected-error @+1 {{HS1002: channel data type `ui0` has zero width}}
  sink %b : channel<ui0, [e: i1]>
  end %start : <>
}

// -----

// Valid: the data-less token is spelled as control.
handshake.func @valid(%a: !handshake.control<[e: i1]>, %start: !handshake.control<>) -> !handshake.control<> {
  sink %a : <[e: i1]>
  end %start : <>
}
