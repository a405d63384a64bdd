// hsir_binary: two-operand integer operation (Handshake/arith `OP`).
// Joins lhs and rhs: out is valid when both are, and both are consumed when out is taken.
// out_data = OP(lhs, rhs), W bits (OW = W), or one bit for `cmpi_<pred>` (OW = 1).
// Division by zero: divui gives all ones, divsi gives -1, remui / remsi give lhs; divsi of the
// most negative value by -1 gives the most negative value and remsi then gives 0. Shifts by W
// or more give 0 (shli, shrui) or copies of the sign bit (shrsi).
// An OP / OW combination outside this list instantiates the missing module
// `hsir_binary_bad_OP_or_OW`, so elaboration fails.
// The result is computed combinationally and carried through a LATENCY-stage pipeline, as in
// hsir_float_binary (Dynamatic's multiplier takes 4 cycles, its dividers 35).
// Timing: LATENCY = 0: purely combinational (clk, rst unused). LATENCY >= 1: out_data and
// out_valid registered (a token needs LATENCY cycles to cross an empty pipeline), lhs_ready /
// rhs_ready combinational from out_ready and the stages' valids.
module hsir_binary #(
  parameter W  = 32,
  parameter OW = 32,
  parameter [8*16-1:0] OP = "addi",
  parameter LATENCY = 0
) (
  input           clk,
  input           rst,
  input  [W-1:0]  lhs_data,
  input           lhs_valid,
  output          lhs_ready,
  input  [W-1:0]  rhs_data,
  input           rhs_valid,
  output          rhs_ready,
  output [OW-1:0] out_data,
  output          out_valid,
  input           out_ready
);
  wire [OW-1:0] result;

  localparam [W-1:0] ONES = {W{1'b1}};
  localparam [W-1:0] ZERO = {W{1'b0}};
  localparam [W-1:0] MINV = ~(ONES >> 1);   // most negative signed value

  generate
    if (OW == W && OP == "addi") begin : g_addi
      assign result = lhs_data + rhs_data;
    end else if (OW == W && OP == "subi") begin : g_subi
      assign result = lhs_data - rhs_data;
    end else if (OW == W && OP == "muli") begin : g_muli
      assign result = lhs_data * rhs_data;
    end else if (OW == W && (OP == "divsi" || OP == "remsi")) begin : g_sdiv
      wire zero     = rhs_data == ZERO;
      wire overflow = lhs_data == MINV && rhs_data == ONES;
      // The divider never sees a zero divisor or the overflowing pair.
      wire [W-1:0] divisor = (zero || overflow) ? 1 : rhs_data;
      if (OP == "divsi") begin : g_q
        wire signed [W-1:0] q = $signed(lhs_data) / $signed(divisor);
        assign result = zero ? ONES : overflow ? MINV : q;
      end else begin : g_r
        wire signed [W-1:0] r = $signed(lhs_data) % $signed(divisor);
        assign result = zero ? lhs_data : overflow ? ZERO : r;
      end
    end else if (OW == W && (OP == "divui" || OP == "remui")) begin : g_udiv
      wire zero = rhs_data == ZERO;
      wire [W-1:0] divisor = zero ? 1 : rhs_data;
      if (OP == "divui") begin : g_q
        assign result = zero ? ONES : lhs_data / divisor;
      end else begin : g_r
        assign result = zero ? lhs_data : lhs_data % divisor;
      end
    end else if (OW == W && OP == "andi") begin : g_andi
      assign result = lhs_data & rhs_data;
    end else if (OW == W && OP == "ori") begin : g_ori
      assign result = lhs_data | rhs_data;
    end else if (OW == W && OP == "xori") begin : g_xori
      assign result = lhs_data ^ rhs_data;
    end else if (OW == W && OP == "shli") begin : g_shli
      assign result = lhs_data << rhs_data;
    end else if (OW == W && OP == "shrui") begin : g_shrui
      assign result = lhs_data >> rhs_data;
    end else if (OW == W && OP == "shrsi") begin : g_shrsi
      wire signed [W-1:0] shifted = $signed(lhs_data) >>> rhs_data;
      assign result = shifted;
    end else if (OW == W && OP == "maxsi") begin : g_maxsi
      assign result = ($signed(lhs_data) > $signed(rhs_data)) ? lhs_data : rhs_data;
    end else if (OW == W && OP == "maxui") begin : g_maxui
      assign result = (lhs_data > rhs_data) ? lhs_data : rhs_data;
    end else if (OW == W && OP == "minsi") begin : g_minsi
      assign result = ($signed(lhs_data) < $signed(rhs_data)) ? lhs_data : rhs_data;
    end else if (OW == W && OP == "minui") begin : g_minui
      assign result = (lhs_data < rhs_data) ? lhs_data : rhs_data;
    end else if (OW == 1 && OP == "cmpi_eq") begin : g_eq
      assign result = lhs_data == rhs_data;
    end else if (OW == 1 && OP == "cmpi_ne") begin : g_ne
      assign result = lhs_data != rhs_data;
    end else if (OW == 1 && OP == "cmpi_slt") begin : g_slt
      assign result = $signed(lhs_data) < $signed(rhs_data);
    end else if (OW == 1 && OP == "cmpi_sle") begin : g_sle
      assign result = $signed(lhs_data) <= $signed(rhs_data);
    end else if (OW == 1 && OP == "cmpi_sgt") begin : g_sgt
      assign result = $signed(lhs_data) > $signed(rhs_data);
    end else if (OW == 1 && OP == "cmpi_sge") begin : g_sge
      assign result = $signed(lhs_data) >= $signed(rhs_data);
    end else if (OW == 1 && OP == "cmpi_ult") begin : g_ult
      assign result = lhs_data < rhs_data;
    end else if (OW == 1 && OP == "cmpi_ule") begin : g_ule
      assign result = lhs_data <= rhs_data;
    end else if (OW == 1 && OP == "cmpi_ugt") begin : g_ugt
      assign result = lhs_data > rhs_data;
    end else if (OW == 1 && OP == "cmpi_uge") begin : g_uge
      assign result = lhs_data >= rhs_data;
    end else begin : g_bad
      hsir_binary_bad_OP_or_OW bad ();
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
