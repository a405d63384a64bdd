// arith, comb, seq, hw, scf and cf beside Handshake.
hw.module @counter(in %clk : !seq.clock, in %rst : i1, out count : i8) {
  %c1 = hw.constant 1 : i8
  %next = comb.add %reg, %c1 : i8
  %reg = seq.compreg %next, %clk reset %rst, %c1 : i8
  hw.output %reg : i8
}
func.func @branches(%c: i1, %x: i32) -> i32 {
  %y = scf.if %c -> (i32) {
    %a = arith.addi %x, %x : i32
    scf.yield %a : i32
  } else {
    scf.yield %x : i32
  }
  cf.cond_br %c, ^bb1(%y : i32), ^bb2
^bb1(%v: i32):
  %e = arith.extsi %v : i32 to i64
  %t = arith.trunci %e : i64 to i32
  cf.br ^bb2
^bb2:
  %cmp = arith.cmpi slt, %x, %y : i32
  %s = arith.select %cmp, %x, %y : i32
  return %s : i32
}
