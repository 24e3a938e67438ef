// Formal harness of the reset synchronizer (rtl/mt_reset_sync.sv; scripts/formal.sh --top
// mt_reset_sync_formal --sources "rtl/mt_reset_sync.sv rtl/formal/mt_reset_sync_formal.sv").
// Against a count of the rising edges of clk_i since arst_ni last rose (saturating at Stages):
//   AssertAsync  while arst_ni is low, the block's reset is low (in the same cycle, no edge needed)
//   Deassert     the block's reset is high exactly when arst_ni has been high for Stages edges
// Its assertions are checked in every cycle, reset included: the macros' rst_ni is the constant
// below, the synchronizer's reset request is the free input arst_ni.

`include "mt_assert.svh"

module mt_reset_sync_formal #(
  parameter int unsigned Stages = 2
) (
  input logic clk_i,
  input logic arst_ni
);

  localparam int unsigned CountBits = $clog2(Stages + 1);
  logic                 rst_ni;  // the macros check while it is high: always
  logic                 block_rst_n;
  logic [CountBits-1:0] edges_q;  // rising edges since arst_ni rose, saturating at Stages

  assign rst_ni = 1'b1;

  // The request is low in the first cycle (the flops start unknown) and free afterwards: it may
  // rise and fall again at any time.
  logic started_q = 1'b0;
  always @(posedge clk_i) started_q <= 1'b1;
`ifdef FORMAL
  always @(*) if (!started_q) assume (!arst_ni);
`endif

  mt_reset_sync #(.Stages(Stages)) u_dut (
    .clk_i,
    .rst_ni(arst_ni),
    .rst_no(block_rst_n)
  );

  logic released_q = 1'b0;  // the block's reset has been released once
  always @(posedge clk_i) released_q <= released_q || block_rst_n;

  always_ff @(posedge clk_i or negedge arst_ni) begin
    if (!arst_ni) begin
      edges_q <= '0;
    end else if (32'(edges_q) < Stages) begin
      edges_q <= edges_q + CountBits'(1);
    end
  end

  `MT_ASSERT(AssertAsync_A, arst_ni || !block_rst_n)
  `MT_ASSERT(Deassert_A, block_rst_n == (arst_ni && 32'(edges_q) == Stages))
  `MT_COVER(Released_C, block_rst_n)
  `MT_COVER(Reasserted_C, started_q && !arst_ni && released_q)

endmodule
