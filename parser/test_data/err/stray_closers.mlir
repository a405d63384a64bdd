// Closers nobody opened are errors where they stand; nothing else is disturbed.
)
handshake.func @f(%a: i32) -> i32 {
  %0 = join %a : i32 ]
  return %a : i32
}
}
