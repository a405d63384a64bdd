// The pipeline dialect: block labels sit one level less than their ops.
hw.module @scheduled(in %arg0 : i32, in %arg1 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %0:2 = pipeline.scheduled(%a0 : i32 = %arg0, %a1 : i32 = %arg1) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32){
      %0 = comb.add %a0, %a1 : i32
      pipeline.stage ^bb1 regs(%0 : i32)

    ^bb1(%s0_0 : i32, %s1_enable : i1):
      %1 = pipeline.latency 2 -> (i32) {
      %2 = comb.add %s0_0, %s0_0 : i32
      pipeline.latency.return %2 : i32
      }
      pipeline.stage ^bb2
     ^bb2(%s2_enable : i1):
      pipeline.return %1 : i32
  }
  hw.output %0 : i32
}
