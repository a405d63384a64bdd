// An unclosed function body gives up at a `module` op even when the module has no region and
// the statements before it are of the everyday shape.
handshake.func @f(%a: i32, %c: none) -> none {
  %0 = join %a : i32
  sink %0 : none
module attributes {hw.top}
%1 = source
