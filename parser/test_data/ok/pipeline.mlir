// CIRCT's pipeline dialect, current syntax, plus the older rationale syntax.
hw.module @p(in %arg0 : i32, in %stall : i1, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %0:2 = pipeline.scheduled "named"(%a0 : i32 = %arg0) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) {poweron} -> (out: i32) {
    %1 = comb.add %a0, %a0 : i32
    %c = hw.constant 1 : i32
    pipeline.stage ^bb1 regs(%1 : i32) pass(%a0 : i32)
  ^bb1(%s1_reg : i32, %s1_pass : i32, %s1_enable : i1):
    %2 = pipeline.latency 2 -> (i32) {
      %3 = comb.mul %s1_reg, %s1_pass : i32
      pipeline.latency.return %3 : i32
    }
    pipeline.stage ^bb2 regs(%2 : i32 gated by [%s1_enable])
  ^bb2(%s2_reg : i32, %s2_enable : i1):
    pipeline.return %s2_reg : i32
  }
  %u:2 = pipeline.unscheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%e) -> (out: i32) {
    pipeline.return %a0 : i32
  }
  hw.output %0#0 : i32
}

// The rationale document's older spelling.
func.func @old(%arg0 : i32, %go : i1) -> i32 {
  %r = pipeline.pipeline(%arg0, %go) : (i32, i1) -> i32 {
  ^bb0(%a : i32, %v : i1):
    pipeline.stage ^bb1 enable %v
  ^bb1:
    pipeline.return %a valid %v : i32
  }
  return %r : i32
}
