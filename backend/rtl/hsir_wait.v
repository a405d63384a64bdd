// hsir_wait: joins NT control tokens with in and passes in's data. out is valid when every tok
// and in are valid; all of them are consumed together when out is taken.
// Timing: purely combinational (no registers).
module hsir_wait #(
  parameter NT = 1,
  parameter W  = 1
) (
  input  [NT-1:0] tok_valid,
  output [NT-1:0] tok_ready,
  input  [W-1:0]  in_data,
  input           in_valid,
  output          in_ready,
  output [W-1:0]  out_data,
  output          out_valid,
  input           out_ready
);
  wire fire = out_valid & out_ready;

  assign out_valid = in_valid & (&tok_valid);
  assign out_data  = in_data;
  assign in_ready  = fire;
  assign tok_ready = {NT{fire}};
endmodule
