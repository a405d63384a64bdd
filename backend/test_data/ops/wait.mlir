// wait (Dynamatic's proposal, seed 004): passes its last operand's token once every earlier
// operand has one too; the waited-for tokens are dropped. Any tokens.

handshake.func @wait_data(%x: !handshake.channel<i32>, %y: !handshake.channel<i32>, %start: !handshake.control<>) -> (!handshake.channel<i32>, !handshake.control<>) attributes {argNames = ["x", "y", "start"], resNames = ["out0", "end"]} {
  %r = wait %x, %y : (!handshake.channel<i32>, !handshake.channel<i32>) -> !handshake.channel<i32>
  end %r, %start : <i32>, <>
}

handshake.func @wait_control(%token: control, %z: channel<i16>, %start: control) -> (channel<i16>, control) {
  %s = wait %token, %z : (control, channel<i16>) -> channel<i16>
  end %s, %start : channel<i16>, control
}
