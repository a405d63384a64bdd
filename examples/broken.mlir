// The same kernel while it is being typed: hsir reports each problem and keeps the rest.
handshake.func @accumulate(%n: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %zero = constant %start {value = 0 : i32} : <>, <i32>
  %sum = mux %index [%zero, %next : <i1>, [<i32>, <i32>] to <i32>
  %ctrl, %index = control_merge [%start, %back] : [<>, <>] to <>, <i1>
  %buffered =
  %copies:2 = fork [2] %sum : <i32>
  end %copies#0, %ctrl : <i32>, <>

handshake.func @next(%a: <i32>) -> <i32> {
  end %a : <i32>
}
