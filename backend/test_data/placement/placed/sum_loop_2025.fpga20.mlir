// `sum_loop.mlir` as Dynamatic 2025 wrote it (a mux with one data type, a control_merge without
// brackets): placement writes its buffers in that era's form, `NUM_SLOTS` and `TIMING` without
// `BUFFER_TYPE`, which Dynamatic 2025's RTL backend read, and reads them back as placed.

// hsir-place: fpga20
// hsir-expect: theta=0.5

// hsir-sim: tokens=1 n=0..10 k=-20..20
handshake.func @sum_loop_2025(%n: !handshake.channel<i32>, %k: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["n", "k", "start"], resNames = ["sum", "end"]} {
  %s:3 = fork [3] %start : <>
  %zero_i = constant %s#0 {value = 0 : i32} : <>, <i32>
  %zero_sum = constant %s#1 {value = 0 : i32} : <>, <i32>
  %ctrl, %index = control_merge %s#2, %buf0 : <>, <i1>
  %buf1 = buffer %index {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i1>
  %buf14 = buffer %ctrl {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {R: 1}>}} : <>
  %buf15 = buffer %buf14 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <>
  %ix:4 = fork [4] %buf1 : <i1>
  %buf3 = buffer %ix#1 {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i1>
  %i = mux %ix#0 [%zero_i, %buf2] : <i1>, <i32>
  %buf6 = buffer %i {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %buf7 = buffer %buf6 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %sum = mux %buf3 [%zero_sum, %sum_next] : <i1>, <i32>
  %buf11 = buffer %sum {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %nn = mux %ix#2 [%n, %buf4] : <i1>, <i32>
  %buf8 = buffer %nn {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %buf9 = buffer %buf8 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %kk = mux %ix#3 [%k, %buf5] : <i1>, <i32>
  %buf12 = buffer %kk {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %buf13 = buffer %buf12 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %if:2 = fork [2] %buf7 : <i32>
  %nf:2 = fork [2] %buf9 : <i32>
  %more = cmpi slt, %if#0, %nf#0 : <i32>
  %mf:5 = fork [5] %more : <i1>
  %buf10 = buffer %mf#1 {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i1>
  %i_t, %i_f = cond_br %mf#0, %if#1 : <i1>, <i32>
  %sum_t, %sum_f = cond_br %buf10, %buf11 : <i1>, <i32>
  %buf16 = buffer %sum_t {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %buf17 = buffer %buf16 {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %n_t, %n_f = cond_br %mf#2, %nf#1 : <i1>, <i32>
  %buf4 = buffer %n_t {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %k_t, %k_f = cond_br %mf#3, %buf13 : <i1>, <i32>
  %c_t, %c_f = cond_br %mf#4, %buf15 : <i1>, <>
  %buf0 = buffer %c_t {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <>
  // The body.
  %it:2 = fork [2] %i_t : <i32>
  %kt:2 = fork [2] %k_t : <i32>
  %buf5 = buffer %kt#1 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %ik = muli %it#0, %kt#0 : <i32>
  %sum_next = addi %buf17, %ik : <i32>
  %src = source : <>
  %one = constant %src {value = 1 : i32} : <>, <i32>
  %i_next = addi %it#1, %one : <i32>
  %buf2 = buffer %i_next {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  // The exit.
  sink %i_f : <i32>
  sink %n_f : <i32>
  sink %k_f : <i32>
  end %sum_f, %c_f : <i32>, <>
}
