module {
handshake.func @atax(%arg0: memref<400xf32>, %arg1: !handshake.channel<i32>, %arg8: !handshake.control<>, ...) -> (!handshake.channel<i32> , !handshake.control<>) attributes {argNames = ["A", "n", "start"], resNames = ["out0", "end"]} {
    %0:2 = lsq[%arg0 : memref<400xf32>] (%arg8, %result)  {groupSizes = [1 : i32], handshake.name = "lsq0"} : (!handshake.control<>, !handshake.control<>) -> (!handshake.channel<f32>, !handshake.control<>)
    %2 = constant %arg8 {handshake.bb = 0 : ui32, handshake.name = "constant4", value = 0 : i32} :    <>, <i32>
    %5 = mux %index [%2, %arg1] {handshake.bb = 1 : ui32, handshake.name = "mux0"} : <i1>, [<i32>, <i32>] to <i32>
    %result, %index = control_merge [%arg8, %0#1]  {handshake.bb = 1 : ui32, handshake.name = "control_merge0"} : [<>, <>] to <>, <i1>
    %b = buffer %5, bufferType = FIFO_BREAK_DV, numSlots = 2 {hw.parameters = {NUM_SLOTS = 2 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32, [spec: i1]>
    %c = extsi %b {handshake.bb = 1 : ui32} : < i32 , [spec : i1] > to <i64>
    end {handshake.bb = 1 : ui32, handshake.name = "end0"} %5, %result : <i32>, <>
  }
}
