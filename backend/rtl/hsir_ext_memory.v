// hsir_ext_memory: `extmemory` / Dynamatic's `mem_controller` in front of one BRAM port pair
// (one read port, one write port), with NLD load and NST store ports on the circuit side.
// Store port s: st_data and st_addr are each accepted while the port holds none of that kind
// and its st_done slot is free (empty, or being taken this cycle); their ready never depends on
// their valid. A port whose data and address are both present (accepted now or held) requests
// the write port; the lowest-numbered requesting port is granted: storeEn/storeAddr/storeData
// are driven that cycle and the port's st_done token is valid from the next cycle. A port not
// granted keeps what it accepted and requests again.
// Load port l: ld_addr is accepted while the port holds no address and has no word in flight
// or waiting, or its ld_data and ld_done are being taken this cycle. A port with an address
// requests the read port; the lowest-numbered one is granted and drives loadEn/loadAddr. The
// BRAM answers on loadData in the next cycle, when ld_data (loadData itself, kept in a register
// if not taken at once) and one ld_done token become valid, each taken independently.
// Addresses go to the BRAM unchanged. A load and a store granted in the same cycle see the
// BRAM's own read-during-write behaviour.
// Timing: loadEn/loadAddr/storeEn/storeAddr/storeData are combinational from the inputs and
// the held registers; st_done and ld_done are registered; ld_data passes loadData through in
// its first cycle; ready paths are combinational from the done/data readies only.
module hsir_ext_memory #(
  parameter NLD = 1,
  parameter NST = 1,
  parameter W   = 32,
  parameter AW  = 10
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
  input  [NLD-1:0]     ld_done_ready,
  output               loadEn,
  output [AW-1:0]      loadAddr,
  input  [W-1:0]       loadData,
  output               storeEn,
  output [AW-1:0]      storeAddr,
  output [W-1:0]       storeData
);
  // Requests and their operands, per port.
  wire [NST-1:0]    st_req;
  wire [NST*AW-1:0] st_a;
  wire [NST*W-1:0]  st_d;
  wire [NLD-1:0]    ld_req;
  wire [NLD*AW-1:0] ld_a;
  // Combinational logic is written as functions in continuous assignments, which simulators
  // evaluate at time 0 (an `always @*` waits for its first input change).
  function [NST-1:0] lowest_st;
    input [NST-1:0] v;
    begin
      lowest_st = v & (~v + {{(NST-1){1'b0}}, 1'b1});
    end
  endfunction

  function [NLD-1:0] lowest_ld;
    input [NLD-1:0] v;
    begin
      lowest_ld = v & (~v + {{(NLD-1){1'b0}}, 1'b1});
    end
  endfunction

  function [AW-1:0] st_addr_of;
    input [NST*AW-1:0] a;
    input [NST-1:0]    pick;
    integer i;
    begin
      st_addr_of = {AW{1'b0}};
      for (i = 0; i < NST; i = i + 1)
        st_addr_of = st_addr_of | (a[i*AW +: AW] & {AW{pick[i]}});
    end
  endfunction

  function [W-1:0] st_data_of;
    input [NST*W-1:0] d;
    input [NST-1:0]   pick;
    integer i;
    begin
      st_data_of = {W{1'b0}};
      for (i = 0; i < NST; i = i + 1)
        st_data_of = st_data_of | (d[i*W +: W] & {W{pick[i]}});
    end
  endfunction

  function [AW-1:0] ld_addr_of;
    input [NLD*AW-1:0] a;
    input [NLD-1:0]    pick;
    integer i;
    begin
      ld_addr_of = {AW{1'b0}};
      for (i = 0; i < NLD; i = i + 1)
        ld_addr_of = ld_addr_of | (a[i*AW +: AW] & {AW{pick[i]}});
    end
  endfunction

  // Grants: one-hot, lowest requesting port.
  wire [NST-1:0] st_grant = lowest_st(st_req);
  wire [NLD-1:0] ld_grant = lowest_ld(ld_req);
  assign storeAddr = st_addr_of(st_a, st_grant);
  assign storeData = st_data_of(st_d, st_grant);
  assign loadAddr  = ld_addr_of(ld_a, ld_grant);

  assign storeEn = |st_req;
  assign loadEn  = |ld_req;

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
      wire         d_take = st_data_valid[s] & st_data_ready[s];
      wire         a_take = st_addr_valid[s] & st_addr_ready[s];
      wire         go     = st_grant[s];

      assign st_data_ready[s]  = ~d_held & free;
      assign st_addr_ready[s]  = ~a_held & free;
      assign st_done_valid[s]  = done;
      assign st_req[s]         = (d_held | d_take) & (a_held | a_take) & free;
      assign st_d[s*W +: W]    = d_held ? d_reg : st_data_data[s*W +: W];
      assign st_a[s*AW +: AW]  = a_held ? a_reg : st_addr_data[s*AW +: AW];

      always @(posedge clk) begin
        if (rst) begin
          d_held <= 1'b0;
          a_held <= 1'b0;
          done   <= 1'b0;
        end else if (go) begin
          d_held <= 1'b0;
          a_held <= 1'b0;
          done   <= 1'b1;
        end else begin
          if (d_take) d_held <= 1'b1;
          if (a_take) a_held <= 1'b1;
          if (st_done_ready[s]) done <= 1'b0;
        end
      end

      always @(posedge clk) begin
        if (d_take) d_reg <= st_data_data[s*W +: W];
        if (a_take) a_reg <= st_addr_data[s*AW +: AW];
      end
    end

    for (l = 0; l < NLD; l = l + 1) begin : ld_port
      reg          a_held;
      reg [AW-1:0] a_reg;
      reg          flight;   // granted last cycle: loadData is this port's word
      reg          d_pend;   // word kept in d_reg, not taken yet
      reg [W-1:0]  d_reg;
      reg          done;     // ld_done kept, not taken yet
      wire         d_out  = flight | d_pend;
      wire         t_out  = flight | done;
      wire         take   = ld_addr_valid[l] & ld_addr_ready[l];
      wire         go     = ld_grant[l];

      assign ld_addr_ready[l]       = ~a_held & (~d_out | ld_data_ready[l])
                                              & (~t_out | ld_done_ready[l]);
      assign ld_req[l]              = a_held | take;
      assign ld_a[l*AW +: AW]       = a_held ? a_reg : ld_addr_data[l*AW +: AW];
      assign ld_data_valid[l]       = d_out;
      assign ld_data_data[l*W +: W] = d_pend ? d_reg : loadData;
      assign ld_done_valid[l]       = t_out;

      always @(posedge clk) begin
        if (rst) begin
          a_held <= 1'b0;
          flight <= 1'b0;
          d_pend <= 1'b0;
          done   <= 1'b0;
        end else begin
          a_held <= (a_held | take) & ~go;
          flight <= go;
          d_pend <= d_out & ~ld_data_ready[l];
          done   <= t_out & ~ld_done_ready[l];
        end
      end

      always @(posedge clk) begin
        if (take && !go) a_reg <= ld_addr_data[l*AW +: AW];
        if (flight && !ld_data_ready[l]) d_reg <= loadData;
      end
    end
  endgenerate
endmodule
