// The values a `pipeline.stage` sends, `regs(...)` then `pass(...)`, are the arguments of the
// target stage before its enable, in number and type.
hw.module @matching(in %arg0 : i32, in %arg1 : i8, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out0: i32, out out1: i8) {
  %p:3 = pipeline.scheduled(%a0 : i32 = %arg0, %a1 : i8 = %arg1) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out0: i32, out1: i8) {
    %true = hw.constant true
    pipeline.stage ^bb1 regs("sum" = %a0 : i32 gated by [%true]) pass(%a1 : i8)
  ^bb1(%r : i32, %q : i8, %s1_enable : i1):
    pipeline.return %r, %q : i32, i8
  }
  hw.output %p#0, %p#1 : i32, i8
}

// -----

hw.module @count(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-error @+1 {{HS4008: `pipeline.stage` sends 2 values (1 in `regs`, 1 in `pass`) to `^bb1`, which takes 1 argument besides its enable}}
    pipeline.stage ^bb1 regs(%a0 : i32) pass(%a0 : i32)
  // expected-note @+1 {{`^bb1` declared here}}
  ^bb1(%r : i32, %s1_enable : i1):
    pipeline.return %r : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @types(in %arg0 : i32, in %arg1 : i8, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0, %a1 : i8 = %arg1) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-error @+2 {{HS4008: register 0 of `pipeline.stage` is `i32`, but argument 0 of `^bb1`, `%r`, is `i16`}}
    // expected-error @+1 {{HS4008: pass-through value 0 of `pipeline.stage` is `i8`, but argument 1 of `^bb1`, `%q`, is `i32`}}
    pipeline.stage ^bb1 regs(%a0 : i32) pass(%a1 : i8)
  // expected-note @+2 {{`%r` declared here}}
  // expected-note @+1 {{`%q` declared here}}
  ^bb1(%r : i16, %q : i32, %s1_enable : i1):
    pipeline.return %q : i32
  }
  hw.output %p#0 : i32
}
