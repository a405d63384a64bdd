// Pipeline ops live in their parent op, and only in the phase that has them: stages and
// `pipeline.src` exist once a pipeline is scheduled, `pipeline.src` only until its registers are
// materialized.
hw.module @src_before_materialization(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %1 = pipeline.src %a0 : i32
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @src_after_materialization(in %arg : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1) {
  %res, %done = pipeline.scheduled(%a0 : i32 = %arg) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    pipeline.stage ^bb1 regs(%a0 : i32)
  // expected-note @+1 {{`^bb1` takes data arguments, so the pipeline is materialized}}
  ^bb1(%0 : i32, %s1_enable : i1):
    // expected-error @+1 {{HS4005: `pipeline.src` in a register-materialized pipeline: values cross stages as block arguments here}}
    %a0_bb1 = pipeline.src %a0 : i32
    pipeline.return %0 : i32
  }
  hw.output
}

// -----

hw.module @src_in_unscheduled(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.unscheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-error @+1 {{HS4005: `pipeline.src` in a `pipeline.unscheduled`: an unscheduled pipeline is one block without stages}}
    %1 = pipeline.src %a0 : i32
    pipeline.return %1 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @stages_in_unscheduled(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out: i32) {
  %p:2 = pipeline.unscheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out: i32) {
    // expected-error @+1 {{HS4005: `pipeline.stage` in a `pipeline.unscheduled`}}
    pipeline.stage ^bb1
  // expected-error @+1 {{HS4005: `pipeline.unscheduled` has 2 blocks, but an unscheduled pipeline is a single block}}
  ^bb1(%s1_enable : i1):
    pipeline.return %a0 : i32
  }
  hw.output %p#0 : i32
}

// -----

hw.module @outside_a_pipeline(in %arg0 : i32) {
  // expected-error @+1 {{HS4005: `pipeline.return` must be directly inside a `pipeline.scheduled` or `pipeline.unscheduled`, not a `hw.module`}}
  pipeline.return %arg0 : i32
}

// -----

hw.module @src_nested_in_another_op(in %arg0 : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1) {
  %done = pipeline.scheduled(%a0 : i32 = %arg0) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> () {
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    "foo.wrapper"() ({
      // expected-error @+1 {{HS4005: `pipeline.src` must be directly inside a `pipeline.scheduled`, not a `foo.wrapper`}}
      %1 = pipeline.src %a0 : i32
      "foo.use"(%1) : (i32) -> ()
    }) : () -> ()
    pipeline.return
  }
  hw.output
}
