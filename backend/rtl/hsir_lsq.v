// hsir_lsq: Dynamatic's load-store queue (`lsq`) reaching one BRAM port pair, as a conservative
// in-order queue. It is not Dynamatic's LSQ: accesses never overtake each other, so the results
// are those of the program's order (what a correct LSQ gives too), with less overlap.
// LAYOUT names the groups' accesses in program order, `l` a load and `s` a store, groups
// separated by `_` ("lls_ls": two loads and a store, then a load and a store); load and store
// ports are numbered in the order they appear. NG, NLD and NST must agree with it (NLD and NST
// at least 1: a spare port is tied off) and DEPTH must be a power of two holding every group's
// accesses together; otherwise the module instantiates `hsir_lsq_bad_LAYOUT`, which does not exist.
// Allocation: every `group` input is ready while the queue has room for all groups' accesses at
// once (so group_ready never depends on group_valid, as a `lazy_fork` feeding several LSQs
// needs); each valid group token is taken and its accesses appended in program order, several
// groups in one cycle in increasing group number.
// Ports: a port accepts an address (or store data) while it holds fewer than its accesses in the
// queue, and keeps them in order (its ready never depends on its valid).
// Execution: only the oldest access in the queue runs, once it has what it needs: a load its
// address and a free ld_data slot (read on loadEn/loadAddr, loadData captured the next cycle
// and offered on ld_data from the cycle after); a store its address and data
// (storeEn/storeAddr/storeData). One access a cycle, so every load sees every earlier store.
// mem_start and ctrl_end are taken into registers when they arrive (ready while none is held);
// mem_end is valid once both are held, the queue is empty and no group token is valid (it
// drops if one arrives), and taking it frees both registers.
// Timing: ld_data and its valid are registered; loadEn/loadAddr/storeEn/storeAddr/storeData
// are combinational from registers; group_ready from the queue's count alone;
// mem_start_ready and ctrl_end_ready registered; mem_end_valid combinational from registers
// and group_valid.
module hsir_lsq #(
  parameter NG    = 1,
  parameter NLD   = 1,
  parameter NST   = 1,
  parameter W     = 32,
  parameter AW    = 10,
  parameter DEPTH = 16,
  parameter NCHAR = 1,
  parameter [8*NCHAR-1:0] LAYOUT = "l"
) (
  input                clk,
  input                rst,
  input  [NG-1:0]      group_valid,
  output [NG-1:0]      group_ready,
  input  [NLD*AW-1:0]  ld_addr_data,
  input  [NLD-1:0]     ld_addr_valid,
  output [NLD-1:0]     ld_addr_ready,
  output [NLD*W-1:0]   ld_data_data,
  output [NLD-1:0]     ld_data_valid,
  input  [NLD-1:0]     ld_data_ready,
  input  [NST*AW-1:0]  st_addr_data,
  input  [NST-1:0]     st_addr_valid,
  output [NST-1:0]     st_addr_ready,
  input  [NST*W-1:0]   st_data_data,
  input  [NST-1:0]     st_data_valid,
  output [NST-1:0]     st_data_ready,
  input                mem_start_valid,
  output               mem_start_ready,
  input                ctrl_end_valid,
  output               ctrl_end_ready,
  output               mem_end_valid,
  input                mem_end_ready,
  output               loadEn,
  output [AW-1:0]      loadAddr,
  input  [W-1:0]       loadData,
  output               storeEn,
  output [AW-1:0]      storeAddr,
  output [W-1:0]       storeData
);
  // ---- The layout, read at elaboration ----------------------------------------------------

  // Character `i` of LAYOUT, from the left.
  function [7:0] layout_char;
    input integer i;
    begin
      layout_char = LAYOUT[8*(NCHAR-1-i) +: 8];
    end
  endfunction

  // How many characters of LAYOUT are `c`.
  function integer count_of;
    input [7:0] c;
    integer i;
    begin
      count_of = 0;
      for (i = 0; i < NCHAR; i = i + 1)
        if (layout_char(i) == c) count_of = count_of + 1;
    end
  endfunction

  // Whether every character is `l`, `s` or `_` and no group is empty.
  function layout_ok;
    input integer unused;
    integer i;
    reg     empty;
    begin
      layout_ok = unused == 0;
      empty     = 1'b1;
      for (i = 0; i < NCHAR; i = i + 1) begin
        if (layout_char(i) == "_") begin
          if (empty) layout_ok = 1'b0;
          empty = 1'b1;
        end else if (layout_char(i) == "l" || layout_char(i) == "s") begin
          empty = 1'b0;
        end else begin
          layout_ok = 1'b0;
        end
      end
      if (empty) layout_ok = 1'b0;
    end
  endfunction

  // The group of the character at `pos`.
  function integer group_at;
    input integer pos;
    integer i;
    begin
      group_at = 0;
      for (i = 0; i < pos; i = i + 1)
        if (layout_char(i) == "_") group_at = group_at + 1;
    end
  endfunction

  // Where access `k` of group `g` is in LAYOUT; -1 when the group has fewer.
  function integer slot_pos;
    input integer g;
    input integer k;
    integer i;
    integer grp;
    integer n;
    begin
      slot_pos = -1;
      grp = 0;
      n = 0;
      for (i = 0; i < NCHAR; i = i + 1) begin
        if (layout_char(i) == "_") begin
          grp = grp + 1;
          n = 0;
        end else begin
          if (grp == g && n == k) slot_pos = i;
          n = n + 1;
        end
      end
    end
  endfunction

  // The accesses of group `g`.
  function integer group_size;
    input integer g;
    integer i;
    begin
      group_size = 0;
      for (i = 0; i < NCHAR; i = i + 1)
        if (layout_char(i) != "_" && group_at(i) == g) group_size = group_size + 1;
    end
  endfunction

  // The port of the access at `pos`: the accesses of its kind before it.
  function integer port_at;
    input integer pos;
    integer i;
    begin
      port_at = 0;
      for (i = 0; i < pos; i = i + 1)
        if (layout_char(i) == layout_char(pos)) port_at = port_at + 1;
    end
  endfunction

  // Where the `k`-th access of kind `c` is in LAYOUT; -1 when there are fewer.
  function integer kind_pos;
    input [7:0]   c;
    input integer k;
    integer i;
    integer n;
    begin
      kind_pos = -1;
      n = 0;
      for (i = 0; i < NCHAR; i = i + 1)
        if (layout_char(i) == c) begin
          if (n == k) kind_pos = i;
          n = n + 1;
        end
    end
  endfunction

  // The most accesses a group has.
  function integer largest_group;
    input integer unused;
    integer i;
    integer n;
    begin
      largest_group = unused;
      n = 0;
      for (i = 0; i < NCHAR; i = i + 1) begin
        if (layout_char(i) == "_") n = 0;
        else n = n + 1;
        if (n > largest_group) largest_group = n;
      end
    end
  endfunction

  localparam NLOADS  = count_of("l");
  localparam NSTORES = count_of("s");
  localparam GMAX    = largest_group(0) > 0 ? largest_group(0) : 1;
  localparam PW      = DEPTH > 1 ? $clog2(DEPTH) : 1;
  localparam CW      = PW + 1;
  localparam NACC    = NCHAR - count_of("_");
  // The queue takes new groups while it holds at most SLACK accesses.
  localparam integer SLACK_N = DEPTH >= NACC ? DEPTH - NACC : 0;
  localparam [CW:0]  SLACK   = SLACK_N[CW:0];

  generate
    if (!layout_ok(0) || count_of("_") + 1 != NG
        || NLD != (NLOADS > 0 ? NLOADS : 1) || NST != (NSTORES > 0 ? NSTORES : 1)
        || (1 << PW) != DEPTH || NACC > DEPTH) begin : bad
      hsir_lsq_bad_LAYOUT bad_layout ();
    end
  endgenerate

  // Per group `g` and access `k`: whether it exists, is a store, and its port.
  wire [NG*GMAX-1:0]   t_used;
  wire [NG*GMAX-1:0]   t_store;
  wire [NG*GMAX*8-1:0] t_port;
  wire [NG*CW-1:0]     t_size;

  genvar g;
  genvar k;
  generate
    for (g = 0; g < NG; g = g + 1) begin : grp
      for (k = 0; k < GMAX; k = k + 1) begin : acc
        localparam integer POS  = slot_pos(g, k);
        localparam integer PORT = POS < 0 ? 0 : port_at(POS);
        assign t_used[g*GMAX+k]      = POS >= 0;
        assign t_store[g*GMAX+k]     = POS >= 0 && layout_char(POS) == "s";
        assign t_port[(g*GMAX+k)*8 +: 8] = PORT[7:0];
      end
      localparam integer SIZE = group_size(g);
      assign t_size[g*CW +: CW] = SIZE[CW-1:0];
    end
  endgenerate

  // ---- The queue: kinds and ports of the allocated accesses, oldest at q_head -------------
  reg          q_store [0:DEPTH-1];
  reg [7:0]    q_port  [0:DEPTH-1];
  reg [PW-1:0] q_head;
  reg [PW-1:0] q_tail;
  reg [CW-1:0] q_count;
  reg          rd;        // a load was read last cycle: loadData is its word
  reg [7:0]    rd_port;

  wire       h_valid = q_count != {CW{1'b0}};
  wire       h_store = q_store[q_head];
  wire [7:0] h_port  = q_port[q_head];

  // Combinational logic is written as functions in continuous assignments, which simulators
  // evaluate at time 0 (an `always @*` waits for its first input change).
  // The accesses of the groups in `take` numbered below `below`.
  function [CW-1:0] size_of;
    input [NG-1:0]    take;
    input [NG*CW-1:0] sizes;
    input integer     below;
    integer i;
    begin
      size_of = {CW{1'b0}};
      for (i = 0; i < NG; i = i + 1)
        if (take[i] && i < below) size_of = size_of + sizes[i*CW +: CW];
    end
  endfunction

  function [AW-1:0] pick_addr_ld;
    input [NLD*AW-1:0] a;
    input [NLD-1:0]    pick;
    integer i;
    begin
      pick_addr_ld = {AW{1'b0}};
      for (i = 0; i < NLD; i = i + 1)
        pick_addr_ld = pick_addr_ld | (a[i*AW +: AW] & {AW{pick[i]}});
    end
  endfunction

  function [AW-1:0] pick_addr_st;
    input [NST*AW-1:0] a;
    input [NST-1:0]    pick;
    integer i;
    begin
      pick_addr_st = {AW{1'b0}};
      for (i = 0; i < NST; i = i + 1)
        pick_addr_st = pick_addr_st | (a[i*AW +: AW] & {AW{pick[i]}});
    end
  endfunction

  function [W-1:0] pick_data_st;
    input [NST*W-1:0] d;
    input [NST-1:0]   pick;
    integer i;
    begin
      pick_data_st = {W{1'b0}};
      for (i = 0; i < NST; i = i + 1)
        pick_data_st = pick_data_st | (d[i*W +: W] & {W{pick[i]}});
    end
  endfunction

  // ---- Allocation ---------------------------------------------------------------------------
  // Ready never depends on valid (a `lazy_fork` feeding several LSQs needs that): every group
  // is ready while the queue has room for all groups at once, and every valid one is taken.
  wire          fits  = {1'b0, q_count} <= SLACK;
  wire [NG-1:0] taken = group_valid & {NG{fits}};
  wire [CW-1:0] need  = size_of(taken, t_size, NG);
  wire          alloc = |taken;

  assign group_ready = {NG{fits}};

  // ---- Ports --------------------------------------------------------------------------------
  wire [NLD-1:0]    ld_go;
  wire [NLD*AW-1:0] ld_first;
  wire [NST-1:0]    st_go;
  wire [NST*AW-1:0] st_first_addr;
  wire [NST*W-1:0]  st_first_data;

  genvar l;
  genvar s;
  generate
    for (l = 0; l < NLD; l = l + 1) begin : ld_port
      localparam integer POS = kind_pos("l", l);
      localparam [NG-1:0] MINE = POS < 0 ? {NG{1'b0}} : {{(NG-1){1'b0}}, 1'b1} << group_at(POS);
      localparam [7:0] ME = l;
      reg [AW-1:0] fifo [0:DEPTH-1];
      reg [PW-1:0] f_head;
      reg [PW-1:0] f_tail;
      reg [CW-1:0] held;     // addresses kept
      reg [CW-1:0] pending;  // this port's accesses in the queue
      reg          out_v;
      reg [W-1:0]  out_d;
      wire         take = ld_addr_valid[l] & ld_addr_ready[l];
      wire         add  = |(taken & MINE);
      wire         back = rd & (rd_port == ME);
      wire         go   = h_valid & ~h_store & (h_port == ME) & (held != {CW{1'b0}})
                          & ~out_v & ~back;

      assign ld_addr_ready[l]       = held < pending;
      assign ld_go[l]               = go;
      assign ld_first[l*AW +: AW]   = fifo[f_head];
      assign ld_data_valid[l]       = out_v;
      assign ld_data_data[l*W +: W] = out_d;

      always @(posedge clk) begin
        if (rst) begin
          f_head  <= {PW{1'b0}};
          f_tail  <= {PW{1'b0}};
          held    <= {CW{1'b0}};
          pending <= {CW{1'b0}};
          out_v   <= 1'b0;
        end else begin
          if (take) f_tail <= f_tail + 1'b1;
          if (go) f_head <= f_head + 1'b1;
          held    <= held + {{PW{1'b0}}, take} - {{PW{1'b0}}, go};
          pending <= pending + {{PW{1'b0}}, add} - {{PW{1'b0}}, go};
          if (back) out_v <= 1'b1;
          else if (ld_data_ready[l]) out_v <= 1'b0;
        end
      end

      always @(posedge clk) begin
        if (take) fifo[f_tail] <= ld_addr_data[l*AW +: AW];
        if (back) out_d <= loadData;
      end
    end

    for (s = 0; s < NST; s = s + 1) begin : st_port
      localparam integer POS = kind_pos("s", s);
      localparam [NG-1:0] MINE = POS < 0 ? {NG{1'b0}} : {{(NG-1){1'b0}}, 1'b1} << group_at(POS);
      localparam [7:0] ME = s;
      reg [AW-1:0] a_fifo [0:DEPTH-1];
      reg [W-1:0]  d_fifo [0:DEPTH-1];
      reg [PW-1:0] a_head;
      reg [PW-1:0] a_tail;
      reg [PW-1:0] d_head;
      reg [PW-1:0] d_tail;
      reg [CW-1:0] a_held;
      reg [CW-1:0] d_held;
      reg [CW-1:0] pending;
      wire         a_take = st_addr_valid[s] & st_addr_ready[s];
      wire         d_take = st_data_valid[s] & st_data_ready[s];
      wire         add    = |(taken & MINE);
      wire         go     = h_valid & h_store & (h_port == ME) & (a_held != {CW{1'b0}})
                            & (d_held != {CW{1'b0}});

      assign st_addr_ready[s]          = a_held < pending;
      assign st_data_ready[s]          = d_held < pending;
      assign st_go[s]                  = go;
      assign st_first_addr[s*AW +: AW] = a_fifo[a_head];
      assign st_first_data[s*W +: W]   = d_fifo[d_head];

      always @(posedge clk) begin
        if (rst) begin
          a_head  <= {PW{1'b0}};
          a_tail  <= {PW{1'b0}};
          d_head  <= {PW{1'b0}};
          d_tail  <= {PW{1'b0}};
          a_held  <= {CW{1'b0}};
          d_held  <= {CW{1'b0}};
          pending <= {CW{1'b0}};
        end else begin
          if (a_take) a_tail <= a_tail + 1'b1;
          if (d_take) d_tail <= d_tail + 1'b1;
          if (go) begin
            a_head <= a_head + 1'b1;
            d_head <= d_head + 1'b1;
          end
          a_held  <= a_held + {{PW{1'b0}}, a_take} - {{PW{1'b0}}, go};
          d_held  <= d_held + {{PW{1'b0}}, d_take} - {{PW{1'b0}}, go};
          pending <= pending + {{PW{1'b0}}, add} - {{PW{1'b0}}, go};
        end
      end

      always @(posedge clk) begin
        if (a_take) a_fifo[a_tail] <= st_addr_data[s*AW +: AW];
        if (d_take) d_fifo[d_tail] <= st_data_data[s*W +: W];
      end
    end
  endgenerate

  // ---- Execution: the oldest access ---------------------------------------------------------
  wire go_ld = |ld_go;
  wire go_st = |st_go;
  wire pop   = go_ld | go_st;

  assign loadEn    = go_ld;
  assign loadAddr  = pick_addr_ld(ld_first, ld_go);
  assign storeEn   = go_st;
  assign storeAddr = pick_addr_st(st_first_addr, st_go);
  assign storeData = pick_data_st(st_first_data, st_go);

  // ---- Completion ---------------------------------------------------------------------------
  // mem_start and ctrl_end are kept in registers (ready while none is kept, never depending on
  // valid), so that no combinational path runs from group_valid to an input's ready: ctrl_end
  // often comes from the fork that also feeds a group token.
  reg start_held;
  reg end_held;

  assign mem_end_valid   = start_held & end_held & ~h_valid & ~(|group_valid);
  assign mem_start_ready = ~start_held;
  assign ctrl_end_ready  = ~end_held;

  always @(posedge clk) begin
    if (rst) begin
      start_held <= 1'b0;
      end_held   <= 1'b0;
    end else if (mem_end_valid & mem_end_ready) begin
      start_held <= 1'b0;
      end_held   <= 1'b0;
    end else begin
      if (mem_start_valid) start_held <= 1'b1;
      if (ctrl_end_valid) end_held <= 1'b1;
    end
  end

  always @(posedge clk) begin
    if (rst) begin
      q_head  <= {PW{1'b0}};
      q_tail  <= {PW{1'b0}};
      q_count <= {CW{1'b0}};
      rd      <= 1'b0;
    end else begin
      if (pop) q_head <= q_head + 1'b1;
      if (alloc) q_tail <= q_tail + need[PW-1:0];
      q_count <= q_count + (alloc ? need : {CW{1'b0}}) - {{PW{1'b0}}, pop};
      rd      <= go_ld;
    end
  end

  // Entry `at + skip + n`, wrapping around the queue (a function, so the sum has PW bits: an
  // index expression's width is not something to rely on across simulators). The carry out of
  // the PW bits is dropped, as wrapping wants.
  function [PW-1:0] wrap;
    input [PW-1:0] at;
    input [CW-1:0] skip;
    input [CW-1:0] n;
    reg   [CW-1:0] sum;
    begin
      sum  = {1'b0, at} + skip + n;
      wrap = sum[PW-1:0] | {PW{sum[CW-1] & 1'b0}};
    end
  endfunction

  integer gi;
  integer ki;
  always @(posedge clk) begin
    rd_port <= h_port;
    if (alloc)
      for (gi = 0; gi < NG; gi = gi + 1)
        if (taken[gi])
          for (ki = 0; ki < GMAX; ki = ki + 1)
            if (t_used[gi*GMAX+ki]) begin
              q_store[wrap(q_tail, size_of(taken, t_size, gi), ki[CW-1:0])] <= t_store[gi*GMAX+ki];
              q_port[wrap(q_tail, size_of(taken, t_size, gi), ki[CW-1:0])]  <= t_port[(gi*GMAX+ki)*8 +: 8];
            end
  end
endmodule
