// hsir_merge: non-deterministic merge of N channels, resolved by priority, ending in a
// ready-breaking slot (as Dynamatic's merge, whose RTL ends in a TEHB).
// The lowest-numbered valid input passes. When the output does not take it, it is kept in the
// slot (the input is consumed) and the slot's token is offered until it is taken; while the
// slot is full no input is consumed.
// Timing: data and valid pass combinationally when the slot is empty; ready is registered
// (`ins_ready` depends on the slot only), so ready paths are broken here.
module hsir_merge #(
  parameter N = 2,
  parameter W = 1
) (
  input              clk,
  input              rst,
  input  [N*W-1:0]   ins_data,
  input  [N-1:0]     ins_valid,
  output [N-1:0]     ins_ready,
  output [W-1:0]     out_data,
  output             out_valid,
  input              out_ready
);
  // Combinational logic is written as functions in continuous assignments, which simulators
  // evaluate at time 0 (an `always @*` waits for its first input change).
  // The lowest set bit of v, one-hot.
  function [N-1:0] lowest;
    input [N-1:0] v;
    begin
      lowest = v & (~v + {{(N-1){1'b0}}, 1'b1});
    end
  endfunction

  // The channel of `data` that the one-hot `pick` names (0 when none).
  function [W-1:0] select;
    input [N*W-1:0] data;
    input [N-1:0]   pick;
    integer i;
    begin
      select = {W{1'b0}};
      for (i = 0; i < N; i = i + 1)
        select = select | (data[i*W +: W] & {W{pick[i]}});
    end
  endfunction

  wire [N-1:0] pick   = lowest(ins_valid);  // one-hot: the lowest valid input
  wire         chosen = |ins_valid;
  wire [W-1:0] picked = select(ins_data, pick);

  reg         full;
  reg [W-1:0] slot;

  assign out_valid = full | chosen;
  assign out_data  = full ? slot : picked;
  assign ins_ready = pick & {N{~full}};

  always @(posedge clk) begin
    if (rst)
      full <= 1'b0;
    else if (full)
      full <= ~out_ready;
    else
      full <= chosen & ~out_ready;
  end

  always @(posedge clk) begin
    if (!full) slot <= picked;
  end
endmodule
