// A value belongs to the stage that defines it. Before register materialization another stage
// reads it through `pipeline.src`; after, it arrives as a block argument. Constants and values
// from outside the pipeline may be used anywhere.
hw.module @crossings(in %arg0 : i32, in %ext : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    %c1 = hw.constant 1 : i32
    %0 = comb.add %a0, %c1 : i32
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %1 = pipeline.src %0 : i32
    %2 = comb.add %1, %c1 : i32
    %3 = comb.add %2, %ext : i32
    pipeline.return %3 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @missing_src(in %arg0 : i32, in %arg1 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0, %a1 : i32 = %arg1) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-note @+1 {{`%0` defined here, in the entry stage}}
    %0 = comb.add %a0, %a1 : i32
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %1 = pipeline.latency 1 -> (i32) {
      // expected-error @+1 {{HS4006: `%0` is defined in the entry stage and used directly in stage 1 (`^bb1`); read it there through `pipeline.src`}}
      %2 = comb.add %0, %0 : i32
      pipeline.latency.return %2 : i32
    }
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    %bb2_1 = pipeline.src %1 : i32
    pipeline.return %bb2_1 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @missing_block_argument(in %arg0 : i32, in %arg1 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0, %a1 : i32 = %arg1) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-note @+1 {{`%0` defined here, in the entry stage}}
    %0 = comb.add %a0, %a1 : i32
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    // expected-error @+1 {{HS4006: `%0` is defined in the entry stage and used in stage 1 (`^bb1`); in a register-materialized pipeline it must arrive as a block argument}}
    pipeline.stage ^bb2 regs(%0 : i32)
  ^bb2(%s2_s0 : i32, %s2_enable : i1):
    pipeline.return %s2_s0 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @used_before_defined(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    // expected-error @+1 {{HS4006: `%late` is used in stage 1 (`^bb1`), but defined in stage 2 (`^bb2`), a later stage}}
    %1 = pipeline.src %late : i32
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    // expected-note @+1 {{`%late` defined here, in stage 2 (`^bb2`)}}
    %late = pipeline.src %a0 : i32
    pipeline.return %late : i32
  }
  hw.output %p#0 : i32
}

// -----

// Constants are exempt only from earlier stages: a later stage's value never reaches back.
hw.module @constant_from_a_later_stage(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-error @+1 {{HS4006: `%c1` is used in the entry stage, but defined in stage 1 (`^bb1`), a later stage}}
    %0 = comb.add %a0, %c1 : i32
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    // expected-note @+1 {{`%c1` defined here, in stage 1 (`^bb1`)}}
    %c1 = hw.constant 1 : i32
    %1 = pipeline.src %0 : i32
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}
