// CIRCT's buffers: `seq` and `fifo` with several slots, and `initValues`, which put tokens in
// the buffer at reset. Stage i holds `initValues[i]`, stage 0 nearest the input (as CIRCT's
// HandshakeToHW builds it), so the last listed value leaves first: `[5, 9]` gives 9, then 5,
// then the inputs. hsir asks for one initial value per slot. Any tokens.

handshake.func @seq(%a: i32) -> i32 {
  %0 = buffer [2] seq %a : i32
  return %0 : i32
}

handshake.func @fifo(%a: i32) -> i32 {
  %0 = buffer [2] fifo %a : i32
  return %0 : i32
}

handshake.func @seq_init(%a: i32) -> i32 {
  %0 = buffer [2] seq %a {initValues = [5, 9]} : i32
  return %0 : i32
}

handshake.func @seq_init_three(%a: i16) -> i16 {
  %0 = buffer [3] seq %a {initValues = [1, 2, 3]} : i16
  return %0 : i16
}

handshake.func @seq_init_control(%ctrl: none) -> none {
  %0 = buffer [1] seq %ctrl {initValues = [0]} : none
  return %0 : none
}
