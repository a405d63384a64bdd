// Hover fixture (see dynamatic2025.mlir): block labels of a control-flow function (arguments,
// predecessors, the loop they head) and of a pipeline (its stages).
func.func @loop(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  cf.br ^bb1(%c0 : i32)
^b$0b1(%i: i32):
  %c1 = arith.constant 1 : i32
  %next = arith.addi %i, %c1 : i32
  %done = arith.cmpi eq, %next, %n : i32
  cf.cond_br %done, ^b$0b2, ^bb1(%next : i32)
^bb2:
  return %next : i32
}

// -----

hw.module @m(in %a : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, in %stall : i1, out out : i32, out done : i1) {
  %out, %done = pipeline.scheduled(%a0 : i32 = %a) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0)
    {stall$0ability = [true, false]}
    -> (out : i32) {
    pipeline.stage ^b$0b1 regs(%a0 : i32)
  ^bb1(%r : i32, %s1 : i1):
    pipeline.stage ^bb2 regs(%r : i32)
  ^b$0b2(%r2 : i32, %s2 : i1):
    pipeline.return %r2 : i32
  }
  hw.output %out, %done : i32, i1
}
