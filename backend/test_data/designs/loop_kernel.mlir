// A buffered loop in Dynamatic's syntax, as Dynamatic builds one: `sum = 0; for (i = 0; i < n;
// i++) sum += i * k;` with the condition checked in the header block. A control_merge picks
// the entry or the back edge, muxes keyed by its index carry `i`, `sum`, `n` and `k` around the
// loop, cond_brs on the condition split every value between the body and the exit, and
// buffers on the back edges break every cycle's data, valid and ready paths. Every cycle holds
// one token and has two slots (a loop whose only slot is full cannot move its token: the slot
// would have to take it back in the cycle it lets it go): a ONE_SLOT_BREAK_DV on `i` with a
// ONE_SLOT_BREAK_R in the header, ONE_SLOT_BREAK_DVR then ONE_SLOT_BREAK_R on `sum`, a two-slot
// FIFO_BREAK_DV then ONE_SLOT_BREAK_R on `n`, FIFO_BREAK_NONE then ONE_SLOT_BREAK_DVR on `k`,
// and on the control, a ONE_SLOT_BREAK_DVR beside the control_merge's own slot. Returns sum(i * k for i < n) =
// k * n(n-1)/2.
//
// One token per argument: the control_merge would see a second invocation's start token while
// the first still loops, and which it takes first would depend on timing.

// hsir-sim: tokens=1 n=0..10 k=-20..20
handshake.func @sum_loop(%n: !handshake.channel<i32>, %k: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["n", "k", "start"], resNames = ["sum", "end"]} {
  %s:3 = fork [3] %start : <>
  %zero_i = constant %s#0 {value = 0 : i32} : <>, <i32>
  %zero_sum = constant %s#1 {value = 0 : i32} : <>, <i32>
  %ctrl, %index = control_merge [%s#2, %ctrl_back] : [<>, <>] to <>, <i1>
  %ix:4 = fork [4] %index : <i1>
  %i = mux %ix#0 [%zero_i, %i_back] : <i1>, [<i32>, <i32>] to <i32>
  %sum = mux %ix#1 [%zero_sum, %sum_back] : <i1>, [<i32>, <i32>] to <i32>
  %nn = mux %ix#2 [%n, %n_back] : <i1>, [<i32>, <i32>] to <i32>
  %kk = mux %ix#3 [%k, %k_back] : <i1>, [<i32>, <i32>] to <i32>
  %ib = buffer %i, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %if:2 = fork [2] %ib : <i32>
  %nf:2 = fork [2] %nn : <i32>
  %more = cmpi slt, %if#0, %nf#0 : <i32>
  %mf:5 = fork [5] %more : <i1>
  %i_t, %i_f = cond_br %mf#0, %if#1 : <i1>, <i32>
  %sum_t, %sum_f = cond_br %mf#1, %sum : <i1>, <i32>
  %n_t, %n_f = cond_br %mf#2, %nf#1 : <i1>, <i32>
  %k_t, %k_f = cond_br %mf#3, %kk : <i1>, <i32>
  %c_t, %c_f = cond_br %mf#4, %ctrl : <i1>, <>
  // The body.
  %it:2 = fork [2] %i_t : <i32>
  %kt:2 = fork [2] %k_t : <i32>
  %ik = muli %it#0, %kt#0 : <i32>
  %sum_next = addi %sum_t, %ik : <i32>
  %src = source : <>
  %one = constant %src {value = 1 : i32} : <>, <i32>
  %i_next = addi %it#1, %one : <i32>
  %i_back = buffer %i_next, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %sum_slot = buffer %sum_next, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  %sum_back = buffer %sum_slot, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %n_slot = buffer %n_t, bufferType = FIFO_BREAK_DV, numSlots = 2 : <i32>
  %n_back = buffer %n_slot, bufferType = ONE_SLOT_BREAK_R, numSlots = 1 : <i32>
  %k_slot = buffer %kt#1, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  %k_back = buffer %k_slot, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <i32>
  %ctrl_back = buffer %c_t, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1 : <>
  // The exit.
  sink %i_f : <i32>
  sink %n_f : <i32>
  sink %k_f : <i32>
  end %sum_f, %c_f : <i32>, <>
}
