// hsir_join: synchronises N control channels into one.
// out is valid when every input is valid; all inputs are consumed together when out is taken.
// Timing: purely combinational (no registers).
module hsir_join #(
  parameter N = 2
) (
  input  [N-1:0] ins_valid,
  output [N-1:0] ins_ready,
  output         out_valid,
  input          out_ready
);
  assign out_valid = &ins_valid;
  assign ins_ready = {N{out_valid & out_ready}};
endmodule
