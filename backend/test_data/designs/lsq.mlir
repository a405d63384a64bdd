// Dynamatic's load-store queue (`lsq`), in Dynamatic's syntax. Every load of an LSQ sees the
// stores before it in the order its groups were allocated and, within a group, in program order
// (the RTL lets accesses overtake or forwards store data, see `hsir_lsq` in rtl/README.md; the
// interpreter runs them in that order), so every function here has one right answer that the
// interpreter and the RTL must both give under random stalls.
//
// One token per argument: these are Dynamatic-style circuits, whose loops are not re-entrant.

// Two groups in a straight line on one memory. Group 0 stores `d` at `x`, loads `x` back
// (read-after-write in a group: it must see `d`), loads `x ^ 1`, then stores `y + 1` there
// (write-after-read in a group: the load must see the old word). Group 1 loads `x` (read after
// group 0's store) and stores `w + z` at `x` (write after group 0's loads). Group 1's allocation
// token is the start token passed through a buffer after a `lazy_fork`, so it comes after
// group 0's.
// hsir-sim: tokens=1
handshake.func @raw_war(%mem: memref<8xi32>, %x: !handshake.channel<i32>, %d: !handshake.channel<i32>, %mem_start: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>, !handshake.control<>) attributes {argNames = ["mem", "x", "d", "mem_start", "start"], resNames = ["y", "z", "w", "mem_end", "end"]} {
  %q:4 = lsq[%mem : memref<8xi32>] (%mem_start, %s#0, %st0_a, %st0_d, %ld0_a, %ld1_a, %st1_a, %st1_d, %g1, %ld2_a, %st2_a, %st2_d, %s#2) {groupSizes = [4 : i32, 2 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i3>, !handshake.channel<i32>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<i32>, !handshake.control<>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>)
  %s:4 = fork [4] %start : <>
  %g1 = join %zf#2, %s#1 : <i32>, <>
  %xs:6 = fork [6] %x : <i32>
  %a0 = trunci %xs#0 : <i32> to <i3>
  %a1 = trunci %xs#1 : <i32> to <i3>
  %src = source : <>
  %one = constant %src {value = 1 : i32} : <>, <i32>
  %ones:2 = fork [2] %one : <i32>
  %xo:2 = fork [2] %xs#2 : <i32>
  %flip = xori %xo#0, %ones#0 : <i32>
  %ff:2 = fork [2] %flip : <i32>
  %a2 = trunci %ff#0 : <i32> to <i3>
  %a3 = trunci %ff#1 : <i32> to <i3>
  %a4 = trunci %xs#3 : <i32> to <i3>
  %a5 = trunci %xs#4 : <i32> to <i3>
  sink %xo#1 : <i32>
  sink %xs#5 : <i32>
  %st0_a, %st0_d = store[%a0] %d {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  %ld0_a, %y = load[%a1] %q#0 {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  %ld1_a, %z = load[%a2] %q#1 {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  %yf:2 = fork [2] %y : <i32>
  %y1 = addi %yf#0, %ones#1 : <i32>
  %st1_a, %st1_d = store[%a3] %y1 {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  %ld2_a, %w = load[%a4] %q#2 {handshake.mem_interface = #handshake.mem_interface<LSQ: 1>} : <i3>, <i32>, <i3>, <i32>
  %zf:3 = fork [3] %z : <i32>
  %wf:2 = fork [2] %w : <i32>
  %wz = addi %wf#0, %zf#0 : <i32>
  %st2_a, %st2_d = store[%a5] %wz {handshake.mem_interface = #handshake.mem_interface<LSQ: 1>} : <i3>, <i32>, <i3>, <i32>
  end %yf#1, %zf#1, %wf#1, %q#3, %s#3 : <i32>, <i32>, <i32>, <>, <>
}

// A loop whose group reads what the previous iteration's group wrote:
// `for (i = 0; i < n; i++) a[i + 1] = a[i] + k;` (read after write across groups; the index
// wraps at 8).
// hsir-sim: tokens=1 n=0..9 k=-50..50
handshake.func @prefix(%mem: memref<8xi32>, %n: !handshake.channel<i32>, %k: !handshake.channel<i32>, %mem_start: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) attributes {argNames = ["mem", "n", "k", "mem_start", "start"], resNames = ["mem_end", "end"]} {
  %ld_data, %mem_end = lsq[%mem : memref<8xi32>] (%mem_start, %cb#0, %ld_addr, %st_addr, %st_data, %ctrl_end) {groupSizes = [2 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  %s:2 = fork [2] %start : <>
  %zero = constant %s#0 {value = 0 : i32} : <>, <i32>
  %ctrl, %index = control_merge [%s#1, %ctrl_back] : [<>, <>] to <>, <i1>
  %ix:3 = fork [3] %index : <i1>
  %i = mux %ix#0 [%zero, %i_back] : <i1>, [<i32>, <i32>] to <i32>
  %nn = mux %ix#1 [%n, %n_back] : <i1>, [<i32>, <i32>] to <i32>
  %kk = mux %ix#2 [%k, %k_back] : <i1>, [<i32>, <i32>] to <i32>
  %ib = buffer %i, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %if:2 = fork [2] %ib : <i32>
  %nf:2 = fork [2] %nn : <i32>
  %more = cmpi slt, %if#0, %nf#0 : <i32>
  %mf:4 = fork [4] %more : <i1>
  %i_t, %i_f = cond_br %mf#0, %if#1 : <i1>, <i32>
  %n_t, %n_f = cond_br %mf#1, %nf#1 : <i1>, <i32>
  %k_t, %k_f = cond_br %mf#2, %kk : <i1>, <i32>
  %c_t, %c_f = cond_br %mf#3, %ctrl : <i1>, <>
  // The body: a[i + 1] = a[i] + k.
  %it:3 = fork [3] %i_t : <i32>
  %src = source : <>
  %one = constant %src {value = 1 : i32} : <>, <i32>
  %ones:2 = fork [2] %one : <i32>
  %a1 = trunci %it#0 : <i32> to <i3>
  %next = addi %it#1, %ones#0 : <i32>
  %a2 = trunci %next : <i32> to <i3>
  %ld_addr, %x = load[%a1] %ld_data {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  %kt:2 = fork [2] %k_t : <i32>
  %y = addi %x, %kt#0 : <i32>
  %st_addr, %st_data = store[%a2] %y {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  %cb:2 = fork [2] %c_t : <>
  %i_next = addi %it#2, %ones#1 : <i32>
  %i_back = buffer %i_next, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %n_slot = buffer %n_t, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  %n_back = buffer %n_slot, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %k_slot = buffer %kt#1, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  %k_back = buffer %k_slot, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %ctrl_back = buffer %cb#1, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <>
  // The exit.
  sink %i_f : <i32>
  sink %n_f : <i32>
  sink %k_f : <i32>
  %e:2 = fork [2] %c_f : <>
  %ctrl_end = br %e#0 : <>
  end %mem_end, %e#1 : <>, <>
}

// Dynamatic's histogram kernel (corpus: histogram-7-17__handshake_transformed.mlir) rebuilt
// with integer weights (`addi` for its `addf`), and a second LSQ counting the hits:
// `for (i = 0; i < n; i++) { hist[feature[i]] += weight[i]; cnt[feature[i]] += 1; }`.
// `feature` and `weight` are read through `mem_controller`s; `hist` and `cnt` through LSQs whose
// one group (load, then store of the same word) is allocated by the same forked control token
// each iteration. Features take 8 values, so iterations hit the same word often (read after
// write across groups).
// hsir-sim: tokens=1 n=0..10 feature=0..7 weight=-1000..1000
handshake.func @histogram_int(%feature: memref<8xi32>, %weight: memref<8xi32>, %hist: memref<8xi32>, %cnt: memref<8xi32>, %n: !handshake.channel<i32>, %f_start: !handshake.control<>, %w_start: !handshake.control<>, %h_start: !handshake.control<>, %c_start: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>, !handshake.control<>, !handshake.control<>, !handshake.control<>) attributes {argNames = ["feature", "weight", "hist", "cnt", "n", "f_start", "w_start", "h_start", "c_start", "start"], resNames = ["f_end", "w_end", "h_end", "c_end", "end"]} {
  %s:2 = fork [2] %start : <>
  %hl:2 = lsq[%hist : memref<8xi32>] (%h_start, %body#0, %h_ld_a, %h_st_a, %h_st_d, %exit#2) {groupSizes = [2 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  %cl:2 = lsq[%cnt : memref<8xi32>] (%c_start, %body#2, %c_ld_a, %c_st_a, %c_st_d, %exit#3) {groupSizes = [2 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  %w_out, %w_end = mem_controller[%weight : memref<8xi32>] %w_start (%w_a) %exit#1 {connectedBlocks = [2 : i32]} : (!handshake.channel<i3>) -> !handshake.channel<i32>
  %f_out, %f_end = mem_controller[%feature : memref<8xi32>] %f_start (%f_a) %exit#0 {connectedBlocks = [2 : i32]} : (!handshake.channel<i3>) -> !handshake.channel<i32>
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
  %fa = trunci %it#0 : <i32> to <i3>
  %wa = trunci %it#1 : <i32> to <i3>
  %f_a, %fv = load[%fa] %f_out {handshake.mem_interface = #handshake.mem_interface<MC>} : <i3>, <i32>, <i3>, <i32>
  %w_a, %wv = load[%wa] %w_out {handshake.mem_interface = #handshake.mem_interface<MC>} : <i3>, <i32>, <i3>, <i32>
  %ff:4 = fork [4] %fv : <i32>
  %ha1 = trunci %ff#0 : <i32> to <i3>
  %ha2 = trunci %ff#1 : <i32> to <i3>
  %ca1 = trunci %ff#2 : <i32> to <i3>
  %ca2 = trunci %ff#3 : <i32> to <i3>
  %h_ld_a, %hv = load[%ha1] %hl#0 {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  %hsum = addi %hv, %wv : <i32>
  %h_st_a, %h_st_d = store[%ha2] %hsum {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  %c_ld_a, %cv = load[%ca1] %cl#0 {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  %src = source : <>
  %one = constant %src {value = 1 : i32} : <>, <i32>
  %ones:2 = fork [2] %one : <i32>
  %csum = addi %cv, %ones#0 : <i32>
  %c_st_a, %c_st_d = store[%ca2] %csum {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>, <i3>, <i32>
  %body:3 = fork [3] %c_t : <>
  %i_next = addi %it#2, %ones#1 : <i32>
  %i_back = buffer %i_next, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %n_slot = buffer %n_t, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  %n_back = buffer %n_slot, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %ctrl_back = buffer %body#1, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <>
  // The exit.
  sink %i_f : <i32>
  sink %n_f : <i32>
  %exit:5 = fork [5] %c_f : <>
  end %f_end, %w_end, %hl#1, %cl#1, %exit#4 : <>, <>, <>, <>, <>
}
