// A timing model that knows none of the function's ops (`timing/minimal.txt` has only its own
// test ops): each op name missing is reported once, where it is first used, and placement goes
// on with the file's fallback (no latency, no delay), so nothing needs a buffer.
// hsir-place: fpga20 timing=../timing/minimal.txt
// hsir-expect: dv= r= slots=0 buffers=0

handshake.func @chain(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out", "end"]} {
  // expected-warning @+1 {{HS6001: the timing model has no entry for `fork`; placement assumed latency 0 and 0 ns of delay}}
  %bf:2 = fork [2] %b : <i32>
  // expected-warning @+1 {{HS6001: the timing model has no entry for `addi`}}
  %x1 = addi %a, %bf#0 : <i32>
  %x2 = addi %x1, %bf#1 : <i32>
  // expected-warning @+1 {{HS6001: the timing model has no entry for `end`}}
  end %x2, %start : <i32>, <>
}
