// hsir_carry: LOOM's `dataflow.carry`, a loop-carried value.
// Idle, it passes one init token to out (init consumed when out takes it) and starts running.
// Running, each cond token is consumed: a 1 passes one next token to out (cond and next are
// consumed together when out takes it), a 0 passes nothing and returns to idle. Per loop entry
// with N true conds, out gets N + 1 tokens: init, then N next values.
// Timing: out valid/data are combinational from the inputs and the running bit (a registered
// mode flag); readies are combinational. No path is broken.
module hsir_carry #(
  parameter W = 32
) (
  input          clk,
  input          rst,
  input          cond_data,
  input          cond_valid,
  output         cond_ready,
  input  [W-1:0] init_data,
  input          init_valid,
  output         init_ready,
  input  [W-1:0] next_data,
  input          next_valid,
  output         next_ready,
  output [W-1:0] out_data,
  output         out_valid,
  input          out_ready
);
  reg running;

  wire go   = running & cond_valid & cond_data;   // a true cond: pass next
  wire stop = running & cond_valid & ~cond_data;  // a false cond: back to idle

  assign out_valid  = running ? (go & next_valid) : init_valid;
  assign out_data   = running ? next_data : init_data;
  assign init_ready = ~running & out_ready;
  assign next_ready = go & out_ready;
  assign cond_ready = stop | (go & next_valid & out_ready);

  always @(posedge clk) begin
    if (rst)
      running <= 1'b0;
    else if (!running)
      running <= init_valid & out_ready;
    else if (stop)
      running <= 1'b0;
  end
endmodule
