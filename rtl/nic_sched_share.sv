// Shared window of the NIC scheduler (port binding any: shared_window_i high). Window 0 holds the
// one issue queue's entries and feeds every port's grant register: in one decision the ports
// that can take a grant (open_i: ready level seen high, no grant held, not masked, not halted)
// take window 0's ready slots oldest first, the k-th lowest open port the k-th oldest ready slot,
// so up to one grant per open port (mt::SchedulerModel, SchedulerModelConfig::shared_window).
// Ranks, not a chain of pickers: a slot's rank is the number of ready slots older than it (a
// count over its age-matrix column), a port's the number of open ports below it; a port takes the
// ready slot whose rank equals its own. Window and Ports wide: no path depends on the table depth.
// With shared_i low nothing is taken here (each port's own window decides).

`include "mt_assert.svh"

module nic_sched_share #(
  parameter int unsigned Ports     = 4,   // ports fed by the shared window
  parameter int unsigned Window    = 4,   // its slots
  parameter int unsigned EntryBits = 32,  // bits of one packed entry
  parameter int unsigned IndexBits = 8,   // width of a table index
  // Derived: a rank counts up to Window - 1 slots or Ports open ports.
  localparam int unsigned RankBits = $clog2(((Ports > Window) ? Ports : Window) + 1)
) (
  input  logic                       clk_i,      // contract checks only
  input  logic                       rst_ni,     // contract checks only
  input  logic                       shared_i,   // the shared window decides (held)
  input  logic [Window-1:0]          request_i,  // window 0's ready slots
  input  logic [Window*Window-1:0]   older_i,    // [j*Window + k]: slot j entered before slot k
  input  logic [Window*EntryBits-1:0] entry_i,   // window 0's slot entries
  input  logic [Window*IndexBits-1:0] index_i,   // and their table indices
  input  logic [Ports-1:0]           open_i,     // port p can take a grant in this decision
  output logic [Window-1:0]          leave_o,    // slot j is granted (it leaves window 0)
  output logic [Ports-1:0]           take_o,     // port p takes a slot
  output logic [Ports*EntryBits-1:0] entry_o,    // the entry port p takes
  output logic [Ports*IndexBits-1:0] index_o     // its table index
);

  logic [Window*RankBits-1:0] slot_rank;
  logic [Ports*RankBits-1:0]  port_rank;
  logic [Ports*Window-1:0]    sel;  // [p*Window + j]: port p takes slot j

  // Ranks: counts of the ready slots older than slot j, and of the open ports below port p.
  for (genvar j = 0; j < Window; j++) begin : gen_slot_rank
    logic [Window-1:0] ahead;  // ready slots older than j
    always_comb begin
      for (int unsigned k = 0; k < Window; k++) begin
        ahead[k] = k != j && request_i[k] && older_i[k*Window + j];
      end
    end
    mt_popcount #(.N(Window), .W(RankBits)) u_rank (
      .bits_i (ahead),
      .count_o(slot_rank[j*RankBits +: RankBits])
    );
  end
  for (genvar p = 0; p < Ports; p++) begin : gen_port_rank
    localparam logic [Ports-1:0] Below = Ports'((64'(1) << p) - 64'(1));  // ports 0 .. p-1
    mt_popcount #(.N(Ports), .W(RankBits)) u_rank (
      .bits_i (open_i & Below),
      .count_o(port_rank[p*RankBits +: RankBits])
    );
  end

  always_comb begin
    leave_o = '0;
    take_o  = '0;
    entry_o = '0;
    index_o = '0;
    for (int unsigned p = 0; p < Ports; p++) begin
      for (int unsigned j = 0; j < Window; j++) begin
        sel[p*Window + j] = shared_i && open_i[p] && request_i[j] &&
                            (slot_rank[j*RankBits +: RankBits] ==
                             port_rank[p*RankBits +: RankBits]);
        if (sel[p*Window + j]) begin
          leave_o[j] = 1'b1;
          take_o[p]  = 1'b1;
        end
        entry_o[p*EntryBits +: EntryBits] = entry_o[p*EntryBits +: EntryBits] |
            (entry_i[j*EntryBits +: EntryBits] & {EntryBits{sel[p*Window + j]}});
        index_o[p*IndexBits +: IndexBits] = index_o[p*IndexBits +: IndexBits] |
            (index_i[j*IndexBits +: IndexBits] & {IndexBits{sel[p*Window + j]}});
      end
    end
  end

  // Contracts: a port takes at most one slot and a slot goes to at most one port; only open
  // ports take; the granted slots are the oldest ready ones and go to the ports in age order
  // (a lower port an older slot); as many grants as open ports or ready slots, the fewer.
`ifndef SYNTHESIS
  logic [RankBits-1:0] opened;
  mt_popcount #(.N(Ports), .W(RankBits)) u_opened (.bits_i(open_i), .count_o(opened));
  logic [Ports-1:0]  port_multi, order_wrong;
  logic [Window-1:0] slot_multi, age_wrong;
  logic [RankBits-1:0] ready_slots, grants;
  always_comb begin
    port_multi  = '0;
    slot_multi  = '0;
    order_wrong = '0;
    age_wrong   = '0;
    ready_slots = '0;
    grants      = '0;
    for (int unsigned p = 0; p < Ports; p++) begin
      if (!$onehot0(sel[p*Window +: Window])) port_multi[p] = 1'b1;
      if (take_o[p]) grants = grants + RankBits'(1);
      for (int unsigned q = p + 1; q < Ports; q++) begin
        for (int unsigned j = 0; j < Window; j++) begin
          for (int unsigned k = 0; k < Window; k++) begin
            if (sel[p*Window + j] && sel[q*Window + k] && !older_i[j*Window + k]) begin
              order_wrong[p] = 1'b1;
            end
          end
        end
      end
    end
    for (int unsigned j = 0; j < Window; j++) begin
      logic [Ports-1:0] col;
      for (int unsigned p = 0; p < Ports; p++) col[p] = sel[p*Window + j];
      if (!$onehot0(col)) slot_multi[j] = 1'b1;
      if (request_i[j]) ready_slots = ready_slots + RankBits'(1);
      for (int unsigned k = 0; k < Window; k++) begin
        if (leave_o[j] && request_i[k] && !leave_o[k] && !older_i[j*Window + k]) begin
          age_wrong[j] = 1'b1;
        end
      end
    end
  end
  `MT_ASSERT(ShareOneSlotPerPort_A, port_multi == '0)
  `MT_ASSERT(ShareOnePortPerSlot_A, slot_multi == '0)
  `MT_ASSERT(ShareOnlyOpenPorts_A, (take_o & ~open_i) == '0)
  `MT_ASSERT(ShareOldestFirst_A, age_wrong == '0)
  `MT_ASSERT(SharePortsInAgeOrder_A, order_wrong == '0)
  `MT_ASSERT(ShareFills_A, !shared_i ||
                           grants == ((opened < ready_slots) ? opened : ready_slots))
  `MT_ASSERT(ShareOffTakesNothing_A, shared_i || take_o == '0)
`else
  logic unused_check;
  assign unused_check = ^{clk_i, rst_ni};
`endif

endmodule
