// Dynamatic 2024's LSQ behind a memory controller, as the CHECK lines of Dynamatic's July 2024
// `CfToHandshake/lsq.mlir` lay it out: `lsq [MC]` and `mem_controller` without `memStart` /
// `ctrlEnd`, each with a done token as its last result, `end` taking the function's result and
// then both done tokens. The kernel is lsq_mc.mlir's: `for (i = 0; i < n; i++) { a[i + 1] =
// a[i] + k; a[i + 8] = i; }`, the first statement through the LSQ (`lsq_load` / `lsq_store`),
// the second straight to the controller (`mc_store`), whose store count per iteration (2)
// includes the LSQ's store. One token per argument, as loop_kernel.mlir.

// hsir-sim: tokens=1 n=3..7 k=-50..50
handshake.func @prefix_mc_2024(%mem: memref<16xi32>, %n: !handshake.channel<i32>, %k: !handshake.channel<i32>, %start: !handshake.control<>, ...) -> !handshake.control<> attributes {argNames = ["mem", "n", "k", "start"], resNames = ["end"]} {
  %to_lsq, %mc_done = mem_controller[%mem : memref<16xi32>] (%count, %st2_addr, %st2_data, %lq#1, %lq#2, %lq#3) {connectedBlocks = [1 : i32]} : (!handshake.channel<i32>, !handshake.channel<i4>, !handshake.channel<i32>, !handshake.channel<i4>, !handshake.channel<i4>, !handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.control<>)
  %lq:4, %lsq_done = lsq[MC] (%cb#0, %ld_addr, %st_addr, %st_data, %to_lsq) {groupSizes = [2 : i32]} : (!handshake.control<>, !handshake.channel<i4>, !handshake.channel<i4>, !handshake.channel<i32>, !handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.channel<i4>, !handshake.channel<i4>, !handshake.channel<i32>, !handshake.control<>)
  %s:2 = fork [2] %start : <>
  %zero = constant %s#0 {value = 0 : i32} : <i32>
  %ctrl, %index = control_merge %s#1, %ctrl_back : <>, <i1>
  %ix:3 = fork [3] %index : <i1>
  %i = mux %ix#0 [%zero, %i_back] : <i1>, <i32>
  %nn = mux %ix#1 [%n, %n_back] : <i1>, <i32>
  %kk = mux %ix#2 [%k, %k_back] : <i1>, <i32>
  %ib = tehb [1] %i : <i32>
  %if:2 = fork [2] %ib : <i32>
  %nf:2 = fork [2] %nn : <i32>
  %more = cmpi slt, %if#0, %nf#0 : <i32>
  %mf:4 = fork [4] %more : <i1>
  %i_t, %i_f = cond_br %mf#0, %if#1 : <i1>, <i32>
  %n_t, %n_f = cond_br %mf#1, %nf#1 : <i1>, <i32>
  %k_t, %k_f = cond_br %mf#2, %kk : <i1>, <i32>
  %c_t, %c_f = cond_br %mf#3, %ctrl : <i1>, <>
  // The body.
  %it:5 = fork [5] %i_t : <i32>
  %src = source
  %srcs:2 = fork [2] %src : <>
  %one = constant %srcs#0 {value = 1 : i32} : <i32>
  %ones:2 = fork [2] %one : <i32>
  %eight = constant %srcs#1 {value = 8 : i32} : <i32>
  %a1 = trunci %it#0 : <i32> to <i4>
  %next = addi %it#1, %ones#0 : <i32>
  %a2 = trunci %next : <i32> to <i4>
  %ld_addr, %x = lsq_load[%a1] %lq#0 {mem_interface = #handshake.mem_interface<LSQ: 0>} : <i4>, <i32>
  %kt:2 = fork [2] %k_t : <i32>
  %y = addi %x, %kt#0 : <i32>
  %st_addr, %st_data = lsq_store[%a2] %y {mem_interface = #handshake.mem_interface<LSQ: 0>} : <i32>, <i4>
  %far = addi %it#3, %eight : <i32>
  %a3 = trunci %far : <i32> to <i4>
  %st2_addr, %st2_data = mc_store[%a3] %it#4 {mem_interface = #handshake.mem_interface<MC>} : <i32>, <i4>
  %cb:3 = fork [3] %c_t : <>
  %count = constant %cb#2 {value = 2 : i32} : <i32>
  %i_next = addi %it#2, %ones#1 : <i32>
  %i_back = oehb [1] %i_next : <i32>
  %n_slot = oehb [1] %n_t : <i32>
  %n_back = tehb [1] %n_slot : <i32>
  %k_slot = oehb [1] %kt#1 : <i32>
  %k_back = tehb [1] %k_slot : <i32>
  %c_slot = oehb [1] %cb#1 : <>
  %ctrl_back = tehb [1] %c_slot : <>
  // The exit.
  sink %i_f : <i32>
  sink %n_f : <i32>
  sink %k_f : <i32>
  %ret = return %c_f : <>
  end %ret, %mc_done, %lsq_done : <>, <>, <>
}
