// CIRCT's Handshake syntax: `i32` and `none` channel types, bracketed counts, memories.
module {
  handshake.func @callee(i32, none) -> (i32, none)
  handshake.func @top(%arg0: i32, %arg1: memref<4xi32>, %ctrl: none, ...) -> (i32, none) attributes {argNames = ["in0", "mem", "inCtrl"], resNames = ["out0", "outCtrl"]} {
    %0:3 = fork [3] %arg0 : i32
    %1 = buffer [2] seq %0#0 : i32
    %2 = buffer [1] fifo %0#1 {initValues = [0]} : i32
    %ldData, %done = extmemory[ld = 1, st = 0] (%arg1 : memref<4xi32>) (%addr) {id = 0 : i32} : (index) -> (i32, none)
    %3, %4 = memory[ld = 1, st = 1] (%d, %a, %la) {id = 1 : i32, lsq = false} : memref<10xi32>, (i32, index, index) -> (i32, none, none)
    %r, %c = instance @callee(%1, %ctrl) : (i32, none) -> (i32, none)
    %t, %f = cond_br %cond, %2 : i32
    %m = mux %sel [%t, %f] : index, i32
    return %m, %c : i32, none
  }
}
