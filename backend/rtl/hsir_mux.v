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
  output [W-1:0]     out_data,
  output             out_valid,
  input              out_ready
);
  // Combinational logic is written as functions in continuous assignments, which simulators
  // evaluate at time 0 (an `always @*` waits for its first input change).
  // One-hot decode of `sel` (all zero when it is N or more).
  function [N-1:0] decode;
    input [SW-1:0] sel;
    integer i;
    reg [SW-1:0] k;        // i, counted in SW bits
    reg          wrapped;  // i no longer fits in SW bits
    begin
      decode  = {N{1'b0}};
      k       = {SW{1'b0}};
      wrapped = 1'b0;
      for (i = 0; i < N; i = i + 1) begin
        if (!wrapped && sel == k) decode[i] = 1'b1;
        k = k + 1'b1;
        if (k == {SW{1'b0}}) wrapped = 1'b1;
      end
    end
  endfunction

  function [W-1:0] select;
    input [N*W-1:0] data;
    input [N-1:0]   pick;
    integer i;
    begin
      select = {W{1'b0}};
      for (i = 0; i < N; i = i + 1)
        select = select | (data[i*W +: W] & {W{pick[i]}});
    end
  endfunction

  wire [N-1:0] pick = decode(sel_data);

  assign out_data = select(ins_data, pick);

  assign out_valid = sel_valid & |(pick & ins_valid);
  assign sel_ready = out_valid & out_ready;
  assign ins_ready = pick & {N{out_valid & out_ready}};
endmodule
