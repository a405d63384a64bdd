// LOOM's loop ops. A `dataflow.stream` gives, per entry (one start, step and bound token),
// the indices start, start+step, ... while `index < bound`, then the first index that is not,
// with raw_will_continue 1 for all but that last one. A `dataflow.gate` turns those N+1 pairs
// into N: each index with the condition that follows it (after_cond). `dataflow.carry` and
// `dataflow.invariant` run a loop: `loop_sum` returns sum(i + k) for i < n, so n(n-1)/2 + n*k.
// Any number of invocations; a loop needs n >= 1 (n = 0 leaves the invariant's `k` latched).
// In hardware the carry and the invariant take condition i together with their output i+1, so
// the fork branches into their conditions get two slots, the cond_br's one, and the carry's
// back edge one.

// hsir-sim: start=0..3 step=1..3 bound=0..8
handshake.func @stream(%start: index, %step: index, %bound: index) -> (index, i1) {
  %idx, %wc = dataflow.stream %start, %step, %bound {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  return %idx, %wc : index, i1
}

// Counting down by shifts: 64, 32, 16, ... while `index > bound`.
// hsir-sim: tokens=2 start=64,100 step=1,2 bound=3,10
handshake.func @stream_shift(%start: index, %step: index, %bound: index) -> (index, i1) {
  %idx, %wc = dataflow.stream %start, %step, %bound {step_op = ">>=", cont_cond = ">"} : (index, index, index) -> (index, i1)
  return %idx, %wc : index, i1
}

// hsir-sim: bound=0..5
handshake.func @gate(%bound: index, %ctrl: none) -> (index, i1, none) {
  %c:3 = fork [3] %ctrl : none
  %c0 = constant %c#0 {value = 0 : index} : index
  %c1 = constant %c#1 {value = 1 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %bound {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %v, %ac = dataflow.gate %idx, %wc : index, i1 -> index, i1
  return %v, %ac, %c#2 : index, i1, none
}

// hsir-sim: n=1..6 k=0..100
handshake.func @loop_sum(%n: index, %k: index, %start: none) -> (index, none) {
  %s:4 = fork [4] %start : none
  %c0 = constant %s#0 {value = 0 : index} : index
  %c1 = constant %s#1 {value = 1 : index} : index
  %zero = constant %s#2 {value = 0 : index} : index
  %idx, %wc = dataflow.stream %c0, %c1, %n {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %wcf:3 = fork [3] %wc : i1
  %v, %ac = dataflow.gate %idx, %wcf#0 : index, i1 -> index, i1
  %acb = buffer [2] fifo %ac : i1
  %kk = dataflow.invariant %acb, %k : i1, index -> index
  %wc1 = buffer [2] fifo %wcf#1 : i1
  %acc = dataflow.carry %wc1, %zero, %next_b : i1, index, index -> index
  %wc2 = buffer [1] fifo %wcf#2 : i1
  %body, %exit = cond_br %wc2, %acc : index
  %vk = arith.addi %v, %kk : index
  %next = arith.addi %body, %vk : index
  %next_b = buffer [1] seq %next : index
  return %exit, %s#3 : index, none
}
