// bundle / unbundle and compose / decompose are wiring. A channel's data bus carries its data
// in the low bits and its downstream extra signals above, in order; unbundle gives the control
// token and each signal as a raw value, bundle puts them back; compose and decompose change
// how the same bits are typed.

handshake.func @unbundle_bundle(%a: !handshake.channel<i32, [tag: i2]>, %start: !handshake.control<>) -> (!handshake.channel<i32, [tag: i2]>, !handshake.control<>) {
  %ctrl, %data, %tag = unbundle %a : <i32, [tag: i2]> to _
  %again = bundle %ctrl, %data, %tag : _ to <i32, [tag: i2]>
  end %again, %start : <i32, [tag: i2]>, <>
}

handshake.func @compose_decompose(%a: channel<i32, [i2, i4]>, %start: control) -> (channel<i38>, channel<i32, [i2, i4]>, control) {
  %forks:2 = fork [2] %a : channel<i32, [i2, i4]>
  %wide = compose %forks#0 : channel<i32, [i2, i4]> -> channel<i38>
  %grouped = compose %forks#1 : channel<i32, [i2, i4]> -> channel<i32, [i6]>
  %back = decompose %grouped : channel<i32, [i6]> -> channel<i32, [i2, i4]>
  end %wide, %back, %start : channel<i38>, channel<i32, [i2, i4]>, control
}
