// hsir_mux: data-driven multiplexer.
// out is valid when sel and the input sel names are both valid; sel and that input are consumed
// together when out is taken, the other inputs wait. A sel value with no input (sel >= N) is
// never consumed: the mux stalls.
// Timing: purely combinational (no registers).
module hsir_mux #(
  parameter N  = 2,
  parameter W  = 1,
  parameter SW = 1
) (
  input  [SW-1:0]    sel_data,
  input              sel_valid,
  output             sel_ready,
  input  [N*W-1:0]   ins_data,
  input  [N-1:0]     ins_valid,
  output [N-1:0]     ins_ready,
  output reg [W-1:0] out_data,
  output             out_valid,
  input              out_ready
);
  integer i;
  reg [N-1:0]  pick;     // one-hot decode of sel_data (all zero when out of range)
  reg [SW-1:0] k;        // i, counted in SW bits
  reg          wrapped;  // i no longer fits in SW bits

  always @* begin
    pick     = {N{1'b0}};
    out_data = {W{1'b0}};
    k        = {SW{1'b0}};
    wrapped  = 1'b0;
    for (i = 0; i < N; i = i + 1) begin
      if (!wrapped && sel_data == k) begin
        pick[i]  = 1'b1;
        out_data = ins_data[i*W +: W];
      end
      k = k + 1'b1;
      if (k == {SW{1'b0}}) wrapped = 1'b1;
    end
  end

  assign out_valid = sel_valid & |(pick & ins_valid);
  assign sel_ready = out_valid & out_ready;
  assign ins_ready = pick & {N{out_valid & out_ready}};
endmodule
