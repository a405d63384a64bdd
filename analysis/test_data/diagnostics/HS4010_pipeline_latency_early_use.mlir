// A `pipeline.latency N` result is ready N stages after the stage that defines it. Before that
// it may only be forwarded with `pass(...)`, which carries it without registering it.
hw.module @passed_until_ready(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %out:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    %1 = pipeline.latency 2 -> (i32) {
      %6 = comb.add %a0, %a0 : i32
      pipeline.latency.return %6 : i32
    }
    pipeline.stage ^bb1 pass(%1 : i32)
  ^bb1(%2 : i32, %s1_enable : i1):
    pipeline.stage ^bb2 pass(%2 : i32)
  ^bb2(%3 : i32, %s2_enable : i1):
    pipeline.stage ^bb3 regs(%3 : i32)
  ^bb3(%4 : i32, %s3_enable : i1):
    pipeline.return %4 : i32
  }
  hw.output %out#0 : i32
}

// -----

hw.module @src_too_early(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-note @+1 {{`pipeline.latency 2` here}}
    %1 = pipeline.latency 2 -> (i32) {
      %6 = comb.add %a0, %a0 : i32
      pipeline.latency.return %6 : i32
    }
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    // expected-error @+1 {{HS4010: `%1` is used in stage 1 (`^bb1`), but it is the result of `pipeline.latency 2` in the entry stage, ready 2 stages later, in stage 2}}
    %bb1_1 = pipeline.src %1 : i32
    pipeline.return %bb1_1 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @registered_too_early(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-note @+1 {{`pipeline.latency 2` here}}
    %1 = pipeline.latency 2 -> (i32) {
      %6 = comb.add %a0, %a0 : i32
      pipeline.latency.return %6 : i32
    }
    // expected-error @+1 {{HS4010: `%1` is used in the entry stage, but it is the result of `pipeline.latency 2` in the entry stage}}
    pipeline.stage ^bb1 regs(%1 : i32)
  ^bb1(%v : i32, %s1_enable : i1):
    pipeline.return %v : i32
  }
  hw.output %p#0 : i32
}

// -----

// The value keeps its latency while `pass(...)` forwards it: registering it one stage too soon
// is still too soon.
hw.module @carried_then_registered(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-note @+1 {{`pipeline.latency 2` here}}
    %1 = pipeline.latency 2 -> (i32) {
      %6 = comb.add %a0, %a0 : i32
      pipeline.latency.return %6 : i32
    }
    pipeline.stage ^bb1 pass(%1 : i32)
  ^bb1(%2 : i32, %s1_enable : i1):
    // expected-error @+1 {{HS4010: `%2` is used in stage 1 (`^bb1`), but it carries (through `pass`) the result of `pipeline.latency 2` in the entry stage}}
    pipeline.stage ^bb2 regs(%2 : i32)
  ^bb2(%3 : i32, %s2_enable : i1):
    pipeline.return %3 : i32
  }
  hw.output %p#0 : i32
}
