// A loop with no buffers, in Dynamatic's syntax: `sum = 0; for (i = 0; i < n; i++) sum += i * k;`
// (the design `designs/loop_kernel.mlir` with its buffers taken out). Every cycle through the
// control_merge and the muxes is combinational until placement breaks it.

// hsir-place: fpga20
// hsir-expect: theta=0.5
// hsir-place: fpl22 nodes=300
// hsir-place: fpga20 period=100
// hsir-expect: theta=1

// hsir-sim: tokens=1 n=0..10 k=-20..20
// expected-warning @+1 {{HS6003: the MILP of the region 0 stopped at its 300-node limit}}
handshake.func @sum_loop(%n: !handshake.channel<i32>, %k: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["n", "k", "start"], resNames = ["sum", "end"]} {
  %s:3 = fork [3] %start : <>
  %zero_i = constant %s#0 {value = 0 : i32} : <>, <i32>
  %zero_sum = constant %s#1 {value = 0 : i32} : <>, <i32>
  %ctrl, %index = control_merge [%s#2, %buf0] : [<>, <>] to <>, <i1>
  %buf1 = buffer %index {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i1>
  %buf23 = buffer %ctrl {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <>
  %buf24 = buffer %buf23 {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_NONE", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 0}>}} : <>
  %ix:4 = fork [4] %buf1 : <i1>
  %buf2 = buffer %ix#0 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i1>
  %buf4 = buffer %ix#1 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i1>
  %buf5 = buffer %buf4 {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_NONE", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 0}>}} : <i1>
  %buf7 = buffer %ix#2 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i1>
  %buf9 = buffer %ix#3 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i1>
  %i = mux %buf2 [%zero_i, %buf3] : <i1>, [<i32>, <i32>] to <i32>
  %buf11 = buffer %i {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  %sum = mux %buf5 [%zero_sum, %buf6] : <i1>, [<i32>, <i32>] to <i32>
  %buf19 = buffer %sum {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 1}>}} : <i32>
  %nn = mux %buf7 [%n, %buf8] : <i1>, [<i32>, <i32>] to <i32>
  %buf12 = buffer %nn {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  %kk = mux %buf9 [%k, %buf10] : <i1>, [<i32>, <i32>] to <i32>
  %buf22 = buffer %kk {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 1}>}} : <i32>
  %if:2 = fork [2] %buf11 : <i32>
  %buf13 = buffer %if#0 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  %buf17 = buffer %if#1 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 1}>}} : <i32>
  %nf:2 = fork [2] %buf12 : <i32>
  %buf14 = buffer %nf#0 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  %buf20 = buffer %nf#1 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %more = cmpi slt, %buf13, %buf14 : <i32>
  %buf15 = buffer %more {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 1}>}} : <i1>
  %mf:5 = fork [5] %buf15 : <i1>
  %buf16 = buffer %mf#0 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i1>
  %buf18 = buffer %mf#1 {hw.parameters = {BUFFER_TYPE = "FIFO_BREAK_NONE", NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 0}>}} : <i1>
  %buf21 = buffer %mf#3 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i1>
  %i_t, %i_f = cond_br %buf16, %buf17 : <i1>, <i32>
  %buf25 = buffer %i_t {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  %sum_t, %sum_f = cond_br %buf18, %buf19 : <i1>, <i32>
  %n_t, %n_f = cond_br %mf#2, %buf20 : <i1>, <i32>
  %buf8 = buffer %n_t {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  %k_t, %k_f = cond_br %buf21, %buf22 : <i1>, <i32>
  %buf26 = buffer %k_t {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  %c_t, %c_f = cond_br %mf#4, %buf24 : <i1>, <>
  %buf0 = buffer %c_t {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <>
  // The body.
  %it:2 = fork [2] %buf25 : <i32>
  %kt:2 = fork [2] %buf26 : <i32>
  %buf10 = buffer %kt#1 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 0, V: 0, R: 1}>}} : <i32>
  %ik = muli %it#0, %kt#0 : <i32>
  %sum_next = addi %sum_t, %ik : <i32>
  %buf6 = buffer %sum_next {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 1}>}} : <i32>
  %src = source : <>
  %one = constant %src {value = 1 : i32} : <>, <i32>
  %i_next = addi %it#1, %one : <i32>
  %buf3 = buffer %i_next {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DVR", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 1}>}} : <i32>
  // The exit.
  sink %i_f : <i32>
  sink %n_f : <i32>
  sink %k_f : <i32>
  end %sum_f, %c_f : <i32>, <>
}
