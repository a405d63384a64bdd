// Dynamatic's `reshape`, which moves a channel's extra signals into its data or into one
// combined signal, and back.

// Dynamatic 2026.
handshake.func @reshape_2026(%a: !handshake.channel<f32, [down1: i16, down2: i16]>, %b: !handshake.channel<f32, [up1: i1 (U), up2: i2 (U)]>, %start: !handshake.control<>) -> (!handshake.channel<f32, [mergedDown: i32]>, !handshake.channel<f32, [mergedUp: i3 (U)]>, !handshake.control<>) {
  %merged = reshape [MergeExtra] %a : <f32, [down1: i16, down2: i16]> -> <f32, [mergedDown: i32]>
  %up = reshape [MergeExtra] %b : <f32, [up1: i1 (U), up2: i2 (U)]> -> <f32, [mergedUp: i3 (U)]>
  end %merged, %up, %start : <f32, [mergedDown: i32]>, <f32, [mergedUp: i3 (U)]>, <>
}

// -----

// Dynamatic type-system proposal: `channel<T>` and `control`.
handshake.func @reshape_proposal(%a: channel<f32, [down: i2]>, %start: control) -> (channel<i34>, control) {
  %data = reshape [MergeData] %a : channel<f32, [down: i2]> -> channel<i34>
  end %data, %start : channel<i34>, control
}
