// hsir_gate: LOOM's `dataflow.gate`, which turns a stream's N + 1 (value, raw cond) pairs into
// N (value, after_cond) pairs.
// It holds at most one value. Each (in, cond) pair is consumed together: if a value is held,
// the pair first sends (held value on out, cond on after), out and after being taken
// independently (like an eager fork), and is consumed once both are taken; with nothing held it
// is consumed at once and sends nothing. Then in is held if cond is 1, else nothing is held.
// Timing: out/after valid and data are combinational from in/cond valid, cond and the held
// register; in/cond ready is combinational. No path is broken.
module hsir_gate #(
  parameter W = 32
) (
  input          clk,
  input          rst,
  input  [W-1:0] in_data,
  input          in_valid,
  output         in_ready,
  input          cond_data,
  input          cond_valid,
  output         cond_ready,
  output [W-1:0] out_data,
  output         out_valid,
  input          out_ready,
  output         after_data,
  output         after_valid,
  input          after_ready
);
  reg         held;
  reg [W-1:0] value;
  reg         sent_out;
  reg         sent_after;

  wire both = in_valid & cond_valid;
  wire done = ~held | ((sent_out | out_ready) & (sent_after | after_ready));
  wire fire = both & done;

  assign in_ready    = fire;
  assign cond_ready  = fire;
  assign out_data    = value;
  assign out_valid   = both & held & ~sent_out;
  assign after_data  = cond_data;
  assign after_valid = both & held & ~sent_after;

  always @(posedge clk) begin
    if (rst) begin
      held       <= 1'b0;
      sent_out   <= 1'b0;
      sent_after <= 1'b0;
    end else if (fire) begin
      held       <= cond_data;
      sent_out   <= 1'b0;
      sent_after <= 1'b0;
    end else begin
      sent_out   <= sent_out | (out_valid & out_ready);
      sent_after <= sent_after | (after_valid & after_ready);
    end
  end

  always @(posedge clk)
    if (fire && cond_data) value <= in_data;
endmodule
