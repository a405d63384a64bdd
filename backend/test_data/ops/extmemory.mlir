// CIRCT's `extmemory` on a memref argument (the memory `mem`, given at random), one store and
// one load port; as memory.mlir, each invocation stores `d` at `sa` and then loads `la`, the
// next store waiting for this load (the buffer's token is left at the end by design).

// hsir-sim: sa=0..3 la=0..3
handshake.func @extmemory_store_load(%mem: memref<4xi32>, %d: i32, %sa: index, %la: index, %ctrl: none) -> (i32, none) attributes {argNames = ["mem", "d", "sa", "la", "ctrl"], resNames = ["x", "done"]} {
  %ld_data, %st_done, %ld_done = extmemory [ld = 1, st = 1] (%mem : memref<4xi32>) (%st_data, %st_addr, %ld_addr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %prev = buffer [1] seq %ldd#1 {initValues = [0]} : none
  %go = join %ctrl, %prev : none, none
  %st_data, %st_addr = store [%sa] %d, %go : index, i32
  %x, %ld_addr = load [%la] %ld_data, %st_done : index, i32
  %ldd:2 = fork [2] %ld_done : none
  return %x, %ldd#0 : i32, none
}

// Two loads and no store: the load ports are independent.
// hsir-sim: a=0..7 b=0..7
handshake.func @extmemory_two_loads(%mem: memref<8xi16>, %a: index, %b: index, %ctrl: none) -> (i16, i16, none) attributes {argNames = ["mem", "a", "b", "ctrl"], resNames = ["x", "y", "done"]} {
  %ld:4 = extmemory [ld = 2, st = 0] (%mem : memref<8xi16>) (%la, %lb) {id = 0 : i32} : (index, index) -> (i16, i16, none, none)
  %c:3 = fork [3] %ctrl : none
  %x, %la = load [%a] %ld#0, %c#0 : index, i16
  %y, %lb = load [%b] %ld#1, %c#1 : index, i16
  %done = join %ld#2, %ld#3, %c#2 : none, none, none
  return %x, %y, %done : i16, i16, none
}
