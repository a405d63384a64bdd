// A profile weighs loops by the transitions between Dynamatic's basic blocks
// (`handshake.bb`); a CIRCT function has none, so the profile cannot apply: placement says so
// and weighs its loop as it does without a profile.
// hsir-place: fpga20 profile=profile.csv
// hsir-expect: theta=0.5

// hsir-sim: tokens=1 n=0..12
// expected-warning @+1 {{HS6004: the profile (2 transitions) does not weigh `count`}}
handshake.func @count(%n: i32, %start: none) -> (i32, none) {
  %s:2 = fork [2] %start : none
  %zero = constant %s#0 {value = 0 : i32} : i32
  %ctrl, %index = control_merge %s#1, %c_t : none, index
  %buf0 = buffer [1] seq %index : index
  %buf4 = buffer [2] seq %ctrl : none
  %ix:2 = fork [2] %buf0 : index
  %i = mux %ix#0 [%zero, %i_next] : index, i32
  %buf2 = buffer [1] seq %i : i32
  %nn = mux %ix#1 [%n, %buf1] : index, i32
  %buf3 = buffer [1] seq %nn : i32
  %if:2 = fork [2] %buf2 : i32
  %nf:2 = fork [2] %buf3 : i32
  %more = arith.cmpi slt, %if#0, %nf#0 : i32
  %mf:3 = fork [3] %more : i1
  %i_t, %i_f = cond_br %mf#0, %if#1 : i32
  %buf5 = buffer [1] fifo %i_t : i32
  %n_t, %n_f = cond_br %mf#1, %nf#1 : i32
  %buf1 = buffer [1] fifo %n_t : i32
  %c_t, %c_f = cond_br %mf#2, %buf4 : none
  %src = source
  %one = constant %src {value = 1 : i32} : i32
  %i_next = arith.addi %buf5, %one : i32
  sink %n_f : i32
  return %i_f, %c_f : i32, none
}
