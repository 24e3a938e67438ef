// One port's issue window of the NIC scheduler v2: up to Window entries of this port in table
// order (slot 0 the oldest), each with its remaining count (arrivals its counter still needs).
// Per cycle:
//   decide  the lowest slot that is ready (remaining 0) and, in step order, not of a later step
//           than min_step_i, is taken when the port's ready level is seen high and the port was
//           not granted in the last DecisionLatency cycles;
//   grant   the taken entry is registered onto grant_o / grant_entry_o / grant_index_o (visible
//           in the next cycle) and leaves the window; younger slots move down by one;
//   count   every slot's remaining count drops by the arrival lanes naming its counter;
//   refill  an entry offered on ins_* (only when full_o is low) is appended behind the others.
// Everything is Window wide: no path depends on the table depth or the number of counters.

`include "mt_assert.svh"

module nic_sched_window #(
  parameter int unsigned Window          = 4,   // slots
  parameter int unsigned EntryBits       = 32,  // bits of one packed entry
  parameter int unsigned IndexBits       = 8,   // width of a table index
  parameter int unsigned StepLsb         = 0,   // bit offsets and widths of the fields used here
  parameter int unsigned StepBits        = 1,
  parameter int unsigned WaitCounterLsb  = 1,
  parameter int unsigned WaitCountLsb    = 2,
  parameter int unsigned CounterBits     = 1,
  parameter int unsigned CountBits       = 1,
  parameter int unsigned Counters        = 1,   // arrival counters (contract checks only)
  parameter int unsigned Lanes           = 1,   // arrival lanes
  parameter int unsigned DecisionLatency = 2,   // cycles the port is masked after a grant
  // Derived.
  localparam int unsigned FillBits  = $clog2(Window + 1),
  localparam int unsigned SlotBits  = (Window > 1) ? $clog2(Window) : 1,
  localparam int unsigned MaskBits  = $clog2(DecisionLatency + 1),
  localparam int unsigned SumBits   = $clog2(Lanes + 1)
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          clear_i,        // empty the window, clear the grant
  input  logic                          step_order_i,   // issue in step order
  // Refill from the fetch register.
  input  logic                          ins_valid_i,    // append this entry (full_o is low)
  input  logic [EntryBits-1:0]          ins_entry_i,    // packed entry
  input  logic [IndexBits-1:0]          ins_index_i,    // its table index
  input  logic [CountBits-1:0]          ins_rem_i,      // arrivals it needs beyond the counter
  output logic                          full_o,         // Window entries held (registered)
  // Arrivals counted at this edge.
  input  logic [Lanes-1:0]              lane_valid_i,
  input  logic [Lanes*CounterBits-1:0]  lane_counter_i,
  // Decision inputs.
  input  logic [StepBits-1:0]           min_step_i,     // smallest pending step (registered)
  input  logic                          ready_i,        // the port's ready level as seen
  input  logic [Counters*CountBits-1:0] count_i,        // counters (contract checks only)
  // Head of the window, for the smallest pending step.
  output logic                          head_valid_o,   // the window holds an entry
  output logic [StepBits-1:0]           head_step_o,    // step of its oldest entry
  // Registered grant of the decision of the previous cycle.
  output logic                          grant_o,
  output logic [EntryBits-1:0]          grant_entry_o,
  output logic [IndexBits-1:0]          grant_index_o,
  // Decision of this cycle (for the top's contract checks) and activity.
  output logic                          take_o,         // a slot is granted at this edge
  output logic [EntryBits-1:0]          take_entry_o,   // its entry
  output logic                          busy_o          // a register changes at this edge
);

  logic [FillBits-1:0]         fill_d, fill_q;
  logic [Window*EntryBits-1:0] entry_d, entry_q;
  logic [Window*IndexBits-1:0] index_d, index_q;
  logic [Window*CountBits-1:0] rem_d, rem_q;
  logic [MaskBits-1:0]         mask_d, mask_q;
  logic                        grant_d, grant_q;
  logic [EntryBits-1:0]        grant_entry_d, grant_entry_q;
  logic [IndexBits-1:0]        grant_index_d, grant_index_q;

  // Remaining counts after this edge's arrivals, per slot and for the refill entry.
  function automatic logic [CountBits-1:0] after_lanes(
      logic [CountBits-1:0] rem, logic [CounterBits-1:0] counter,
      logic [Lanes-1:0] valid, logic [Lanes*CounterBits-1:0] counters);
    logic [SumBits-1:0] hits;
    hits = '0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      if (valid[l] && counters[l*CounterBits +: CounterBits] == counter) hits = hits + SumBits'(1);
    end
    after_lanes = (32'(rem) > 32'(hits)) ? CountBits'(32'(rem) - 32'(hits)) : '0;
  endfunction

  logic [Window-1:0]           slot_valid, request, pick, below;
  logic [Window*CountBits-1:0] rem_next;
  logic [CountBits-1:0]        ins_rem_next;
  logic                        any, take;
  logic [SlotBits-1:0]         unused_pick_index;

  // Step order: a held entry's step is never below min_step_i (StepNotBelowMin_A: every held
  // entry was a window head or the fetched entry, or behind one, when min_step_i was computed),
  // so "step <= min_step_i" is "step == min_step_i", an equality (shallower than a magnitude
  // compare on the decision path).
  always_comb begin
    for (int unsigned j = 0; j < Window; j++) begin
      slot_valid[j] = 32'(fill_q) > j;
      request[j]    = slot_valid[j] && (rem_q[j*CountBits +: CountBits] == '0) &&
                      (!step_order_i ||
                       entry_q[j*EntryBits + StepLsb +: StepBits] == min_step_i);
      rem_next[j*CountBits +: CountBits] =
          after_lanes(rem_q[j*CountBits +: CountBits],
                      entry_q[j*EntryBits + WaitCounterLsb +: CounterBits],
                      lane_valid_i, lane_counter_i);
    end
    ins_rem_next = after_lanes(ins_rem_i, ins_entry_i[WaitCounterLsb +: CounterBits],
                               lane_valid_i, lane_counter_i);
  end

  nic_sched_pick #(
    .Width(Window)
  ) u_pick (
    .req_i  (request),
    .gnt_o  (pick),
    .any_o  (any),
    .index_o(unused_pick_index)
  );

  // clear_i is applied at the registers' inputs only (below), not in the decision: it is a late
  // input, and under clear_i the window, the mask and the grant are emptied whatever was taken.
  assign take = any && ready_i && (mask_q == '0);

  always_comb begin
    logic [FillBits-1:0] kept;
    // below[j]: the taken slot is at or below j, so slot j takes slot j + 1.
    below = '0;
    for (int unsigned j = 0; j < Window; j++) begin
      below[j] = take && ((pick & ((Window'(1) << (j + 1)) - Window'(1))) != '0);
    end
    entry_d       = entry_q;
    index_d       = index_q;
    rem_d         = rem_next;
    grant_entry_d = '0;
    grant_index_d = '0;
    for (int unsigned j = 0; j < Window; j++) begin
      if (pick[j]) begin
        grant_entry_d = entry_q[j*EntryBits +: EntryBits];
        grant_index_d = index_q[j*IndexBits +: IndexBits];
      end
    end
    // The last slot, when it moves, leaves nothing behind (fill_q drops).
    for (int unsigned j = 0; j + 1 < Window; j++) begin
      if (below[j]) begin
        entry_d[j*EntryBits +: EntryBits] = entry_q[(j+1)*EntryBits +: EntryBits];
        index_d[j*IndexBits +: IndexBits] = index_q[(j+1)*IndexBits +: IndexBits];
        rem_d[j*CountBits +: CountBits]   = rem_next[(j+1)*CountBits +: CountBits];
      end
    end
    kept = fill_q - FillBits'(take);
    for (int unsigned j = 0; j < Window; j++) begin
      if (ins_valid_i && kept == FillBits'(j)) begin
        entry_d[j*EntryBits +: EntryBits] = ins_entry_i;
        index_d[j*IndexBits +: IndexBits] = ins_index_i;
        rem_d[j*CountBits +: CountBits]   = ins_rem_next;
      end
    end
    fill_d  = kept + FillBits'(ins_valid_i);
    grant_d = take;
    if (take) begin
      mask_d = MaskBits'(DecisionLatency);
    end else if (mask_q != '0) begin
      mask_d = mask_q - MaskBits'(1);
    end else begin
      mask_d = '0;
    end
    if (clear_i) begin
      fill_d  = '0;
      mask_d  = '0;
      grant_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      fill_q  <= '0;
      mask_q  <= '0;
      grant_q <= 1'b0;
    end else begin
      fill_q  <= fill_d;
      mask_q  <= mask_d;
      grant_q <= grant_d;
    end
  end

  // Slot and grant data: no reset (fill_q and grant_q say what holds data).
  always_ff @(posedge clk_i) begin
    entry_q       <= entry_d;
    index_q       <= index_d;
    rem_q         <= rem_d;
    grant_entry_q <= grant_entry_d;
    grant_index_q <= grant_index_d;
  end

  assign full_o        = 32'(fill_q) == Window;
  assign head_valid_o  = fill_q != '0;
  assign head_step_o   = entry_q[StepLsb +: StepBits];
  assign grant_o       = grant_q;
  assign grant_entry_o = grant_entry_q;
  assign grant_index_o = grant_index_q;
  assign take_o        = take && !clear_i;
  assign take_entry_o  = grant_entry_d;
  assign busy_o        = take || grant_q || (mask_q != '0);

  // Contracts: refills only into room; every held entry's remaining count is exactly what its
  // counter still lacks (the invariant that makes rem == 0 mean "dependencies arrived").
  logic [Window-1:0] rem_wrong, step_below;
  always_comb begin
    rem_wrong  = '0;
    step_below = '0;
    for (int unsigned j = 0; j < Window; j++) begin
      logic [CounterBits-1:0] c;
      logic [CountBits-1:0]   need, have;
      c    = entry_q[j*EntryBits + WaitCounterLsb +: CounterBits];
      need = entry_q[j*EntryBits + WaitCountLsb +: CountBits];
      have = (32'(c) < Counters) ? count_i[32'(c)*CountBits +: CountBits] : '0;
      rem_wrong[j] = slot_valid[j] && (rem_q[j*CountBits +: CountBits] !=
                                       ((need > have) ? need - have : '0));
      step_below[j] = slot_valid[j] && (entry_q[j*EntryBits + StepLsb +: StepBits] < min_step_i);
    end
  end
  `MT_ASSERT(RefillHasRoom_A, !ins_valid_i || clear_i || !full_o)
  `MT_ASSERT(RemainingExact_A, rem_wrong == '0)
  `MT_ASSERT(FillInRange_A, 32'(fill_q) <= Window)
  `MT_ASSERT(StepNotBelowMin_A, step_below == '0)

endmodule
