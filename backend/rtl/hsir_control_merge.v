// hsir_control_merge: merge that also reports which input it took.
// The lowest-numbered valid input is chosen; its data goes to out and its number to index.
// out and index are taken independently (like an eager fork); a choice not fully taken in the
// cycle it is made is registered and held (data and index stay stable) until both have been
// taken, and the chosen input is consumed in the cycle the second one is taken.
// Timing: out/index valid and data are combinational from the inputs and the registered state;
// ready paths are combinational. No path is broken.
module hsir_control_merge #(
  parameter N  = 2,
  parameter W  = 1,
  parameter IW = 1
) (
  input               clk,
  input               rst,
  input  [N*W-1:0]    ins_data,
  input  [N-1:0]      ins_valid,
  output [N-1:0]      ins_ready,
  output reg [W-1:0]  out_data,
  output              out_valid,
  input               out_ready,
  output reg [IW-1:0] index_data,
  output              index_valid,
  input               index_ready
);
  integer i;
  reg           holding;    // a choice was offered and not fully taken: keep it
  reg  [N-1:0]  held;       // that choice, one-hot
  reg           sent_out;
  reg           sent_index;
  reg  [N-1:0]  lowest;     // one-hot: the lowest valid input
  reg           found;
  reg  [IW-1:0] k;
  wire [N-1:0]  pick = holding ? held : lowest;
  wire          any  = holding | found;
  wire          done = (sent_out | out_ready) & (sent_index | index_ready);
  wire          fire = any & done;

  always @* begin
    found  = 1'b0;
    lowest = {N{1'b0}};
    for (i = 0; i < N; i = i + 1) begin
      if (!found && ins_valid[i]) begin
        found     = 1'b1;
        lowest[i] = 1'b1;
      end
    end
  end

  always @* begin
    out_data   = {W{1'b0}};
    index_data = {IW{1'b0}};
    k          = {IW{1'b0}};
    for (i = 0; i < N; i = i + 1) begin
      if (pick[i]) begin
        out_data   = ins_data[i*W +: W];
        index_data = k;
      end
      k = k + 1'b1;
    end
  end

  assign out_valid   = any & ~sent_out;
  assign index_valid = any & ~sent_index;
  assign ins_ready   = pick & {N{fire}};

  always @(posedge clk) begin
    if (rst) begin
      sent_out   <= 1'b0;
      sent_index <= 1'b0;
      holding    <= 1'b0;
    end else if (fire) begin
      sent_out   <= 1'b0;
      sent_index <= 1'b0;
      holding    <= 1'b0;
    end else begin
      sent_out   <= sent_out | (out_valid & out_ready);
      sent_index <= sent_index | (index_valid & index_ready);
      if (found) holding <= 1'b1;
    end
  end

  always @(posedge clk) begin
    if (!holding) held <= lowest;
  end
endmodule
