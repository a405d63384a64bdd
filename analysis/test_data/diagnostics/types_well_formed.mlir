// Every spelling of well-formed channel and control types: no diagnostics.
handshake.func @dynamatic(%a: !handshake.channel<i32>, %b: !handshake.channel<i32, [e: i1 (U), spec: i1]>, %c: !handshake.control<>, %d: !handshake.control<[tag_0: ui8]>, %f: !handshake.channel<f32, [e: i1 (U)]>) -> (!handshake.channel<i32>, !handshake.channel<i32, [e: i1 (U), spec: i1]>, !handshake.control<>, !handshake.control<[tag_0: ui8]>) {
  %0 = buffer %a, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  %1 = buffer %b, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32, [e: i1 (U), spec: i1]>
  %2 = buffer %c, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <>
  %3 = buffer %d, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <[tag_0: ui8]>
  sink %f : !handshake.channel<f32, [e: i1 (U)]>
  end %0, %1, %2, %3 : <i32>, <i32, [e: i1 (U), spec: i1]>, <>, <[tag_0: ui8]>
}

// -----

handshake.func @proposal(%a: channel<i32, [tag1: i2, (U) i1]>, %b: channel<i32, [i2, i4, (U) i4, (U) i8]>, %c: control) -> (channel<i32, [tag1: i2, i1 (U)]>, channel<i32, [i6, (U) i12]>, control) {
  %0 = compose %b : channel<i32, [i2, i4, (U) i4, (U) i8]> -> channel<i32, [i6, (U) i12]>
  end %a, %0, %c : channel<i32, [tag1: i2, (U) i1]>, channel<i32, [i6, (U) i12]>, control
}

// -----

handshake.func @circt(%a: i32, %b: index, %c: none, %m: memref<4xi32>) -> (i32, i32, none) {
  %0 = buffer [2] seq %a : i32
  %1 = buffer [2] seq %b : index
  %ld, %done = extmemory [ld = 1, st = 0] (%m : memref<4xi32>) (%1) {id = 0 : i32} : (index) -> (i32, none)
  %2 = join %c, %done : none, none
  return %0, %ld, %2 : i32, i32, none
}
