// A branch whose true side goes through a two-slot sequential buffer. Handshake ops only (the
// CIRCT wheel has no `arith`).
handshake.func @steer(%c: i1, %a: i32, %ctrl: none) -> (i32, i32, none) attributes {argNames = ["c", "a", "ctrl"], resNames = ["t", "f", "outCtrl"]} {
  %t, %f = cond_br %c, %a : i32
  %b = buffer [2] seq %t : i32
  return %b, %f, %ctrl : i32, i32, none
}
