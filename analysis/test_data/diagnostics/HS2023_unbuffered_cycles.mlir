// No buffer at all: the function is buffer placement's input. Its three cycles (through the
// subtraction, the comparison, or both) are one remark for the function.
// expected-remark @+1 {{HS2023: `@count` has no buffers yet and 3 cycles that no buffer breaks, e.g. `%i` -> `%if#1` -> `%c` -> `%ni` -> back; its RTL would hold combinational loops, so place buffers first (`hsir buffers`, or the quick fix)}}
handshake.func @count(%n0: i32, %go: none) -> (i32, none) {
  %i = merge %n0, %ni : i32
  %if:2 = fork [2] %i : i32
  %g:2 = fork [2] %go : none
  %one = constant %g#0 {value = 1 : i32} : i32
  %n = arith.subi %if#0, %one : i32
  %nf:2 = fork [2] %n : i32
  %c = arith.cmpi sgt, %nf#0, %if#1 : i32
  %ni, %out = cond_br %c, %nf#1 : i32
  return %out, %g#1 : i32, none
}

// -----

// Two loops: counted separately, the example from the first.
// expected-remark @+1 {{HS2023: `@two_loops` has no buffers yet and 2 cycles in 2 separate loops that no buffer breaks, e.g. `%a` -> `%at` -> back}}
handshake.func @two_loops(%x: i32, %y: i32, %c: i1, %d: i1, %ctrl: none) -> (i32, i32, none) {
  %a = merge %x, %at : i32
  %at, %ae = cond_br %c, %a : i32
  %b = merge %y, %bt : i32
  %bt, %be = cond_br %d, %b : i32
  return %ae, %be, %ctrl : i32, i32, none
}

// -----

// The same kind of loop once a buffer is placed on it: HS2023 no longer applies, and HS2020
// finds no open cycle.
handshake.func @placed(%x: i32, %c: i1, %ctrl: none) -> (i32, none) {
  %a = merge %x, %atb : i32
  %at, %ae = cond_br %c, %a : i32
  %atb = buffer [1] seq %at : i32
  return %ae, %ctrl : i32, none
}

// -----

// Some buffers but one loop left open: HS2020 as before, not HS2023.
handshake.func @half_placed(%x: i32, %go: i1, %ctrl: none) -> (i32, none) {
  %xb = buffer [1] seq %x : i32
  // expected-error @+2 {{HS2020: combinational loop: the cycle through `%m` -> `%t`}}
  // expected-note @+1 {{channel `%t` into `merge`, part of the cycle}}
  %m = merge %xb, %t : i32
  // expected-note @+1 {{channel `%m` into `cond_br`, part of the cycle}}
  %t, %e = cond_br %go, %m : i32
  return %e, %ctrl : i32, none
}

// -----

// No buffer and no cycle: nothing to say.
handshake.func @straight(%x: i32, %ctrl: none) -> (i32, none) {
  %xf:2 = fork [2] %x : i32
  %y = arith.addi %xf#0, %xf#1 : i32
  return %y, %ctrl : i32, none
}
