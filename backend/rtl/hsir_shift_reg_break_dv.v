// hsir_shift_reg_break_dv: SHIFT_REG_BREAK_DV, SLOTS data/valid registers under one enable.
// All stages shift together when en = !out_valid || out_ready; in_ready = en. out_valid and
// out_data are the last stage's registers (D = 1, V = 1, a token needs SLOTS cycles to cross an
// unstalled buffer); ready is combinational (R = 0). A stalled output stalls every stage,
// bubbles included.
module hsir_shift_reg_break_dv #(
  parameter W     = 1,
  parameter SLOTS = 2
) (
  input          clk,
  input          rst,
  input  [W-1:0] in_data,
  input          in_valid,
  output         in_ready,
  output [W-1:0] out_data,
  output         out_valid,
  input          out_ready
);
  reg [SLOTS*W-1:0] data;
  reg [SLOTS-1:0]   valid;
  wire              en = ~out_valid | out_ready;

  assign in_ready  = en;
  assign out_valid = valid[SLOTS-1];
  assign out_data  = data[(SLOTS-1)*W +: W];

  genvar s;
  generate
    for (s = 0; s < SLOTS; s = s + 1) begin : stage
      wire [W-1:0] d_in;
      wire         v_in;
      if (s == 0) begin : first
        assign d_in = in_data;
        assign v_in = in_valid;
      end else begin : later
        assign d_in = data[(s-1)*W +: W];
        assign v_in = valid[s-1];
      end
      always @(posedge clk) begin
        if (rst)
          valid[s] <= 1'b0;
        else if (en)
          valid[s] <= v_in;
      end
      always @(posedge clk)
        if (en) data[s*W +: W] <= d_in;
    end
  endgenerate
endmodule
