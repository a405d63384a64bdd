// Every stage block of a pipeline ends in `pipeline.stage` or `pipeline.return`, and only there.
hw.module @terminated(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    %0 = comb.add %a0, %a0 : i32
    pipeline.stage ^bb1 regs(%0 : i32)
  ^bb1(%v : i32, %s1_enable : i1):
    pipeline.return %v : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @unterminated(in %arg0 : i32, in %arg1 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0, %a1 : i32 = %arg1) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-error @+1 {{HS4001: the entry stage ends in `comb.add`, not in `pipeline.stage` or `pipeline.return`}}
    %0 = comb.add %a0, %a1 : i32
  ^bb1(%s1_enable : i1):
    %bb1_0 = pipeline.src %0 : i32
    pipeline.return %bb1_0 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @terminator_in_the_middle(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-error @+1 {{HS4001: `pipeline.stage` ends the entry stage, so it must be its last op}}
    pipeline.stage ^bb1
    // expected-error @+1 {{HS4001: the entry stage ends in `comb.add`}}
    %0 = comb.add %a0, %a0 : i32
  ^bb1(%s1_enable : i1):
    %1 = pipeline.src %a0 : i32
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @empty_stage(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1) {
  %done = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> () {
    pipeline.stage ^bb1
  // expected-error @+1 {{HS4001: stage block `^bb1` has no terminator: it must end in `pipeline.stage` or `pipeline.return`}}
  ^bb1(%s1_enable : i1):
  }
  hw.output
}

// -----

hw.module @unscheduled_without_return(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1) {
  %done = pipeline.unscheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> () {
    // expected-error @+1 {{HS4001: the pipeline body ends in `comb.add`, not in `pipeline.return`}}
    %0 = comb.add %a0, %a0 : i32
  }
  hw.output
}
