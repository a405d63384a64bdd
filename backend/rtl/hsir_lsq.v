// hsir_lsq: Dynamatic's load-store queue (`lsq`) reaching one BRAM port pair, with the ordering
// rules and cycle behaviour of Dynamatic's own LSQ (its Python generator, default options: no
// pipeline registers, bypass on), in one queue instead of a load queue and a store queue.
// LAYOUT names the groups' accesses in program order, `l` a load and `s` a store, groups
// separated by `_` ("lls_ls": two loads and a store, then a load and a store); load and store
// ports are numbered in the order they appear. NG, NLD and NST must agree with it (NLD and NST
// at least 1: a spare port is tied off) and DEPTH must be a power of two holding every group's
// accesses together; otherwise the module instantiates `hsir_lsq_bad_LAYOUT`, which does not exist.
// Allocation: every `group` input is ready while the queue has room for all groups' accesses at
// once (so group_ready never depends on group_valid, as a `lazy_fork` feeding several LSQs
// needs); each valid group token is taken and its accesses appended in program order, several
// groups in one cycle in increasing group number.
// Ports: a load port takes an address while one of its queued loads has none (the oldest gets
// it); a store port takes an address and its data together (Dynamatic's 2025 `store` joined
// them), for its oldest queued store without them.
// Execution, from the queue's registers each cycle:
// - a load with its address whose older stores all have theirs: if the youngest older store at
//   the same address has its data, that data is forwarded (offered on ld_data from the cycle
//   after next); with no older store at that address, it may read memory: the oldest such load
//   drives loadEn/loadAddr, loadData is captured the next cycle and offered the cycle after;
//   otherwise it waits;
// - the oldest store not yet written, once it has its address and data and every older load at
//   its address (or whose address is unknown) has read: storeEn/storeAddr/storeData.
// So every load sees exactly the stores before it in program order. A port offers its loads'
// values in program order; the oldest entry leaves the queue once done (a store written, a
// load's value taken), one a cycle.
// mem_start and ctrl_end are taken into registers when they arrive (ready while none is held);
// mem_end is valid once both are held, the queue is empty and no group token is valid (it
// drops if one arrives), and taking it frees both registers.
// MC = 1: an LSQ behind a `mem_controller` (`lsq [MC]`): the BRAM ports are unused (loadEn and
// storeEn stay 0) and the memory side is channels to the controller's load port and store port.
// A load that may read memory offers its address on mc_ld_addr and counts as read (for the
// rules above) once its word comes back on mc_ld_data (always ready), in the order the
// addresses were taken; a store's address and data go out on mc_st_addr and mc_st_data (each
// offered until taken), and the entry leaves the queue only once the controller's st_done for
// it arrives on mc_st_done (always ready), so the controller has written it before any later
// load can miss it in the queue. With MC = 0 the mc_* inputs are ignored (tie them invalid).
// Timing: every output but mem_end_valid and the store ports' readies is combinational from
// registers; st_addr_ready depends on st_data_valid and st_data_ready on st_addr_valid (a
// join); mem_end_valid on group_valid; with MC = 1, mc_st_addr_valid on mc_st_data_ready's
// history only (registered), so no output depends on an mc_* ready combinationally.
module hsir_lsq #(
  parameter NG    = 1,
  parameter NLD   = 1,
  parameter NST   = 1,
  parameter W     = 32,
  parameter AW    = 10,
  parameter DEPTH = 16,
  parameter NCHAR = 1,
  parameter [8*NCHAR-1:0] LAYOUT = "l",
  parameter MC    = 0
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
  output [W-1:0]       storeData,
  output [AW-1:0]      mc_ld_addr_data,
  output               mc_ld_addr_valid,
  input                mc_ld_addr_ready,
  input  [W-1:0]       mc_ld_data_data,
  input                mc_ld_data_valid,
  output               mc_ld_data_ready,
  output [AW-1:0]      mc_st_addr_data,
  output               mc_st_addr_valid,
  input                mc_st_addr_ready,
  output [W-1:0]       mc_st_data_data,
  output               mc_st_data_valid,
  input                mc_st_data_ready,
  input                mc_st_done_valid,
  output               mc_st_done_ready
);
  localparam BEHIND = MC != 0;
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

  // ---- The queue: one entry per allocated access, in program order, oldest at q_head ----------
  // Per entry: a store or a load, its port, whether its address is known (e_av) and its
  // address, whether its data is known (e_dv: a store's data, a load's value) and the data,
  // whether it was performed (e_iss: a load read from memory or forwarded, a store written),
  // and for a load whether its value was delivered (e_out).
  reg [DEPTH-1:0]    e_store;
  reg [DEPTH*8-1:0]  e_port;
  reg [DEPTH-1:0]    e_av;
  reg [DEPTH*AW-1:0] e_addr;
  reg [DEPTH-1:0]    e_dv;
  reg [DEPTH*W-1:0]  e_data;
  reg [DEPTH-1:0]    e_iss;
  reg [DEPTH-1:0]    e_out;
  reg [PW-1:0]       q_head;
  reg [PW-1:0]       q_tail;
  reg [CW-1:0]       q_count;
  reg                rd;     // a load was read last cycle: loadData is its word
  reg [PW-1:0]       rd_at;  // and this is its entry

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

  // ---- Allocation ---------------------------------------------------------------------------
  // Ready never depends on valid (a `lazy_fork` feeding several LSQs needs that): every group
  // is ready while the queue has room for all groups at once, and every valid one is taken.
  wire          fits  = {1'b0, q_count} <= SLACK;
  wire [NG-1:0] taken = group_valid & {NG{fits}};
  wire [CW-1:0] need  = size_of(taken, t_size, NG);
  wire          alloc = |taken;

  assign group_ready = {NG{fits}};

  // ---- What the queue does this cycle, from its registers alone -----------------------------
  // Entry of age `r` (0 the oldest) is wrap(q_head, 0, r); it is in the queue while r < q_count.
  reg [NLD-1:0]       c_la_ready;  // load port l has an entry waiting for its address ...
  reg [NLD*PW-1:0]    c_la_at;     // ... the oldest such
  reg [NST-1:0]       c_sa_ready;  // the same for stores (address and data come together)
  reg [NST*PW-1:0]    c_sa_at;
  reg [NLD-1:0]       c_out_v;     // load port l's oldest undelivered value is there ...
  reg [NLD*PW-1:0]    c_out_at;    // ... in this entry
  reg [NLD*W-1:0]     c_out_d;
  reg [DEPTH-1:0]     c_fwd;       // the load in entry i takes a queued store's data ...
  reg [DEPTH*PW-1:0]  c_fwd_src;   // ... from this entry
  reg                 c_rd;        // a load reads memory ...
  reg [PW-1:0]        c_rd_at;     // ... this one
  reg                 c_wr;        // a store writes memory ...
  reg [PW-1:0]        c_wr_at;     // ... this one
  reg                 c_retire;    // the oldest entry is finished and leaves

  integer  p;
  integer  r;
  integer  r2;
  reg [PW-1:0] i;
  reg [PW-1:0] j;
  reg [PW-1:0] src;
  reg          found;
  reg          blocked;
  reg          matched;
  reg          st_first;
  always @* begin
    c_la_ready = {NLD{1'b0}};
    c_la_at    = {NLD*PW{1'b0}};
    c_sa_ready = {NST{1'b0}};
    c_sa_at    = {NST*PW{1'b0}};
    c_out_v    = {NLD{1'b0}};
    c_out_at   = {NLD*PW{1'b0}};
    c_out_d    = {NLD*W{1'b0}};
    c_fwd      = {DEPTH{1'b0}};
    c_fwd_src  = {DEPTH*PW{1'b0}};
    c_rd       = 1'b0;
    c_rd_at    = {PW{1'b0}};
    c_wr       = 1'b0;
    c_wr_at    = {PW{1'b0}};
    st_first   = 1'b1;
    r2         = 0;
    found      = 1'b0;
    blocked    = 1'b0;
    matched    = 1'b0;
    src        = {PW{1'b0}};
    j          = {PW{1'b0}};
    i          = q_head;
    // Behind a controller a store's e_out says the controller wrote it.
    c_retire   = q_count != {CW{1'b0}}
                 && (e_store[i] && !BEHIND ? e_iss[i] : e_out[i]);
    // Ports: each fills (and, for loads, delivers from) its own entries, oldest first.
    for (p = 0; p < NLD; p = p + 1) begin
      found = 1'b0;
      for (r = 0; r < DEPTH; r = r + 1) begin
        i = wrap(q_head, {CW{1'b0}}, r[CW-1:0]);
        if (!found && r < q_count && !e_store[i] && e_port[i*8 +: 8] == p[7:0] && !e_av[i]) begin
          found = 1'b1;
          c_la_at[p*PW +: PW] = i;
        end
      end
      c_la_ready[p] = found;
      found = 1'b0;
      for (r = 0; r < DEPTH; r = r + 1) begin
        i = wrap(q_head, {CW{1'b0}}, r[CW-1:0]);
        if (!found && r < q_count && !e_store[i] && e_port[i*8 +: 8] == p[7:0] && !e_out[i]) begin
          found = 1'b1;
          c_out_v[p]          = e_dv[i];
          c_out_at[p*PW +: PW] = i;
          c_out_d[p*W +: W]   = e_data[i*W +: W];
        end
      end
    end
    for (p = 0; p < NST; p = p + 1) begin
      found = 1'b0;
      for (r = 0; r < DEPTH; r = r + 1) begin
        i = wrap(q_head, {CW{1'b0}}, r[CW-1:0]);
        if (!found && r < q_count && e_store[i] && e_port[i*8 +: 8] == p[7:0] && !e_av[i]) begin
          found = 1'b1;
          c_sa_at[p*PW +: PW] = i;
        end
      end
      c_sa_ready[p] = found;
    end
    for (r = 0; r < DEPTH; r = r + 1) begin
      i = wrap(q_head, {CW{1'b0}}, r[CW-1:0]);
      if (r < q_count && !e_store[i] && e_av[i] && !e_iss[i]) begin
        // A load: every older store must have its address; the youngest older one at the
        // same address gives its data (once it has it), else memory does.
        blocked = 1'b0;
        matched = 1'b0;
        src     = {PW{1'b0}};
        for (r2 = 0; r2 < DEPTH; r2 = r2 + 1) begin
          j = wrap(q_head, {CW{1'b0}}, r2[CW-1:0]);
          if (r2 < r && e_store[j]) begin
            if (!e_av[j]) blocked = 1'b1;
            else if (e_addr[j*AW +: AW] == e_addr[i*AW +: AW]) begin
              matched = 1'b1;
              src     = j;
            end
          end
        end
        if (!blocked && matched && e_dv[src]) begin
          c_fwd[i]               = 1'b1;
          c_fwd_src[i*PW +: PW]  = src;
        end else if (!blocked && !matched && !c_rd) begin
          c_rd    = 1'b1;
          c_rd_at = i;
        end
      end
      if (r < q_count && e_store[i] && !e_iss[i]) begin
        // The oldest store not yet written, once it has its address and data and every older
        // load at its address (or one whose address is not known) has read.
        if (st_first && e_av[i] && e_dv[i]) begin
          blocked = 1'b0;
          for (r2 = 0; r2 < DEPTH; r2 = r2 + 1) begin
            j = wrap(q_head, {CW{1'b0}}, r2[CW-1:0]);
            if (r2 < r && !e_store[j] && !(BEHIND ? e_dv[j] : e_iss[j])
                && (!e_av[j] || e_addr[j*AW +: AW] == e_addr[i*AW +: AW]))
              blocked = 1'b1;
          end
          if (!blocked) begin
            c_wr    = 1'b1;
            c_wr_at = i;
          end
        end
        st_first = 1'b0;
      end
    end
  end

  assign ld_addr_ready = c_la_ready;
  // A store port takes an address and its data together (Dynamatic's 2025 `store` joined them).
  wire [NST-1:0] st_take = c_sa_ready & st_addr_valid & st_data_valid;
  assign st_addr_ready = c_sa_ready & st_data_valid;
  assign st_data_ready = c_sa_ready & st_addr_valid;
  assign ld_data_valid = c_out_v;
  assign ld_data_data  = c_out_d;
  assign loadEn        = c_rd & !BEHIND;
  assign loadAddr      = e_addr[c_rd_at*AW +: AW];
  assign storeEn       = c_wr & !BEHIND;
  assign storeAddr     = e_addr[c_wr_at*AW +: AW];
  assign storeData     = e_data[c_wr_at*W +: W];

  // ---- Behind a controller: the channels to it ----------------------------------------------
  // A load is issued when the controller takes its address; a store when it has taken both its
  // address and its data (sa_sent / sd_sent: the one taken in an earlier cycle). The entries
  // issued wait in two FIFOs for their word (loads) and their st_done (stores), in order.
  reg              sa_sent;
  reg              sd_sent;
  wire             rd_go = c_rd & (!BEHIND | mc_ld_addr_ready);
  wire             wr_go = c_wr & (!BEHIND | ((sa_sent | mc_st_addr_ready)
                                              & (sd_sent | mc_st_data_ready)));
  reg [DEPTH*PW-1:0] lt_q;
  reg [PW-1:0]       lt_head;
  reg [PW-1:0]       lt_tail;
  reg [DEPTH*PW-1:0] st_q;
  reg [PW-1:0]       st_head;
  reg [PW-1:0]       st_tail;
  wire               ld_back = BEHIND & mc_ld_data_valid;
  wire               st_back = BEHIND & mc_st_done_valid;

  assign mc_ld_addr_valid = c_rd & BEHIND;
  assign mc_ld_addr_data  = e_addr[c_rd_at*AW +: AW];
  assign mc_ld_data_ready = 1'b1;
  assign mc_st_addr_valid = c_wr & BEHIND & !sa_sent;
  assign mc_st_addr_data  = e_addr[c_wr_at*AW +: AW];
  assign mc_st_data_valid = c_wr & BEHIND & !sd_sent;
  assign mc_st_data_data  = e_data[c_wr_at*W +: W];
  assign mc_st_done_ready = 1'b1;

  always @(posedge clk) begin
    if (rst) begin
      sa_sent <= 1'b0;
      sd_sent <= 1'b0;
      lt_head <= {PW{1'b0}};
      lt_tail <= {PW{1'b0}};
      st_head <= {PW{1'b0}};
      st_tail <= {PW{1'b0}};
    end else begin
      if (wr_go || !BEHIND) begin
        sa_sent <= 1'b0;
        sd_sent <= 1'b0;
      end else if (c_wr) begin
        sa_sent <= sa_sent | mc_st_addr_ready;
        sd_sent <= sd_sent | mc_st_data_ready;
      end
      if (BEHIND && rd_go) begin
        lt_q[lt_tail*PW +: PW] <= c_rd_at;
        lt_tail <= lt_tail + 1'b1;
      end
      if (ld_back) lt_head <= lt_head + 1'b1;
      if (BEHIND && wr_go) begin
        st_q[st_tail*PW +: PW] <= c_wr_at;
        st_tail <= st_tail + 1'b1;
      end
      if (st_back) st_head <= st_head + 1'b1;
    end
  end

  // ---- Completion ---------------------------------------------------------------------------
  // mem_start and ctrl_end are kept in registers (ready while none is kept, never depending on
  // valid), so that no combinational path runs from group_valid to an input's ready: ctrl_end
  // often comes from the fork that also feeds a group token.
  reg start_held;
  reg end_held;

  assign mem_end_valid   = start_held & end_held & (q_count == {CW{1'b0}}) & ~(|group_valid);
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

  // ---- The registers ------------------------------------------------------------------------
  integer          gi;
  integer          ki;
  integer          pi;
  integer          ei;
  always @(posedge clk) begin
    if (rst) begin
      q_head  <= {PW{1'b0}};
      q_tail  <= {PW{1'b0}};
      q_count <= {CW{1'b0}};
      rd      <= 1'b0;
      rd_at   <= {PW{1'b0}};
    end else begin
      if (c_retire) q_head <= q_head + 1'b1;
      if (alloc) q_tail <= q_tail + need[PW-1:0];
      q_count <= q_count + (alloc ? need : {CW{1'b0}}) - {{PW{1'b0}}, c_retire};
      rd      <= c_rd & !BEHIND;
      rd_at   <= c_rd_at;
    end
  end

  // Entry contents: only entries in the queue change, except new ones, which allocation sets.
  always @(posedge clk) begin
    for (pi = 0; pi < NLD; pi = pi + 1)
      if (ld_addr_valid[pi] && c_la_ready[pi]) begin
        e_av[c_la_at[pi*PW +: PW]] <= 1'b1;
        e_addr[c_la_at[pi*PW +: PW]*AW +: AW] <= ld_addr_data[pi*AW +: AW];
      end
    for (pi = 0; pi < NST; pi = pi + 1) begin
      if (st_take[pi]) begin
        e_av[c_sa_at[pi*PW +: PW]] <= 1'b1;
        e_addr[c_sa_at[pi*PW +: PW]*AW +: AW] <= st_addr_data[pi*AW +: AW];
        e_dv[c_sa_at[pi*PW +: PW]] <= 1'b1;
        e_data[c_sa_at[pi*PW +: PW]*W +: W] <= st_data_data[pi*W +: W];
      end
    end
    for (ei = 0; ei < DEPTH; ei = ei + 1)
      if (c_fwd[ei]) begin
        e_iss[ei] <= 1'b1;
        e_dv[ei]  <= 1'b1;
        e_data[ei*W +: W] <= e_data[c_fwd_src[ei*PW +: PW]*W +: W];
      end
    if (rd_go) e_iss[c_rd_at] <= 1'b1;
    if (rd) begin
      e_dv[rd_at] <= 1'b1;
      e_data[rd_at*W +: W] <= loadData;
    end
    if (ld_back && !rst) begin
      e_dv[lt_q[lt_head*PW +: PW]] <= 1'b1;
      e_data[lt_q[lt_head*PW +: PW]*W +: W] <= mc_ld_data_data;
    end
    if (wr_go) e_iss[c_wr_at] <= 1'b1;
    if (st_back && !rst) e_out[st_q[st_head*PW +: PW]] <= 1'b1;
    for (pi = 0; pi < NLD; pi = pi + 1)
      if (c_out_v[pi] && ld_data_ready[pi]) e_out[c_out_at[pi*PW +: PW]] <= 1'b1;
    if (alloc && !rst)
      for (gi = 0; gi < NG; gi = gi + 1)
        if (taken[gi])
          for (ki = 0; ki < GMAX; ki = ki + 1)
            if (t_used[gi*GMAX+ki]) begin
              e_store[wrap(q_tail, size_of(taken, t_size, gi), ki[CW-1:0])] <= t_store[gi*GMAX+ki];
              e_port[wrap(q_tail, size_of(taken, t_size, gi), ki[CW-1:0])*8 +: 8]
                <= t_port[(gi*GMAX+ki)*8 +: 8];
              e_av[wrap(q_tail, size_of(taken, t_size, gi), ki[CW-1:0])]  <= 1'b0;
              e_dv[wrap(q_tail, size_of(taken, t_size, gi), ki[CW-1:0])]  <= 1'b0;
              e_iss[wrap(q_tail, size_of(taken, t_size, gi), ki[CW-1:0])] <= 1'b0;
              e_out[wrap(q_tail, size_of(taken, t_size, gi), ki[CW-1:0])] <= 1'b0;
            end
  end
endmodule
