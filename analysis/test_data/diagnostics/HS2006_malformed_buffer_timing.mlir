// TIMING is `#handshake<timing {D: d, V: v, R: r}>`: each of D, V and R at most once, with a
// whole number of cycles. When the buffer's type is known, the quick fix writes its latencies.
handshake.func @malformed(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %c: !handshake.channel<i32>, %d: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) {
  // expected-error @+1 {{HS2006: malformed `TIMING`: `X` is not a signal; the keys are `D`, `V` and `R`}}
  %0 = buffer %a {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, X: 1}>}} : <i32>
  // expected-error @+1 {{HS2006: malformed `TIMING`: `D` is given twice}}
  %1 = buffer %b {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, D: 1}>}} : <i32>
  // expected-error @+1 {{HS2006: malformed `TIMING`: the latency of `R` is `-1`, not a whole number}}
  %2 = buffer %c {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_R", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {R: -1}>}} : <i32>
  // expected-error @+1 {{HS2006: malformed `TIMING`: `"fast"` is not a timing attribute}}
  %3 = buffer %d {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = "fast"}} : <i32>
  end %0, %1, %2, %3, %start : <i32>, <i32>, <i32>, <i32>, <>
}
