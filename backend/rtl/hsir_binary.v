// hsir_binary: two-operand integer operation (Handshake/arith `OP`).
// Joins lhs and rhs: out is valid when both are, and both are consumed when out is taken.
// out_data = OP(lhs, rhs), W bits (OW = W), or one bit for `cmpi_<pred>` (OW = 1).
// Division by zero: divui gives all ones, divsi gives -1, remui / remsi give lhs; divsi of the
// most negative value by -1 gives the most negative value and remsi then gives 0. Shifts by W
// or more give 0 (shli, shrui) or copies of the sign bit (shrsi).
// An OP / OW combination outside this list instantiates the missing module
// `hsir_binary_bad_OP_or_OW`, so elaboration fails.
// Timing: purely combinational (no registers).
module hsir_binary #(
  parameter W  = 32,
  parameter OW = 32,
  parameter [8*16-1:0] OP = "addi"
) (
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
  assign out_valid = lhs_valid & rhs_valid;
  assign lhs_ready = out_valid & out_ready;
  assign rhs_ready = out_valid & out_ready;

  localparam [W-1:0] ONES = {W{1'b1}};
  localparam [W-1:0] ZERO = {W{1'b0}};
  localparam [W-1:0] MINV = ~(ONES >> 1);   // most negative signed value

  generate
    if (OW == W && OP == "addi") begin : g_addi
      assign out_data = lhs_data + rhs_data;
    end else if (OW == W && OP == "subi") begin : g_subi
      assign out_data = lhs_data - rhs_data;
    end else if (OW == W && OP == "muli") begin : g_muli
      assign out_data = lhs_data * rhs_data;
    end else if (OW == W && (OP == "divsi" || OP == "remsi")) begin : g_sdiv
      wire zero     = rhs_data == ZERO;
      wire overflow = lhs_data == MINV && rhs_data == ONES;
      // The divider never sees a zero divisor or the overflowing pair.
      wire [W-1:0] divisor = (zero || overflow) ? 1 : rhs_data;
      if (OP == "divsi") begin : g_q
        wire signed [W-1:0] q = $signed(lhs_data) / $signed(divisor);
        assign out_data = zero ? ONES : overflow ? MINV : q;
      end else begin : g_r
        wire signed [W-1:0] r = $signed(lhs_data) % $signed(divisor);
        assign out_data = zero ? lhs_data : overflow ? ZERO : r;
      end
    end else if (OW == W && (OP == "divui" || OP == "remui")) begin : g_udiv
      wire zero = rhs_data == ZERO;
      wire [W-1:0] divisor = zero ? 1 : rhs_data;
      if (OP == "divui") begin : g_q
        assign out_data = zero ? ONES : lhs_data / divisor;
      end else begin : g_r
        assign out_data = zero ? lhs_data : lhs_data % divisor;
      end
    end else if (OW == W && OP == "andi") begin : g_andi
      assign out_data = lhs_data & rhs_data;
    end else if (OW == W && OP == "ori") begin : g_ori
      assign out_data = lhs_data | rhs_data;
    end else if (OW == W && OP == "xori") begin : g_xori
      assign out_data = lhs_data ^ rhs_data;
    end else if (OW == W && OP == "shli") begin : g_shli
      assign out_data = lhs_data << rhs_data;
    end else if (OW == W && OP == "shrui") begin : g_shrui
      assign out_data = lhs_data >> rhs_data;
    end else if (OW == W && OP == "shrsi") begin : g_shrsi
      wire signed [W-1:0] shifted = $signed(lhs_data) >>> rhs_data;
      assign out_data = shifted;
    end else if (OW == W && OP == "maxsi") begin : g_maxsi
      assign out_data = ($signed(lhs_data) > $signed(rhs_data)) ? lhs_data : rhs_data;
    end else if (OW == W && OP == "maxui") begin : g_maxui
      assign out_data = (lhs_data > rhs_data) ? lhs_data : rhs_data;
    end else if (OW == W && OP == "minsi") begin : g_minsi
      assign out_data = ($signed(lhs_data) < $signed(rhs_data)) ? lhs_data : rhs_data;
    end else if (OW == W && OP == "minui") begin : g_minui
      assign out_data = (lhs_data < rhs_data) ? lhs_data : rhs_data;
    end else if (OW == 1 && OP == "cmpi_eq") begin : g_eq
      assign out_data = lhs_data == rhs_data;
    end else if (OW == 1 && OP == "cmpi_ne") begin : g_ne
      assign out_data = lhs_data != rhs_data;
    end else if (OW == 1 && OP == "cmpi_slt") begin : g_slt
      assign out_data = $signed(lhs_data) < $signed(rhs_data);
    end else if (OW == 1 && OP == "cmpi_sle") begin : g_sle
      assign out_data = $signed(lhs_data) <= $signed(rhs_data);
    end else if (OW == 1 && OP == "cmpi_sgt") begin : g_sgt
      assign out_data = $signed(lhs_data) > $signed(rhs_data);
    end else if (OW == 1 && OP == "cmpi_sge") begin : g_sge
      assign out_data = $signed(lhs_data) >= $signed(rhs_data);
    end else if (OW == 1 && OP == "cmpi_ult") begin : g_ult
      assign out_data = lhs_data < rhs_data;
    end else if (OW == 1 && OP == "cmpi_ule") begin : g_ule
      assign out_data = lhs_data <= rhs_data;
    end else if (OW == 1 && OP == "cmpi_ugt") begin : g_ugt
      assign out_data = lhs_data > rhs_data;
    end else if (OW == 1 && OP == "cmpi_uge") begin : g_uge
      assign out_data = lhs_data >= rhs_data;
    end else begin : g_bad
      hsir_binary_bad_OP_or_OW bad ();
    end
  endgenerate
endmodule
