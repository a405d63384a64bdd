// A counting loop in CIRCT's syntax, with one buffer already placed by hand on the back edge
// (`buffer [1] fifo`): placement keeps it (existing buffers are lower bounds) and writes new
// buffers in the same syntax. Counts from 0 to n and returns n.

// CIRCT's buffers all break data and valid (`fifo`; `seq` breaks ready too), so here every
// slot placed is a register. At 100 ns: FPGA20's ready break after the mux (written as a `seq`)
// and the kept `fifo` on the back edge are two registers on the `i` loop, which holds one token:
// throughput 1/2.
// hsir-place: fpga20
// hsir-place: fpl22
// hsir-place: fpga20 period=100
// hsir-expect: theta=0.5

// hsir-sim: tokens=1 n=0..12
handshake.func @count(%n: i32, %start: none) -> (i32, none) {
  %s:2 = fork [2] %start : none
  %zero = constant %s#0 {value = 0 : i32} : i32
  %ctrl, %index = control_merge %s#1, %c_t : none, index
  %buf0 = buffer [1] seq %index : index
  %buf4 = buffer [2] seq %ctrl : none
  %ix:2 = fork [2] %buf0 : index
  %i = mux %ix#0 [%zero, %i_back] : index, i32
  %buf2 = buffer [1] seq %i : i32
  %nn = mux %ix#1 [%n, %buf1] : index, i32
  %buf3 = buffer [1] seq %nn : i32
  %if:2 = fork [2] %buf2 : i32
  %nf:2 = fork [2] %buf3 : i32
  %more = arith.cmpi slt, %if#0, %nf#0 : i32
  %mf:3 = fork [3] %more : i1
  %i_t, %i_f = cond_br %mf#0, %if#1 : i32
  %n_t, %n_f = cond_br %mf#1, %nf#1 : i32
  %buf1 = buffer [1] fifo %n_t : i32
  %c_t, %c_f = cond_br %mf#2, %buf4 : none
  %src = source
  %one = constant %src {value = 1 : i32} : i32
  %i_next = arith.addi %i_t, %one : i32
  %i_back = buffer [1] fifo %i_next : i32
  sink %n_f : i32
  return %i_f, %c_f : i32, none
}
