// hsir_load: CIRCT's load port adapter between a circuit and a memory's load port.
// addr_out is the join of addr_in and ctrl (both consumed when addr_out is taken); the word
// coming back from memory on mem_data passes through to data_out.
// Timing: purely combinational (no registers).
module hsir_load #(
  parameter AW = 32,
  parameter W  = 32
) (
  input  [AW-1:0] addr_in_data,
  input           addr_in_valid,
  output          addr_in_ready,
  input           ctrl_valid,
  output          ctrl_ready,
  input  [W-1:0]  mem_data_data,
  input           mem_data_valid,
  output          mem_data_ready,
  output [W-1:0]  data_out_data,
  output          data_out_valid,
  input           data_out_ready,
  output [AW-1:0] addr_out_data,
  output          addr_out_valid,
  input           addr_out_ready
);
  wire fire = addr_out_valid & addr_out_ready;

  assign addr_out_valid = addr_in_valid & ctrl_valid;
  assign addr_out_data  = addr_in_data;
  assign addr_in_ready  = fire;
  assign ctrl_ready     = fire;

  assign data_out_data  = mem_data_data;
  assign data_out_valid = mem_data_valid;
  assign mem_data_ready = data_out_ready;
endmodule
