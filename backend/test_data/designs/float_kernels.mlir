// Floating-point kernels in Dynamatic's syntax, built as loop_kernel.mlir and
// mem_controller.mlir are, with the float units' pipelines inside the loops.

// `for (i = 0; i < n; i++) { x = a[i]; a[i] = x >= 1.0 ? 1.0 : x * (x * x + 19.52) * x + 3.7)
// * x; }` on an f32 memory, the shape of Dynamatic's get_tanh kernel with a memory controller
// instead of an LSQ (each address is loaded before it is stored, once). The words are about 0.2
// to 4.0, so both sides of the comparison occur. The polynomial is a chain of pipelined units
// (mulf 2 cycles, addf 6); the comparison is combinational and `select` waits for both sides.
// hsir-sim: tokens=1 n=8 mem=1045220557..1082130432
handshake.func @tanh_like(%mem: memref<8xf32>, %n: !handshake.channel<i32>, %mem_start: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) attributes {argNames = ["mem", "n", "mem_start", "start"], resNames = ["mem_end", "end"]} {
  %ld_data, %mem_end = mem_controller [%mem : memref<8xf32>] %mem_start (%count, %ld_addr, %st_addr, %st_data) %ctrl_end {connectedBlocks = [1 : i32]} : (!handshake.channel<i32>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<f32>) -> !handshake.channel<f32>
  %s:2 = fork [2] %start : <>
  %zero = constant %s#0 {value = 0 : i32} : <>, <i32>
  %ctrl, %index = control_merge [%s#1, %ctrl_back] : [<>, <>] to <>, <i1>
  %ix:2 = fork [2] %index : <i1>
  %i = mux %ix#0 [%zero, %i_back] : <i1>, [<i32>, <i32>] to <i32>
  %nn = mux %ix#1 [%n, %n_back] : <i1>, [<i32>, <i32>] to <i32>
  %ib = buffer %i, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %if:2 = fork [2] %ib : <i32>
  %nf:2 = fork [2] %nn : <i32>
  %more = cmpi slt, %if#0, %nf#0 : <i32>
  %mf:3 = fork [3] %more : <i1>
  %i_t, %i_f = cond_br %mf#0, %if#1 : <i1>, <i32>
  %n_t, %n_f = cond_br %mf#1, %nf#1 : <i1>, <i32>
  %c_t, %c_f = cond_br %mf#2, %ctrl : <i1>, <>
  // The body.
  %it:3 = fork [3] %i_t : <i32>
  %a1 = trunci %it#0 : <i32> to <i3>
  %a2 = trunci %it#1 : <i32> to <i3>
  %ld_addr, %x = load [%a1] %ld_data : <i3>, <f32>, <i3>, <f32>
  %xf:5 = fork [5] %x : <f32>
  %src1 = source : <>
  %one_c = constant %src1 {value = 1.000000e+00 : f32} : <>, <f32>
  %one_s = source : <>
  %one_y = constant %one_s {value = 1.000000e+00 : f32} : <>, <f32>
  %src2 = source : <>
  %c19 = constant %src2 {value = 19.5238094 : f32} : <>, <f32>
  %src3 = source : <>
  %c3 = constant %src3 {value = 3.70476198 : f32} : <>, <f32>
  %big = cmpf oge, %xf#0, %one_c : <f32>
  %xx = mulf %xf#1, %xf#2 : <f32>
  %p1 = addf %xx, %c19 : <f32>
  %p2 = mulf %p1, %xf#3 : <f32>
  %p3 = addf %p2, %c3 : <f32>
  %poly = mulf %p3, %xf#4 : <f32>
  %y = select %big [%one_y, %poly] : <i1>, <f32>
  %st_addr, %st_data = store [%a2] %y : <i3>, <f32>, <i3>, <f32>
  %cb:2 = fork [2] %c_t : <>
  %count = constant %cb#0 {value = 1 : i32} : <>, <i32>
  %src4 = source : <>
  %step = constant %src4 {value = 1 : i32} : <>, <i32>
  %i_next = addi %it#2, %step : <i32>
  %i_back = buffer %i_next, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %n_slot = buffer %n_t, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  %n_back = buffer %n_slot, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %ctrl_back = buffer %cb#1, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <>
  // The exit.
  sink %i_f : <i32>
  sink %n_f : <i32>
  %e:2 = fork [2] %c_f : <>
  %ctrl_end = br %e#0 : <>
  end %mem_end, %e#1 : <>, <>
}

// `sum = 0.0; for (i = 0; i < n; i++) sum += (double)i * k; return sum / n;` in f64: the
// loop-carried sum goes through a 12-cycle adder, whose stages are the cycle's slots; sitofp
// (5 cycles) and mulf (6) feed it, and a 63-cycle divider ends it. `k` is between 1 and 10.
// hsir-sim: tokens=1 n=3..9 k=4607182418800017408..4621819117588971520
handshake.func @mean_of_multiples(%n: !handshake.channel<i32>, %k: !handshake.channel<f64>, %start: !handshake.control<>) -> (!handshake.channel<f64>, !handshake.control<>) attributes {argNames = ["n", "k", "start"], resNames = ["mean", "end"]} {
  %s:3 = fork [3] %start : <>
  %zero_i = constant %s#0 {value = 0 : i32} : <>, <i32>
  %zero_sum = constant %s#1 {value = 0.000000e+00 : f64} : <>, <f64>
  %ctrl, %index = control_merge [%s#2, %ctrl_back] : [<>, <>] to <>, <i1>
  %ix:4 = fork [4] %index : <i1>
  %i = mux %ix#0 [%zero_i, %i_back] : <i1>, [<i32>, <i32>] to <i32>
  %sum = mux %ix#1 [%zero_sum, %sum_back] : <i1>, [<f64>, <f64>] to <f64>
  %nn = mux %ix#2 [%n, %n_back] : <i1>, [<i32>, <i32>] to <i32>
  %kk = mux %ix#3 [%k, %k_back] : <i1>, [<f64>, <f64>] to <f64>
  %ib = buffer %i, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %if:2 = fork [2] %ib : <i32>
  %nf:2 = fork [2] %nn : <i32>
  %more = cmpi slt, %if#0, %nf#0 : <i32>
  %mf:5 = fork [5] %more : <i1>
  %i_t, %i_f = cond_br %mf#0, %if#1 : <i1>, <i32>
  %sum_t, %sum_f = cond_br %mf#1, %sum : <i1>, <f64>
  %n_t, %n_f = cond_br %mf#2, %nf#1 : <i1>, <i32>
  %k_t, %k_f = cond_br %mf#3, %kk : <i1>, <f64>
  %c_t, %c_f = cond_br %mf#4, %ctrl : <i1>, <>
  // The body.
  %it:2 = fork [2] %i_t : <i32>
  %kt:2 = fork [2] %k_t : <f64>
  %fi = sitofp %it#0 : <i32> to <f64>
  %ik = mulf %fi, %kt#0 : <f64>
  %sum_next = addf %sum_t, %ik : <f64>
  %src = source : <>
  %one = constant %src {value = 1 : i32} : <>, <i32>
  %i_next = addi %it#1, %one : <i32>
  %i_back = buffer %i_next, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %sum_back = buffer %sum_next, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <f64>
  %n_slot = buffer %n_t, bufferType = FIFO_BREAK_DV, numSlots = 2 : <i32>
  %n_back = buffer %n_slot, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %k_slot = buffer %kt#1, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <f64>
  %k_back = buffer %k_slot, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <f64>
  %ctrl_back = buffer %c_t, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <>
  // The exit: the mean.
  sink %i_f : <i32>
  sink %k_f : <f64>
  %count = sitofp %n_f : <i32> to <f64>
  %mean = divf %sum_f, %count : <f64>
  end %mean, %c_f : <f64>, <>
}
