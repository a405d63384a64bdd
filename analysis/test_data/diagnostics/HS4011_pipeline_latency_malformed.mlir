// `pipeline.latency N` delays by at least one cycle, and in a scheduled pipeline it delays at
// least one value.
hw.module @zero_cycles(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.unscheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-error @+1 {{HS4011: `pipeline.latency 0` delays by no cycles: a latency is at least 1}}
    %1 = pipeline.latency 0 -> (i32) {
      %2 = comb.add %a0, %a0 : i32
      pipeline.latency.return %2 : i32
    }
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @no_results(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1) {
  %done = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> () {
    // expected-error @+1 {{HS4011: `pipeline.latency` without results: in a scheduled pipeline it must delay at least one value}}
    pipeline.latency 1 -> () {
      pipeline.latency.return
    }
    pipeline.return
  }
  hw.output
}

// -----

// An unscheduled pipeline has no stages to wait for, so an empty latency op is allowed there.
hw.module @no_results_unscheduled(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1) {
  %done = pipeline.unscheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> () {
    pipeline.latency 1 -> () {
      pipeline.latency.return
    }
    pipeline.return
  }
  hw.output
}
