// hsir_control_merge: merge that also reports which input it took, ending in a ready-breaking
// slot (as Dynamatic's control_merge, whose RTL ends in a TEHB) followed by an eager fork of
// the token and its index.
// The lowest-numbered valid input is chosen; its data goes to out and its number to index.
// out and index are taken independently. When they are not both taken in the cycle the choice
// is made, the token and its index are kept in the slot (the input is consumed), so the choice
// never changes once offered; while the slot is full no input is consumed.
// Timing: data and valid pass combinationally when the slot is empty; ready is registered
// (`ins_ready` depends on the slot only), so ready paths are broken here.
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
  output [W-1:0]      out_data,
  output              out_valid,
  input               out_ready,
  output [IW-1:0]     index_data,
  output              index_valid,
  input               index_ready
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

  // The number of the set bit of a one-hot value.
  function [IW-1:0] number;
    input [N-1:0] pick;
    integer i;
    reg [IW-1:0] k;
    begin
      number = {IW{1'b0}};
      k      = {IW{1'b0}};
      for (i = 0; i < N; i = i + 1) begin
        if (pick[i]) number = k;
        k = k + 1'b1;
      end
    end
  endfunction

  wire [N-1:0]  pick   = lowest(ins_valid);  // one-hot: the lowest valid input
  wire          chosen = |ins_valid;

  // The slot.
  reg           full;
  reg  [W-1:0]  slot_data;
  reg  [IW-1:0] slot_index;
  wire          token  = full | chosen;
  wire [W-1:0]  data   = full ? slot_data : select(ins_data, pick);
  wire [IW-1:0] index  = full ? slot_index : number(pick);

  // The eager fork of the slot's token: which outputs took it already.
  reg           sent_out;
  reg           sent_index;
  wire          taken  = (sent_out | out_ready) & (sent_index | index_ready);

  assign out_data    = data;
  assign index_data  = index;
  assign out_valid   = token & ~sent_out;
  assign index_valid = token & ~sent_index;
  assign ins_ready   = pick & {N{~full}};

  always @(posedge clk) begin
    if (rst) begin
      full       <= 1'b0;
      sent_out   <= 1'b0;
      sent_index <= 1'b0;
    end else begin
      full <= token & ~taken;
      if (token & taken) begin
        sent_out   <= 1'b0;
        sent_index <= 1'b0;
      end else begin
        sent_out   <= sent_out | (out_valid & out_ready);
        sent_index <= sent_index | (index_valid & index_ready);
      end
    end
  end

  always @(posedge clk) begin
    if (!full) begin
      slot_data  <= data;
      slot_index <= index;
    end
  end
endmodule
