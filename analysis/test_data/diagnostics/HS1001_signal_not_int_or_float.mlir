// Channel data and extra signals must be integers or floats, in every spelling of the type.
handshake.func @data(%a: !handshake.channel<i32>) -> (!handshake.channel<i32>) {
  // expected-error @+1 {{HS1001: channel data type `index` is not an integer or a float}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <index>
  // expected-error @+1 {{HS1001: channel data type `none` is not an integer or a float}}
  %1 = buffer %0, bufferType = FIFO_BREAK_NONE, numSlots = 1 : !handshake.channel<none>
  // expected-error @+1 {{HS1001: channel data type `memref<4xi32>` is not an integer or a float}}
  %2 = sink %1 : channel<memref<4xi32>>
  end %a : <i32>
}

// -----

handshake.func @extras(%a: !handshake.channel<i32>) -> (!handshake.channel<i32>) {
  // expected-error @+1 {{HS1001: extra signal type `index` is not an integer or a float}}
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32, [tag: index]>
  // expected-error @+1 {{HS1001: extra signal type `<i1>` is not an integer or a float}}
  %1 = buffer %0, bufferType = FIFO_BREAK_NONE, numSlots = 1 : !handshake.control<[e: <i1> (U)]>
  end %a : <i32>
}
