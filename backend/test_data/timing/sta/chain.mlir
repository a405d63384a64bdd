// Static timing analysis (`buffers::sta`), worked out by hand from the built-in model at 32 bits
// (addi 1.869 ns, cmpi 1.544, select 1.117; fork, constant and source 0; the built-in overhead
// 0.722 ns).
//
// Registers: the arguments, `end`, and the opaque buffer %r. Paths:
// - %a → %x1 → %x2 → %r: addi, addi. Plain sum 3.738 ns; with the overhead
//   0.722 + 2 × (1.869 − 0.722) = 3.016 ns.
// - %r → %c → %y → end: cmpi, select. Plain sum 2.661 ns; with the overhead
//   0.722 + (1.544 − 0.722) + (1.117 − 0.722) = 1.939 ns.
// - %a → %c → %y → end (through %af): cmpi, select, as above.
// The longest is the first either way. The source-and-constant %one starts no path of its own.
handshake.func @chain(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out", "end"]} {
  %af:2 = fork [2] %a : <i32>
  %bf:2 = fork [2] %b : <i32>
  %x1 = addi %af#0, %bf#0 : <i32>
  %x2 = addi %x1, %bf#1 : <i32>
  %r = buffer %x2 {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %rf:2 = fork [2] %r : <i32>
  %c = cmpi ult, %rf#0, %af#1 : <i32>
  %y = select %c [%rf#1, %one] : <i1>, <i32>
  %src = source : <>
  %one = constant %src {value = 1 : i32} : <>, <i32>
  end %y, %start : <i32>, <>
}
