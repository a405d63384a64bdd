// Top-level constructs: aliases, resource blocks, named modules, split markers.
#map = affine_map<(d0, d1) -> (d0 + d1 * 4)>
#loc0 = loc("kernel.c":12:3)
!chan = !handshake.channel<i32, [tag: i2]>
!tup = tuple<i32, f32, index>

module @named attributes {circt.loweringOptions = "disallowLocalVariables", unit_attr} {
  func.func private @decl(memref<?x8xf32>, !esi.channel<i32>, !seq.clock) -> (f64, bf16)
  func.func @consts() -> tensor<2xi32> {
    %0 = arith.constant dense<[1, -2]> : tensor<2xi32>
    %1 = arith.constant 1.5e-3 : f32
    %2 = arith.constant 0x7FC00000 : f32
    %3 = "test.op"() {typed = 4 : ui32, neg = -7 : si8, str = "a\"b", sym = @a::@b, map = #map} : () -> (!chan)
    return %0 : tensor<2xi32>
  }
}

// -----

hw.module.extern @ext(in %a : !handshake.channel<i32>, out b : !handshake.control<>) attributes {hw.name = "ext"}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x08000000010000000200000003000000"
    }
  }
#-}
