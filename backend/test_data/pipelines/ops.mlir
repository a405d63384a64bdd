// Every op the pipeline backend lowers, inside a pipeline and around it.
hw.module @ops(in %a : i16, in %b : i16, in %c : i1, in %go : i1, in %en : i1, in %clk : !seq.clock, in %rst : i1,
               out division : i64, out compares : i10, out bits : i32, out arith : i64, out regs : i48, out done : i1) {
  %division, %compares, %bits, %arith, %done = pipeline.scheduled(%a0 : i16 = %a, %b0 : i16 = %b, %c0 : i1 = %c) clock(%clk) reset(%rst) go(%go) entryEn(%s0_enable)
      -> (division : i64, compares : i10, bits : i32, arith : i64) {
    %divu = comb.divu %a0, %b0 : i16
    %divs = comb.divs %a0, %b0 : i16
    %modu = comb.modu %a0, %b0 : i16
    %mods = comb.mods %a0, %b0 : i16
    %division_0 = comb.concat %divu, %divs, %modu, %mods : i16, i16, i16, i16
    %eq = comb.icmp eq %a0, %b0 : i16
    %ne = comb.icmp ne %a0, %b0 : i16
    %slt = comb.icmp slt %a0, %b0 : i16
    %sle = comb.icmp sle %a0, %b0 : i16
    %sgt = comb.icmp sgt %a0, %b0 : i16
    %sge = comb.icmp sge %a0, %b0 : i16
    %ult = comb.icmp ult %a0, %b0 : i16
    %ule = comb.icmp ule %a0, %b0 : i16
    %ugt = comb.icmp bin ugt %a0, %b0 : i16
    %uge = comb.icmp uge %a0, %b0 : i16
    %compares_0 = comb.concat %eq, %ne, %slt, %sle, %sgt, %sge, %ult, %ule, %ugt, %uge : i1, i1, i1, i1, i1, i1, i1, i1, i1, i1
    %c15 = hw.constant 15 : i16
    %amount = comb.and %b0, %c15 : i16
    %shl = comb.shl %a0, %amount : i16
    %shru = comb.shru %a0, %b0 : i16
    %shrs = comb.shrs %a0, %amount : i16
    pipeline.stage ^bb1
  ^bb1(%s1_enable : i1):
    %shl1 = pipeline.src %shl : i16
    %shru1 = pipeline.src %shru : i16
    %shrs1 = pipeline.src %shrs : i16
    %a1 = pipeline.src %a0 : i16
    %b1 = pipeline.src %b0 : i16
    %c1 = pipeline.src %c0 : i1
    %m = comb.mux %c1, %shl1, %shru1 : i16
    %hi = comb.extract %a1 from 8 : (i16) -> i8
    %bit = comb.extract %b1 from 15 : (i16) -> i1
    %rep = comb.replicate %hi : (i8) -> i16
    %par = comb.parity %b1 : i16
    %x = comb.xor bin %m, %shrs1, %rep : i16
    %o = comb.or %x, %a1 : i16
    %neg = hw.constant -1 : i6
    %top = comb.concat %neg, %par, %bit : i6, i1, i1
    %bits_0 = comb.concat %top, %o, %hi : i8, i16, i8
    %addi = arith.addi %a1, %b1 : i16
    %subi = arith.subi %a1, %b1 : i16
    %muli = arith.muli %a1, %b1 : i16
    %andi = arith.andi %addi, %muli : i16
    %ori = arith.ori %andi, %subi : i16
    %xori = arith.xori %ori, %a1 : i16
    %k = arith.constant 300 : i16
    %cmp = arith.cmpi sge, %xori, %k : i16
    %sel = arith.select %cmp, %xori, %subi : i16
    %ext = arith.extsi %hi : i8 to i32
    %extu = arith.extui %bit : i1 to i8
    %tr = arith.trunci %sel : i16 to i8
    %arith_0 = comb.concat %ext, %extu, %tr, %sel : i32, i8, i8, i16
    pipeline.stage ^bb2
  ^bb2(%s2_enable : i1):
    %division2 = pipeline.src %division_0 : i64
    %compares2 = pipeline.src %compares_0 : i10
    %bits2 = pipeline.src %bits_0 : i32
    %arith2 = pipeline.src %arith_0 : i64
    pipeline.return %division2, %compares2, %bits2, %arith2 : i64, i10, i32, i64
  }
  %zero = hw.constant 0 : i16
  %acc_next = comb.add %acc, %a : i16
  %acc = seq.compreg %acc_next, %clk : i16
  %cnt_next = comb.sub %cnt, %b : i16
  %cnt = seq.compreg sym @cnt %cnt_next, %clk reset %rst, %zero : i16
  %hold = seq.compreg.ce %a, %clk, %en : i16
  %hold_r = seq.compreg.ce %b, %clk, %en reset %rst, %zero : i16
  %regs = comb.concat %acc, %cnt, %hold : i16, i16, i16
  %spare = comb.add %hold_r, %hold_r : i16
  hw.output %division, %compares, %bits, %arith, %regs, %done : i64, i10, i32, i64, i48, i1
}

// No pipeline at all: registers and logic of the module body alone.
hw.module @no_pipeline(in %a : i8, in %clk : !seq.clock, in %rst : i1, out count : i8, out last : i8) {
  %one = hw.constant 1 : i8
  %zero = hw.constant 0 : i8
  %next = comb.add %count, %one : i8
  %count = seq.compreg %next, %clk reset %rst, %zero : i8
  %last = seq.compreg %mixed, %clk : i8
  %mixed = comb.xor %a, %count : i8
  hw.output %count, %last : i8, i8
}
