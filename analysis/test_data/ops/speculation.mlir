// Dynamatic's speculation ops (2025 on): a speculator predicts a token ahead of the real one,
// save units hold tokens until the prediction is resolved, commit units let them go or drop
// them.

// Dynamatic 2026.
handshake.func @speculation_2026(%data: !handshake.channel<i32>, %trigger: !handshake.control<>, %ctrl: !handshake.channel<i1>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %predicted, %save_ctrl, %commit_ctrl, %sc_save, %sc_commit, %sc_branch = speculator[%trigger] %data : <i32, [spec: i1]>, <>, <i1>, <i1>, <i3>, <i3>, <i1>
  %saved = spec_save[%save_ctrl] %predicted : <i32>, <i1>
  %kept = spec_save_commit[%sc_save] %saved : <i32>, <i3>
  %true, %false = speculating_branch[%sc_branch] %kept : <i1>, <i32>
  sink %false : <i32>
  %plain = non_spec %true : <i32> to <i32, [spec: i1]>
  %out = spec_commit[%commit_ctrl] %plain : <i32, [spec: i1]>, <i32>, <i1>
  sink %sc_commit : <i3>
  sink %ctrl : <i1>
  end %out, %start : <i32>, <>
}

// -----

// Dynamatic 2025 (a buffer of `NUM_SLOTS` and `TIMING` says so).
handshake.func @speculation_2025(%data: !handshake.channel<i32>, %trigger: !handshake.control<>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) {
  %predicted, %save_ctrl, %commit_ctrl, %sc_save, %sc_commit, %sc_branch = speculator[%trigger] %data : <i32, [spec: i1]>, <>, <i1>, <i1>, <i3>, <i3>, <i1>
  %saved = spec_save[%save_ctrl] %predicted : <i32>, <i1>
  %kept = spec_save_commit[%sc_save] %saved : <i32>, <i3>
  %true, %false = speculating_branch[%sc_branch] %kept : <i1>, <i32>
  sink %false : <i32>
  sink %sc_commit : <i3>
  %out = spec_commit[%commit_ctrl] %true : <i32, [spec: i1]>, <i32>, <i1>
  %b = buffer %out {hw.parameters = {NUM_SLOTS = 1 : ui32, TIMING = #handshake<timing {D: 1, V: 1, R: 0}>}} : <i32>
  end %b, %start : <i32>, <>
}
