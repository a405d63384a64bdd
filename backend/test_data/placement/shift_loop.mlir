// Halves x until it is 0 (Dynamatic's syntax, no buffers yet). The recurrence on x is
// mux -> cmpi -> cond_br -> shrsi -> mux: 1.117 + 1.544 + 0 + 3.007 = 5.67 ns of logic at 32 bits
// if the shift were a shifter, more than the 4 ns period, so it would need two registers for
// its one token (II 2). A shift by a constant is wiring (Dynamatic's MILPs give it no data
// delay, following the amount through forks, extensions, truncations and buffers): 2.66 ns,
// one register, throughput 1. In @by_value the amount is an argument, a real shifter: 1/2.
// hsir-place: fpga20
// hsir-expect: theta=1,0.5

// hsir-sim: tokens=1 x=0..40
handshake.func @by_constant(%x: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["x", "start"], resNames = ["out0", "end"]} {
  %ctrl, %index = control_merge [%start, %c_t] : [<>, <>] to <>, <i1>
  %v = mux %index [%x, %v_back] : <i1>, [<i32>, <i32>] to <i32>
  %vf:2 = fork [2] %v : <i32>
  %src = source : <>
  %zero = constant %src {value = 0 : i32} : <>, <i32>
  %more = cmpi sgt, %vf#0, %zero : <i32>
  %mf:2 = fork [2] %more : <i1>
  %v_t, %v_f = cond_br %mf#0, %vf#1 : <i1>, <i32>
  %c_t, %c_f = cond_br %mf#1, %ctrl : <i1>, <>
  %src1 = source : <>
  %one = constant %src1 {value = 1 : i8} : <>, <i8>
  %one32 = extui %one : <i8> to <i32>
  %v_back = shrsi %v_t, %one32 : <i32>
  end %v_f, %c_f : <i32>, <>
}

// hsir-sim: tokens=1 x=0..40 k=1..3
handshake.func @by_value(%x: !handshake.channel<i32>, %k: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["x", "k", "start"], resNames = ["out0", "end"]} {
  %ctrl, %index = control_merge [%start, %c_t] : [<>, <>] to <>, <i1>
  %ix:2 = fork [2] %index : <i1>
  %v = mux %ix#0 [%x, %v_back] : <i1>, [<i32>, <i32>] to <i32>
  %kk = mux %ix#1 [%k, %kf#1] : <i1>, [<i32>, <i32>] to <i32>
  %vf:2 = fork [2] %v : <i32>
  %src = source : <>
  %zero = constant %src {value = 0 : i32} : <>, <i32>
  %more = cmpi sgt, %vf#0, %zero : <i32>
  %mf:3 = fork [3] %more : <i1>
  %v_t, %v_f = cond_br %mf#0, %vf#1 : <i1>, <i32>
  %k_t, %k_f = cond_br %mf#2, %kk : <i1>, <i32>
  %kf:2 = fork [2] %k_t : <i32>
  %c_t, %c_f = cond_br %mf#1, %ctrl : <i1>, <>
  %v_back = shrsi %v_t, %kf#0 : <i32>
  sink %k_f : <i32>
  end %v_f, %c_f : <i32>, <>
}
