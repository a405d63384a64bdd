// hsir_unary: one-operand integer operation (`OP`).
//   extsi   sign-extends IW bits to OW >= IW bits
//   extui   zero-extends IW bits to OW >= IW bits
//   trunci  keeps the low OW <= IW bits
//   not     bitwise complement (OW = IW)
//   bitcast passes the bits unchanged (OW = IW)
// Any other OP / width combination instantiates the missing module `hsir_unary_bad_OP_or_width`,
// so elaboration fails.
// Timing: purely combinational (no registers).
module hsir_unary #(
  parameter            IW = 32,
  parameter            OW = 32,
  parameter [8*16-1:0] OP = "bitcast"
) (
  input  [IW-1:0] in_data,
  input           in_valid,
  output          in_ready,
  output [OW-1:0] out_data,
  output          out_valid,
  input           out_ready
);
  assign out_valid = in_valid;
  assign in_ready  = out_ready;

  generate
    if ((OP == "extsi" || OP == "extui" || OP == "trunci" || OP == "bitcast") && OW == IW)
    begin : g_same
      assign out_data = in_data;
    end else if (OP == "extsi" && OW > IW) begin : g_extsi
      assign out_data = {{(OW-IW){in_data[IW-1]}}, in_data};
    end else if (OP == "extui" && OW > IW) begin : g_extui
      assign out_data = {{(OW-IW){1'b0}}, in_data};
    end else if (OP == "trunci" && OW < IW) begin : g_trunci
      // The dropped high bits are unused by design.
      wire unused_high = ^in_data[IW-1:OW];
      assign out_data = in_data[OW-1:0];
    end else if (OP == "not" && OW == IW) begin : g_not
      assign out_data = ~in_data;
    end else begin : g_bad
      hsir_unary_bad_OP_or_width bad ();
    end
  endgenerate
endmodule
