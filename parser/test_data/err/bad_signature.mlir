// A function whose signature cannot be read still gets its body parsed.
handshake.func @f(%a i32) -> i32 {
  %0 = join %a : i32
  return %0 : none
}
handshake.func {
  return
}
