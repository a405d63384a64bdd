// hsir_merge: non-deterministic merge of N channels, resolved by priority.
// The lowest-numbered valid input is offered on out and only that input is consumed when out
// is taken; the others wait.
// Timing: purely combinational (no registers).
module hsir_merge #(
  parameter N = 2,
  parameter W = 1
) (
  input  [N*W-1:0]   ins_data,
  input  [N-1:0]     ins_valid,
  output [N-1:0]     ins_ready,
  output reg [W-1:0] out_data,
  output             out_valid,
  input              out_ready
);
  integer i;
  reg [N-1:0] pick;   // one-hot: the lowest valid input
  reg         found;

  always @* begin
    found    = 1'b0;
    pick     = {N{1'b0}};
    out_data = {W{1'b0}};
    for (i = 0; i < N; i = i + 1) begin
      if (!found && ins_valid[i]) begin
        found    = 1'b1;
        pick[i]  = 1'b1;
        out_data = ins_data[i*W +: W];
      end
    end
  end

  assign out_valid = found;
  assign ins_ready = pick & {N{out_ready}};
endmodule
