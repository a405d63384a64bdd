// hsir_cond_br: conditional branch.
// Joins cond and in; the data goes to true when cond is 1, else to false. cond and in are
// consumed together when the chosen output takes the token.
// Timing: purely combinational (no registers).
module hsir_cond_br #(
  parameter W = 1
) (
  input          cond_data,
  input          cond_valid,
  output         cond_ready,
  input  [W-1:0] in_data,
  input          in_valid,
  output         in_ready,
  output [W-1:0] true_data,
  output         true_valid,
  input          true_ready,
  output [W-1:0] false_data,
  output         false_valid,
  input          false_ready
);
  wire both = cond_valid & in_valid;
  wire fire = both & (cond_data ? true_ready : false_ready);

  assign true_data   = in_data;
  assign false_data  = in_data;
  assign true_valid  = both & cond_data;
  assign false_valid = both & ~cond_data;
  assign cond_ready  = fire;
  assign in_ready    = fire;
endmodule
