// A stage block that no `pipeline.stage` on the chain from the entry stage reaches is dead.
hw.module @unreachable(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    pipeline.stage ^bb2
  // expected-warning @+1 {{HS4003: stage block `^bb1` is never reached: no `pipeline.stage` on the chain from the entry stage goes to it}}
  ^bb1(%s1_enable : i1):
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    %1 = pipeline.src %a0 : i32
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @all_reached(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    %1 = pipeline.src %a0 : i32
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}
