// hsir_one_slot_break_dv: ONE_SLOT_BREAK_DV (OEHB), one slot.
// Data and valid are registered (latency D = 1, V = 1); ready passes through combinationally
// (R = 0): in_ready = !out_valid || out_ready. Full throughput.
// Reset: the slot holds a token carrying INIT_DATA when INIT_VALID is nonzero, else it is empty.
module hsir_one_slot_break_dv #(
  parameter         W          = 1,
  parameter         INIT_VALID = 0,
  parameter [W-1:0] INIT_DATA  = {W{1'b0}}
) (
  input              clk,
  input              rst,
  input  [W-1:0]     in_data,
  input              in_valid,
  output             in_ready,
  output reg [W-1:0] out_data,
  output reg         out_valid,
  input              out_ready
);
  assign in_ready = ~out_valid | out_ready;

  always @(posedge clk) begin
    if (rst) begin
      out_valid <= (INIT_VALID != 0);
      out_data  <= INIT_DATA;
    end else if (in_ready) begin
      out_valid <= in_valid;
      if (in_valid) out_data <= in_data;
    end
  end
endmodule
