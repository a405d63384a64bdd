// A buffered loop kernel in Dynamatic's Handshake syntax: `sum = 0; for (i = 0; i < n; i++)
// sum += i; return sum;`. A control_merge picks the entry or the back edge; muxes keyed by its
// index carry `i`, `sum` and `n` around the loop; cond_brs on `i < n` split them between the
// body and the exit. Every cycle has a buffer that breaks data and valid and one that breaks
// ready, and room for its one token to move.
// hsir-sim: tokens=1 n=0..12
handshake.func @accumulate(%n: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["n", "start"], resNames = ["sum", "end"]} {
  %starts:3 = fork [3] %start : <>
  %zero_i = constant %starts#0 {value = 0 : i32} : <>, <i32>
  %zero_sum = constant %starts#1 {value = 0 : i32} : <>, <i32>
  %ctrl, %index = control_merge [%starts#2, %ctrl_back] : [<>, <>] to <>, <i1>
  %ix:3 = fork [3] %index : <i1>
  %i = mux %ix#0 [%zero_i, %i_back] : <i1>, [<i32>, <i32>] to <i32>
  %sum = mux %ix#1 [%zero_sum, %sum_back] : <i1>, [<i32>, <i32>] to <i32>
  %bound = mux %ix#2 [%n, %n_back] : <i1>, [<i32>, <i32>] to <i32>
  %ib = buffer %i, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %is:2 = fork [2] %ib : <i32>
  %bs:2 = fork [2] %bound : <i32>
  %more = cmpi slt, %is#0, %bs#0 : <i32>
  %m:4 = fork [4] %more : <i1>
  %i_t, %i_f = cond_br %m#0, %is#1 : <i1>, <i32>
  %sum_t, %sum_f = cond_br %m#1, %sum : <i1>, <i32>
  %n_t, %n_f = cond_br %m#2, %bs#1 : <i1>, <i32>
  %c_t, %c_f = cond_br %m#3, %ctrl : <i1>, <>
  // The body: sum += i; i += 1.
  %it:2 = fork [2] %i_t : <i32>
  %sum_next = addi %sum_t, %it#0 : <i32>
  %src = source : <>
  %one = constant %src {value = 1 : i32} : <>, <i32>
  %i_next = addi %it#1, %one : <i32>
  %i_back = buffer %i_next, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1, dvLatency = 1 : <i32>
  %sum_slot = buffer %sum_next, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  %sum_back = buffer %sum_slot, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %n_slot = buffer %n_t, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1, dvLatency = 1 : <i32>
  %n_back = buffer %n_slot, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %ctrl_back = buffer %c_t, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <>
  // The exit.
  sink %i_f : <i32>
  sink %n_f : <i32>
  end %sum_f, %c_f : <i32>, <>
}
