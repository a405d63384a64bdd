// Memory accesses and interfaces in each era's syntax: Dynamatic 2024's `mc_load` / `mc_store`
// and `lsq_load` / `lsq_store`, whose `end` takes the memories' done tokens after the results;
// 2025's two-type `load` / `store`; 2026's four-type ones; CIRCT's, with a control operand.

// Dynamatic 2024: a memory controller.
handshake.func @mc_2024(%mem: memref<64xi32>, %addr: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %ldData, %done = mem_controller[%mem : memref<64xi32>] (%ctrl, %ldAddr, %stAddr, %stData) {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.control<>)
  %starts:2 = fork [2] %start : <>
  %ctrl = constant %starts#0 {value = 1 : i32} : <>, <i32>
  %addrs:2 = fork [2] %addr : <i32>
  %ldAddr, %value = mc_load[%addrs#0] %ldData : <i32>, <i32>
  %values:2 = fork [2] %value : <i32>
  %stAddr, %stData = mc_store[%addrs#1] %values#0 : <i32>, <i32>
  end %values#1, %starts#1, %done : <i32>, <>, <>
}

// -----

// Dynamatic 2024: a load-store queue.
handshake.func @lsq_2024(%mem: memref<64xi32>, %addr: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %ldData, %done = lsq[%mem : memref<64xi32>] (%starts#0, %ldAddr, %stAddr, %stData) {groupSizes = [2 : i32]} : (!handshake.control<>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>) -> (!handshake.channel<i32>, !handshake.control<>)
  %starts:2 = fork [2] %start : <>
  %addrs:2 = fork [2] %addr : <i32>
  %ldAddr, %value = lsq_load[%addrs#0] %ldData : <i32>, <i32>
  %values:2 = fork [2] %value : <i32>
  %stAddr, %stData = lsq_store[%addrs#1] %values#0 : <i32>, <i32>
  end %values#1, %starts#1, %done : <i32>, <>, <>
}

// -----

// Dynamatic 2025: `load` and `store` write the address and data types once.
handshake.func @mc_2025(%mem: memref<64xi32>, %addr: !handshake.channel<i32>, %memStart: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) {
  %ldData, %memEnd = mem_controller[%mem : memref<64xi32>] %memStart (%ctrl, %ldAddr, %stAddr, %stData) %starts#1 {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>) -> !handshake.channel<i32>
  %starts:3 = fork [3] %start : <>
  %ctrl = constant %starts#0 {value = 1 : i32} : <>, <i32>
  %addrs:2 = fork [2] %addr : <i32>
  %ldAddr, %value = load[%addrs#0] %ldData : <i32>, <i32>
  %values:2 = fork [2] %value : <i32>
  %stAddr, %stData = store[%addrs#1] %values#0 : <i32>, <i32>
  end %values#1, %memEnd, %starts#2 : <i32>, <>, <>
}

// -----

// Dynamatic 2026: four types, the access's ports on both sides.
handshake.func @mc_2026(%mem: memref<64xi32>, %addr: !handshake.channel<i32>, %memStart: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) {
  %ldData, %memEnd = mem_controller[%mem : memref<64xi32>] %memStart (%ctrl, %ldAddr, %stAddr, %stData) %starts#1 {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>) -> !handshake.channel<i32>
  %starts:3 = fork [3] %start : <>
  %ctrl = constant %starts#0 {value = 1 : i32} : <>, <i32>
  %addrs:2 = fork [2] %addr : <i32>
  %ldAddr, %value = load [%addrs#0] %ldData : <i32>, <i32>, <i32>, <i32>
  %values:2 = fork [2] %value : <i32>
  %stAddr, %stData = store [%addrs#1] %values#0 : <i32>, <i32>, <i32>, <i32>
  end %values#1, %memEnd, %starts#2 : <i32>, <>, <>
}

// -----

// CIRCT: accesses of an external memory, each with a control token.
handshake.func @extmemory_circt(%mem: memref<64xi32>, %addr: index, %ctrl: none) -> (i32, none) {
  %ldData, %stDone, %ldDone = extmemory [ld = 1, st = 1] (%mem : memref<64xi32>) (%stData, %stAddr, %ldAddr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %ctrls:3 = fork [3] %ctrl : none
  %addrs:2 = fork [2] %addr : index
  %value, %ldAddr = load [%addrs#0] %ldData, %ctrls#0 : index, i32
  %values:2 = fork [2] %value : i32
  %stData, %stAddr = store [%addrs#1] %values#0, %ctrls#1 : index, i32
  %done = join %ctrls#2, %stDone, %ldDone : none, none, none
  return %values#1, %done : i32, none
}
