// Required pieces that are missing.
handshake.func @f(%a: i32) -> (i32, i32) {
  // expected-error @+1 {{HS0004: expected an operation name after `=`}}
  %0 =
  // expected-error @+1 {{HS0004: expected a type after `:`}}
  %1 = buffer [1] seq %a :
  return %1, %0 : i32, i32
}
// expected-error @+1 {{HS0004: expected a function signature}}
handshake.func @g(: i32) {
  return
}
// expected-error @+1 {{HS0004: expected a value after `=` in an alias definition}}
#alias =
