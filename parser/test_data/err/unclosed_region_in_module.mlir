// The same inside a module: function 1 loses its `}`, the module still closes.
module {
  func.func @one(%a: i32) -> i32 {
    %0 = arith.addi %a, %a : i32
    return %0 : i32

  func.func @two(%a: i32) -> i32 {
    return %a : i32
  }
}
