// The unmaterialized form: values cross stages only through `pipeline.src`, and the backend
// materializes a register at every boundary they cross (stage enables and `entryEn` included);
// module values (`%k`) are read directly in every stage.
hw.module @unmaterialized(in %x : i32, in %y : i32, in %k : i32, in %go : i1, in %clk : !seq.clock, in %rst : i1, out out : i32, out flag : i1, out done : i1) {
  %out, %flag, %done = pipeline.scheduled(%x0 : i32 = %x, %y0 : i32 = %y) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out : i32, flag : i1) {
    %sum = comb.add %x0, %y0 : i32
    %lt = comb.icmp ult %x0, %y0 : i32
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %sum1 = pipeline.src %sum : i32
    %x1 = pipeline.src %x0 : i32
    %d = comb.sub %sum1, %x1 : i32
    %dk = comb.add %d, %k : i32
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    %dk2 = pipeline.src %dk : i32
    %lt2 = pipeline.src %lt : i1
    %en0 = pipeline.src %s0_enable : i1
    %sel = comb.mux %lt2, %dk2, %k : i32
    pipeline.stage ^bb3
  ^bb3(%s3_enable : i1):
    %sel3 = pipeline.src %sel : i32
    %sum3 = pipeline.src %sum : i32
    %en0_3 = pipeline.src %en0 : i1
    %s2 = pipeline.src %s2_enable : i1
    %both = comb.and %en0_3, %s2, %s3_enable : i1
    %r = comb.xor %sel3, %sum3 : i32
    pipeline.return %r, %both : i32, i1
  }
  hw.output %out, %flag, %done : i32, i1, i1
}

// The same form under stalls, with a value read three stages after its own, and a register
// inside a stage (an accumulator of the stage's valid tokens) read by a later stage.
hw.module @unmaterialized_stall(in %x : i16, in %go : i1, in %stall : i1, in %clk : !seq.clock, in %rst : i1, out out : i16, out total : i16, out done : i1) {
  %out, %total, %done = pipeline.scheduled(%x0 : i16 = %x) stall(%stall) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable) -> (out : i16, total : i16) {
    %c = hw.constant 11 : i16
    %zero = hw.constant 0 : i16
    %m = comb.mul %x0, %c : i16
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %m1 = pipeline.src %m : i16
    %n = comb.add %m1, %c : i16
    %go_on = comb.xor %stall, %s1_enable : i1
    %acc_next = comb.add %acc, %m1 : i16
    %acc = seq.compreg.ce %acc_next, %clk, %go_on reset %rst, %zero : i16
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    pipeline.stage ^bb3
  ^bb3(%s3_enable : i1):
    %n3 = pipeline.src %n : i16
    %x3 = pipeline.src %x0 : i16
    %acc3 = pipeline.src %acc : i16
    %r = comb.sub %n3, %x3 : i16
    pipeline.return %r, %acc3 : i16, i16
  }
  hw.output %out, %total, %done : i16, i16, i1
}
