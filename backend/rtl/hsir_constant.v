// hsir_constant: turns each control token into one token carrying VALUE.
// Timing: purely combinational (no registers).
module hsir_constant #(
  parameter         W     = 1,
  parameter [W-1:0] VALUE = {W{1'b0}}
) (
  input          ctrl_valid,
  output         ctrl_ready,
  output [W-1:0] out_data,
  output         out_valid,
  input          out_ready
);
  assign out_data   = VALUE;
  assign out_valid  = ctrl_valid;
  assign ctrl_ready = out_ready;
endmodule
