// hsir_fork: eager fork of one channel into N copies.
// Each output offers the input token until it has taken its copy; a "sent" bit per output
// remembers the copies already delivered, and the input is consumed in the cycle the last
// missing copy is taken (then every sent bit clears).
// Timing: out_valid and out_data are combinational from the input; in_ready is combinational
// from out_ready and the registered sent bits. No path is broken.
module hsir_fork #(
  parameter N = 2,
  parameter W = 1
) (
  input              clk,
  input              rst,
  input  [W-1:0]     in_data,
  input              in_valid,
  output             in_ready,
  output [N*W-1:0]   out_data,
  output [N-1:0]     out_valid,
  input  [N-1:0]     out_ready
);
  reg  [N-1:0] sent;
  wire [N-1:0] done = sent | out_ready;

  assign in_ready  = &done;
  assign out_valid = {N{in_valid}} & ~sent;
  assign out_data  = {N{in_data}};

  always @(posedge clk) begin
    if (rst)
      sent <= {N{1'b0}};
    else if (in_valid && in_ready)
      sent <= {N{1'b0}};
    else
      sent <= sent | (out_valid & out_ready);
  end
endmodule
