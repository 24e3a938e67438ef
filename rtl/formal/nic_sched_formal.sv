// Formal harness of the NIC scheduler (scripts/formal.sh, rtl/formal/README.md). Instantiates the
// scheduler (module `MT_FORMAL_DUT, default nic_sched) with free inputs, turns its input contracts
// into assumptions, keeps a shadow of the table, the arrivals and the issues, and states the grant
// properties against that shadow (independent of the scheduler's own state):
//   NoIssueBeforeDeps   a granted entry's counter has counted >= its threshold (arrivals so far)
//   GrantIsEntry        a grant names a loaded entry, carries it unchanged and leaves by its port
//   NoIssueTwice        no entry is granted twice, nor by two ports in one cycle
//   OneGrantPerRequest  a new grant only after the port's DMA raised ready since it accepted the
//                       last one
//   GrantHeld           a grant not accepted (grant_ack_i low) stays, with its entry and index
//                       (unless clear_i drops it)
//   StepOrder           (step order) no entry not granted yet has a smaller step than a granted
//                       one (step order orders the grants: a held grant is granted)
//   GrantWithinOpenStep no grant shows an entry of a step above the open step the decision saw
//                       (open_step_i presented DecisionLatency cycles earlier)
//   OldestFirst         (DecisionLatency 2) a new grant takes its port's oldest entry that was
//                       ready
//                       at the decision: no older pending entry of that port had its dependencies
//                       counted then (Shared: no older pending entry of the one queue was ready
//                       and not granted in the same decision to a lower port)
//   DoneExact           done_o exactly when every loaded entry has been issued (accepted)
//   SizeExact           tbl_ready_o low only when Depth loaded entries are still unissued
//   Progress            (fast DMA, every dependency met, no load) done within LiveBound cycles
// Covers: shadow table full, every port granted in one cycle, done after the whole shadow table,
// ring full (tbl_ready_o low), a grant held for a cycle, an entry ready by its dependencies held
// by the step barrier's open step and granted later.
// open_step_i is free under the NIC's contract (model/nic/step_barrier.h, issue_control.cpp):
// all ones without step order (no barrier), else it falls only before a port has been ready
// since the clear (the load shows all ones, the barrier's first step comes with the requests)
// and then only rises.
// Shared = 1: port binding any (shared_window_i high): every entry on port 0, granted to any
// port, up to one per open port per decision, oldest first to the lowest port.
// The interface is v2's (nic_sched.sv: streamed table, host doorbell, registered grants); the
// shadow holds up to Entries streamed entries (more than Depth: the ring refills).

`include "mt_assert.svh"
`include "mt_sched_fields.svh"

