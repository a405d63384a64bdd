// Memory ops: one data and one address operand per store port, one address per load port;
// one data result per load port, then one done token per port.
handshake.func @memory_operands(%stData: i32, %stAddr: index, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1208: `memory` with 1 load port and 1 store port takes 3 operands (data and address per store, address per load), 2 given}}
  %0:3 = memory [ld = 1, st = 1] (%stData, %stAddr) {id = 0 : i32, lsq = false} : memref<10xi32>, (i32, index) -> (i32, none, none)
  %1 = join %0#1, %0#2, %ctrl : none, none, none
  return %0#0, %1 : i32, none
}

// -----

handshake.func @memory_results(%ldAddr: index, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1208: `memory` with 1 load port and 0 store ports gives 2 results (data per load, then a done token per port), 1 bound}}
  %0 = memory [ld = 1, st = 0] (%ldAddr) {id = 0 : i32, lsq = false} : memref<10xi32>, (index) -> (i32)
  return %0, %ctrl : i32, none
}

// -----

handshake.func @memory_lsq(%ctrl: none) -> none {
  // expected-error @+1 {{HS1208: `memory` needs an `lsq` attribute (`lsq = false` for a plain memory)}}
  memory [ld = 0, st = 0] () {id = 0 : i32} : memref<10xi8>, () -> ()
  return %ctrl : none
}

// -----

handshake.func @memory_shape(%ctrl: none) -> none {
  // expected-error @+1 {{HS1208: a Handshake memory has one dimension; `memref<10x10xi8>` has 2}}
  memory [ld = 0, st = 0] () {id = 0 : i32, lsq = false} : memref<10x10xi8>, () -> ()
  // expected-error @+1 {{HS1208: a Handshake memory has a static size; `memref<?xi8>` has a dynamic one}}
  memory [ld = 0, st = 0] () {id = 1 : i32, lsq = false} : memref<?xi8>, () -> ()
  return %ctrl : none
}

// -----

// `extmemory`'s first operand is the memref; the ports follow.
handshake.func @extmemory(%m: memref<4xi32>, %ldAddr: index, %extra: index, %ctrl: none) -> (i32, none) {
  // expected-error @+1 {{HS1208: `extmemory` with 1 load port and 0 store ports takes 1 operand (}}
  %ld, %done = extmemory [ld = 1, st = 0] (%m : memref<4xi32>) (%ldAddr, %extra) {id = 0 : i32} : (index, index) -> (i32, none)
  %1 = join %done, %ctrl : none, none
  return %ld, %1 : i32, none
}

// -----

// Dynamatic's memory interfaces list one type per parenthesised port.
handshake.func @mem_controller(%m: memref<8xi32>, %memStart: !handshake.control<>, %a0: !handshake.channel<i3>, %a1: !handshake.channel<i3>, %ctrlEnd: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.channel<i32>, !handshake.control<>, !handshake.control<>) {
  // expected-error @+1 {{HS1208: `mem_controller` lists 1 port type for 2 port operands}}
  %ld0, %ld1, %memEnd = mem_controller [%m : memref<8xi32>] %memStart (%a0, %a1) %ctrlEnd {connectedBlocks = [0 : i32]} : (!handshake.channel<i3>) -> (!handshake.channel<i32>, !handshake.channel<i32>)
  end %ld0, %ld1, %memEnd, %start : <i32>, <i32>, <>, <>
}

// -----

handshake.func @lsq(%m: memref<8xi32>, %memStart: !handshake.control<>, %group: !handshake.control<>, %a0: !handshake.channel<i3>, %ctrlEnd: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) {
  // expected-error @+1 {{HS1208: `lsq` lists 2 port types for 4 port operands}}
  %ld, %memEnd = lsq [%m : memref<8xi32>] (%memStart, %group, %a0, %ctrlEnd) {groupSizes = [1 : i32]} : (!handshake.control<>, !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>)
  end %ld, %memEnd, %start : <i32>, <>, <>
}

// -----

// Valid.
handshake.func @valid_circt(%m: memref<4xi32>, %stData: i32, %stAddr: index, %ldAddr: index, %ctrl: none) -> (i32, i32, none) {
  %ld, %stDone, %ldDone = extmemory [ld = 1, st = 1] (%m : memref<4xi32>) (%stData, %stAddr, %ldAddr) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %0:2 = memory [ld = 1, st = 0] (%ldAddr2) {id = 1 : i32, lsq = false} : memref<16xi32>, (index) -> (i32, none)
  %c:3 = fork [3] %ctrl : none
  %ldAddr2 = constant %c#0 {value = 3 : index} : index
  %1 = join %stDone, %ldDone, %0#1, %c#1 : none, none, none, none
  sink %c#2 : none
  return %ld, %0#0, %1 : i32, i32, none
}

handshake.func @valid_dynamatic(%m: memref<8xi32>, %memStart: !handshake.control<>, %a0: !handshake.channel<i3>, %ctrlEnd: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>, !handshake.control<>) {
  %ld0, %memEnd = mem_controller [%m : memref<8xi32>] %memStart (%a0) %ctrlEnd {connectedBlocks = [0 : i32]} : (!handshake.channel<i3>) -> !handshake.channel<i32>
  end %ld0, %memEnd, %start : <i32>, <>, <>
}
