// A memory interface's last operand, `ctrlEnd`, says that no more requests will come: its done
// token is offered once it has arrived and the interface is idle. Dynamatic makes it the
// control of the function's return block; Dynamatic's FTD exports give the start token
// instead, so the interface may say it is done before a store of a later block (or of a loop)
// has landed, and `end` fires before memory is final.

// expected-note @+1 {{the start token}}
handshake.func @lsq_store_in_block_1(%memref: memref<64xi32>, %x: !handshake.channel<i32>, %memStart: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) attributes {argNames = ["m", "x", "m_start", "start"], resNames = ["m_end", "end"]} {
  // expected-warning @+1 {{HS3029: the end control `%fork#1` of `lsq` of `%memref` (`lsq0`) is the start token `%start` (`start`) through `fork`: the interface may report itself done before its `store` `%stAddr` in block 1 has landed, so `end` may fire before memory is final}}
  %done = lsq [%memref: memref<64xi32>] (%memStart, %c1#0, %stAddr, %stData, %fork#1) {groupSizes = [1 : i32], handshake.bb = 0 : ui32, handshake.name = "lsq0"} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.control<>)
  %fork:3 = fork [3] %start {handshake.bb = 0 : ui32} : <>
  %ctrl = br %fork#0 {handshake.bb = 0 : ui32} : <>
  %c1:2 = fork [2] %ctrl {handshake.bb = 1 : ui32} : <>
  %addr = constant %c1#1 {value = 0 : i32, handshake.bb = 1 : ui32} : <>, <i32>
  // expected-note @+1 {{a store that may land after `end`}}
  %stAddr, %stData = store [%addr] %x {handshake.bb = 1 : ui32} : <i32>, <i32>, <i32>, <i32>
  end %done, %fork#2 {handshake.bb = 1 : ui32} : <>, <>
}

// -----

// A `mem_controller` whose end control is the start token through a fork and a buffer, with a
// store in block 2.
// expected-note @+1 {{the start token}}
handshake.func @mc_store_in_block_2(%memref: memref<64xi32>, %x: !handshake.channel<i32>, %memStart: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) {
  %fork:4 = fork [4] %start {handshake.bb = 0 : ui32} : <>
  %end = buffer %fork#3, bufferType = ONE_SLOT_BREAK_DV, numSlots = 1 {handshake.bb = 0 : ui32} : <>
  %ctrl = br %fork#0 {handshake.bb = 0 : ui32} : <>
  %addr = constant %ctrl {value = 0 : i32, handshake.bb = 2 : ui32} : <>, <i32>
  %count = constant %fork#1 {value = 1 : i32, handshake.bb = 0 : ui32} : <>, <i32>
  // expected-note @+1 {{a store that may land after `end`}}
  %stAddr, %stData = store [%addr] %x {handshake.bb = 2 : ui32} : <i32>, <i32>, <i32>, <i32>
  // expected-warning @+1 {{HS3029: the end control `%end` of `mem_controller` of `%memref` is the start token `%start` through `buffer`, `fork`: the interface may report itself done before its `store` `%stAddr` in block 2 has landed}}
  %memEnd = mem_controller [%memref : memref<64xi32>] %memStart (%count, %stAddr, %stData) %end {connectedBlocks = [2 : i32]} : (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>) -> ()
  end %memEnd, %fork#2 {handshake.bb = 2 : ui32} : <>, <>
}

// -----

// Valid: the end control is the return block's control (Dynamatic's rule); a store of the
// entry block; a store of a later block whose LSQ group is allocated by the start token itself;
// a function without blocks or loops, whose store's data comes from its own memory (a cycle
// through the interface, not a loop).
handshake.func @return_block_control(%memref: memref<64xi32>, %x: !handshake.channel<i32>, %memStart: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) {
  %done = lsq [%memref: memref<64xi32>] (%memStart, %c1#0, %stAddr, %stData, %c1#1) {groupSizes = [1 : i32], handshake.bb = 0 : ui32} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.control<>)
  %fork:2 = fork [2] %start {handshake.bb = 0 : ui32} : <>
  %ctrl = br %fork#0 {handshake.bb = 0 : ui32} : <>
  %c1:3 = fork [3] %ctrl {handshake.bb = 1 : ui32} : <>
  %addr = constant %c1#2 {value = 0 : i32, handshake.bb = 1 : ui32} : <>, <i32>
  %stAddr, %stData = store [%addr] %x {handshake.bb = 1 : ui32} : <i32>, <i32>, <i32>, <i32>
  end %done, %fork#1 {handshake.bb = 1 : ui32} : <>, <>
}

handshake.func @entry_store(%memref: memref<64xi32>, %x: !handshake.channel<i32>, %memStart: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) {
  %done = lsq [%memref: memref<64xi32>] (%memStart, %fork#0, %stAddr, %stData, %fork#1) {groupSizes = [1 : i32], handshake.bb = 0 : ui32} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.control<>)
  %fork:4 = fork [4] %start {handshake.bb = 0 : ui32} : <>
  %addr = constant %fork#2 {value = 0 : i32, handshake.bb = 0 : ui32} : <>, <i32>
  %stAddr, %stData = store [%addr] %x {handshake.bb = 0 : ui32} : <i32>, <i32>, <i32>, <i32>
  end %done, %fork#3 {handshake.bb = 0 : ui32} : <>, <>
}

handshake.func @no_blocks(%memref: memref<64xi32>, %x: !handshake.channel<i32>, %memStart: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) {
  %done = lsq [%memref: memref<64xi32>] (%memStart, %fork#0, %stAddr, %stData, %fork#1) {groupSizes = [1 : i32]} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.control<>)
  %fork:4 = fork [4] %start : <>
  %addr = constant %fork#2 {value = 0 : i32} : <>, <i32>
  %stAddr, %stData = store [%addr] %x : <i32>, <i32>, <i32>, <i32>
  end %done, %fork#3 : <>, <>
}

handshake.func @group_allocated_at_start(%memref: memref<64xi32>, %x: !handshake.channel<i32>, %memStart: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.control<>, !handshake.control<>) {
  %done = lsq [%memref: memref<64xi32>] (%memStart, %fork#0, %stAddr, %stData, %fork#1) {groupSizes = [1 : i32], handshake.bb = 0 : ui32} : (!handshake.control<>, !handshake.control<>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>) -> (!handshake.control<>)
  %fork:4 = fork [4] %start {handshake.bb = 0 : ui32} : <>
  %addr = constant %fork#2 {value = 0 : i32, handshake.bb = 0 : ui32} : <>, <i32>
  %stAddr, %stData = store [%addr] %x {handshake.bb = 1 : ui32} : <i32>, <i32>, <i32>, <i32>
  end %done, %fork#3 {handshake.bb = 1 : ui32} : <>, <>
}

handshake.func @read_modify_write(%mem: memref<64xi32>, %addr: !handshake.channel<i32>, %memStart: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) {
  %ldData, %memEnd = mem_controller[%mem : memref<64xi32>] %memStart (%ctrl, %ldAddr, %stAddr, %stData) %starts#1 {connectedBlocks = [0 : i32]} : (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>, !handshake.channel<i32>) -> !handshake.channel<i32>
  %starts:3 = fork [3] %start : <>
  %ctrl = constant %starts#0 {value = 1 : i32} : <>, <i32>
  %addrs:2 = fork [2] %addr : <i32>
  %ldAddr, %value = load [%addrs#0] %ldData : <i32>, <i32>, <i32>, <i32>
  %values:2 = fork [2] %value : <i32>
  %stAddr, %stData = store [%addrs#1] %values#0 : <i32>, <i32>, <i32>, <i32>
  end %values#1, %memEnd, %starts#2 : <i32>, <>, <>
}
