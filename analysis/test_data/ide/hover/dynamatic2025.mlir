// Hover fixture: each dollar-zero marker is a position hovered; `dynamatic2025.mlir.expected` holds what
// hover says there. Dynamatic 2025's syntax: buffers as NUM_SLOTS + TIMING, bufProps.
handshake.func @kernel(%a: !handshake.$0channel<i32, [spec: i1]>, %m: memref<$0100xf32>, %start: !handshake.con$0trol<>, ...) -> (!handshake.channel<i32, [spec: i1]>, !handshake.control<>) attributes {arg$0Names = ["a", "m", "start"], resNames = ["out0", "end"]} {
  %0 = buffer %a {handshake.bb = 1 : ui32, handshake.na$0me = "buffer3", hw.parameters = {NUM_$0SLOTS = 5 : ui32, TIM$0ING = #handshake<timing {$0R: 1}>}} : <i$032, [spec: i1]>
  %1 = buffer %0 {handshake.b$0b = 1 : ui32, handshake.name = "buffer4", hw.$0parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32, [spec: i1]>
  %2 = constant %start {handshake.bb = 0 : ui32, handshake.name = "constant0", val$0ue = 42 : i$032} : <>, <i32>
  %3 = source {handshake.bb = 0 : ui32, handshake.buf$0Props = #handshake<bufProps{"0": [0,0], [0,0], 0.000000e+00, 0.000000e+00, 0.000000e+00}>, hand$0shake.bufProps2 = 1 : i32} : <>
  end %1, %start : <i32, [spec: i1]>, <$0>
}
