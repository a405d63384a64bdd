// Every spelling of well-formed channel and control types: no diagnostics.
handshake.func @dynamatic(%a: !handshake.channel<i32>, %c: !handshake.control<>) -> (!handshake.channel<i32>) {
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  %1 = buffer %0, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32, [e: i1 (U), spec: i1]>
  %2 = buffer %c, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <>
  %3 = buffer %2, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <[tag_0: ui8]>
  %4 = sink %1 : !handshake.channel<f32, [e: i1 (U)]>
  end %a : <i32>
}

// -----

handshake.func @proposal(%a: channel<i32, [tag1: i2, (U) i1]>, %c: control) -> (channel<i32, [i2, i4, (U) i4, (U) i8]>) {
  %0 = compose %a : channel<i32, [i2, i4, (U) i4, (U) i8]> -> channel<i32, [i6, (U) i12]>
  end %0 : channel<i32, [i2, i4, (U) i4, (U) i8]>
}

// -----

handshake.func @circt(%a: i32, %b: index, %c: none, %m: memref<4xi32>) -> (i32, none) {
  %0 = buffer [2] seq %a : i32
  %1 = buffer [2] seq %b : index
  return %0, %c : i32, none
}
