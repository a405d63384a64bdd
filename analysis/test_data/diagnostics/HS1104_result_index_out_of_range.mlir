// `%x#N` names result N of the group `%x`, counted from 0.
handshake.func @dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0:2 = fork [2] %a : <i32>
  sink %0#0 : <i32>
  // expected-error @+1 {{HS1104: `%0#2` is out of range: `%0` has 2 results}}
  sink %0#2 : <i32>
  end %0#1, %start : <i32>, <>
}

// -----

handshake.func @circt(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = buffer [1] seq %a : i32
  sink %0 : i32
  // expected-error @+1 {{HS1104: `%0#1` is out of range: `%0` has 1 result}}
  return %0#1, %ctrl : i32, none
}

// -----

// Valid: `%x#0` is the first result even when the group has one.
handshake.func @valid(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = buffer [1] seq %a : i32
  %1:3 = fork [3] %ctrl : none
  %2 = join %1#0, %1#1 : none, none
  sink %2 : none
  return %0#0, %1#2 : i32, none
}
