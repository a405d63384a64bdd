// `:` with no type before the end of the statement.
handshake.func @f(%a: i32) -> i32 {
  %0 = buffer [1] seq %a :
  return %0 : i32
}
