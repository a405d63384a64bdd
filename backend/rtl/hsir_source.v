// hsir_source: offers a token in every cycle (always valid).
// Timing: combinational constant; out_ready is unused by design.
module hsir_source (
  output out_valid,
  /* verilator lint_off UNUSEDSIGNAL */
  input  out_ready
  /* verilator lint_on UNUSEDSIGNAL */
);
  assign out_valid = 1'b1;
endmodule
