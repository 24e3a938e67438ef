// Issue logic of the NIC scheduler. Per port, every cycle: grant the lowest-index table entry that
// is loaded, not yet issued, leaves by that port, has its arrival counter at or above its
// threshold and (step order) is not of a later step than the first pending entry; only when the
// port's ready level is seen high and the port has not been granted in the last DecisionLatency
// cycles. Decisions depend on registered state only (no input-to-grant path).

`include "mt_assert.svh"

module nic_sched_issue #(
  parameter int unsigned Ports           = 1,   // NIC ports
  parameter int unsigned Depth           = 32,  // table capacity, entries
  parameter int unsigned EntryBits       = 32,  // bits of one packed entry
  parameter int unsigned PortLsb         = 1,   // bit offsets and widths of the fields used here
  parameter int unsigned PortBits        = 1,
  parameter int unsigned StepLsb         = 2,
  parameter int unsigned StepBits        = 1,
  parameter int unsigned WaitCounterLsb  = 3,
  parameter int unsigned CounterBits     = 1,
  parameter int unsigned WaitCountLsb    = 4,
  parameter int unsigned CountBits       = 1,
  parameter int unsigned Counters        = 1,   // arrival counters
  parameter int unsigned DecisionLatency = 1,   // cycles a port is masked after a grant
  // Derived.
  localparam int unsigned IndexBits = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned MaskBits  = $clog2(DecisionLatency + 1)
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          clear_i,        // forget every issue (new table)
  input  logic                          step_order_i,   // issue in step order
  input  logic [Depth-1:0]              valid_i,        // entry i is loaded
  input  logic [Depth*EntryBits-1:0]    entries_i,      // table entries, flattened
  input  logic [Counters*CountBits-1:0] count_i,        // arrival counters (decision view)
  input  logic [Ports-1:0]              ready_i,        // port ready levels (decision view)
  output logic [Ports-1:0]              grant_o,        // port p issues an entry this cycle
  output logic [Ports*IndexBits-1:0]    grant_index_o,  // table index of port p's issue
  output logic [Ports*EntryBits-1:0]    grant_entry_o,  // the issued entry of port p
  output logic                          done_o          // every loaded entry has been issued
);

  logic [Depth-1:0]          issued_d, issued_q;
  logic [Ports*MaskBits-1:0] mask_d, mask_q;

  // Smallest pending step: the step of the first pending entry (the table is sorted by step).
  logic [Depth-1:0]     pending;
  logic [Depth-1:0]     first_pending;
  logic                 unused_any_pending;
  logic [IndexBits-1:0] unused_first_index;
  logic [StepBits-1:0]  min_step;

  assign pending = valid_i & ~issued_q;

  nic_sched_pick #(
    .Width    (Depth),
    .IndexBits(IndexBits)
  ) u_first_pending (
    .req_i  (pending),
    .gnt_o  (first_pending),
    .any_o  (unused_any_pending),
    .index_o(unused_first_index)
  );

  // Entries eligible on their own port: dependencies met, step allowed.
  logic [Depth-1:0]       eligible;
  logic [Ports*Depth-1:0] request;

  always_comb begin
    min_step = '0;
    eligible = '0;
    request  = '0;
    for (int unsigned i = 0; i < Depth; i++) begin
      if (first_pending[i]) min_step = min_step | entries_i[i*EntryBits + StepLsb +: StepBits];
    end
    for (int unsigned i = 0; i < Depth; i++) begin
      logic [CounterBits-1:0] wait_counter;
      logic [CountBits-1:0]   wait_count;
      logic [StepBits-1:0]    step;
      logic [PortBits-1:0]    port;
      wait_counter = entries_i[i*EntryBits + WaitCounterLsb +: CounterBits];
      wait_count   = entries_i[i*EntryBits + WaitCountLsb +: CountBits];
      step         = entries_i[i*EntryBits + StepLsb +: StepBits];
      port         = entries_i[i*EntryBits + PortLsb +: PortBits];
      eligible[i]  = pending[i] && (count_i[wait_counter*CountBits +: CountBits] >= wait_count) &&
                     (!step_order_i || step <= min_step);
      for (int unsigned p = 0; p < Ports; p++) begin
        request[p*Depth + i] = eligible[i] && (port == PortBits'(p)) && ready_i[p] &&
                               (mask_q[p*MaskBits +: MaskBits] == '0);
      end
    end
  end

  // Per port: lowest-index request wins.
  logic [Ports*Depth-1:0] grant_onehot;

  for (genvar p = 0; p < Ports; p++) begin : gen_port
    nic_sched_pick #(
      .Width    (Depth),
      .IndexBits(IndexBits)
    ) u_pick (
      .req_i  (request[p*Depth +: Depth]),
      .gnt_o  (grant_onehot[p*Depth +: Depth]),
      .any_o  (grant_o[p]),
      .index_o(grant_index_o[p*IndexBits +: IndexBits])
    );
  end

  always_comb begin
    grant_entry_o = '0;
    issued_d      = issued_q;
    mask_d        = mask_q;
    for (int unsigned p = 0; p < Ports; p++) begin
      for (int unsigned i = 0; i < Depth; i++) begin
        if (grant_onehot[p*Depth + i]) begin
          grant_entry_o[p*EntryBits +: EntryBits] = entries_i[i*EntryBits +: EntryBits];
        end
      end
      issued_d = issued_d | grant_onehot[p*Depth +: Depth];
      if (grant_o[p]) begin
        mask_d[p*MaskBits +: MaskBits] = MaskBits'(DecisionLatency);
      end else if (mask_q[p*MaskBits +: MaskBits] != '0) begin
        mask_d[p*MaskBits +: MaskBits] = mask_q[p*MaskBits +: MaskBits] - MaskBits'(1);
      end
    end
    if (clear_i) begin
      issued_d = '0;
      mask_d   = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      issued_q <= '0;
      mask_q   <= '0;
    end else begin
      issued_q <= issued_d;
      mask_q   <= mask_d;
    end
  end

  assign done_o = &(issued_q | ~valid_i);

  // Contracts.
  logic [Depth-1:0] grant_seen;   // entries granted by the ports before p
  logic [Ports-1:0] grant_multi;  // port p grants more than one entry
  logic [Ports-1:0] grant_shared; // port p grants an entry another port grants too
  logic [Ports-1:0] grant_early;  // port p grants an entry whose counter is below its threshold
  logic [Ports-1:0] grant_late;   // port p grants an entry of a later step than the first pending
  logic [Ports-1:0] grant_stale;  // port p grants an entry already issued or not loaded
  always_comb begin
    grant_seen   = '0;
    grant_multi  = '0;
    grant_shared = '0;
    grant_early  = '0;
    grant_late   = '0;
    grant_stale  = '0;
    for (int unsigned p = 0; p < Ports; p++) begin
      logic [Depth-1:0] g;
      g               = grant_onehot[p*Depth +: Depth];
      grant_multi[p]  = (g & (g - Depth'(1))) != '0;
      grant_shared[p] = (g & grant_seen) != '0;
      grant_seen      = grant_seen | g;
      grant_stale[p]  = (g & ~pending) != '0;
      grant_early[p]  = grant_o[p] &&
          (count_i[grant_entry_o[p*EntryBits + WaitCounterLsb +: CounterBits]*CountBits +:
                   CountBits] < grant_entry_o[p*EntryBits + WaitCountLsb +: CountBits]);
      grant_late[p]   = grant_o[p] && step_order_i &&
                        (grant_entry_o[p*EntryBits + StepLsb +: StepBits] > min_step);
    end
  end
  `MT_ASSERT(GrantOneHot_A, grant_multi == '0 && grant_shared == '0)
  `MT_ASSERT(NoIssueBeforeDeps_A, grant_early == '0)
  `MT_ASSERT(NoIssueOutOfStep_A, grant_late == '0)
  `MT_ASSERT(NoIssueTwice_A, grant_stale == '0)

endmodule
