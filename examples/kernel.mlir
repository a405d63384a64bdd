// A small buffered loop kernel in Dynamatic's Handshake syntax.
handshake.func @accumulate(%n: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["n", "start"], resNames = ["sum", "end"]} {
  %starts:2 = fork [2] %start : <>
  %zero = constant %starts#0 {value = 0 : i32} : <>, <i32>
  %sum = mux %index [%zero, %next#0] : <i1>, [<i32>, <i32>] to <i32>
  %ctrl, %index = control_merge [%starts#1, %loop] : [<>, <>] to <>, <i1>
  %ctrls:2 = fork [2] %ctrl : <>
  %buffered = buffer %sum, bufferType = ONE_SLOT_BREAK_DVR, numSlots = 1, dvLatency = 1 : <i32>
  %copies:2 = fork [2] %buffered : <i32>
  %one = constant %ctrls#0 {value = 1 : i32} : <>, <i32>
  %add = addi %copies#0, %one : <i32>
  %next:2 = fork [2] %add : <i32>
  %more = cmpi ult, %copies#1, %n : <i32>
  %back, %done = cond_br %more, %ctrls#1 : <i1>, <>
  %loop = buffer %back, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1, dvLatency = 1 : <>
  end %next#1, %done : <i32>, <>
}
