// `sum_loop.mlir` as Dynamatic 2024 wrote it (`source` without a type, `constant` with its
// result's type only): placement writes its buffers as that era's `oehb [N]` and `tehb [N]`.

// hsir-place: fpga20
// hsir-expect: theta=0.5

// hsir-sim: tokens=1 n=0..10 k=-20..20
handshake.func @sum_loop_2024(%n: !handshake.channel<i32>, %k: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["n", "k", "start"], resNames = ["sum", "end"]} {
  %s:3 = fork [3] %start : <>
  %zero_i = constant %s#0 {value = 0 : i32} : <i32>
  %zero_sum = constant %s#1 {value = 0 : i32} : <i32>
  %ctrl, %index = control_merge %s#2, %c_t : <>, <i1>
  %ix:4 = fork [4] %index : <i1>
  %i = mux %ix#0 [%zero_i, %i_next] : <i1>, <i32>
  %sum = mux %ix#1 [%zero_sum, %sum_next] : <i1>, <i32>
  %nn = mux %ix#2 [%n, %n_t] : <i1>, <i32>
  %kk = mux %ix#3 [%k, %kt#1] : <i1>, <i32>
  %if:2 = fork [2] %i : <i32>
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
  %src = source
  %one = constant %src {value = 1 : i32} : <i32>
  %i_next = addi %it#1, %one : <i32>
  // The exit.
  sink %i_f : <i32>
  sink %n_f : <i32>
  sink %k_f : <i32>
  end %sum_f, %c_f : <i32>, <>
}
