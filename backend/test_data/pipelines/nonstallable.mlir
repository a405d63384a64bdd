// Stall handling with non-stallable stages, register-materialized.

// Stage 1 is non-stallable; stages 2, 3 and 4 after it are runoff stages: they keep draining
// while the non-stallable stage is enabled, whatever `stall` says.
hw.module @nonstallable(in %a : i32, in %b : i32, in %go : i1, in %stall : i1, in %clk : !seq.clock, in %rst : i1, out out : i32, out done : i1) {
  %out, %done = pipeline.scheduled(%a0 : i32 = %a, %b0 : i32 = %b) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable)
      {stallability = [true, false, true, true]} -> (out : i32) {
    %sum = comb.add %a0, %b0 : i32
    pipeline.stage ^bb1 regs(%sum : i32, %b0 : i32)
  ^bb1(%sum1 : i32, %b1 : i32, %s1_enable : i1):
    %prod = comb.mul %sum1, %b1 : i32
    pipeline.stage ^bb2 regs(%prod : i32, %sum1 : i32)
  ^bb2(%prod2 : i32, %sum2 : i32, %s2_enable : i1):
    %x = comb.xor %prod2, %sum2 : i32
    %zero = hw.constant 0 : i32
    %gated = comb.mux %s2_enable, %x, %zero : i32
    pipeline.stage ^bb3 regs(%gated : i32)
  ^bb3(%x3 : i32, %s3_enable : i1):
    %c1 = hw.constant 1 : i32
    %y = comb.shl %x3, %c1 : i32
    pipeline.stage ^bb4 regs(%y : i32)
  ^bb4(%y4 : i32, %s4_enable : i1):
    pipeline.return %y4 : i32
  }
  hw.output %out, %done : i32, i1
}

// Two groups of non-stallable stages: a non-stallable entry stage (which, by CIRCT's rule,
// makes no later stage a runoff stage), then stage 2, whose runoff stages are 3, 4 and 5.
hw.module @nonstallable_groups(in %a : i8, in %go : i1, in %stall : i1, in %clk : !seq.clock, in %rst : i1, out out : i8, out done : i1) {
  %out, %done = pipeline.scheduled "groups"(%a0 : i8 = %a) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable)
      {stallability = [false, true, false, true, true]} -> (out : i8) {
    %c3 = hw.constant 3 : i8
    %m = comb.mul %a0, %c3 : i8
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %m1 = pipeline.src %m : i8
    %n = comb.add %m1, %c3 : i8
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    pipeline.stage ^bb3
  ^bb3(%s3_enable : i1):
    %n3 = pipeline.src %n : i8
    %a3 = pipeline.src %a0 : i8
    %r = comb.sub %n3, %a3 : i8
    pipeline.stage ^bb4
  ^bb4(%s4_enable : i1):
    pipeline.stage ^bb5
  ^bb5(%s5_enable : i1):
    %r5 = pipeline.src %r : i8
    pipeline.return %r5 : i8
  }
  hw.output %out, %done : i8, i1
}

// Every stage but the last stallable, with a stall signal but no `stallability`.
hw.module @all_stallable(in %a : i4, in %go : i1, in %stall : i1, in %clk : !seq.clock, in %rst : i1, out out : i4, out done : i1) {
  %out, %done = pipeline.scheduled(%a0 : i4 = %a) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out : i4) {
    %c = hw.constant 5 : i4
    %s = comb.add %a0, %c : i4
    pipeline.stage ^bb1 regs(%s : i4)
  ^bb1(%s1 : i4, %s1_enable : i1):
    %t = comb.xor %s1, %c : i4
    pipeline.stage ^bb2 regs(%t : i4)
  ^bb2(%t2 : i4, %s2_enable : i1):
    pipeline.return %t2 : i4
  }
  hw.output %out, %done : i4, i1
}
