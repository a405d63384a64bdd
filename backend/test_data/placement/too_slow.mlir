// At a 1 ns period an add (1.869 ns at 32 bits) is longer than the period by itself: no buffer
// can shorten a path inside one op, so placement reports the path with its delay and the op on
// it, and still places the buffers that break every other path.
// hsir-place: fpga20 period=1

// expected-note @+2 {{the path crosses `argument %a`}}
// expected-note @+1 {{the path crosses `argument %b`}}
handshake.func @slow(%a: !handshake.channel<i32>, %b: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["a", "b", "start"], resNames = ["out", "end"]} {
  // expected-error @+2 {{HS6002: the data/valid path `argument %a` → `addi %x1` has 1.87 ns of combinational delay, more than the 1 ns period and no buffer can shorten it: `addi %x1` alone takes most of it}}
  // expected-error @+1 {{HS6002: the data/valid path `argument %b` → `addi %x1` has 1.87 ns}}
  %x1 = addi %a, %b : <i32>
  end %x1, %start : <i32>, <>
}
