// hsir_memory: CIRCT's internal `memory`, DEPTH words of W bits with NST store and NLD load ports.
// Store port s: st_data and st_addr are each accepted while the port holds none of that kind
// and its st_done slot is free (empty, or being taken this cycle); their ready never depends on
// their valid. In the cycle both are present (accepted now or held from earlier) the word is
// written and one st_done token is issued (registered: valid from the next cycle).
// Load port l: ld_addr is accepted while the port's ld_data and ld_done slots are free (empty,
// or being taken this cycle); the word is read then and offered on ld_data together with one
// ld_done token from the next cycle, each taken independently.
// Addresses at or beyond DEPTH read 0 and write nothing. Contents are 0 at time zero (an
// initial block; rst does not clear them). A load reads the contents before the writes of the
// same cycle; when several ports write one word in a cycle, the lowest-numbered port wins.
// Timing: st_done, ld_data and ld_done are registered; ready paths are combinational
// (st_data/st_addr ready from st_done_ready, ld_addr ready from ld_data_ready/ld_done_ready).
module hsir_memory #(
  parameter NLD   = 1,
  parameter NST   = 1,
  parameter W     = 32,
  parameter AW    = 10,
  parameter DEPTH = 1024
) (
  input                clk,
  input                rst,
  input  [NST*W-1:0]   st_data_data,
  input  [NST-1:0]     st_data_valid,
  output [NST-1:0]     st_data_ready,
  input  [NST*AW-1:0]  st_addr_data,
  input  [NST-1:0]     st_addr_valid,
  output [NST-1:0]     st_addr_ready,
  input  [NLD*AW-1:0]  ld_addr_data,
  input  [NLD-1:0]     ld_addr_valid,
  output [NLD-1:0]     ld_addr_ready,
  output [NLD*W-1:0]   ld_data_data,
  output [NLD-1:0]     ld_data_valid,
  input  [NLD-1:0]     ld_data_ready,
  output [NST-1:0]     st_done_valid,
  input  [NST-1:0]     st_done_ready,
  output [NLD-1:0]     ld_done_valid,
  input  [NLD-1:0]     ld_done_ready
);
  localparam IW = DEPTH > 1 ? $clog2(DEPTH) : 1;
  localparam [IW:0] DEPTH_I = DEPTH[IW:0];

  reg [W-1:0] mem [0:DEPTH-1];

  integer k;
  initial
    for (k = 0; k < DEPTH; k = k + 1) mem[k] = {W{1'b0}};

  // Per store port: write enable, word index, in-range flag and data of this cycle's write.
  wire [NST-1:0]    st_we;
  wire [NST*IW-1:0] st_idx;
  wire [NST-1:0]    st_in_range;
  wire [NST*W-1:0]  st_word;

  genvar s;
  genvar l;
  generate
    for (s = 0; s < NST; s = s + 1) begin : st_port
      reg          d_held;
      reg          a_held;
      reg          done;
      reg [W-1:0]  d_reg;
      reg [AW-1:0] a_reg;
      wire         free   = ~done | st_done_ready[s];
      wire         d_here = d_held | st_data_valid[s];
      wire         a_here = a_held | st_addr_valid[s];
      wire [W-1:0]  d_eff = d_held ? d_reg : st_data_data[s*W +: W];
      wire [AW-1:0] a_eff = a_held ? a_reg : st_addr_data[s*AW +: AW];
      wire          we    = d_here & a_here & free;

      assign st_data_ready[s] = ~d_held & free;
      assign st_addr_ready[s] = ~a_held & free;
      assign st_done_valid[s] = done;
      assign st_we[s]         = we;
      assign st_word[s*W +: W] = d_eff;

      if (AW >= IW) begin : g_wide
        assign st_idx[s*IW +: IW] = a_eff[IW-1:0];
        assign st_in_range[s] = (a_eff >> IW) == {AW{1'b0}} && {1'b0, a_eff[IW-1:0]} < DEPTH_I;
      end else begin : g_narrow
        assign st_idx[s*IW +: IW] = {{(IW-AW){1'b0}}, a_eff};
        assign st_in_range[s] = {{(IW-AW+1){1'b0}}, a_eff} < DEPTH_I;
      end

      always @(posedge clk) begin
        if (rst) begin
          d_held <= 1'b0;
          a_held <= 1'b0;
          done   <= 1'b0;
        end else if (we) begin
          d_held <= 1'b0;
          a_held <= 1'b0;
          done   <= 1'b1;
        end else begin
          if (st_data_valid[s] && st_data_ready[s]) d_held <= 1'b1;
          if (st_addr_valid[s] && st_addr_ready[s]) a_held <= 1'b1;
          if (st_done_ready[s]) done <= 1'b0;
        end
      end

      always @(posedge clk) begin
        if (!we && st_data_valid[s] && st_data_ready[s]) d_reg <= st_data_data[s*W +: W];
        if (!we && st_addr_valid[s] && st_addr_ready[s]) a_reg <= st_addr_data[s*AW +: AW];
      end
    end

    for (l = 0; l < NLD; l = l + 1) begin : ld_port
      reg          d_pend;
      reg          done;
      reg [W-1:0]  word;
      wire [AW-1:0] addr = ld_addr_data[l*AW +: AW];
      wire [IW-1:0] idx;
      wire          in_range;
      wire          free = (~d_pend | ld_data_ready[l]) & (~done | ld_done_ready[l]);
      wire          take = ld_addr_valid[l] & free;

      if (AW >= IW) begin : g_wide
        assign idx      = addr[IW-1:0];
        assign in_range = (addr >> IW) == {AW{1'b0}} && {1'b0, addr[IW-1:0]} < DEPTH_I;
      end else begin : g_narrow
        assign idx      = {{(IW-AW){1'b0}}, addr};
        assign in_range = {{(IW-AW+1){1'b0}}, addr} < DEPTH_I;
      end

      assign ld_addr_ready[l]      = free;
      assign ld_data_valid[l]      = d_pend;
      assign ld_data_data[l*W +: W] = word;
      assign ld_done_valid[l]      = done;

      always @(posedge clk) begin
        if (rst) begin
          d_pend <= 1'b0;
          done   <= 1'b0;
        end else if (take) begin
          d_pend <= 1'b1;
          done   <= 1'b1;
        end else begin
          if (ld_data_ready[l]) d_pend <= 1'b0;
          if (ld_done_ready[l]) done <= 1'b0;
        end
      end

      always @(posedge clk)
        if (take) word <= in_range ? mem[idx] : {W{1'b0}};
    end
  endgenerate

  // Writes, highest port first so that the lowest-numbered port's write lands last.
  integer p;
  always @(posedge clk) begin
    if (!rst)
      for (p = NST - 1; p >= 0; p = p - 1)
        if (st_we[p] && st_in_range[p]) mem[st_idx[p*IW +: IW]] <= st_word[p*W +: W];
  end
endmodule
