// hsir_lazy_fork: lazy fork of one channel into N copies.
// Output i is valid when the input is valid and every other output is ready, so all copies
// move in the same cycle and the input is consumed then (in_ready = every output ready).
// Timing: purely combinational (no registers).
module hsir_lazy_fork #(
  parameter N = 2,
  parameter W = 1
) (
  input  [W-1:0]     in_data,
  input              in_valid,
  output             in_ready,
  output [N*W-1:0]   out_data,
  output reg [N-1:0] out_valid,
  input  [N-1:0]     out_ready
);
  integer i;
  integer j;
  reg others;

  assign in_ready = &out_ready;
  assign out_data = {N{in_data}};

  always @* begin
    for (i = 0; i < N; i = i + 1) begin
      others = 1'b1;
      for (j = 0; j < N; j = j + 1)
        if (j != i) others = others & out_ready[j];
      out_valid[i] = in_valid & others;
    end
  end
endmodule
