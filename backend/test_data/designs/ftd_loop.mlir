// Dynamatic's fast token delivery (FTD), in its 2025 syntax: `acc = 0; i = 0; do { acc += i;
// i++; } while (i < n); return acc;`. The loop's start values come from `source` -> `constant`
// and a `merge` of a start constant and the loop's condition picks between start and loop-back
// values, so once the loop has exited the merge passes its false condition and the loop would
// start again from the sources' zeros: the circuit never settles. It ends when `end` has sent
// its result, as Dynamatic's testbench stops at `end`. Started again, `i` and `acc` would find
// their zeros, but `n`, an argument taken once, never comes: that is where the run stops, and
// the tokens waiting there are not reported as left over. Buffers on the back edges and after the
// merge, as Dynamatic places them, let the RTL run it.

// hsir-sim: tokens=1 n=1..6
handshake.func @sum_ftd(%n: !handshake.channel<i32>, %start: !handshake.control<>, ...) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["n", "start"], resNames = ["out0", "end"]} {
  %s:2 = fork [2] %start : <>
  %src0 = source : <>
  %zero = constant %src0 {value = 0 : i32} : <>, <i32>
  %z:2 = fork [2] %zero : <i32>
  %first = constant %s#0 {value = false} : <>, <i1>
  %again = merge %first, %cont_b : <i1>
  %again_b = buffer %again {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i1>
  %sel:3 = fork [3] %again_b : <i1>
  %i = mux %sel#0 [%z#0, %i_b] : <i1>, <i32>
  %acc = mux %sel#1 [%z#1, %acc_b] : <i1>, <i32>
  %bound = mux %sel#2 [%n, %n_b] : <i1>, <i32>
  %ix:2 = fork [2] %i : <i32>
  %bx:2 = fork [2] %bound : <i32>
  %src1 = source : <>
  %one = constant %src1 {value = 1 : i32} : <>, <i32>
  %i_next = addi %ix#0, %one : <i32>
  %acc_next = addi %acc, %ix#1 : <i32>
  %nx:2 = fork [2] %i_next : <i32>
  %c = cmpi ult, %nx#0, %bx#0 : <i32>
  %cont:4 = fork [4] %c : <i1>
  %i_back, %i_out = cond_br %cont#1, %nx#1 : <i1>, <i32>
  sink %i_out : <i32>
  %acc_back, %acc_out = cond_br %cont#2, %acc_next : <i1>, <i32>
  %n_back, %n_out = cond_br %cont#3, %bx#1 : <i1>, <i32>
  sink %n_out : <i32>
  %cont_b0 = buffer %cont#0 {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i1>
  %cont_b = buffer %cont_b0 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i1>
  %i_b0 = buffer %i_back {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %i_b = buffer %i_b0 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %acc_b0 = buffer %acc_back {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %acc_b = buffer %acc_b0 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  %n_b0 = buffer %n_back {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %n_b = buffer %n_b0 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: 1}>}} : <i32>
  end %acc_out, %s#1 : <i32>, <>
}
