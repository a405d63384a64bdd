// circt-known-bug: the 1.62 wheel's `merge` sends 0 instead of the data of input 0 (its
// lowering selects `in1` or a constant 0), so the merged tokens that took the true side are 0.
// A join of a value with a control token, and a merge whose inputs a branch makes exclusive.
// hsir-sim: tokens=4
handshake.func @join_merge(%c: i1, %a: i32, %ctrl: none) -> (i32, none) attributes {argNames = ["c", "a", "ctrl"], resNames = ["merged", "joined"]} {
  %as:2 = fork [2] %a : i32
  %t, %f = cond_br %c, %as#0 : i32
  %m = merge %t, %f : i32
  %j = join %as#1, %ctrl : i32, none
  return %m, %j : i32, none
}
