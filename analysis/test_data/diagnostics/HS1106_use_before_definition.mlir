// In `func.func` (and `scf`, `affine`, `cf` regions) a definition must come before its uses.
func.func @straight_line(%a: i32) -> i32 {
  // expected-error @+1 {{HS1106: `%1` is used before it is defined, in a region where definitions must dominate their uses}}
  %0 = arith.addi %a, %1 : i32
  // expected-note @+1 {{defined here}}
  %1 = arith.constant 1 : i32
  return %0 : i32
}

// -----

// A use inside a nested region counts at the op that holds the region.
func.func @nested(%cond: i1, %a: i32) -> i32 {
  scf.if %cond {
    // expected-error @+1 {{HS1106: `%late` is used before it is defined}}
    %x = arith.addi %a, %late : i32
  }
  // expected-note @+1 {{defined here}}
  %late = arith.constant 2 : i32
  return %late : i32
}

// -----

// Valid: Handshake functions are graph regions; cycles go through later definitions.
handshake.func @dynamatic_loop(%a: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %0 = merge %a, %1#0 : <i32>
  %2 = buffer %0, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 : <i32>
  %1:2 = fork [2] %2 : <i32>
  end %1#1, %start : <i32>, <>
}

// -----

handshake.func @circt_loop(%a: i32, %ctrl: none) -> (i32, none) {
  %0 = merge %a, %2 : i32
  %1:2 = fork [2] %0 : i32
  %2 = buffer [1] seq %1#0 {initValues = [0]} : i32
  return %1#1, %ctrl : i32, none
}

// -----

// Valid: in order.
func.func @in_order(%a: i32) -> i32 {
  %1 = arith.constant 1 : i32
  %0 = arith.addi %a, %1 : i32
  return %0 : i32
}

// -----

// Valid: a `fabric.module` body is a graph region: instances may use later results.
fabric.module @ring(%a: i32, %ctrl: none) -> (i32) {
  %x = fabric.instance @pe(%y) : (i32) -> (i32)
  %y = fabric.instance @pe(%a) : (i32) -> (i32)
  fabric.yield %x : i32
}

// -----

// Loop bodies are SSACFG regions.
func.func @loop_body(%lb: index, %ub: index, %step: index) {
  scf.for %i = %lb to %ub step %step {
    // expected-error @+1 {{HS1106: `%late` is used before it is defined}}
    %x = arith.addi %i, %late : index
    // expected-note @+1 {{defined here}}
    %late = arith.addi %i, %i : index
  }
  return
}
