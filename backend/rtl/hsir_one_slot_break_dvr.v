// hsir_one_slot_break_dvr: ONE_SLOT_BREAK_DVR, one slot with every path registered.
// out_valid = full and out_data come from the slot register (D = 1, V = 1); in_ready = !full
// is registered too (R = 1). A token is accepted only into an empty slot, so the buffer passes
// at most one token every two cycles.
module hsir_one_slot_break_dvr #(
  parameter W = 1
) (
  input              clk,
  input              rst,
  input  [W-1:0]     in_data,
  input              in_valid,
  output             in_ready,
  output reg [W-1:0] out_data,
  output             out_valid,
  input              out_ready
);
  reg full;

  assign in_ready  = ~full;
  assign out_valid = full;

  always @(posedge clk) begin
    if (rst)
      full <= 1'b0;
    else if (full)
      full <= ~out_ready;
    else
      full <= in_valid;
  end

  always @(posedge clk)
    if (!full && in_valid) out_data <= in_data;
endmodule
