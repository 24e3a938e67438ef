// The DMA side of nic_sched's grant handshake as both formal harnesses model it (nic_sched_formal,
// nic_sched_errors_formal): which ports' grants were accepted and which held at the last edge,
// and the DMA's contract that it drops its ready level the cycle after it accepted a grant.
// grant_ack_i stays free: a DMA may accept a grant late.

`include "mt_assert.svh"

module nic_sched_dma_formal #(
  parameter int unsigned Ports = 2
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clear_i,
  input  logic [Ports-1:0] grant_i,        // nic_sched's grant_o
  input  logic [Ports-1:0] grant_ack_i,    // the DMAs' acceptance
  input  logic [Ports-1:0] port_ready_i,   // the DMAs' ready levels
  output logic [Ports-1:0] accepted_q_o,   // a grant accepted at the last edge
  output logic [Ports-1:0] held_q_o        // a grant shown and not accepted at the last edge
);

  logic [Ports-1:0] accepted_q = '0;
  logic [Ports-1:0] held_q = '0;
  always @(posedge clk_i) begin
    accepted_q <= grant_i & grant_ack_i;
    held_q     <= clear_i ? '0 : grant_i & ~grant_ack_i;  // clear_i drops every grant
  end
  assign accepted_q_o = accepted_q;
  assign held_q_o     = held_q;

  `MT_ASSUME(ReadyDropsAfterGrant_M, (accepted_q & port_ready_i) == '0)

endmodule
