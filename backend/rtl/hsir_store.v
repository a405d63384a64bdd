// hsir_store: CIRCT's store port adapter between a circuit and a memory's store port.
// Joins addr_in, data_in and ctrl, then sends data_out and addr_out together as a lazy fork:
// each output is valid only when the three inputs are valid and the other output is ready, so
// both move in the same cycle, and the three inputs are consumed then.
// Timing: purely combinational (no registers).
module hsir_store #(
  parameter AW = 32,
  parameter W  = 32
) (
  input  [AW-1:0] addr_in_data,
  input           addr_in_valid,
  output          addr_in_ready,
  input  [W-1:0]  data_in_data,
  input           data_in_valid,
  output          data_in_ready,
  input           ctrl_valid,
  output          ctrl_ready,
  output [W-1:0]  data_out_data,
  output          data_out_valid,
  input           data_out_ready,
  output [AW-1:0] addr_out_data,
  output          addr_out_valid,
  input           addr_out_ready
);
  wire all_in = addr_in_valid & data_in_valid & ctrl_valid;
  wire fire   = all_in & data_out_ready & addr_out_ready;

  assign data_out_data  = data_in_data;
  assign addr_out_data  = addr_in_data;
  assign data_out_valid = all_in & addr_out_ready;
  assign addr_out_valid = all_in & data_out_ready;
  assign addr_in_ready  = fire;
  assign data_in_ready  = fire;
  assign ctrl_ready     = fire;
endmodule
