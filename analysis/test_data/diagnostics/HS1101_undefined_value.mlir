// A use must name a value that a definition in scope gives.
handshake.func @dynamatic(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  sink %a : <i32>
  // expected-error @+1 {{HS1101: use of undefined value `%b`}}
  %0 = buffer %b, bufferType = FIFO_BREAK_NONE, numSlots = 1 : <i32>
  end %0, %start : <i32>, <>
}

// -----

handshake.func @circt(%a: i32, %ctrl: none) -> (i32, none) {
  sink %a : i32
  // expected-error @+1 {{HS1101: use of undefined value `%sum`}}
  return %sum, %ctrl : i32, none
}

// -----

// Names do not cross function boundaries: `%x` of @producer is not visible in @consumer.
handshake.func @producer(%x: i32, %ctrl: none) -> none {
  sink %x : i32
  return %ctrl : none
}

handshake.func @consumer(%ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1101: use of undefined value `%x`}}
  return %x, %ctrl : i32, none
}

// -----

// The same rule holds outside Handshake.
func.func @plain(%a: i32) -> i32 {
  // expected-error @+1 {{HS1101: use of undefined value `%k`}}
  %0 = arith.addi %a, %k : i32
  return %0 : i32
}

// -----

// Valid: a Handshake function may use a value defined further down (a graph region).
handshake.func @loop(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = merge %a, %2 : i32
  %1:2 = fork [2] %0 : i32
  %2 = buffer [1] seq %1#0 {initValues = [0]} : i32
  return %1#1, %ctrl : i32, none
}

// -----

// An induction variable is defined in its loop's body only.
func.func @induction_variable_outside_its_loop(%lb: index, %ub: index, %step: index) -> index {
  scf.for %i = %lb to %ub step %step {
  }
  // expected-error @+1 {{HS1101: use of undefined value `%i`}}
  return %i : index
}

// -----

// The initial values of `iter_args` are uses in the enclosing region: neither an undefined
// value nor the loop's own argument is one.
func.func @iter_args_init(%lb: index, %ub: index, %step: index) -> f32 {
  // expected-error @+1 {{HS1101: use of undefined value `%missing`}}
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %missing) -> (f32) {
    scf.yield %acc : f32
  }
  // expected-error @+1 {{HS1101: use of undefined value `%acc`}}
  %s = affine.for %k = 0 to 10 iter_args(%acc = %acc) -> (f32) {
    affine.yield %acc : f32
  }
  return %r : f32
}

// -----

// `scf.while`'s assignment list names the arguments of its first ("before") region; the
// "do" region has its own.
func.func @while_regions(%x: i32) -> i32 {
  %w = scf.while (%a = %x) : (i32) -> i32 {
    %c = arith.constant true
    scf.condition(%c) %a : i32
  } do {
  ^bb0(%a2: i32):
    // expected-error @+1 {{HS1101: use of undefined value `%a`}}
    scf.yield %a : i32
  }
  return %w : i32
}
