// A broken function next to good ones: the broken one is left exactly as written.
handshake.func @good_before(%a :i32)->i32 {
      return %a:i32
}

handshake.func @broken(%a: i32) -> i32 {
      %0 = fork [1 %a : i32
   %1   =   buffer [2] seq %a : i32
  return %0 : i32

handshake.func @good_after(%a: i32, %ctrl: none) -> (i32, none) {
      %0 = buffer [2]   seq %a : i32
  return %0, %ctrl : i32, none
}

// -----

  // -----  
handshake.func @split(%a: i32) -> i32 {
    return %a : i32
}
