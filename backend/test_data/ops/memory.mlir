// CIRCT's internal `memory` with one store port and one load port, reached by `store` and
// `load` with ctrl tokens: per invocation, store `d` at `sa`, then (the store's done token is
// the load's ctrl) load `la`. The next invocation's store waits for this load's done token,
// through a one-slot buffer that starts holding one token, so stores and loads never race; that
// buffer keeps the last done token, one token left at the end by design. The memory starts at
// zero.

// hsir-sim: sa=0..3 la=0..3
handshake.func @memory_store_load(%d: i32, %sa: index, %la: index, %ctrl: none) -> (i32, none) {
  %ld_data, %st_done, %ld_done = memory [ld = 1, st = 1] (%st_data, %st_addr, %ld_addr) {id = 0 : i32, lsq = false} : memref<8xi32>, (i32, index, index) -> (i32, none, none)
  %prev = buffer [1] seq %ldd#1 {initValues = [0]} : none
  %go = join %ctrl, %prev : none, none
  %st_data, %st_addr = store [%sa] %d, %go : index, i32
  %x, %ld_addr = load [%la] %ld_data, %st_done : index, i32
  %ldd:2 = fork [2] %ld_done : none
  return %x, %ldd#0 : i32, none
}
