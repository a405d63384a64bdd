// Dynamatic 2025's syntax: `for (i = 0; i < n; i++) a[i] += k;` as mem_controller.mlir, written
// the way Dynamatic wrote it from August 2024 to early 2025: two-type `load[%a] %d : <Ta>, <Td>`
// and `store[%a] %d : <Ta>, <Td>`, `mux %s [...] : <Ts>, <T>`, `control_merge %a, %b : <>, <Ti>`,
// and buffers as `hw.parameters = {NUM_SLOTS, TIMING}` without `BUFFER_TYPE`, each read as the
// component Dynamatic's RTL backend chose for it: `{D: 1, V: 1, R: 0}` with one slot an opaque
// slot (ONE_SLOT_BREAK_DV), with more an opaque FIFO (FIFO_BREAK_DV); `{R: 1}` with one slot a
// transparent slot (ONE_SLOT_BREAK_R), with more a transparent FIFO (FIFO_BREAK_NONE).
//
// One token per argument, as loop_kernel.mlir.

// hsir-sim: tokens=1 n=3..8 k=-50..50
handshake.func @increment_2025(%mem: memref<8xi32>, %n: !handshake.channel<i32>, %k: !handshake.channel<i32>, %mem_start: !handshake.control<>, %start: !handshake.control<>, ...) -> (!handshake.control<>, !handshake.control<>) attributes {argNames = ["mem", "n", "k", "mem_start", "start"], resNames = ["mem_end", "end"]} {
  %ld_data, %mem_end = mem_controller[%mem : memref<8xi32>] %mem_start (%count, %ld_addr, %st_addr, %st_data) %ctrl_end {connectedBlocks = [1 : i32]} :    (!handshake.channel<i32>, !handshake.channel<i3>, !handshake.channel<i3>, !handshake.channel<i32>) -> !handshake.channel<i32>
  %s:2 = fork [2] %start : <>
  %zero = constant %s#0 {value = 0 : i32} : <>, <i32>
  %ctrl, %index = control_merge %s#1, %ctrl_back : <>, <i1>
  %ix:3 = fork [3] %index : <i1>
  %i = mux %ix#0 [%zero, %i_back] : <i1>, <i32>
  %nn = mux %ix#1 [%n, %n_back] : <i1>, <i32>
  %kk = mux %ix#2 [%k, %k_back] : <i1>, <i32>
  %ib = buffer %i {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
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
  %ld_addr, %x = load[%a1] %ld_data : <i3>, <i32>
  %kt:2 = fork [2] %k_t : <i32>
  %y = addi %x, %kt#0 : <i32>
  %yb = buffer %y {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %st_addr, %st_data = store[%a2] %yb : <i3>, <i32>
  %cb:2 = fork [2] %c_t : <>
  %count = constant %cb#0 {value = 1 : i32} : <>, <i32>
  %src = source : <>
  %one = constant %src {value = 1 : i32} : <>, <i32>
  %i_next = addi %it#2, %one : <i32>
  %i_back = buffer %i_next {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %n_slot = buffer %n_t {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %n_back = buffer %n_slot {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %k_slot = buffer %kt#1 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %k_back = buffer %k_slot {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %c_slot = buffer %cb#1 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <>
  %ctrl_back = buffer %c_slot {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <>
  // The exit.
  sink %i_f : <i32>
  sink %n_f : <i32>
  sink %k_f : <i32>
  %e:2 = fork [2] %c_f : <>
  %ctrl_end = br %e#0 : <>
  end %mem_end, %e#1 : <>, <>
}
