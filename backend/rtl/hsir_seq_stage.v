// hsir_seq_stage: one stage of CIRCT's `buffer [N] seq`: an OEHB (data/valid register) followed
// by a TEHB (ready-breaking slot), so every path is broken: out data/valid come from registers
// (D = 1, V = 1) and in_ready depends only on registers (R = 1). Holds up to two tokens; full
// throughput. The netlist chains N stages.
// Reset: the data/valid register holds a token carrying INIT_DATA when INIT_VALID is nonzero.
module hsir_seq_stage #(
  parameter         W          = 1,
  parameter         INIT_VALID = 0,
  parameter [W-1:0] INIT_DATA  = {W{1'b0}}
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
  // OEHB part.
  reg         a_valid;
  reg [W-1:0] a_data;
  // TEHB part.
  reg         b_full;
  reg [W-1:0] b_data;

  wire a_ready = ~b_full;

  assign in_ready  = ~a_valid | a_ready;
  assign out_valid = b_full | a_valid;
  assign out_data  = b_full ? b_data : a_data;

  always @(posedge clk) begin
    if (rst) begin
      a_valid <= (INIT_VALID != 0);
      a_data  <= INIT_DATA;
    end else if (in_ready) begin
      a_valid <= in_valid;
      if (in_valid) a_data <= in_data;
    end
  end

  always @(posedge clk) begin
    if (rst)
      b_full <= 1'b0;
    else if (b_full)
      b_full <= ~out_ready;
    else
      b_full <= a_valid & ~out_ready;
  end

  always @(posedge clk)
    if (!b_full && a_valid && !out_ready) b_data <= a_data;
endmodule
