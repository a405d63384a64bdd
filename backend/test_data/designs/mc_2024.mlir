// Dynamatic 2024's syntax: `for (i = 0; i < n; i++) a[i] += k;` as mem_controller.mlir, written
// the way Dynamatic wrote it in July 2024: `mc_load[%a] %d : <Ta>, <Td>` and
// `mc_store[%a] %d : <Td>, <Ta>` (the data type first), a `mem_controller` without
// `memStart` / `ctrlEnd` whose last result is its done token, `oehb [N]` / `tehb [N]` /
// `tfifo [N]` buffers, `constant %c {value} : <T>`, `source` without a type, and `end` taking
// the function's result (through `return`) and then the memory's done token. The function has
// no memory ports: its one result is the `end` control token.
//
// A 2024 `mem_controller`'s done token is offered while no store its store counts announced is
// still to be written; `end` passes the results once it is offered. One token per argument, as
// loop_kernel.mlir.

// hsir-sim: tokens=1 n=3..8 k=-50..50
handshake.func @increment_2024(%mem: memref<8xi32>, %n: !handshake.channel<i32>, %k: !handshake.channel<i32>, %start: !handshake.control<>, ...) -> !handshake.control<> attributes {argNames = ["mem", "n", "k", "start"], resNames = ["end"]} {
  %ld_data, %done = mem_controller[%mem : memref<8xi32>] (%count, %ld_addr, %st_addr, %st_data) {connectedBlocks = [1 : i32]} : (!handshake.channel<i32>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.control<>)
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
  // The body: a[i] = a[i] + k.
  %it:3 = fork [3] %i_t : <i32>
  %a1 = trunci %it#0 : <i32> to <i3>
  %a2 = trunci %it#1 : <i32> to <i3>
  %ld_addr, %x = mc_load[%a1] %ld_data : <i3>, <i32>
  %kt:2 = fork [2] %k_t : <i32>
  %y = addi %x, %kt#0 : <i32>
  %yb = tfifo [2] %y : <i32>
  %st_addr, %st_data = mc_store[%a2] %yb : <i32>, <i3>
  %cb:2 = fork [2] %c_t : <>
  %count = constant %cb#0 {value = 1 : i32} : <i32>
  %src = source
  %one = constant %src {value = 1 : i32} : <i32>
  %i_next = addi %it#2, %one : <i32>
  %i_back = oehb [1] %i_next : <i32>
  %n_slot = oehb [2] %n_t : <i32>
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
