// The pipeline rationale still shows an older syntax and the implicit-register form, where a
// value is used directly in a later stage. Both are accepted with a warning naming today's form.
hw.module @older_syntax(in %arg0 : i32, in %arg1 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  // expected-warning @+1 {{HS4012: `pipeline.scheduled` is written in the rationale's older form}}
  %out = pipeline.scheduled(%arg0, %arg1, %go) clock %clk reset %rst : (i32, i32, i1) -> (i32) {
  ^bb0(%a0 : i32, %a1: i32, %g : i1):
    %add0 = comb.add %a0, %a1 : i32
    // expected-warning @+1 {{HS4012: `enable` on `pipeline.stage` is the older syntax}}
    pipeline.stage ^bb1 enable %g
  ^bb1:
    %add1 = comb.add %add0, %a0 : i32
    // expected-warning @+1 {{HS4012: `valid` on `pipeline.return` is the older syntax}}
    pipeline.return %add1 valid %g : i32
  }
  hw.output %out : i32
}

// -----

hw.module @implicit_registers(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %res, %done = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out : i32) {
    // expected-note @+1 {{`%0` defined here, in the entry stage}}
    %0 = comb.mul %a0, %a0 : i32
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    // expected-warning @+1 {{HS4012: `%0` is defined in the entry stage and used directly in stage 1 (`^bb1`): the rationale's older implicit-register form, which current CIRCT rejects; read it there through `pipeline.src`}}
    pipeline.return %0 : i32
  }
  hw.output %res : i32
}
