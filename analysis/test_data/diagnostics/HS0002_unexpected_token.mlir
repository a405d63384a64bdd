// Junk where an operation should start, and closers nobody opened.
handshake.func @f(%a: i32) -> i32 {
  // expected-error @+1 {{HS0002: expected an operation}}
  : i32 = what
  // expected-error @+1 {{HS0002: expected `=` after the result names}}
  %x %y
  // expected-error @+1 {{HS0002: unexpected closing delimiter}}
  %0 = buffer [1] seq %a : i32 )
  return %0 : i32
}
// expected-error @+1 {{HS0002: unexpected closing delimiter}}
}
// expected-error @+1 {{HS0002: `#-}` without a `{-#` before it}}
#-}
