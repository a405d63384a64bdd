// hsir_one_slot_break_r: ONE_SLOT_BREAK_R (TEHB), one slot.
// Data and valid pass through combinationally while the slot is empty (D = 0, V = 0); a token
// offered while out_ready is low is kept in the slot and offered from there. in_ready is
// registered (R = 1): in_ready = !full.
module hsir_one_slot_break_r #(
  parameter W = 1
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
  reg         full;
  reg [W-1:0] slot;

  assign in_ready  = ~full;
  assign out_valid = full | in_valid;
  assign out_data  = full ? slot : in_data;

  always @(posedge clk) begin
    if (rst) begin
      full <= 1'b0;
    end else if (full) begin
      if (out_ready) full <= 1'b0;
    end else if (in_valid && !out_ready) begin
      full <= 1'b1;
    end
  end

  always @(posedge clk)
    if (!full && in_valid && !out_ready) slot <= in_data;
endmodule
