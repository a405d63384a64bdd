// hsir_mc_control: completion tracking of Dynamatic's `mem_controller`.
// Every ctrl token (always accepted) announces a number of stores (CW bits, unsigned); a cycle
// with st_issued = 1 marks one store written. A signed counter (CW + 16 bits) keeps announced
// minus written stores. mem_end is valid when mem_start and ctrl_end are both valid, the
// counter is 0 and nothing changes it in this cycle (no ctrl token with a nonzero count, no
// st_issued); mem_start and ctrl_end are consumed together when mem_end is taken.
// Timing: the counter is registered; mem_end_valid is combinational from the valids, the ctrl
// counts, st_issued and the counter; the readies are combinational.
module hsir_mc_control #(
  parameter NCTRL = 1,
  parameter CW    = 32
) (
  input                clk,
  input                rst,
  input                mem_start_valid,
  output               mem_start_ready,
  input  [NCTRL*CW-1:0] ctrl_data,
  input  [NCTRL-1:0]   ctrl_valid,
  output [NCTRL-1:0]   ctrl_ready,
  input                st_issued,
  input                ctrl_end_valid,
  output               ctrl_end_ready,
  output               mem_end_valid,
  input                mem_end_ready
);
  localparam NW = CW + 16;

  reg  [NW-1:0] count;

  // Combinational logic is written as functions in continuous assignments, which simulators
  // evaluate at time 0 (an `always @*` waits for its first input change).
  // The stores the valid ctrl tokens announce this cycle.
  function [NW-1:0] announced;
    input [NCTRL*CW-1:0] data;
    input [NCTRL-1:0]    valid;
    integer i;
    begin
      announced = {NW{1'b0}};
      for (i = 0; i < NCTRL; i = i + 1)
        if (valid[i]) announced = announced + {{(NW-CW){1'b0}}, data[i*CW +: CW]};
    end
  endfunction

  // Whether some valid ctrl token announces a store.
  function any_announced;
    input [NCTRL*CW-1:0] data;
    input [NCTRL-1:0]    valid;
    integer i;
    begin
      any_announced = 1'b0;
      for (i = 0; i < NCTRL; i = i + 1)
        if (valid[i] && data[i*CW +: CW] != {CW{1'b0}}) any_announced = 1'b1;
    end
  endfunction

  wire [NW-1:0] added    = announced(ctrl_data, ctrl_valid);
  wire          changing = st_issued | any_announced(ctrl_data, ctrl_valid);

  assign ctrl_ready      = {NCTRL{1'b1}};
  assign mem_end_valid   = mem_start_valid & ctrl_end_valid & ~changing & (count == {NW{1'b0}});
  assign mem_start_ready = mem_end_valid & mem_end_ready;
  assign ctrl_end_ready  = mem_end_valid & mem_end_ready;

  always @(posedge clk) begin
    if (rst)
      count <= {NW{1'b0}};
    else
      count <= count + added - {{(NW-1){1'b0}}, st_issued};
  end
endmodule
