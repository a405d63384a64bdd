// hsir_invariant: LOOM's `dataflow.invariant`, a loop-invariant value repeated per iteration.
// Idle, it passes one in token to out (in consumed when out takes it), keeps its value and
// starts running. Running, each cond token is consumed: a 1 sends the kept value again (cond
// consumed when out takes it), a 0 sends nothing, drops the value and returns to idle. Per loop
// entry with N true conds, out gets N + 1 tokens.
// Timing: out valid/data are combinational from the inputs, the running bit and the kept value;
// readies are combinational. No path is broken.
module hsir_invariant #(
  parameter W = 32
) (
  input          clk,
  input          rst,
  input          cond_data,
  input          cond_valid,
  output         cond_ready,
  input  [W-1:0] in_data,
  input          in_valid,
  output         in_ready,
  output [W-1:0] out_data,
  output         out_valid,
  input          out_ready
);
  reg         running;
  reg [W-1:0] kept;

  wire go   = running & cond_valid & cond_data;
  wire stop = running & cond_valid & ~cond_data;

  assign out_valid  = running ? go : in_valid;
  assign out_data   = running ? kept : in_data;
  assign in_ready   = ~running & out_ready;
  assign cond_ready = stop | (go & out_ready);

  always @(posedge clk) begin
    if (rst)
      running <= 1'b0;
    else if (!running)
      running <= in_valid & out_ready;
    else if (stop)
      running <= 1'b0;
  end

  always @(posedge clk)
    if (!running && in_valid && out_ready) kept <= in_data;
endmodule
