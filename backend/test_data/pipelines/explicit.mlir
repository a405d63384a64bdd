// A register-materialized pipeline written by hand: named and unnamed `regs`, a `pass` of a
// latency result on its way (a register here), and `pass`es of ready values (wires: they carry
// the previous stage's current value, not the token's).
hw.module @explicit(in %a : i8, in %b : i8, in %go : i1, in %clk : !seq.clock, in %rst : i1, in %stall : i1, out out : i8, out passed : i8, out done : i1) {
  %out, %passed, %done = pipeline.scheduled "explicit"(%a0 : i8 = %a, %b0 : i8 = %b) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out : i8, passed : i8) {
    %d = pipeline.latency 2 -> (i8) {
      %x = comb.mul %a0, %b0 : i8
      pipeline.latency.return %x : i8
    }
    %e = comb.sub %a0, %b0 : i8
    pipeline.stage ^bb1 regs("e" = %e : i8, %a0 : i8) pass("d" = %d : i8, %b0 : i8)
  ^bb1(%e1 : i8, %a1 : i8, %d1 : i8, %b1 : i8, %s1_enable : i1):
    %f = comb.and %e1, %b1 : i8
    pipeline.stage ^bb2 regs(%f : i8, %a1 : i8) pass(%d1 : i8)
  ^bb2(%f2 : i8, %a2 : i8, %d2 : i8, %s2_enable : i1):
    %g = comb.add %f2, %d2 : i8
    pipeline.stage ^bb3 regs(%g : i8) pass(%a2 : i8)
  ^bb3(%g3 : i8, %a3 : i8, %s3_enable : i1):
    pipeline.return %g3, %a3 : i8, i8
  }
  hw.output %out, %passed, %done : i8, i8, i1
}
