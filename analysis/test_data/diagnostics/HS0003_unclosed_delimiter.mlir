// Openers that are never closed; the recovery stops at the next definition or function.
// expected-error @+1 {{HS0003: unclosed `{`: expected `}`}}
handshake.func @one(%a: i32) -> i32 {
  // expected-error @+1 {{HS0003: unclosed `(`: expected `)`}}
  %0 = "handshake.buffer"(%a : (i32) -> i32
  // expected-error @+1 {{HS0003: unclosed `[`: expected `]`}}
  %1 = fork [1 %0 : i32
  return %1 : i32

handshake.func @two(%a: i32) -> i32 {
  return %a : i32
}

// -----

// expected-error @+1 {{HS0003: unclosed `{-#`: expected `#-}`}}
{-# dialect_resources: { builtin: {} }
