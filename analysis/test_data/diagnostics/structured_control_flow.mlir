// Valid: scf and affine custom syntax. The values an op binds for its body (induction
// variables, `iter_args`, `scf.while`'s assignment list, `shared_outs`) are defined in its
// first region; the values after `=` are uses in the enclosing region.
func.func @scf_for(%lb: index, %ub: index, %step: index, %z: f32) -> f32 {
  scf.for %i = %lb to %ub step %step {
    %t = arith.addi %i, %i : index
  }
  scf.for unsigned %i = %lb to %ub step %step : index {
  }
  %r = scf.for %i = %lb to %ub step %step iter_args(%acc = %z) -> (f32) {
    %s = arith.addf %acc, %acc : f32
    scf.yield %s : f32
  }
  %p:2 = scf.for %i = %lb to %ub step %step iter_args(%a = %z, %b = %r) -> (f32, f32) {
    scf.yield %b, %a : f32, f32
  }
  return %p#1 : f32
}

// -----

func.func @scf_while(%x: i32, %y: index, %limit: i32) -> i32 {
  %w:2 = scf.while (%a = %x, %b = %y) : (i32, index) -> (i32, index) {
    %cond = arith.cmpi slt, %a, %limit : i32
    scf.condition(%cond) %a, %b : i32, index
  } do {
  ^bb0(%a2: i32, %b2: index):
    %next = arith.addi %a2, %a2 : i32
    scf.yield %next, %b2 : i32, index
  }
  return %w#0 : i32
}

// -----

func.func @scf_if(%c: i1, %x: f32) -> f32 {
  %f = scf.if %c -> (f32) {
    scf.yield %x : f32
  } else {
    %y = arith.addf %x, %x : f32
    scf.yield %y : f32
  }
  scf.if %c {
  }
  return %f : f32
}

// -----

func.func @scf_parallel_forall(%lb: index, %ub: index, %step: index, %x: f32, %n: index, %t: tensor<4xf32>) -> f32 {
  %r = scf.parallel (%i, %j) = (%lb, %lb) to (%ub, %ub) step (%step, %step) init (%x) -> f32 {
    %v = arith.index_cast %i : index to i32
    %w = arith.sitofp %v : i32 to f32
    scf.reduce(%w : f32) {
    ^bb0(%l: f32, %m: f32):
      %sum = arith.addf %l, %m : f32
      scf.reduce.return %sum : f32
    }
  }
  %o = scf.forall (%i, %j) in (%n, %n) shared_outs(%out = %t) -> (tensor<4xf32>) {
    %e = arith.addi %i, %j : index
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %out into %out[%e] [1] [1] : tensor<4xf32> into tensor<4xf32>
    }
  }
  scf.forall (%k) = (%lb) to (%ub) step (%step) {
    %q = arith.addi %k, %k : index
  }
  return %r : f32
}

// -----

func.func @affine(%a: index, %b: index, %n: index, %z: f32, %m: memref<10xf32>) -> f32 {
  affine.for %k = 0 to 10 {
    %v = affine.load %m[%k] : memref<10xf32>
  }
  affine.for %k = max #map(%a)[%b] to 10 step 2 {
    affine.if #set(%k)[%n] {
      affine.store %z, %m[%k] : memref<10xf32>
    } else {
    }
  }
  %s = affine.for %k = %a to min #map(%b)[%n] iter_args(%acc = %z) -> (f32) {
    %t = arith.addf %acc, %z : f32
    affine.yield %t : f32
  }
  %y = affine.if #set(%a)[%n] -> f32 {
    affine.yield %s : f32
  } else {
    affine.yield %z : f32
  }
  affine.parallel (%p, %q) = (0, 0) to (10, 10) {
    %sum = arith.addi %p, %q : index
  }
  return %y : f32
}

// -----

// Nested loops see the outer loop's values; sibling loops may reuse a name.
func.func @nested(%lb: index, %ub: index, %step: index) {
  scf.for %i = %lb to %ub step %step {
    scf.for %j = %i to %ub step %step {
      %t = arith.addi %i, %j : index
    }
    scf.for %j = %lb to %i step %step {
    }
  }
  return
}
