// hsir_float_binary: a two-operand IEEE-754 binary floating-point operation (`OP`) on EW-bit
// exponents and MW-bit mantissas (f32: EW 8, MW 23; f64: EW 11, MW 52), W = 1 + EW + MW bits,
// computed combinationally and then carried through a LATENCY-stage pipeline.
//   addf, subf, mulf, divf   OW = W
//   cmpf_<pred>              OW = 1; <pred> is one of arith's 16 predicates: false oeq ogt oge
//                            olt ole one ord ueq ugt uge ult ule une uno true
// Arithmetic rounds to nearest, ties to even, keeps subnormals (no flush to zero), and gives
// every NaN result as the canonical quiet NaN (sign 0, exponent all ones, only the mantissa's
// top bit set); infinities and signed zeros follow IEEE-754 (x - x = +0, -0 + -0 = -0).
// Comparisons: +0 equals -0; a NaN operand makes every ordered predicate false and every
// unordered one true.
// Handshake: joins lhs and rhs; the joined token enters the pipeline when its first stage can
// take it. Stage s takes a token when it is empty or its own token moves on, so bubbles are
// filled and a ready consumer sees one token per cycle; out is the last stage's registers.
// LATENCY = 0 is the combinational operation alone (clk, rst unused).
// Timing: LATENCY >= 1: out_data and out_valid registered (a token needs LATENCY cycles to
// cross an empty pipeline), lhs_ready / rhs_ready combinational from out_ready and the stages'
// valids. LATENCY = 0: combinational.
// An OP / OW / width combination outside this list instantiates the missing module
// `hsir_float_binary_bad_OP_or_OW`, so elaboration fails.
module hsir_float_binary #(
  parameter            EW      = 8,
  parameter            MW      = 23,
  parameter            OW      = 32,
  parameter [8*16-1:0] OP      = "addf",
  parameter            LATENCY = 0
) (
  input              clk,
  input              rst,
  input  [EW+MW:0]   lhs_data,
  input              lhs_valid,
  output             lhs_ready,
  input  [EW+MW:0]   rhs_data,
  input              rhs_valid,
  output             rhs_ready,
  output [OW-1:0]    out_data,
  output             out_valid,
  input              out_ready
);
  localparam W    = 1 + EW + MW;
  // Significand bits, the hidden bit included.
  localparam F    = MW + 1;
  localparam BIAS = (1 << (EW - 1)) - 1;
  // The exponent field of infinities and NaNs.
  localparam EMAX = (1 << EW) - 1;
  // Width of the significand `round_pack` takes: a product's 2F bits, or a sum's F + 4.
  localparam NW   = 2 * F + 4;
  localparam [W-1:0] QNAN = {1'b0, {EW{1'b1}}, 1'b1, {(MW-1){1'b0}}};

  // What a float's magnitude bits (all but the sign) hold.
  function is_nan(input [W-2:0] x);
    is_nan = (&x[W-2:MW]) & (|x[MW-1:0]);
  endfunction

  function is_inf(input [W-2:0] x);
    is_inf = (&x[W-2:MW]) & ~(|x[MW-1:0]);
  endfunction

  function is_zero(input [W-2:0] x);
    is_zero = ~(|x);
  endfunction

  // The significand with its hidden bit (0 for zeros and subnormals).
  function [F-1:0] sig(input [W-2:0] x);
    sig = {|x[W-2:MW], x[MW-1:0]};
  endfunction

  // The biased exponent the significand is scaled by: subnormals share normals' smallest, 1.
  function integer expo(input [EW-1:0] e);
    expo = (e == {EW{1'b0}}) ? 1 : {{(32-EW){1'b0}}, e};
  endfunction

  // The number s * v * 2^(e - BIAS - (NW - 1)), rounded to the format: v's top bit stands for
  // 2^(e - BIAS). v is nonzero and need not be normalised. Results below the normal range are
  // shifted into subnormals before rounding, so they round once; results beyond it are
  // infinities.
  function [W-1:0] round_pack(input s, input integer e, input [NW-1:0] v);
    integer      k, lz, ex, sh;
    reg [NW-1:0] m;
    reg [F:0]    r;
    reg          round_bit, sticky;
    begin
      lz = 0;
      for (k = 0; k < NW; k = k + 1)
        if (v[k]) lz = NW - 1 - k;
      m  = v << lz;
      ex = e - lz;
      sticky = 1'b0;
      if (ex < 1) begin
        sh = 1 - ex;
        if (sh >= NW) begin
          sticky = |m;
          m = {NW{1'b0}};
        end else begin
          sticky = |(m & ~({NW{1'b1}} << sh));
          m = m >> sh;
        end
        ex = 1;
      end
      round_bit = m[NW-F-1];
      sticky = sticky | (|(m & ~({NW{1'b1}} << (NW - F - 1))));
      r = {1'b0, m[NW-1:NW-F]};
      if (round_bit && (sticky || r[0]))
        r = r + 1'b1;
      if (r[F]) begin
        r  = r >> 1;
        ex = ex + 1;
      end
      if (ex >= EMAX)
        round_pack = {s, {EW{1'b1}}, {MW{1'b0}}};
      else if (!r[F-1])
        round_pack = {s, {EW{1'b0}}, r[MW-1:0]};
      else
        round_pack = {s, ex[EW-1:0], r[MW-1:0]};
    end
  endfunction

  // a + b, or a - b when `negate_b`. The smaller operand is aligned to the larger with guard,
  // round and sticky bits, which round exactly as the infinitely precise sum would.
  function [W-1:0] add(input [W-1:0] a, input [W-1:0] b_in, input negate_b);
    reg [W-1:0] b, x, y;
    reg [F+3:0] mx, my, sum;
    reg         lost;
    integer     ex, d;
    begin
      b  = {b_in[W-1] ^ negate_b, b_in[W-2:0]};
      if (is_nan(a[W-2:0]) || is_nan(b[W-2:0]) || (is_inf(a[W-2:0]) && is_inf(b[W-2:0]) && a[W-1] != b[W-1]))
        add = QNAN;
      else if (is_inf(a[W-2:0]))
        add = a;
      else if (is_inf(b[W-2:0]))
        add = b;
      else begin
        if (a[W-2:0] >= b[W-2:0]) begin
          x = a;
          y = b;
        end else begin
          x = b;
          y = a;
        end
        ex = expo(x[W-2:MW]);
        d  = ex - expo(y[W-2:MW]);
        mx = {1'b0, sig(x[W-2:0]), 3'b000};
        my = {1'b0, sig(y[W-2:0]), 3'b000};
        if (d >= F + 4) begin
          lost = |my;
          my   = {(F+4){1'b0}};
        end else begin
          lost = |(my & ~({(F+4){1'b1}} << d));
          my   = my >> d;
        end
        my[0] = my[0] | lost;
        sum = (x[W-1] == y[W-1]) ? mx + my : mx - my;
        if (sum == {(F+4){1'b0}})
          // An exact zero: -0 only when both operands are -0.
          add = {a[W-1] & b[W-1], {(W-1){1'b0}}};
        else
          add = round_pack(x[W-1], ex + 1, {sum, {(NW-F-4){1'b0}}});
      end
    end
  endfunction

  function [W-1:0] mul(input [W-1:0] a, input [W-1:0] b);
    reg           s;
    reg [2*F-1:0] p;
    begin
      s  = a[W-1] ^ b[W-1];
      if (is_nan(a[W-2:0]) || is_nan(b[W-2:0]) || (is_inf(a[W-2:0]) && is_zero(b[W-2:0])) || (is_zero(a[W-2:0]) && is_inf(b[W-2:0])))
        mul = QNAN;
      else if (is_inf(a[W-2:0]) || is_inf(b[W-2:0]))
        mul = {s, {EW{1'b1}}, {MW{1'b0}}};
      else if (is_zero(a[W-2:0]) || is_zero(b[W-2:0]))
        mul = {s, {(W-1){1'b0}}};
      else begin
        p = {{F{1'b0}}, sig(a[W-2:0])} * {{F{1'b0}}, sig(b[W-2:0])};
        // p's top bit stands for 2^(ea + eb - 2 BIAS + 1).
        mul = round_pack(s, expo(a[W-2:MW]) + expo(b[W-2:MW]) - BIAS + 1,
                         {p, {(NW-2*F){1'b0}}});
      end
    end
  endfunction

  // Significands normalised to [1, 2) are divided with F + 2 extra quotient bits, so the
  // quotient has at least F + 2 significant bits; a nonzero remainder is the sticky bit.
  function [W-1:0] div(input [W-1:0] a, input [W-1:0] b);
    reg           s;
    reg [F-1:0]   ma, mb;
    reg [2*F+2:0] num, q, rem;
    integer       ea, eb, k;
    begin
      s  = a[W-1] ^ b[W-1];
      if (is_nan(a[W-2:0]) || is_nan(b[W-2:0]) || (is_inf(a[W-2:0]) && is_inf(b[W-2:0])) || (is_zero(a[W-2:0]) && is_zero(b[W-2:0])))
        div = QNAN;
      else if (is_inf(a[W-2:0]) || is_zero(b[W-2:0]))
        div = {s, {EW{1'b1}}, {MW{1'b0}}};
      else if (is_zero(a[W-2:0]) || is_inf(b[W-2:0]))
        div = {s, {(W-1){1'b0}}};
      else begin
        ma = sig(a[W-2:0]);
        mb = sig(b[W-2:0]);
        ea = expo(a[W-2:MW]);
        eb = expo(b[W-2:MW]);
        for (k = 0; k < F; k = k + 1) begin
          if (!ma[F-1]) begin
            ma = ma << 1;
            ea = ea - 1;
          end
          if (!mb[F-1]) begin
            mb = mb << 1;
            eb = eb - 1;
          end
        end
        num = {{(F+3){1'b0}}, ma} << (F + 2);
        q   = num / {{(F+3){1'b0}}, mb};
        rem = num % {{(F+3){1'b0}}, mb};
        // q's bit F + 2 stands for 2^(ea - eb); its top bit, 2F + 2, for F more.
        div = round_pack(s, ea - eb + BIAS + F, {q, |rem});
      end
    end
  endfunction

  // Flags of a comparison: {unordered, equal, less than}.
  function [2:0] compare(input [W-1:0] a, input [W-1:0] b);
    reg       unordered, equal, less;
    begin
      unordered = is_nan(a[W-2:0]) | is_nan(b[W-2:0]);
      equal = ~unordered & ((a == b) | (is_zero(a[W-2:0]) & is_zero(b[W-2:0])));
      less = ~unordered & ~equal
           & ((a[W-1] & ~b[W-1])
            | (~a[W-1] & ~b[W-1] & (a[W-2:0] < b[W-2:0]))
            | (a[W-1] & b[W-1] & (a[W-2:0] > b[W-2:0])));
      compare = {unordered, equal, less};
    end
  endfunction

  // The predicate `cmpf_<pred>` of OP on a and b.
  function predicate(input [W-1:0] a, input [W-1:0] b);
    reg [2:0] flags;
    reg       uno, eq, lt, gt;
    begin
      flags = compare(a, b);
      uno = flags[2];
      eq  = flags[1];
      lt  = flags[0];
      gt  = ~uno & ~eq & ~lt;
      case (OP)
        "cmpf_oeq": predicate = eq;
        "cmpf_ogt": predicate = gt;
        "cmpf_oge": predicate = gt | eq;
        "cmpf_olt": predicate = lt;
        "cmpf_ole": predicate = lt | eq;
        "cmpf_one": predicate = lt | gt;
        "cmpf_ord": predicate = ~uno;
        "cmpf_ueq": predicate = uno | eq;
        "cmpf_ugt": predicate = uno | gt;
        "cmpf_uge": predicate = uno | gt | eq;
        "cmpf_ult": predicate = uno | lt;
        "cmpf_ule": predicate = uno | lt | eq;
        "cmpf_une": predicate = uno | lt | gt;
        "cmpf_uno": predicate = uno;
        "cmpf_true": predicate = 1'b1;
        default: predicate = 1'b0;
      endcase
    end
  endfunction

  localparam PREDICATE =
       OP == "cmpf_false" || OP == "cmpf_oeq" || OP == "cmpf_ogt" || OP == "cmpf_oge"
    || OP == "cmpf_olt" || OP == "cmpf_ole" || OP == "cmpf_one" || OP == "cmpf_ord"
    || OP == "cmpf_ueq" || OP == "cmpf_ugt" || OP == "cmpf_uge" || OP == "cmpf_ult"
    || OP == "cmpf_ule" || OP == "cmpf_une" || OP == "cmpf_uno" || OP == "cmpf_true";

  wire [OW-1:0] result;
  generate
    if (OW == W && OP == "addf") begin : g_addf
      assign result = add(lhs_data, rhs_data, 1'b0);
    end else if (OW == W && OP == "subf") begin : g_subf
      assign result = add(lhs_data, rhs_data, 1'b1);
    end else if (OW == W && OP == "mulf") begin : g_mulf
      assign result = mul(lhs_data, rhs_data);
    end else if (OW == W && OP == "divf") begin : g_divf
      assign result = div(lhs_data, rhs_data);
    end else if (OW == 1 && PREDICATE) begin : g_cmpf
      assign result = predicate(lhs_data, rhs_data);
    end else begin : g_bad
      hsir_float_binary_bad_OP_or_OW bad ();
    end
  endgenerate

  // The join of the operands, then the pipeline.
  wire in_valid = lhs_valid & rhs_valid;
  wire in_ready;
  assign lhs_ready = in_valid & in_ready;
  assign rhs_ready = in_valid & in_ready;

  generate
    if (LATENCY == 0) begin : g_comb
      // No registers: the clock and reset are unused by design.
      wire unused_clock = clk | rst;
      assign out_data  = result;
      assign out_valid = in_valid;
      assign in_ready  = out_ready;
    end else begin : g_pipe
      reg [LATENCY*OW-1:0] data;
      reg [LATENCY-1:0]    valid;
      // Stage s takes a token when some stage from s on is empty or the output is taken.
      wire [LATENCY-1:0]   en;
      assign in_ready  = en[0];
      assign out_valid = valid[LATENCY-1];
      assign out_data  = data[(LATENCY-1)*OW +: OW];
      genvar s;
      for (s = 0; s < LATENCY; s = s + 1) begin : stage
        wire [OW-1:0] d_in;
        wire          v_in;
        assign en[s] = out_ready | ~(&valid[LATENCY-1:s]);
        if (s == 0) begin : first
          assign d_in = result;
          assign v_in = in_valid;
        end else begin : later
          assign d_in = data[(s-1)*OW +: OW];
          assign v_in = valid[s-1];
        end
        always @(posedge clk) begin
          if (rst)
            valid[s] <= 1'b0;
          else if (en[s])
            valid[s] <= v_in;
        end
        always @(posedge clk)
          if (en[s]) data[s*OW +: OW] <= d_in;
      end
    end
  endgenerate
endmodule
