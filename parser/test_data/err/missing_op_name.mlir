// A result list with no op after it, then a line of junk: both are errors and the ops around
// them parse normally.
handshake.func @f(%a: i32, %ctrl: none) -> (i32, none) {
  %0 =
  %1 = fork [2] %a : i32
  : i32 = what
  return %1#0, %ctrl : i32, none
}
