// Dynamatic 2024's load-store queue: `for (i = 0; i < n; i++) a[i + 1] = a[i] + k;` as
// lsq.mlir's `@prefix`, written the way Dynamatic wrote it in July 2024: an `lsq` without
// `memStart` / `ctrlEnd` (its operands are the groups alone, each its control token then its
// accesses in program order) whose last result is its done token, `lsq_load[%a] %d : <Ta>, <Td>`
// and `lsq_store[%a] %d : <Td>, <Ta>` (the data type first), `oehb [N]` / `tehb [N]` buffers,
// `constant %c {value} : <T>`, `source` without a type, and `end` taking the function's result
// (through `return`) and then the LSQ's done token. The function has no memory ports.
//
// The one group loads `a[i]` and then stores `a[i + 1]`: the next iteration's load reads what
// this iteration's store writes (read after write across groups; the index wraps at 8), so the
// queue's order decides every word. A 2024 `lsq`'s done token is offered while no access its
// allocated groups announced is still to be done; `end` passes the result once it is offered.
// One token per argument, as loop_kernel.mlir.

// hsir-sim: tokens=1 n=0..9 k=-50..50
handshake.func @prefix_2024(%mem: memref<8xi32>, %n: !handshake.channel<i32>, %k: !handshake.channel<i32>, %start: !handshake.control<>, ...) -> !handshake.control<> attributes {argNames = ["mem", "n", "k", "start"], resNames = ["end"]} {
  %ld_data, %done = lsq[%mem : memref<8xi32>] (%cb#0, %ld_addr, %st_addr, %st_data) {groupSizes = [2 : i32]} : (!handshake.control<>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.control<>)
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
  // The body: a[i + 1] = a[i] + k, one LSQ group.
  %it:3 = fork [3] %i_t : <i32>
  %src = source
  %one = constant %src {value = 1 : i32} : <i32>
  %ones:2 = fork [2] %one : <i32>
  %a1 = trunci %it#0 : <i32> to <i3>
  %next = addi %it#1, %ones#0 : <i32>
  %a2 = trunci %next : <i32> to <i3>
  %ld_addr, %x = lsq_load[%a1] %ld_data {mem_interface = #handshake.mem_interface<LSQ: 0>} : <i3>, <i32>
  %kt:2 = fork [2] %k_t : <i32>
  %y = addi %x, %kt#0 : <i32>
  %st_addr, %st_data = lsq_store[%a2] %y {mem_interface = #handshake.mem_interface<LSQ: 0>} : <i32>, <i3>
  %cb:2 = fork [2] %c_t : <>
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
  end %ret, %done : <>, <>
}
