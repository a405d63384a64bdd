// circt-known-bug: the 1.62 wheel names both joins `handshake_join_in_ui32_2ins_1outs_ctrl`
// and then fails on the second (an `hw.instance` whose operand types do not match).
// Two joins that differ only in the order of a control and a data operand. CIRCT 1.62 gives
// both one module name and then fails; hsir names each unit by its port types
// (`hsir_join__ctrl_i32_to_ctrl`, `hsir_join__i32_ctrl_to_ctrl`).
handshake.func @join_orders(%a: i32, %b: i32, %c: none, %d: none) -> (none, none) attributes {argNames = ["a", "b", "c", "d"], resNames = ["first", "second"]} {
  %0 = join %c, %a : none, i32
  %1 = join %b, %d : i32, none
  return %0, %1 : none, none
}
