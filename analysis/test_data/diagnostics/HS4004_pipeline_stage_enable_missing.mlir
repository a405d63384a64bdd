// The last argument of every stage block but the entry one is the stage's `i1` enable.
hw.module @enables(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    pipeline.stage ^bb1 regs(%a0 : i32)
  ^bb1(%v : i32, %s1_enable : i1):
    pipeline.return %v : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @no_arguments(in %arg : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1) {
  %done = pipeline.scheduled(%a0 : i32 = %arg) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> () {
    pipeline.stage ^bb1
  // expected-error @+1 {{HS4004: stage `^bb1` has no arguments, but its last argument must be the `i1` stage enable}}
  ^bb1:
    pipeline.return
  }
  hw.output
}

// -----

hw.module @enable_not_last(in %arg : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    pipeline.stage ^bb1 regs(%a0 : i32)
  // expected-error @+1 {{HS4004: the last argument of stage `^bb1`, `%v`, is `i32`, but it must be the `i1` stage enable}}
  ^bb1(%s1_enable : i1, %v : i32):
    pipeline.return %v : i32
  }
  hw.output %p#0 : i32
}