`ifndef MT_FORMAL_DUT
`define MT_FORMAL_DUT nic_sched
`endif

module nic_sched_formal #(
  parameter int unsigned Nodes           = 4,
  parameter int unsigned Ports           = 2,
  parameter int unsigned Depth           = 8,
  parameter int unsigned Window          = 2,
  parameter int unsigned Chunks          = 4,
  parameter int unsigned Flows           = 4,
  parameter int unsigned Steps           = 4,
  parameter int unsigned Counters        = 4,
  parameter int unsigned MaxCount        = 3,
  parameter int unsigned ArrivalLanes    = 2,
  parameter int unsigned DecisionLatency = 2,
  parameter int unsigned IndexBits       = 4,
  // 1: port binding any, window 0 shared by every port (shared_window_i high), entries on port 0.
  parameter int unsigned Shared          = 0,
  // Entries streamed after a clear that the shadow keeps (the harness's table capacity).
  parameter int unsigned Entries         = Depth + 2,
  // Progress bound: cycles from "everything ready" to done_o. A port grants at most every
  // DecisionLatency + 2 cycles with a 1-cycle DMA (mask, ready pipeline); all Entries on one
  // port, plus the arrival pipeline and the fetch/refill/decide/grant pipeline.
  parameter int unsigned LiveBound       =
      Entries * (DecisionLatency + 2) + 2 * DecisionLatency + 4,
  // Field layout (rtl/include/mt_sched_fields.svh, model/sched/SCHEDULE_TABLE.md).
  `MT_SCHED_FIELDS,
  localparam int unsigned SizeBits       = $clog2(Entries + 1),
  localparam int unsigned LiveBits       = $clog2(LiveBound + 2),
  // OpenStepWait_C: cycles an entry is held by the open step alone before it counts as waiting
  // on the gate (more than the fetch, refill and decision pipeline of an oldest entry).
  localparam int unsigned GateCycles     = 4
) (
  input logic                                clk_i,
  input logic                                rst_ni,
  input logic                                clear_i,
  input logic                                step_order_i,
  input logic [StepBits-1:0]                 open_step_i,
  input logic                                fast_dma_i,
  input logic                                tbl_valid_i,
  input logic [EntryBits-1:0]                tbl_wdata_i,
  input logic [ArrivalLanes-1:0]             arr_valid_i,
  input logic [ArrivalLanes*CounterBits-1:0] arr_counter_i,
  input logic                                host_valid_i,
  input logic [CounterBits-1:0]              host_counter_i,
  input logic [Ports-1:0]                    port_ready_i,
  input logic [Ports-1:0]                    grant_ack_i
);

  logic                        tbl_ready;
  logic [Ports-1:0]            grant;
  logic [Ports*IndexBits-1:0]  grant_index;
  logic [Ports*EntryBits-1:0]  grant_entry;
  logic                        done;
  logic                        err;
  logic                        unused_idle;
  logic                        shared;    // shared_window_i, held
  assign shared = Shared != 0;
  logic [15:0]                 wdog_off;  // watchdog limit 0 (a sized net: Yosys 0.23 fails an
  assign wdog_off = '0;                   // internal assert on an unsized '0 port connection)
  logic [3:0]                  unused_err_cause;
  logic [((IndexBits > CounterBits) ? IndexBits : CounterBits)-1:0] unused_err_info;

  `MT_FORMAL_DUT #(
    .Nodes(Nodes), .Ports(Ports), .Depth(Depth), .Window(Window), .Chunks(Chunks), .Flows(Flows),
    .Steps(Steps), .Counters(Counters), .MaxCount(MaxCount), .ArrivalLanes(ArrivalLanes),
    .DecisionLatency(DecisionLatency), .IndexBits(IndexBits)
  ) u_dut (
    .clk_i, .rst_ni, .clear_i, .step_order_i, .tbl_valid_i, .tbl_wdata_i,
    .shared_window_i(shared),
    .open_step_i,
    .tbl_ready_o  (tbl_ready),
    .arr_valid_i, .arr_counter_i, .host_valid_i, .host_counter_i, .port_ready_i,
    .grant_ack_i,
    .wdog_tick_i  (1'b0),  // the watchdog off: NoFalseError_A (nic_sched_errors_formal has it)
    .wdog_limit_i (wdog_off),
    .grant_o      (grant),
    .grant_index_o(grant_index),
    .grant_entry_o(grant_entry),
    .done_o       (done),
    .idle_o       (unused_idle),
    .err_o        (err),
    .err_cause_o  (unused_err_cause),
    .err_info_o   (unused_err_info)
  );

  // ---- Reset: low in the first cycle only (rst_ni is free afterwards in no run).
  logic started_q = 1'b0;
  always @(posedge clk_i) started_q <= 1'b1;
`ifdef FORMAL
  always @(*) assume (rst_ni == started_q);
