// Casts in each era's spelling: Dynamatic's bare names on channel types, CIRCT's `arith` ops
// on raw types.

// Dynamatic 2024 (an `oehb` says so): the widths Dynamatic's bitwidth optimization writes.
handshake.func @casts_2024(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i64>, !handshake.control<>) {
  %narrow = trunci %a : <i32> to <i8>
  %slot = oehb [1] %narrow : <i8>
  %wide = extsi %slot : <i8> to <i64>
  end %wide, %start : <i64>, <>
}

// -----

// Dynamatic 2026.
handshake.func @casts_2026(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i64>, !handshake.channel<f32>, !handshake.channel<i32>, !handshake.control<>) {
  %f = uitofp %a : <i32> to <f32>
  %fs:3 = fork [3] %f : <f32>
  %s = fptosi %fs#0 : <f32> to <i32>
  %u = fptoui %fs#1 : <f32> to <i32>
  %wide = extui %u : <i32> to <i64>
  %bits = bitcast %fs#2 : <f32> to <i32>
  %back = bitcast %s : <i32> to <f32>
  end %wide, %back, %bits, %start : <i64>, <f32>, <i32>, <>
}

// -----

// CIRCT: `arith`'s spellings, and `index` in and out.
handshake.func @casts_circt(%a: i32, %i: index, %ctrl: none) -> (index, i32, f32, none) {
  %as:2 = fork [2] %a : i32
  %ix = arith.index_castui %as#0 : i32 to index
  %back = arith.index_castui %i : index to i32
  %f = arith.uitofp %as#1 : i32 to f32
  %fs:2 = fork [2] %f : f32
  %s = arith.fptosi %fs#0 : f32 to i32
  %u = arith.fptoui %fs#1 : f32 to i32
  %bits = arith.bitcast %u : i32 to f32
  %sum = arith.addi %s, %back : i32
  return %ix, %sum, %bits, %ctrl : index, i32, f32, none
}

// -----

// Dynamatic 2026: a cast that keeps the width is allowed, but changes nothing.
handshake.func @same_width(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  // expected-remark @+1 {{HS1213: `extsi` from `<i32>` to `<i32>` keeps the width; it changes nothing}}
  %b = extsi %a : <i32> to <i32>
  end %b, %start : <i32>, <>
}
