// MLIR's generic op form, with regions, successors, properties and locations.
"builtin.module"() ({
  "handshake.func"() ({
  ^bb0(%arg0: i32, %arg1: none):
    %0:2 = "handshake.fork"(%arg0) : (i32) -> (i32, i32) loc("f.mlir":3:5)
    "handshake.sink"(%0#1) : (i32) -> ()
    "handshake.return"(%0#0, %arg1) : (i32, none) -> ()
  }) {argNames = ["in0", "ctrl"], function_type = (i32, none) -> (i32, none), resNames = ["out0", "outCtrl"], sym_name = "kernel"} : () -> ()
  "cf.cond_br"(%c, %x)[^bb1, ^bb2] <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (i1, i32) -> ()
}) : () -> () loc(#loc0)
