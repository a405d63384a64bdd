// hsir_fifo_break_dv: FIFO_BREAK_DV, a SLOTS-entry FIFO with a registered output.
// out_valid (!empty) and out_data (the head entry) come from registers, so a token written into
// an empty FIFO is offered in the next cycle (D = 1, V = 1). Ready is combinational (R = 0):
// in_ready = !full || out_ready, and a full FIFO that is read takes a new token in the same cycle.
module hsir_fifo_break_dv #(
  parameter W     = 1,
  parameter SLOTS = 2
) (
  input          clk,
  input          rst,
  input  [W-1:0] in_data,
  input          in_valid,
  output         in_ready,
  output [W-1:0] out_data,
  output         out_valid,
  input          out_ready
);
  localparam PW = SLOTS > 1 ? $clog2(SLOTS) : 1;
  localparam CW = $clog2(SLOTS + 1);
  localparam LASTI = SLOTS - 1;
  localparam [PW-1:0] LAST  = LASTI[PW-1:0];
  localparam [CW-1:0] COUNT = SLOTS[CW-1:0];

  reg [W-1:0]  mem [0:SLOTS-1];
  reg [PW-1:0] head;
  reg [PW-1:0] tail;
  reg [CW-1:0] count;

  wire empty = count == {CW{1'b0}};
  wire full  = count == COUNT;
  wire wr    = in_valid & in_ready;
  wire rd    = out_valid & out_ready;

  assign in_ready  = ~full | out_ready;
  assign out_valid = ~empty;
  assign out_data  = mem[head];

  always @(posedge clk) begin
    if (rst) begin
      head  <= {PW{1'b0}};
      tail  <= {PW{1'b0}};
      count <= {CW{1'b0}};
    end else begin
      if (wr) tail <= (tail == LAST) ? {PW{1'b0}} : tail + 1'b1;
      if (rd) head <= (head == LAST) ? {PW{1'b0}} : head + 1'b1;
      if (wr && !rd)
        count <= count + 1'b1;
      else if (rd && !wr)
        count <= count - 1'b1;
    end
  end

  always @(posedge clk)
    if (wr) mem[tail] <= in_data;
endmodule
