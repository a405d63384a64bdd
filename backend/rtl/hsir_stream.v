// hsir_stream: LOOM's `dataflow.stream`, the index stream of one loop per entry.
// Idle, it waits for start, step and bound, consumes the three together and starts running
// with idx = start. Running, it offers idx and cont = COND(idx, bound) (signed); idx and cont
// are taken independently (like an eager fork) and once both are taken it either steps
// (idx = idx STEP_OP step, when cont was 1) or returns to idle (when cont was 0). So an entry
// gives N + 1 idx/cont pairs: N with cont = 1, then one with cont = 0.
// STEP_OP: "+=" "-=" "*=" (low W bits), "/=" (signed; by 0 gives -1, most negative by -1 gives
// the most negative value), "<<=" (0 from W on), ">>=" (arithmetic, sign copies from W on).
// COND: "<" "<=" ">" ">=" "!=" (signed). Any other value instantiates the missing module
// `hsir_stream_bad_STEP_OP_or_COND`, so elaboration fails.
// Timing: idx, cont and their valids are registered; start/step/bound ready is combinational
// from their valids and the state; the step happens in the cycle the second output is taken.
module hsir_stream #(
  parameter           W       = 32,
  parameter [8*4-1:0] STEP_OP = "+=",
  parameter [8*4-1:0] COND    = "<"
) (
  input          clk,
  input          rst,
  input  [W-1:0] start_data,
  input          start_valid,
  output         start_ready,
  input  [W-1:0] step_data,
  input          step_valid,
  output         step_ready,
  input  [W-1:0] bound_data,
  input          bound_valid,
  output         bound_ready,
  output [W-1:0] idx_data,
  output         idx_valid,
  input          idx_ready,
  output         cont_data,
  output         cont_valid,
  input          cont_ready
);
  localparam [W-1:0] ONES = {W{1'b1}};
  localparam [W-1:0] ZERO = {W{1'b0}};
  localparam [W-1:0] MINV = ~(ONES >> 1);

  reg         running;
  reg [W-1:0] cur;
  reg [W-1:0] step;
  reg [W-1:0] bound;
  reg         sent_idx;
  reg         sent_cont;

  wire entry = ~running & start_valid & step_valid & bound_valid;
  wire fire  = running & (sent_idx | idx_ready) & (sent_cont | cont_ready);
  wire [W-1:0] next;
  wire         cont;

  assign start_ready = entry;
  assign step_ready  = entry;
  assign bound_ready = entry;
  assign idx_data    = cur;
  assign idx_valid   = running & ~sent_idx;
  assign cont_data   = cont;
  assign cont_valid  = running & ~sent_cont;

  generate
    if (STEP_OP == "+=") begin : g_add
      assign next = cur + step;
    end else if (STEP_OP == "-=") begin : g_sub
      assign next = cur - step;
    end else if (STEP_OP == "*=") begin : g_mul
      assign next = cur * step;
    end else if (STEP_OP == "/=") begin : g_div
      wire zero     = step == ZERO;
      wire overflow = cur == MINV && step == ONES;
      wire [W-1:0] divisor = (zero || overflow) ? 1 : step;
      wire signed [W-1:0] q = $signed(cur) / $signed(divisor);
      assign next = zero ? ONES : overflow ? MINV : q;
    end else if (STEP_OP == "<<=") begin : g_shl
      assign next = cur << step;
    end else if (STEP_OP == ">>=") begin : g_shr
      wire signed [W-1:0] shifted = $signed(cur) >>> step;
      assign next = shifted;
    end else begin : g_bad_step
      hsir_stream_bad_STEP_OP_or_COND bad ();
    end

    if (COND == "<") begin : g_lt
      assign cont = $signed(cur) < $signed(bound);
    end else if (COND == "<=") begin : g_le
      assign cont = $signed(cur) <= $signed(bound);
    end else if (COND == ">") begin : g_gt
      assign cont = $signed(cur) > $signed(bound);
    end else if (COND == ">=") begin : g_ge
      assign cont = $signed(cur) >= $signed(bound);
    end else if (COND == "!=") begin : g_ne
      assign cont = cur != bound;
    end else begin : g_bad_cond
      hsir_stream_bad_STEP_OP_or_COND bad ();
    end
  endgenerate

  always @(posedge clk) begin
    if (rst) begin
      running   <= 1'b0;
      sent_idx  <= 1'b0;
      sent_cont <= 1'b0;
    end else if (entry) begin
      running <= 1'b1;
    end else if (fire) begin
      sent_idx  <= 1'b0;
      sent_cont <= 1'b0;
      if (!cont) running <= 1'b0;
    end else begin
      sent_idx  <= sent_idx | (idx_valid & idx_ready);
      sent_cont <= sent_cont | (cont_valid & cont_ready);
    end
  end

  always @(posedge clk) begin
    if (entry) begin
      cur   <= start_data;
      step  <= step_data;
      bound <= bound_data;
    end else if (fire && cont) begin
      cur <= next;
    end
  end
endmodule
