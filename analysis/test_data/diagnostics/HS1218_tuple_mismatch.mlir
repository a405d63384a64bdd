// pack builds a tuple from its elements and unpack splits one; the types must agree.
handshake.func @unpack_generic(%t: tuple<i64, i32>, %ctrl: none) -> (i64, i64, none) {
  // expected-error @+1 {{HS1218: `tuple<i64,i32>` has elements that differ from the results (i64, i64)}}
  %0:2 = "handshake.unpack"(%t) : (tuple<i64, i32>) -> (i64, i64)
  return %0#0, %0#1, %ctrl : i64, i64, none
}

// -----

handshake.func @pack_generic(%a: i32, %b: i64, %ctrl: none) -> (tuple<i64, i32>, none) {
  // expected-error @+1 {{HS1218: `tuple<i64,i32>` has elements that differ from the inputs (i32, i64)}}
  %0 = "handshake.pack"(%a, %b) : (i32, i64) -> tuple<i64, i32>
  return %0, %ctrl : tuple<i64, i32>, none
}

// -----

// The custom form writes the one tuple type.
handshake.func @unpack_custom(%t: tuple<i64>, %ctrl: none) -> (i64, none) {
  // expected-error @+1 {{HS1218: `unpack` is written with the one tuple type it splits: `: tuple<...>`}}
  %0 = unpack %t : i64
  return %0, %ctrl : i64, none
}

// -----

handshake.func @pack_custom(%a: i64, %b: i32, %ctrl: none) -> (tuple<i64, i32>, none) {
  // expected-error @+1 {{HS1218: `pack` is written with the one tuple type it builds: `: tuple<...>`}}
  %0 = pack %a, %b : i64, i32
  return %0, %ctrl : tuple<i64, i32>, none
}

// -----

// Valid.
handshake.func @valid(%a: i64, %b: i32, %ctrl: none) -> (i64, i32, none) {
  %0 = pack %a, %b : tuple<i64, i32>
  %1:2 = unpack %0 : tuple<i64, i32>
  return %1#0, %1#1, %ctrl : i64, i32, none
}
