// Channel data and extra signals must be integers or floats, in every spelling of the type:
// in a signature and in an op's types alike.
handshake.func @data(
    // expected-error @+1 {{HS1001: channel data type `index` is not an integer or a float}}
    %a: !handshake.channel<index>,
    // expected-error @+1 {{HS1001: channel data type `none` is not an integer or a float}}
    %b: !handshake.channel<none>,
    // expected-error @+1 {{HS1001: channel data type `memref<4xi32>` is not an integer or a float}}
    %c: channel<memref<4xi32>>,
    %start: !handshake.control<>) -> !handshake.control<> {
  // expected-error @+1 {{HS1001: channel data type `index` is not an integer or a float}}
  sink %a : <index>
  // expected-error @+1 {{HS1001: channel data type `none` is not an integer or a float}}
  sink %b : !handshake.channel<none>
  // expected-error @+1 {{HS1001: channel data type `memref<4xi32>` is not an integer or a float}}
  sink %c : channel<memref<4xi32>>
  end %start : <>
}

// -----

handshake.func @extras(
    // expected-error @+1 {{HS1001: extra signal type `index` is not an integer or a float}}
    %a: !handshake.channel<i32, [tag: index]>,
    // expected-error @+1 {{HS1001: extra signal type `<i1>` is not an integer or a float}}
    %c: !handshake.control<[e: <i1> (U)]>,
    %start: !handshake.control<>) -> !handshake.control<> {
  // expected-error @+1 {{HS1001: extra signal type `index` is not an integer or a float}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32, [tag: index]>
  // expected-error @+1 {{HS1001: extra signal type `index` is not an integer or a float}}
  sink %0 : <i32, [tag: index]>
  // expected-error @+1 {{HS1001: extra signal type `<i1>` is not an integer or a float}}
  sink %c : !handshake.control<[e: <i1> (U)]>
  end %start : <>
}

// -----

// Valid: CIRCT's raw types are not channel types, so `index` and `none` are fine there.
handshake.func @circt(%a: index, %ctrl: none) -> (index, none) {
  return %a, %ctrl : index, none
}