`endif

  // ---- Shadow of table, arrivals and issues (the specification's state).
  logic [SizeBits-1:0]           size_q = '0;
  logic [Entries*EntryBits-1:0]  table_q = '0;
  logic [Entries-1:0]            issued_q = '0;
  logic [Entries-1:0]            shown_q = '0;    // granted in an earlier cycle (held or not)
  logic [Counters*CountBits-1:0] arrived_q = '0;  // arrivals presented before this cycle
  logic [Counters*CountBits-1:0] arrived_p_q = '0;  // ... before the previous cycle
  logic [Ports-1:0]              asked_q = '0;    // ready raised since the port's last grant
  logic [Ports-1:0]              granted_q;       // grant accepted in the previous cycle
  logic [Ports-1:0]              held_q;          // grant not accepted in the previous cycle
  logic [Ports*IndexBits-1:0]    held_index_q = '0;
  logic [Ports*EntryBits-1:0]    held_entry_q = '0;
  logic                          step_order_q = 1'b0;
  logic                          fast_dma_q = 1'b0;
  logic [LiveBits-1:0]           live_q = '0;     // cycles with everything ready, saturating
  // open_step_i of the last DecisionLatency cycles, stage s presented s + 1 cycles ago; 0 (step 0
  // open) where a clear or the reset came since, as the scheduler's input stages read.
  logic [DecisionLatency*StepBits-1:0] open_hist_q = '0;
  logic [DecisionLatency-1:0]    open_real_q = '0;  // the stage holds a presented open step
  logic                          ready_since_q = 1'b0;  // a port was ready since the clear
  // Per entry: consecutive cycles held by the open step alone (saturating), and whether that
  // reached GateCycles (OpenStepWait_C).
  logic [Entries*3-1:0]          gate_cnt_q = '0;
  logic [Entries-1:0]            gated_q = '0;

  logic                   loading, pushing;
  logic [SizeBits-1:0]    unissued;     // loaded entries not yet granted
  logic [StepBits-1:0]    last_step;
  logic [Counters-1:0]    counter_overflow;
  logic [Counters*CountBits-1:0] arrived_d;
  logic                   deps_met;     // every loaded entry's counter at its threshold
  logic                   all_issued;
  logic [StepBits-1:0]    open_shown;   // the open step the decision of the last cycle saw
  logic [Entries*3-1:0]   gate_cnt_d;
  logic [Ports-1:0]       bad_deps, bad_entry, bad_twice, bad_step, bad_order, bad_held, bad_open;
  logic [Ports-1:0]       gated_grant;  // a grant of an entry held by the open step before
  logic [Ports-1:0]       accepted;     // grants the DMAs take at this edge

  assign accepted = grant & grant_ack_i;
  // A grant shown now was decided in the last cycle, on the open step presented DecisionLatency - 1
  // cycles before that (the scheduler's input stages, as for the ready levels).
  assign open_shown = open_hist_q[(DecisionLatency-1)*StepBits +: StepBits];

  assign loading = tbl_valid_i && !clear_i;
  assign pushing = loading && tbl_ready;

  always @(*) begin
    last_step = '0;
    for (int unsigned i = 0; i < Entries; i++) begin
      if (size_q == SizeBits'(i + 1)) last_step = table_q[i*EntryBits + StepLsb +: StepBits];
    end
    // Arrivals of this cycle per counter, against MaxCount.
    arrived_d = arrived_q;
    counter_overflow = '0;
    for (int unsigned c = 0; c < Counters; c++) begin
      logic [CountBits+3:0] sum;
      sum = (CountBits+4)'(arrived_q[c*CountBits +: CountBits]);
      for (int unsigned l = 0; l < ArrivalLanes; l++) begin
        if (arr_valid_i[l] && arr_counter_i[l*CounterBits +: CounterBits] == CounterBits'(c)) begin
          sum = sum + (CountBits+4)'(1);
        end
      end
      if (host_valid_i && host_counter_i == CounterBits'(c)) sum = sum + (CountBits+4)'(1);
      counter_overflow[c] = sum > (CountBits+4)'(MaxCount);
      arrived_d[c*CountBits +: CountBits] = sum[CountBits-1:0];
    end
    deps_met   = 1'b1;
    all_issued = 1'b1;
    unissued   = '0;
    for (int unsigned i = 0; i < Entries; i++) begin
      logic [CounterBits-1:0] wc;
      wc = table_q[i*EntryBits + WaitCounterLsb +: CounterBits];
      if (SizeBits'(i) < size_q) begin
        if (arrived_q[wc*CountBits +: CountBits] < table_q[i*EntryBits + WaitCountLsb +: CountBits])
          deps_met = 1'b0;
        if (!issued_q[i]) begin
          all_issued = 1'b0;
          unissued   = unissued + SizeBits'(1);
        end
      end
    end
    // Held by the step barrier alone: pending, the oldest pending entry of its port (of the
    // queue when Shared), dependencies counted by the decision, its port asked for a grant
    // since its last one, no pending entry of a smaller step (step order does not hold it), and
    // its step above the open step the decision saw (a presented one, not the 0 of stages the
    // reset or a clear emptied). Counted per entry while it lasts.
    for (int unsigned i = 0; i < Entries; i++) begin
      logic                   held_by_open;
      logic [PortBits-1:0]    port_i;
      logic [StepBits-1:0]    step_i;
      logic [CounterBits-1:0] wc_i;
      port_i = table_q[i*EntryBits + PortLsb +: PortBits];
      step_i = table_q[i*EntryBits + StepLsb +: StepBits];
      wc_i   = table_q[i*EntryBits + WaitCounterLsb +: CounterBits];
      held_by_open = step_order_i && open_real_q[DecisionLatency-1] && SizeBits'(i) < size_q &&
                     !issued_q[i] && !shown_q[i] && asked_q[port_i] &&
                     arrived_p_q[wc_i*CountBits +: CountBits] >=
                         table_q[i*EntryBits + WaitCountLsb +: CountBits] &&
                     step_i > open_shown;
      for (int unsigned j = 0; j < i; j++) begin
        if (SizeBits'(j) < size_q && !issued_q[j] && !shown_q[j] &&
            (table_q[j*EntryBits + StepLsb +: StepBits] < step_i ||
             table_q[j*EntryBits + PortLsb +: PortBits] == port_i)) begin
          held_by_open = 1'b0;
        end
      end
      gate_cnt_d[i*3 +: 3] = !held_by_open ? 3'd0 :
                             (gate_cnt_q[i*3 +: 3] == 3'd7) ? 3'd7 : gate_cnt_q[i*3 +: 3] + 3'd1;
    end
  end

  always @(posedge clk_i) begin
    step_order_q <= step_order_i;
    fast_dma_q   <= fast_dma_i;
    held_index_q <= grant_index;
    held_entry_q <= grant_entry;
    if (!started_q || clear_i) begin
      open_hist_q   <= '0;
      open_real_q   <= '0;
      ready_since_q <= 1'b0;
      gate_cnt_q    <= '0;
      gated_q       <= '0;
    end else begin
      open_hist_q   <= {open_hist_q[(DecisionLatency-1)*StepBits-1:0], open_step_i};
      open_real_q   <= {open_real_q[DecisionLatency-2:0], 1'b1};
      ready_since_q <= ready_since_q || port_ready_i != '0;
      gate_cnt_q    <= gate_cnt_d;
      for (int unsigned i = 0; i < Entries; i++) begin
        if (gate_cnt_q[i*3 +: 3] >= 3'(GateCycles)) gated_q[i] <= 1'b1;
      end
    end
    if (!started_q || clear_i) begin
      size_q    <= '0;
      issued_q  <= '0;
      shown_q   <= '0;
      arrived_q <= '0;
      arrived_p_q <= '0;
      asked_q   <= '0;
    end else begin
      if (pushing && size_q < SizeBits'(Entries)) begin
        table_q[size_q*EntryBits +: EntryBits] <= tbl_wdata_i;
        size_q <= size_q + SizeBits'(1);
      end
      arrived_q <= arrived_d;
      arrived_p_q <= arrived_q;
      for (int unsigned p = 0; p < Ports; p++) begin
        if (accepted[p]) issued_q[grant_index[p*IndexBits +: IndexBits]] <= 1'b1;
        if (grant[p]) shown_q[grant_index[p*IndexBits +: IndexBits]] <= 1'b1;
      end
      asked_q <= ~accepted & (asked_q | port_ready_i);
    end
    if (!started_q || clear_i || loading || !fast_dma_i || !deps_met ||
        (size_q != '0 && open_shown < last_step)) live_q <= '0;
    else if (live_q != LiveBits'(LiveBound + 1)) live_q <= live_q + LiveBits'(1);
  end

  // ---- Input contracts.
  logic [ArrivalLanes-1:0] lane_bad;
  logic                    entry_bad, host_bad;
  always @(*) begin
    for (int unsigned l = 0; l < ArrivalLanes; l++) begin
      lane_bad[l] = arr_valid_i[l] &&
                    (32'(arr_counter_i[l*CounterBits +: CounterBits]) >= Counters);
    end
    host_bad = host_valid_i && (32'(host_counter_i) >= Counters);
    entry_bad = (32'(tbl_wdata_i[PortLsb +: PortBits]) >= Ports) ||
                (32'(tbl_wdata_i[PeerLsb +: PeerBits]) >= Nodes) ||
                (32'(tbl_wdata_i[ChunkLsb +: ChunkBits]) >= Chunks) ||
                (32'(tbl_wdata_i[FlowLsb +: FlowBits]) >= Flows) ||
                (32'(tbl_wdata_i[StepLsb +: StepBits]) >= Steps) ||
                (32'(tbl_wdata_i[WaitCounterLsb +: CounterBits]) >= Counters) ||
                (32'(tbl_wdata_i[DstCounterLsb +: CounterBits]) >= Counters) ||
                (shared && tbl_wdata_i[PortLsb +: PortBits] != '0);  // the one queue
  end
  `MT_ASSUME(ArrivalOnRealCounter_M, lane_bad == '0 && !host_bad)
  `MT_ASSUME(NoArrivalOverflow_M, clear_i || counter_overflow == '0)
  `MT_ASSUME(EntryWellFormed_M, !loading || !entry_bad)
  `MT_ASSUME(NoTableOverrun_M, !loading || size_q < SizeBits'(Entries))
  // Sorted by step where it is issued in step order (without it a table may be in any order a
  // run could issue: nic.scheduler_table_order planned).
  `MT_ASSUME(TableSorted_M, !loading || !step_order_i || size_q == '0 ||
                            tbl_wdata_i[StepLsb +: StepBits] >= last_step)
  `MT_ASSUME(StepOrderHeld_M, !started_q || step_order_i == step_order_q)
  `MT_ASSUME(FastDmaHeld_M, !started_q || fast_dma_i == fast_dma_q)
  // The step barrier's open step (IssueControl::present_requests, StepBarrier::open_step): all
  // ones without step order (nic.step_barrier requires step order, model/params/nic_rules.h);
  // a step of the table or one past the last (all ones where that does not fit); lower than the
  // cycle before only while no port has been ready since the clear (the load presents all ones
  // with the ports not ready; the NIC's first requests bring the barrier's step); then it only
  // rises (the barrier moves on, never back).
  `MT_ASSUME(OpenStepNoBarrier_M, step_order_i || open_step_i == '1)
  `MT_ASSUME(OpenStepInRange_M, open_step_i == '1 || 32'(open_step_i) <= Steps)
  `MT_ASSUME(OpenStepRises_M, !ready_since_q || open_step_i >= open_hist_q[0 +: StepBits])
  // The DMA drops ready the cycle after it accepted a grant (nic_sched_dma_formal); a fast DMA
  // accepts every grant at once and raises ready again right after.
  nic_sched_dma_formal #(.Ports(Ports)) u_dma (
    .clk_i, .rst_ni, .clear_i, .grant_i(grant), .grant_ack_i, .port_ready_i,
    .accepted_q_o(granted_q), .held_q_o(held_q)
  );
  `MT_ASSUME(FastDma_M, !fast_dma_i || (port_ready_i == ~granted_q && grant_ack_i == '1))

  // ---- Grant properties.
  always @(*) begin
    bad_deps  = '0;
    bad_entry = '0;
    bad_twice = '0;
    bad_step  = '0;
    bad_order = '0;
    bad_held  = '0;
    bad_open  = '0;
    gated_grant = '0;
    for (int unsigned p = 0; p < Ports; p++) begin
      logic [IndexBits-1:0]   idx;
      logic [EntryBits-1:0]   e;
      logic [CounterBits-1:0] wc;
      logic [(1 << IndexBits)-1:0] lower_new;
      bad_held[p] = held_q[p] && (!grant[p] ||
                                  grant_index[p*IndexBits +: IndexBits] !=
                                      held_index_q[p*IndexBits +: IndexBits] ||
                                  grant_entry[p*EntryBits +: EntryBits] !=
                                      held_entry_q[p*EntryBits +: EntryBits]);
      idx = grant_index[p*IndexBits +: IndexBits];
      e   = grant_entry[p*EntryBits +: EntryBits];
      lower_new = '0;  // entries newly granted to the ports below p in this cycle
      for (int unsigned q = 0; q < p; q++) begin
        if (grant[q] && !held_q[q]) lower_new[grant_index[q*IndexBits +: IndexBits]] = 1'b1;
      end
      wc  = e[WaitCounterLsb +: CounterBits];
      if (grant[p]) begin
        bad_deps[p]  = arrived_q[wc*CountBits +: CountBits] < e[WaitCountLsb +: CountBits];
        bad_entry[p] = !(32'(idx) < 32'(size_q)) || e != table_q[idx*EntryBits +: EntryBits] ||
                       32'(e[PortLsb +: PortBits]) != (shared ? 0 : p);
        bad_twice[p] = issued_q[idx];
        // A held grant was decided earlier, on an open step no higher (it only rises once a
        // port has been ready, and a grant needs a request).
        bad_open[p]  = e[StepLsb +: StepBits] > open_shown;
        gated_grant[p] = 32'(idx) < Entries &&
                         (gated_q[idx] || gate_cnt_q[idx*3 +: 3] >= 3'(GateCycles));
        for (int unsigned q = 0; q < p; q++) begin
          if (grant[q] && grant_index[q*IndexBits +: IndexBits] == idx) bad_twice[p] = 1'b1;
        end
        for (int unsigned i = 0; i < Entries; i++) begin
          if (step_order_i && SizeBits'(i) < size_q && !issued_q[i] && !shown_q[i] &&
              table_q[i*EntryBits + StepLsb +: StepBits] < e[StepLsb +: StepBits]) begin
            bad_step[p] = 1'b1;
          end
          // An older entry of this port, pending, whose dependencies the decision (the cycle
          // before this grant) had counted: arrivals presented before that cycle, at latency 2.
          // Shared: of the one queue, not shown before (a grant held on another port) and not
          // granted to a lower port in this decision.
          if (!held_q[p] && 32'(i) < 32'(idx) && !issued_q[i] &&
              (shared ? !shown_q[i] && !lower_new[i] :
                        32'(table_q[i*EntryBits + PortLsb +: PortBits]) == p) &&
              arrived_p_q[table_q[i*EntryBits + WaitCounterLsb +: CounterBits]*CountBits +:
                          CountBits] >=
                  table_q[i*EntryBits + WaitCountLsb +: CountBits]) begin
            bad_order[p] = 1'b1;
          end
        end
      end
    end
  end
  `MT_ASSERT(NoIssueBeforeDeps_A, bad_deps == '0)
  `MT_ASSERT(GrantIsEntry_A, bad_entry == '0)
  `MT_ASSERT(NoIssueTwice_A, bad_twice == '0)
  `MT_ASSERT(OneGrantPerRequest_A, (grant & ~held_q & ~asked_q) == '0)
  `MT_ASSERT(GrantHeld_A, bad_held == '0)
  `MT_ASSERT(StepOrder_A, bad_step == '0)
  `MT_ASSERT(GrantWithinOpenStep_A, bad_open == '0)
  `MT_ASSERT(OldestFirst_A, DecisionLatency != 2 || bad_order == '0)
  `MT_ASSERT(DoneExact_A, done == all_issued)
  `MT_ASSERT(Progress_A, live_q <= LiveBits'(LiveBound) || done)
  `MT_ASSERT(SizeExact_A, tbl_ready || unissued >= SizeBits'(Depth))
  // The error checks never fire on inputs that keep the contracts above (no false alarm).
  `MT_ASSERT(NoFalseError_A, !err)

  // ---- Reachability.
  `MT_COVER(TableFull_C, size_q == SizeBits'(Entries))
  `MT_COVER(AllPortsGranted_C, grant == '1)
  `MT_COVER(DoneFull_C, done && size_q == SizeBits'(Entries) && issued_q == '1)
  // The ring holds Depth entries (tbl_ready_o low): reachable only when Entries >= Depth + 1 +
  // Window (ring, fetch register, one port's window), e.g. the small configuration of
  // rtl/formal/README.md; the default one (Entries 10 < 11) leaves it out (formal.sh --covers).
  `MT_COVER(RingFull_C, !tbl_ready)
  `MT_COVER(GrantHeld_C, (held_q & grant) != '0)
  // An entry ready by its dependencies, held back by the open step alone for GateCycles
  // cycles, is granted later.
  `MT_COVER(OpenStepWait_C, gated_grant != '0)
  // Every port shows a new grant in one cycle (Shared: one decision of the shared window).
  `MT_COVER(AllPortsNewGrant_C, (grant & ~held_q) == '1)

endmodule
