// A small buffered loop kernel in Dynamatic's Handshake syntax.
handshake.func @accumulate(%n: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["n", "start"], resNames = ["sum", "end"]} {
  %zero = constant %start {value = 0 : i32} : <>, <i32>
  %sum = mux %index [%zero, %next] : <i1>, [<i32>, <i32>] to <i32>
  %ctrl, %index = control_merge [%start, %back] : [<>, <>] to <>, <i1>
  %buffered = buffer %sum, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1, dvLatency = 1 : <i32>
  %copies:2 = fork [2] %buffered : <i32>
  %one = constant %ctrl {value = 1 : i32} : <>, <i32>
  %next = addi %copies#0, %one : <i32>
  %more = cmpi ult, %copies#1, %n : <i32>
  %back, %done = cond_br %more, %ctrl : <i1>, <>
  end %next, %done : <i32>, <>
}
