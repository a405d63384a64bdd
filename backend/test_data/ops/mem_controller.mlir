// Dynamatic's `mem_controller` on a memref argument, with its ports as Dynamatic lays them out:
// a store-count channel (one store per invocation, from a constant), a store's address and
// data, and a load's address; `memStart` and `ctrlEnd` in, `memEnd` out once every announced
// store was written. Dynamatic's loads and stores have no ctrl: the load reads the low half of
// the memory (`la` in 0..3) and the store writes the high half (`sa` in 4..7), so they never
// touch one word and the design does not depend on timing. One invocation at a time, as
// Dynamatic runs a kernel: `ctrlEnd` (a copy of `start`) waits for `memEnd`, so the next
// invocation's store count could not arrive while its store already can.

// hsir-sim: tokens=1 la=0..3 sa=4..7
handshake.func @mem_controller_load_store(%mem: memref<8xi32>, %d: !handshake.channel<i32>, %sa: !handshake.channel<i3>, %la: !handshake.channel<i3>, %mem_start: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) attributes {argNames = ["mem", "d", "sa", "la", "mem_start", "start"], resNames = ["x", "mem_end", "end"]} {
  %ld_data, %mem_end = mem_controller [%mem : memref<8xi32>] %mem_start (%count, %st_addr, %st_data, %ld_addr) %ctrl_end {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>, !handshake.channel<i3>, !handshake.channel<i32>, !handshake.channel<i3>) -> !handshake.channel<i32>
  %s:3 = fork [3] %start : <>
  %count = constant %s#0 {value = 1 : i32} : <>, <i32>
  %st_addr, %st_data = store [%sa] %d : <i3>, <i32>, <i3>, <i32>
  %ld_addr, %x = load [%la] %ld_data : <i3>, <i32>, <i3>, <i32>
  %ctrl_end = br %s#1 : <>
  end %x, %mem_end, %s#2 : <i32>, <>, <>
}
