// One port's issue window of the NIC scheduler v2: up to Window entries of this port, each in a
// slot that it keeps until it is granted (no compaction), with an age matrix for the table order
// and its remaining count (arrivals its counter still needs). Per cycle:
//   decide  the oldest slot that is ready and, in step order, of step min_step_i while
//           step_open_i (the NIC's step barrier has opened that step), is taken when the port's
//           ready level is seen high, the port holds no grant and its last grant was accepted
//           at least DecisionLatency cycles ago (mask);
//   grant   the taken entry is registered onto grant_o / grant_entry_o / grant_index_o (visible
//           in the next cycle) and its slot becomes free; nothing else moves. The grant is held
//           (grant_o, its entry and index unchanged) until the DMA accepts it: an edge with
//           grant_ack_i high; the post-grant mask stays full while it is held and counts down
//           from acceptance, so no decision is taken while a grant waits (GrantMasked_A);
//   count   the arrival lanes counted at this edge are compared with every slot's counter (the
//           refill's counter for the slot it fills: that select comes from registers, before the
//           late lanes) and the number of hits is registered beside the slot (hits_q): the slot's
//           remaining count is then rem_q - hits_q (saturating), folded into rem_q at the next
//           edge. So a late lane id only passes a compare and an adder tree before its register,
//           and the decision compares rem_q <= hits_q beside the step equality (no subtract in
//           front of the pick);
//   refill  an entry offered on ins_* (only when full_o is low) goes into the lowest free slot
//           and becomes the youngest (every free slot copies the offered entry; only that one
//           becomes valid).
//   shared  with shared_i high (port binding any: nic_sched_share) the port's grant comes from
//           the shared window instead (ext_*, taken only when open_o is high) and its own pick
//           is not used; the shared window's granted slots leave on leave_i. The window exports
//           its ready slots, ages and entries (request_o, older_o, slot_*_o) for that pick.
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
  parameter int unsigned DecisionLatency = 2,   // cycles the port is masked after acceptance
  // Derived.
  localparam int unsigned MaskBits  = $clog2(DecisionLatency + 1),
  localparam int unsigned HitBits   = $clog2(Lanes + 1)
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          clear_i,        // empty the window, clear the grant
  input  logic                          step_order_i,   // issue in step order
  input  logic                          shared_i,       // the grant comes from ext_* (held)
  // Refill from the fetch register.
  input  logic                          ins_valid_i,    // take this entry (full_o is low)
  input  logic [EntryBits-1:0]          ins_entry_i,    // packed entry
  input  logic [IndexBits-1:0]          ins_index_i,    // its table index
  input  logic [CountBits-1:0]          ins_rem_i,      // arrivals it needs beyond the counter
  output logic                          full_o,         // Window entries held (AND of valids)
  // Arrivals counted at this edge.
  input  logic [Lanes-1:0]              lane_valid_i,
  input  logic [Lanes*CounterBits-1:0]  lane_counter_i,
  // Decision inputs.
  input  logic [StepBits-1:0]           min_step_i,     // smallest pending step (registered)
  input  logic                          step_open_i,    // the step barrier lets min_step_i start
  input  logic                          ready_i,        // the port's ready level as seen
  input  logic                          grant_ack_i,    // the DMA accepts grant_o at this edge
  input  logic                          halt_i,         // an error is flagged: grant nothing
  input  logic [Counters*CountBits-1:0] count_i,        // counters now (contract checks only)
  // Shared window (shared_i): this port's grant from it, and the slots of this window it grants.
  input  logic                          ext_take_i,     // the port takes ext_entry_i (open_o)
  input  logic [EntryBits-1:0]          ext_entry_i,
  input  logic [IndexBits-1:0]          ext_index_i,
  input  logic [Window-1:0]             leave_i,        // these slots are granted at this edge
  output logic                          open_o,         // the port can take a grant now
  output logic [Window-1:0]             request_o,      // ready slots
  output logic [Window*Window-1:0]      older_o,        // their ages ([j*Window + k]: j older)
  output logic [Window*EntryBits-1:0]   slot_entry_o,   // slot entries
  output logic [Window*IndexBits-1:0]   slot_index_o,   // slot table indices
  // Oldest entry of the window, for the smallest pending step.
  output logic                          head_valid_o,   // the window holds an entry
  output logic [StepBits-1:0]           head_step_o,    // step of its oldest entry
  output logic [IndexBits-1:0]          head_index_o,   // table index of its oldest entry
  // Registered grant of an earlier decision, held until accepted.
  output logic                          grant_o,
  output logic [EntryBits-1:0]          grant_entry_o,
  output logic [IndexBits-1:0]          grant_index_o,
  // Decision of this cycle (for the top's contract checks) and activity.
  output logic                          take_o,         // a slot is granted at this edge
  output logic [EntryBits-1:0]          take_entry_o,   // its entry
  output logic                          busy_o          // a register changes at this edge
                                                        // (lane activity: nic_sched_counters)
);

  logic [Window-1:0]           valid_d, valid_q;
  logic [Window*Window-1:0]    older_d, older_q;  // [j*Window + k]: slot j entered before slot k
  logic [Window*EntryBits-1:0] entry_d, entry_q;
  logic [Window*IndexBits-1:0] index_d, index_q;
  logic [Window*CountBits-1:0] rem_d, rem_q;
  logic [Window*HitBits-1:0]   hits_d, hits_q;
  logic [MaskBits-1:0]         mask_d, mask_q;
  logic                        grant_d, grant_q;
  logic [EntryBits-1:0]        grant_entry_d, grant_entry_q, pick_entry;
  logic [IndexBits-1:0]        grant_index_d, grant_index_q, pick_index;

  // Lanes naming each slot's counter (a free slot: the offered entry's), counted by a balanced
  // adder tree.
  logic [Window*HitBits-1:0] lane_hits;
  for (genvar j = 0; j < Window; j++) begin : gen_hits
    logic [CounterBits-1:0] counter;
    logic [Lanes-1:0]       match;
    assign counter = valid_q[j] ? entry_q[j*EntryBits + WaitCounterLsb +: CounterBits] :
                                  ins_entry_i[WaitCounterLsb +: CounterBits];
    always_comb begin
      for (int unsigned l = 0; l < Lanes; l++) begin
        match[l] = lane_valid_i[l] && lane_counter_i[l*CounterBits +: CounterBits] == counter;
      end
    end
    mt_popcount #(.N(Lanes), .W(HitBits)) u_count (
      .bits_i (match),
      .count_o(lane_hits[j*HitBits +: HitBits])
    );
  end

  logic [Window-1:0]           request, pick, head, ins_sel;
  logic                        any, take;
  logic [Window*CountBits-1:0] rem_now;  // remaining counts now: rem_q - hits_q, saturating

  // Step order: a held entry's step is never below min_step_i (StepNotBelowMin_A: every held
  // entry was a window head or the fetched entry, or behind one, when min_step_i was computed,
  // and a table issued in step order is sorted by step), so "step <= min_step_i" is
  // "step == min_step_i", an equality (shallower than a magnitude compare on the decision path).
  // Without step order a table need not be sorted (nic.scheduler_table_order planned) and the
  // minimum step is not used. Ready: rem_q - hits_q == 0, i.e. rem_q <= hits_q.
  always_comb begin
    for (int unsigned j = 0; j < Window; j++) begin
      request[j] = valid_q[j] &&
                   (32'(rem_q[j*CountBits +: CountBits]) <= 32'(hits_q[j*HitBits +: HitBits])) &&
                   (!step_order_i ||
                    (step_open_i && entry_q[j*EntryBits + StepLsb +: StepBits] == min_step_i));
      rem_now[j*CountBits +: CountBits] =
          (32'(rem_q[j*CountBits +: CountBits]) > 32'(hits_q[j*HitBits +: HitBits])) ?
          CountBits'(32'(rem_q[j*CountBits +: CountBits]) - 32'(hits_q[j*HitBits +: HitBits])) :
          '0;
    end
  end

  // Oldest requesting slot (pick), oldest held slot (head), lowest free slot (ins_sel).
  always_comb begin
    for (int unsigned j = 0; j < Window; j++) begin
      pick[j] = request[j];
      head[j] = valid_q[j];
      ins_sel[j] = !valid_q[j];
      for (int unsigned k = 0; k < Window; k++) begin
        if (k != j && request[k] && older_q[k*Window + j]) pick[j] = 1'b0;
        if (k != j && valid_q[k] && older_q[k*Window + j]) head[j] = 1'b0;
        if (k < j && !valid_q[k]) ins_sel[j] = 1'b0;
      end
    end
    any = request != '0;
  end

  // clear_i is applied at the registers' inputs only (below), not in the decision: it is a late
  // input, and under clear_i the window, the mask and the grant are emptied whatever was taken.
  // A held grant keeps the mask full (below), so the mask alone keeps a decision from replacing
  // it.
  logic held;  // the registered grant is not accepted at this edge: it stays
  assign held = grant_q && !grant_ack_i;
  assign open_o = ready_i && !halt_i && (mask_q == '0);
  assign take = shared_i ? ext_take_i : (any && open_o);

  always_comb begin
    valid_d       = valid_q;
    older_d       = older_q;
    entry_d       = entry_q;
    index_d       = index_q;
    rem_d         = rem_now;
    hits_d        = lane_hits;  // every slot's, a free one's for the offered entry
    pick_entry    = '0;
    pick_index    = '0;
    grant_d       = take || held;
    mask_d        = '0;
    for (int unsigned j = 0; j < Window; j++) begin
      if (pick[j]) begin
        pick_entry = entry_q[j*EntryBits +: EntryBits];
        pick_index = index_q[j*IndexBits +: IndexBits];
      end
      if ((take && !shared_i && pick[j]) || leave_i[j]) valid_d[j] = 1'b0;
      // Every free slot loads the offered entry (its data, remaining count and lane hits):
      // the select is the slot's own valid flop, not the late ins_valid_i and the lowest-free
      // pick. Only the lowest free slot becomes valid (and gets its age); the others hold data
      // nobody reads.
      if (!valid_q[j]) begin
        entry_d[j*EntryBits +: EntryBits] = ins_entry_i;
        index_d[j*IndexBits +: IndexBits] = ins_index_i;
        rem_d[j*CountBits +: CountBits]   = ins_rem_i;
      end
      if (ins_valid_i && ins_sel[j]) begin
        valid_d[j] = 1'b1;
        for (int unsigned k = 0; k < Window; k++) begin
          older_d[j*Window + k] = 1'b0;             // the new entry is older than none
          if (k != j) older_d[k*Window + j] = 1'b1;  // and younger than every other
        end
      end
    end
    // The grant data registers load only with a grant (an enable, not a reload every cycle:
    // they hold the last grant's entry while grant_o is low).
    grant_entry_d = take ? (shared_i ? ext_entry_i : pick_entry) : grant_entry_q;
    grant_index_d = take ? (shared_i ? ext_index_i : pick_index) : grant_index_q;
    if (take) begin
      mask_d = MaskBits'(DecisionLatency);
    end else if (held) begin
      mask_d = mask_q;
    end else if (mask_q != '0) begin
      mask_d = mask_q - MaskBits'(1);
    end
    if (clear_i) begin
      valid_d = '0;
      mask_d  = '0;
      grant_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      mask_q  <= '0;
      grant_q <= 1'b0;
    end else begin
      valid_q <= valid_d;
      mask_q  <= mask_d;
      grant_q <= grant_d;
    end
  end

  // Slot and grant data: no reset (valid_q and grant_q say what holds data; the age of a slot is
  // set against every other when it is filled).
  always_ff @(posedge clk_i) begin
    older_q       <= older_d;
    entry_q       <= entry_d;
    index_q       <= index_d;
    rem_q         <= rem_d;
    hits_q        <= hits_d;
    grant_entry_q <= grant_entry_d;
    grant_index_q <= grant_index_d;
  end

  always_comb begin
    head_step_o  = '0;
    head_index_o = '0;
    for (int unsigned j = 0; j < Window; j++) begin
      if (head[j]) begin
        head_step_o  = head_step_o | entry_q[j*EntryBits + StepLsb +: StepBits];
        head_index_o = head_index_o | index_q[j*IndexBits +: IndexBits];
      end
    end
  end

  assign full_o        = valid_q == '1;
  assign head_valid_o  = valid_q != '0;
  assign grant_o       = grant_q;
  assign grant_entry_o = grant_entry_q;
  assign grant_index_o = grant_index_q;
  assign take_o        = take && !clear_i;
  assign take_entry_o  = shared_i ? ext_entry_i : pick_entry;
  assign request_o     = request;
  assign older_o       = older_q;
  assign slot_entry_o  = entry_q;
  assign slot_index_o  = index_q;
  assign busy_o        = take || grant_q || (mask_q != '0);

  // Contracts: refills only into room; every held entry's remaining count is exactly what its
  // counter still lacks (the invariant that makes "rem_q <= hits_q" mean "dependencies
  // arrived"); of two held slots exactly one is the older; steps not below the minimum. The
  // checks' own logic is left out of synthesis (count_i feeds nothing else). After an error
  // (halt_i) a bad entry may reach the window: the checks on counts and steps pause with the
  // grants.
`ifndef SYNTHESIS
  logic [Window-1:0] rem_wrong, step_below, age_wrong;
  always_comb begin
    rem_wrong  = '0;
    step_below = '0;
    age_wrong  = '0;
    for (int unsigned j = 0; j < Window; j++) begin
      logic [CounterBits-1:0] c;
      logic [CountBits-1:0]   need, have;
      c    = entry_q[j*EntryBits + WaitCounterLsb +: CounterBits];
      need = entry_q[j*EntryBits + WaitCountLsb +: CountBits];
      have = (32'(c) < Counters) ? count_i[32'(c)*CountBits +: CountBits] : '0;
      rem_wrong[j] = valid_q[j] && (rem_now[j*CountBits +: CountBits] !=
                                    ((need > have) ? need - have : '0));
      step_below[j] = valid_q[j] && (entry_q[j*EntryBits + StepLsb +: StepBits] < min_step_i);
      for (int unsigned k = 0; k < Window; k++) begin
        if (k != j && valid_q[j] && valid_q[k] &&
            older_q[j*Window + k] == older_q[k*Window + j]) begin
          age_wrong[j] = 1'b1;
        end
      end
    end
  end
  `MT_ASSERT(RefillHasRoom_A, !ins_valid_i || clear_i || !full_o)
  `MT_ASSERT(RemainingExact_A, halt_i || rem_wrong == '0)
  `MT_ASSERT(AgeOrder_A, age_wrong == '0)
  `MT_ASSERT(PickOneHot_A, $onehot0(pick))
  `MT_ASSERT(GrantMasked_A, !grant_q || mask_q != '0)
  `MT_ASSERT(StepNotBelowMin_A, halt_i || !step_order_i || step_below == '0)
  `MT_ASSERT(SharedTakesOpen_A, !ext_take_i || (shared_i && open_o))
  `MT_ASSERT(LeavesHeldRequested_A, (leave_i & ~request) == '0)
`else
  logic unused_count;
  assign unused_count = ^count_i;
`endif

endmodule
