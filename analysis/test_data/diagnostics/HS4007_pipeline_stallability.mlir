// `stallability` marks, for a pipeline with a stall signal, which register stages may stall:
// one boolean per stage but the last.
hw.module @stallability(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, in %stall : i1, out out: i32) {
  %p:2 = pipeline.scheduled "MyPipeline"(%a0 : i32 = %arg0) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable)
    {stallability = [true, false]}
   -> (out: i32) {
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    %1 = pipeline.src %a0 : i32
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @no_stall_signal(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable)
    // expected-error @+1 {{HS4007: `stallability` without a `stall(%s)` signal}}
    {stallability = [true]}
   -> (out: i32) {
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %1 = pipeline.src %a0 : i32
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @wrong_length(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, in %stall : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable)
    // expected-error @+1 {{HS4007: `stallability` has 2 entries, but the pipeline has 3 stages that end in registers (every stage but the last)}}
    {stallability = [true, false]}
   -> (out: i32) {
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    pipeline.stage ^bb3
  ^bb3(%s3_enable : i1):
    %1 = pipeline.src %a0 : i32
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @not_a_boolean(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, in %stall : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable)
    // expected-error @+1 {{HS4007: `stallability` entry `1` is not `true` or `false`}}
    {stallability = [1]}
   -> (out: i32) {
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %1 = pipeline.src %a0 : i32
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}
