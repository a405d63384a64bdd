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
  output [N-1:0]     out_valid,
  input  [N-1:0]     out_ready
);
  assign in_ready = &out_ready;
  assign out_data = {N{in_data}};

  // Output i is valid when the input is and every other output is ready. (A generate loop of
  // continuous assignments: simulators evaluate those at time 0.)
  genvar g;
  generate
    for (g = 0; g < N; g = g + 1) begin : outs
      wire [N-1:0] others = out_ready | ({{(N-1){1'b0}}, 1'b1} << g);
      assign out_valid[g] = in_valid & (&others);
    end
  endgenerate
endmodule
