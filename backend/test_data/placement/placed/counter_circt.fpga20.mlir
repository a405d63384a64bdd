// A counting loop in CIRCT's syntax, with one buffer already placed by hand on the back edge
// (`buffer [1] fifo`): placement keeps it (existing buffers are lower bounds) and writes new
// buffers in the same syntax. Counts from 0 to n and returns n.

// At 4 ns the loop's control cycle (control_merge, fork, mux, fork, cmpi, fork, cond_br) is
// longer than the period and needs two data/valid breaks, so its one token gives throughput
// 1/2. At 100 ns one break per cycle with a second slot gives 1.
// hsir-place: fpga20
// hsir-expect: theta=0.5
// hsir-place: fpl22
// hsir-expect: theta=0.5
// hsir-place: fpga20 period=100
// hsir-expect: theta=1

// hsir-sim: tokens=1 n=0..12
handshake.func @count(%n: i32, %start: none) -> (i32, none) {
  %s:2 = fork [2] %start : none
  %buf0 = buffer [1] fifo %s#1 : none
  %zero = constant %s#0 {value = 0 : i32} : i32
  %ctrl, %index = control_merge %buf0, %buf1 : none, index
  %buf2 = buffer [1] seq %index : index
  %buf10 = buffer [2] seq %ctrl : none
  %ix:2 = fork [2] %buf2 : index
  %i = mux %ix#0 [%zero, %buf3] : index, i32
  %buf5 = buffer [1] seq %i : i32
  %nn = mux %ix#1 [%n, %buf4] : index, i32
  %buf6 = buffer [1] seq %nn : i32
  %if:2 = fork [2] %buf5 : i32
  %buf8 = buffer [1] fifo %if#1 : i32
  %nf:2 = fork [2] %buf6 : i32
  %buf9 = buffer [1] fifo %nf#1 : i32
  %more = arith.cmpi slt, %if#0, %nf#0 : i32
  %buf7 = buffer [1] fifo %more : i1
  %mf:3 = fork [3] %buf7 : i1
  %i_t, %i_f = cond_br %mf#0, %buf8 : i32
  %n_t, %n_f = cond_br %mf#1, %buf9 : i32
  %buf4 = buffer [1] fifo %n_t : i32
  %c_t, %c_f = cond_br %mf#2, %buf10 : none
  %buf1 = buffer [1] fifo %c_t : none
  %src = source
  %one = constant %src {value = 1 : i32} : i32
  %i_next = arith.addi %i_t, %one : i32
  %buf3 = buffer [1] fifo %i_next : i32
  sink %n_f : i32
  return %i_f, %c_f : i32, none
}
