// CIRCT spelling: raw types, `none` for control, `fork [2]`.
handshake.func @simple_loop(%arg0 :none,%arg1: i32 , ...)->(i32,none) attributes {argNames = [ "start", "n" ], resNames = ["out0","outCtrl"]} {
%0:2 = fork [2] %arg0 : none
    %1 = constant %0#0 {value = 1 : i32}:i32
  %2 = buffer [2]  seq %1 { initValues = [ 0, 1 ] } : i32   // trailing note   
      %3 =   "handshake.buffer"( %2 ) { bufferType = "seq", numSlots = 1 : i32, initValues = ["a  b"] }:( i32 )->i32



  %4 = arith.addi %3 , %arg1 : i32
        // the results
  return %4, %0#1 : i32, none
}
