// One condition steers two values and then picks between them with a mux: the mux's inputs are
// exclusive, so the result does not depend on timing.
handshake.func @select(%c: i1, %a: i32, %b: i32, %ctrl: none) -> (i32, i32, i32, none) attributes {argNames = ["c", "a", "b", "ctrl"], resNames = ["picked", "a_true", "b_false", "outCtrl"]} {
  %cs:3 = fork [3] %c : i1
  %t, %f = cond_br %cs#0, %a : i32
  %u, %v = cond_br %cs#1, %b : i32
  %m = mux %cs#2 [%f, %u] : i1, i32
  return %m, %t, %v, %ctrl : i32, i32, i32, none
}
