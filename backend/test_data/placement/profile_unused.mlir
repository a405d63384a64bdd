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
  %ix:2 = fork [2] %index : index
  %i = mux %ix#0 [%zero, %i_next] : index, i32
  %nn = mux %ix#1 [%n, %n_t] : index, i32
  %if:2 = fork [2] %i : i32
  %nf:2 = fork [2] %nn : i32
  %more = arith.cmpi slt, %if#0, %nf#0 : i32
  %mf:3 = fork [3] %more : i1
  %i_t, %i_f = cond_br %mf#0, %if#1 : i32
  %n_t, %n_f = cond_br %mf#1, %nf#1 : i32
  %c_t, %c_f = cond_br %mf#2, %ctrl : none
  %src = source
  %one = constant %src {value = 1 : i32} : i32
  %i_next = arith.addi %i_t, %one : i32
  sink %n_f : i32
  return %i_f, %c_f : i32, none
}
