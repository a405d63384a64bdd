// hsir_float_unary: a one-operand IEEE-754 operation (`OP`): a negation or a conversion between
// floats and integers or between float formats, computed combinationally and then carried
// through a LATENCY-stage pipeline. A float side of IW (OW) bits has IEW (OEW) exponent bits
// and IW - 1 - IEW (OW - 1 - OEW) mantissa bits; an integer side has IEW (OEW) = 0.
//   negf            float -> the same float, sign flipped
//   extf, truncf    float -> a wider / narrower float (OEW > IEW / OEW < IEW)
//   sitofp, uitofp  signed / unsigned integer of IW bits -> float
//   fptosi, fptoui  float -> signed / unsigned integer of OW bits, rounded toward zero and
//                   saturated to the integer's range; a NaN gives 0
// Results round to nearest, ties to even, keep subnormals, and every NaN result is the
// canonical quiet NaN (sign 0, exponent all ones, only the mantissa's top bit set).
// Handshake and timing: the pipeline of hsir_float_binary (LATENCY >= 1: out registered,
// in_ready combinational; LATENCY = 0: combinational, clk and rst unused).
// An OP / width combination outside this list instantiates the missing module
// `hsir_float_unary_bad_OP_or_width`, so elaboration fails.
module hsir_float_unary #(
  parameter            IW      = 32,
  parameter            OW      = 32,
  parameter            IEW     = 8,
  parameter            OEW     = 8,
  parameter [8*16-1:0] OP      = "negf",
  parameter            LATENCY = 0
) (
  input           clk,
  input           rst,
  input  [IW-1:0] in_data,
  input           in_valid,
  output          in_ready,
  output [OW-1:0] out_data,
  output          out_valid,
  input           out_ready
);
  // The float sides' formats (an integer side's are unused, and made valid widths).
  localparam IEW1  = IEW > 1 ? IEW : 2;
  localparam IMW   = IEW > 1 ? IW - 1 - IEW : 1;
  localparam IF    = IMW + 1;
  localparam IBIAS = (1 << (IEW1 - 1)) - 1;
  localparam OEW1  = OEW > 1 ? OEW : 2;
  localparam OMW   = OEW > 1 ? OW - 1 - OEW : 1;
  localparam OF    = OMW + 1;
  localparam OBIAS = (1 << (OEW1 - 1)) - 1;
  localparam OEMAX = (1 << OEW1) - 1;
  localparam IWF   = 1 + IEW1 + IMW;
  localparam OWF   = 1 + OEW1 + OMW;
  // Width of the significand `round_pack` takes: any integer of up to 64 bits, or a float's
  // significand, with room for the rounding bits.
  localparam NW    = OF + 68;
  localparam [OWF-1:0] QNAN = {1'b0, {OEW1{1'b1}}, 1'b1, {(OMW-1){1'b0}}};

  // The helpers read a float's magnitude bits (all but the sign).
  function is_nan(input [IWF-2:0] x);
    is_nan = (&x[IWF-2:IMW]) & (|x[IMW-1:0]);
  endfunction

  function is_inf(input [IWF-2:0] x);
    is_inf = (&x[IWF-2:IMW]) & ~(|x[IMW-1:0]);
  endfunction

  function is_zero(input [IWF-2:0] x);
    is_zero = ~(|x);
  endfunction

  function [IF-1:0] sig(input [IWF-2:0] x);
    sig = {|x[IWF-2:IMW], x[IMW-1:0]};
  endfunction

  function integer expo(input [IEW1-1:0] e);
    expo = (e == {IEW1{1'b0}}) ? 1 : {{(32-IEW1){1'b0}}, e};
  endfunction

  // The number s * v * 2^(e - OBIAS - (NW - 1)) rounded to the output format (as in
  // hsir_float_binary): v's top bit stands for 2^(e - OBIAS); v is nonzero.
  function [OWF-1:0] round_pack(input s, input integer e, input [NW-1:0] v);
    integer      k, lz, ex, sh;
    reg [NW-1:0] m;
    reg [OF:0]   r;
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
      round_bit = m[NW-OF-1];
      sticky = sticky | (|(m & ~({NW{1'b1}} << (NW - OF - 1))));
      r = {1'b0, m[NW-1:NW-OF]};
      if (round_bit && (sticky || r[0]))
        r = r + 1'b1;
      if (r[OF]) begin
        r  = r >> 1;
        ex = ex + 1;
      end
      if (ex >= OEMAX)
        round_pack = {s, {OEW1{1'b1}}, {OMW{1'b0}}};
      else if (!r[OF-1])
        round_pack = {s, {OEW1{1'b0}}, r[OMW-1:0]};
      else
        round_pack = {s, ex[OEW1-1:0], r[OMW-1:0]};
    end
  endfunction

  // A float of the input format in the output format (extf, truncf).
  function [OWF-1:0] resize(input [IWF-1:0] a);
    begin
      if (is_nan(a[IWF-2:0]))
        resize = QNAN;
      else if (is_inf(a[IWF-2:0]))
        resize = {a[IWF-1], {OEW1{1'b1}}, {OMW{1'b0}}};
      else if (is_zero(a[IWF-2:0]))
        resize = {a[IWF-1], {(OWF-1){1'b0}}};
      else
        resize = round_pack(a[IWF-1], expo(a[IWF-2:IMW]) - IBIAS + OBIAS,
                            {sig(a[IWF-2:0]), {(NW-IF){1'b0}}});
    end
  endfunction

  // An IW-bit integer, signed or not, as a float.
  function [OWF-1:0] from_int(input [IW-1:0] x, input signed_in);
    reg          s;
    reg [IW-1:0] magnitude;
    begin
      s = signed_in & x[IW-1];
      magnitude = s ? -x : x;
      if (magnitude == {IW{1'b0}})
        from_int = {OWF{1'b0}};
      else
        from_int = round_pack(s, OBIAS + NW - 1, {{(NW-IW){1'b0}}, magnitude});
    end
  endfunction

  // A float as an OW-bit integer, signed or not: truncated toward zero, saturated.
  function [OW-1:0] to_int(input [IWF-1:0] a, input signed_out);
    integer           k;
    reg [IF+OW:0]     magnitude;
    reg [IF+OW:0]     limit;
    begin
      k = expo(a[IWF-2:IMW]) - IBIAS;
      if (k < 0)
        magnitude = {(IF+OW+1){1'b0}};
      else if (k > OW)
        magnitude = {(IF+OW+1){1'b1}};
      else
        magnitude = ({{(OW+1){1'b0}}, sig(a[IWF-2:0])} << k) >> (IF - 1);
      if (is_nan(a[IWF-2:0]))
        to_int = {OW{1'b0}};
      else if (!signed_out) begin
        limit = {{(IF+1){1'b0}}, {OW{1'b1}}};
        if (a[IWF-1])
          to_int = {OW{1'b0}};
        else if (magnitude > limit)
          to_int = {OW{1'b1}};
        else
          to_int = magnitude[OW-1:0];
      end else if (!a[IWF-1]) begin
        limit = {{(IF+2){1'b0}}, {(OW-1){1'b1}}};
        if (magnitude > limit)
          to_int = {1'b0, {(OW-1){1'b1}}};
        else
          to_int = magnitude[OW-1:0];
      end else begin
        limit = {{(IF+1){1'b0}}, 1'b1, {(OW-1){1'b0}}};
        if (magnitude > limit)
          to_int = {1'b1, {(OW-1){1'b0}}};
        else
          to_int = -magnitude[OW-1:0];
      end
    end
  endfunction

  localparam FLOAT_IN  = IEW > 1 && IEW < IW - 2;
  localparam FLOAT_OUT = OEW > 1 && OEW < OW - 2;

  wire [OW-1:0] result;
  generate
    if (OP == "negf" && FLOAT_IN && IW == OW && IEW == OEW) begin : g_negf
      assign result = is_nan(in_data[IWF-2:0]) ? QNAN : {~in_data[IW-1], in_data[IW-2:0]};
    end else if ((OP == "extf" && OW > IW || OP == "truncf" && OW < IW)
                 && FLOAT_IN && FLOAT_OUT) begin : g_resize
      assign result = resize(in_data);
    end else if ((OP == "sitofp" || OP == "uitofp") && FLOAT_OUT
                 && IEW == 0 && IW <= 64) begin : g_from_int
      assign result = from_int(in_data, OP == "sitofp");
    end else if ((OP == "fptosi" || OP == "fptoui") && FLOAT_IN && OEW == 0 && OW >= 2
                 && OW <= 64) begin : g_to_int
      assign result = to_int(in_data, OP == "fptosi");
    end else begin : g_bad
      hsir_float_unary_bad_OP_or_width bad ();
    end
  endgenerate

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
