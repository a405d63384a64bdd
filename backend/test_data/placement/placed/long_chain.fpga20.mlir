// No loop: a chain of four adds, each about 1.9 ns at 32 bits. At a 4 ns period exactly one
// data/valid break is needed (after the second add, the first point where the path would pass
// 4 ns), and nothing else.

// Data/valid: each add is 1.869 ns at 32 bits, so the only single break is after the second
// add (3.74 + 3.74 ns). Ready, for FPL22: `end` answers 1.397 ns after its inputs' ready and
// 1.409 ns after their valids (Dynamatic's numbers), each add 1.123 ns after its output's
// ready; with the break at %x2 the valid of %x4 arrives at 2.234 ns, so `end`'s ready to %x4 is
// 3.643 ns and another add would pass 4 ns: a ready break on %x4, and the one at %x2 breaks
// ready too (4 x 1.123 ns otherwise). At 8 ns nothing is needed (4 x 1.869 = 7.476 ns).
// hsir-place: fpga20
// hsir-expect: dv=%x2 r= slots=1 buffers=1
// hsir-place: fpl22
// hsir-expect: dv=%x2 r=%x2,%x4 slots=2 buffers=2
// hsir-place: fpga20 period=8
// hsir-expect: dv= r= slots=0 buffers=0

// With the built-in overhead (0.722 ns once per register-to-register path; each add then adds
// 1.869 - 0.722 = 1.147 ns): at 4 ns still one break after the second add (three adds would
// cost 0.722 + 3 x 1.147 = 4.163 ns); at 5.4 ns none (0.722 + 4 x 1.147 = 5.31 ns), where the
// plain sum (7.476 ns) needs a break up to 7.476 ns.
// hsir-place: fpga20 overhead=builtin
// hsir-expect: dv=%x2 r= slots=1 buffers=1
// hsir-place: fpga20 period=5.4 overhead=builtin
// hsir-expect: dv= r= slots=0 buffers=0
// FPL22 needs the same data/valid break; its ready paths (each add 1.123 - 0.722 = 0.401 ns
// beyond the overhead) leave the solver a choice among equally cheap ready breaks.
// hsir-place: fpl22 overhead=builtin
// hsir-expect: dv=%x2

// hsir-sim: tokens=4
handshake.func @chain(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out", "end"]} {
  %bf:4 = fork [4] %b : <i32>
  %x1 = addi %a, %bf#0 : <i32>
  %x2 = addi %x1, %bf#1 : <i32>
  %buf0 = buffer %x2 {hw.parameters = {BUFFER_TYPE = "ONE_SLOT_BREAK_DV", NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  %x3 = addi %buf0, %bf#2 : <i32>
  %x4 = addi %x3, %bf#3 : <i32>
  end %x4, %start : <i32>, <>
}
