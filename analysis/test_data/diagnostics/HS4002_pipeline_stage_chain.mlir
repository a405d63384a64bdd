// Following `pipeline.stage` targets from the entry stage gives the stage order: it must end in
// `pipeline.return` without visiting a stage twice.
hw.module @chain(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    pipeline.stage ^bb2
  // Stages are ordered by the chain, not by their place in the text.
  ^bb1(%s1_enable : i1):
    %1 = pipeline.src %a0 : i32
    pipeline.return %1 : i32
  ^bb2(%s2_enable : i1):
    pipeline.stage ^bb1
  }
  hw.output %p#0 : i32
}

// -----

hw.module @cycle(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    pipeline.stage ^bb1
  // expected-note @+1 {{`^bb1` starts here}}
  ^bb1(%s1_enable : i1):
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    // expected-error @+1 {{HS4002: `pipeline.stage` goes back to `^bb1`, stage 1: the stages form a cycle}}
    pipeline.stage ^bb1
  ^bb3(%s3_enable : i1):
    %1 = pipeline.src %a0 : i32
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @self_loop(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1) {
  %done = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> () {
    pipeline.stage ^bb1
  // expected-note @+1 {{`^bb1` starts here}}
  ^bb1(%s1_enable : i1):
    // expected-error @+1 {{HS4002: `pipeline.stage` goes back to `^bb1`, stage 1}}
    pipeline.stage ^bb1
  }
  hw.output
}

// -----

hw.module @unknown_target(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1) {
  %done = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> () {
    // expected-error @+1 {{HS4002: `^bb7` is not a stage block of this pipeline}}
    pipeline.stage ^bb7
  ^bb1(%s1_enable : i1):
    pipeline.return
  }
  hw.output
}
