// Multi-cycle values: `pipeline.latency` results read through `pipeline.src` once ready, in a
// stallable pipeline and in a continuous one.

hw.module @latency(in %a : i16, in %b : i16, in %go : i1, in %stall : i1, in %clk : !seq.clock, in %rst : i1, out out : i16, out sum : i16, out done : i1) {
  %out, %sum, %done = pipeline.scheduled(%a0 : i16 = %a, %b0 : i16 = %b) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out : i16, sum : i16) {
    %p = pipeline.latency 3 -> (i16) {
      %m = comb.mul %a0, %b0 : i16
      %c3 = hw.constant 3 : i16
      %r = comb.add %m, %c3 : i16
      pipeline.latency.return %r : i16
    }
    %s = comb.add %a0, %b0 : i16
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %s_1 = pipeline.src %s : i16
    %q = pipeline.latency 1 -> (i16) {
      %one = hw.constant 1 : i16
      %n = comb.shru %s_1, %one : i16
      pipeline.latency.return %n : i16
    }
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    %q_2 = pipeline.src %q : i16
    %a_2 = pipeline.src %a0 : i16
    %t = comb.xor %q_2, %a_2 : i16
    pipeline.stage ^bb3
  ^bb3(%s3_enable : i1):
    %p_3 = pipeline.src %p : i16
    %t_3 = pipeline.src %t : i16
    %u = comb.add %p_3, %t_3 : i16
    pipeline.stage ^bb4
  ^bb4(%s4_enable : i1):
    %u_4 = pipeline.src %u : i16
    %s_4 = pipeline.src %s : i16
    pipeline.return %u_4, %s_4 : i16, i16
  }
  hw.output %out, %sum, %done : i16, i16, i1
}

// Without a stall signal, a latency result read two stages after it is ready, and a second
// multi-cycle op fed by the first.
hw.module @latency_continuous(in %a : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out : i32, out done : i1) {
  %out, %done = pipeline.scheduled(%a0 : i32 = %a) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out : i32) {
    %l = pipeline.latency 2 -> (i32) {
      %d = comb.add %a0, %a0 : i32
      pipeline.latency.return %d : i32
    }
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    %l2 = pipeline.src %l : i32
    %k = pipeline.latency 2 -> (i32) {
      %c7 = hw.constant 7 : i32
      %e = comb.mul %l2, %c7 : i32
      pipeline.latency.return %e : i32
    }
    pipeline.stage ^bb3
  ^bb3(%s3_enable : i1):
    pipeline.stage ^bb4
  ^bb4(%s4_enable : i1):
    %k4 = pipeline.src %k : i32
    %l4 = pipeline.src %l : i32
    %r = comb.sub %k4, %l4 : i32
    pipeline.stage ^bb5
  ^bb5(%s5_enable : i1):
    %r5 = pipeline.src %r : i32
    pipeline.return %r5 : i32
  }
  hw.output %out, %done : i32, i1
}
