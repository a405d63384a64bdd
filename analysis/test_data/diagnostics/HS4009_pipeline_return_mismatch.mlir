// `pipeline.return` returns one value per declared output; the pipeline's results are those
// outputs and a final `done`. `pipeline.latency.return` matches its `pipeline.latency`.
hw.module @matching(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32, out done: i1) {
  %out, %done = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    %1 = pipeline.latency 1 -> (i32) {
      %2 = comb.add %a0, %a0 : i32
      pipeline.latency.return %2 : i32
    }
    pipeline.stage ^bb1 pass(%1 : i32)
  ^bb1(%v : i32, %s1_enable : i1):
    pipeline.return %v : i32
  }
  hw.output %out, %done : i32, i1
}

// -----

hw.module @count(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  // expected-note @+1 {{declared here}}
  %p:2 = pipeline.unscheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-error @+1 {{HS4009: `pipeline.return` returns 0 values, but the pipeline declares 1 output}}
    pipeline.return
  }
  hw.output %p#0 : i32
}

// -----

hw.module @type(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i31) {
  // expected-note @+1 {{output `out` declared here}}
  %p:2 = pipeline.unscheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i31) {
    // expected-error @+1 {{HS4009: `pipeline.return` value 0 is `i32`, but output `out` is `i31`}}
    pipeline.return %a0 : i32
  }
  hw.output %p#0 : i31
}

// -----

hw.module @results(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  // expected-error @+1 {{HS4009: `pipeline.scheduled` has 2 results (1 output and `done`), but 3 are bound here}}
  %p:3 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    pipeline.return %a0 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @latency_return(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i16) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i16) {
    // expected-note @+1 {{result 0 of `pipeline.latency` declared here}}
    %1 = pipeline.latency 1 -> (i16) {
      // expected-error @+1 {{HS4009: `pipeline.latency.return` value 0 is `i32`, but result 0 of `pipeline.latency` is `i16`}}
      pipeline.latency.return %a0 : i32
    }
    pipeline.stage ^bb1 pass(%1 : i16)
  ^bb1(%v : i16, %s1_enable : i1):
    pipeline.return %v : i16
  }
  hw.output %p#0 : i16
}
