// hsir_select: joins cond, t and f; out_data = cond ? t : f. All three inputs are consumed
// together when out is taken.
// Timing: purely combinational (no registers).
module hsir_select #(
  parameter W = 1
) (
  input          cond_data,
  input          cond_valid,
  output         cond_ready,
  input  [W-1:0] t_data,
  input          t_valid,
  output         t_ready,
  input  [W-1:0] f_data,
  input          f_valid,
  output         f_ready,
  output [W-1:0] out_data,
  output         out_valid,
  input          out_ready
);
  wire fire = out_valid & out_ready;

  assign out_valid  = cond_valid & t_valid & f_valid;
  assign out_data   = cond_data ? t_data : f_data;
  assign cond_ready = fire;
  assign t_ready    = fire;
  assign f_ready    = fire;
endmodule
