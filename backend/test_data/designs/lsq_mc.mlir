// Dynamatic's LSQ behind a memory controller (`lsq [MC]`, Dynamatic 2025's syntax, as
// `@memAddrOptMasterSlave` in the corpus): the LSQ orders its group's accesses and sends them
// through the `mem_controller`'s ports (a load address whose data comes back, a store address
// and data), while the controller also serves a store of its own. The controller's store count
// per iteration (2) includes the LSQ's store. The interpreter and the RTL must agree under
// random stalls.
//
// `for (i = 0; i < n; i++) { a[i + 1] = a[i] + k; a[i + 8] = i; }`: the first statement goes
// through the LSQ (read after write across iterations), the second straight to the controller.
// hsir-sim: tokens=1 n=0..7 k=-50..50
handshake.func @prefix_mc(%mem: memref<16xi32>, %n: !handshake.channel<i32>, %k: !handshake.channel<i32>, %mem_start: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) attributes {argNames = ["mem", "n", "k", "mem_start", "start"], resNames = ["mem_end", "end"]} {
  %to_lsq, %mem_end = mem_controller[%mem : memref<16xi32>] %mem_start (%count, %st2_addr, %st2_data, %mc_ld_addr, %mc_st_addr, %mc_st_data) %ctrl_end {connectedBlocks = [1 : i32]} : (!handshake.channel<i32>, !handshake.channel<i4>, !handshake.channel<i32>, !handshake.channel<i4>, !handshake.channel<i4>, !handshake.channel<i32>) -> !handshake.channel<i32>
  %ld_data, %mc_ld_addr, %mc_st_addr, %mc_st_data = lsq[MC] (%cb#0, %ld_addr, %st_addr, %st_data, %to_lsq) {groupSizes = [2 : i32]} : (!handshake.control<>, !handshake.channel<i4>, !handshake.channel<i4>, !handshake.channel<i32>, !handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.channel<i4>, !handshake.channel<i4>, !handshake.channel<i32>)
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
  // The body: a[i + 1] = a[i] + k through the LSQ; a[i + 8] = i straight to the controller.
  %it:5 = fork [5] %i_t : <i32>
  %src = source : <>
  %srcs:2 = fork [2] %src : <>
  %one = constant %srcs#0 {value = 1 : i32} : <>, <i32>
  %ones:2 = fork [2] %one : <i32>
  %eight = constant %srcs#1 {value = 8 : i32} : <>, <i32>
  %a1 = trunci %it#0 : <i32> to <i4>
  %next = addi %it#1, %ones#0 : <i32>
  %a2 = trunci %next : <i32> to <i4>
  %ld_addr, %x = load[%a1] %ld_data {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i4>, <i32>, <i4>, <i32>
  %kt:2 = fork [2] %k_t : <i32>
  %y = addi %x, %kt#0 : <i32>
  %st_addr, %st_data = store[%a2] %y {handshake.mem_interface = #handshake.mem_interface<LSQ: 0>} : <i4>, <i32>, <i4>, <i32>
  %far = addi %it#3, %eight : <i32>
  %a3 = trunci %far : <i32> to <i4>
  %st2_addr, %st2_data = store[%a3] %it#4 {handshake.mem_interface = #handshake.mem_interface<MC>} : <i4>, <i32>, <i4>, <i32>
  %cb:3 = fork [3] %c_t : <>
  %count = constant %cb#2 {value = 2 : i32} : <>, <i32>
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
