// Two pipelines in one module, the second fed by the first through module-level logic, each
// with its own register prefix (`p0`, `p1`) and stall behaviour.
hw.module @two_pipelines(in %a : i32, in %b : i32, in %go : i1, in %stall : i1, in %clk : !seq.clock, in %rst : i1, out out : i32, out done0 : i1, out done1 : i1) {
  %r0, %done0 = pipeline.scheduled(%a0 : i32 = %a, %b0 : i32 = %b) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out : i32) {
    %1 = comb.sub %a0, %b0 : i32
    pipeline.stage ^bb1 regs(%1 : i32, %a0 : i32)
  ^bb1(%2 : i32, %3 : i32, %s1_enable : i1):
    %5 = comb.add %2, %3 : i32
    pipeline.stage ^bb2 regs(%5 : i32, %2 : i32)
  ^bb2(%6 : i32, %7 : i32, %s2_enable : i1):
    %8 = comb.mul %6, %7 : i32
    pipeline.return %8 : i32
  }
  %mixed = comb.xor %r0, %b : i32
  %r1, %done1 = pipeline.scheduled(%a0 : i32 = %mixed) stall(%stall) clock(%clk) reset(%rst) go(%done0) entryEn(%s0_enable) -> (out : i32) {
    %1 = comb.add %a0, %a0 : i32
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %2 = pipeline.src %1 : i32
    %3 = pipeline.src %a0 : i32
    %4 = comb.sub %2, %3 : i32
    pipeline.return %4 : i32
  }
  hw.output %r1, %done0, %done1 : i32, i1, i1
}
