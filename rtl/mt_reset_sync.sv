// Reset synchronizer for nic_sched's rst_ni (rtl/README.md, Reset): asserts asynchronously (rst_no
// falls with rst_ni, clock or not) and deasserts synchronously, Stages rising edges of clk_i after
// rst_ni rose, so the release of nic_sched's asynchronously reset flops meets their recovery and
// removal times (scripts/synth.sh times rst_ni as such an input). An integrator whose reset
// controller already releases reset synchronously to clk_i does not need it. Stages >= 2: the
// first flop may go metastable when rst_ni rises near an edge; the later ones give it a period to
// settle.

`include "mt_assert.svh"

module mt_reset_sync #(
  parameter int unsigned Stages = 2  // synchronizer flops (>= 2)
) (
  input  logic clk_i,
  input  logic rst_ni,  // asynchronous reset request, active low
  output logic rst_no   // reset for the block: falls with rst_ni, rises Stages edges after it
);

  logic [Stages-1:0] sync_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sync_q <= '0;
    end else begin
      sync_q <= {sync_q[Stages-2:0], 1'b1};
    end
  end

  assign rst_no = sync_q[Stages-1];

  `MT_STATIC_ASSERT(ResetSyncStages_S, Stages >= 2)

endmodule
