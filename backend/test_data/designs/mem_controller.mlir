// Dynamatic's `mem_controller` in a loop, in Dynamatic's syntax: `for (i = 0; i < n; i++)
// a[i] += k;` on the memref argument `mem`. The loop is built as loop_kernel.mlir's; the body
// loads `a[i]`, adds `k` and stores it back, and announces its one store to the memory
// controller with a constant store count. The exit's control token is the controller's
// `ctrlEnd`; `mem_end` comes once every announced store was written. A load never meets a
// store of its own address (each address is loaded before it is stored, once).
//
// One token per argument, as loop_kernel.mlir.

// hsir-sim: tokens=1 n=0..8 k=-50..50
handshake.func @increment(%mem: memref<8xi32>, %n: !handshake.channel<i32>, %k: !handshake.channel<i32>, %mem_start: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) attributes {argNames = ["mem", "n", "k", "mem_start", "start"], resNames = ["mem_end", "end"]} {
  %ld_data, %mem_end = mem_controller [%mem : memref<8xi32>] %mem_start (%count, %ld_addr, %st_addr, %st_data) %ctrl_end {connectedBlocks = [1 : i32]} : (!handshake.channel<i32>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<i32>) -> !handshake.channel<i32>
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
  // The body: a[i] = a[i] + k.
  %it:3 = fork [3] %i_t : <i32>
  %a1 = trunci %it#0 : <i32> to <i3>
  %a2 = trunci %it#1 : <i32> to <i3>
  %ld_addr, %x = load [%a1] %ld_data : <i3>, <i32>, <i3>, <i32>
  %kt:2 = fork [2] %k_t : <i32>
  %y = addi %x, %kt#0 : <i32>
  %st_addr, %st_data = store [%a2] %y : <i3>, <i32>, <i3>, <i32>
  %cb:2 = fork [2] %c_t : <>
  %count = constant %cb#0 {value = 1 : i32} : <>, <i32>
  %src = source : <>
  %one = constant %src {value = 1 : i32} : <>, <i32>
  %i_next = addi %it#2, %one : <i32>
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
