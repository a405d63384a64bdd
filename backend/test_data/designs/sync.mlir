// sync whose outputs meet again. Lowered as a join and a lazy fork, each output's valid waited
// for the other outputs' ready, and a join's ready waits for every input's valid: outputs that
// meet at a join waited on each other combinationally and never moved. The join drives an eager
// fork now (as CIRCT lowers sync), and both designs run.

// The two outputs meet at an adder (a join of its operands).
// hsir-sim: tokens=4
handshake.func @sync_meet(%a: i32, %b: i32, %ctrl: none) -> (i32, none) attributes {argNames = ["a", "b", "ctrl"], resNames = ["sum", "outCtrl"]} {
  %s:2 = sync %a, %b : i32, i32
  %r = arith.addi %s#0, %s#1 : i32
  return %r, %ctrl : i32, none
}

// A sync on a backedge: each input token waits for the token the previous one sent around the
// loop, and the three outputs meet again at the join that makes that token.
// hsir-sim: tokens=4
handshake.func @sync_backedge(%x: i32, %ctrl: none) -> (i32, none) attributes {argNames = ["x", "ctrl"], resNames = ["out0", "outCtrl"]} {
  %tok = buffer [1] seq %j {initValues = [0]} : none
  %s:3 = sync %x, %ctrl, %tok : i32, none, none
  %xf:2 = fork [2] %s#0 : i32
  %cf:2 = fork [2] %s#1 : none
  %j = join %xf#0, %cf#0, %s#2 : i32, none, none
  return %xf#1, %cf#1 : i32, none
}
