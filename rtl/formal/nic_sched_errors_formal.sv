// Formal harness of the scheduler's error logic (rtl/README.md, Errors; scripts/formal.sh --top
// nic_sched_errors_formal). Unlike nic_sched_formal it assumes no contract on the data (entries,
// arrivals, the step barrier's open step): those inputs are free after reset, because the point
// is what bad ones do; only the protocol is assumed (step_order_i held, a DMA's ready dropped
// after its grant). Its default configuration leaves room in every field (Ports 3, Nodes 3,
// Chunks 3, Flows 3, Steps 3, Counters 3, MaxCount 2), so every check can fire. Properties,
// against the harness's own decode of the inputs:
//   EntryErrorFlagged  a written entry with a field out of range (or, in step order, a step below
//                      the previous written entry's) raises err_o at that edge with the lowest
//                      such cause and the entry's index, unless an error was already held
//   LaneErrorFlagged   an arrival or doorbell naming no counter raises cause 10 at that edge (no
//                      entry error beside it)
//   OverflowFlagged    arrivals past MaxCount on a counter raise err_o by the third edge after
//                      the one that counted them
//   ErrorHeld          err_o, its cause and its information hold until clear_i
//   ClearClears        clear_i clears them
//   Halt               no new grant in the cycle after one with err_o high (a grant decided
//                      before the error and not yet accepted stays: grant_ack_i is free)
//   StallFlagged       the harness's own watchdog count (ticks while a port's ready level is
//                      seen high, reset by a table write, a counted arrival or doorbell, an
//                      accepted grant or done_o) at wdog_limit_i != 0 raises err_o at that edge
//   StallNotEarly      cause 12 (stalled) only when that count had reached the limit

`include "mt_assert.svh"
`include "mt_sched_fields.svh"

module nic_sched_errors_formal #(
  parameter int unsigned Nodes           = 3,
  parameter int unsigned Ports           = 3,
  parameter int unsigned Depth           = 2,
  parameter int unsigned Window          = 1,
  parameter int unsigned Chunks          = 3,
  parameter int unsigned Flows           = 3,
  parameter int unsigned Steps           = 3,
  parameter int unsigned Counters        = 3,
  parameter int unsigned MaxCount        = 2,
  parameter int unsigned IndexBits       = 4,
  localparam int unsigned ArrivalLanes   = 1,
  localparam int unsigned DecisionLatency = 2,  // lanes are counted at the edge they arrive
  // Field layout (rtl/include/mt_sched_fields.svh, model/sched/SCHEDULE_TABLE.md).
  `MT_SCHED_FIELDS,
  localparam int unsigned InfoBits       = (IndexBits > CounterBits) ? IndexBits : CounterBits,
  localparam int unsigned ShadowBits     = CountBits + 1,
  localparam int unsigned WdogBits       = 16
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic                   clear_i,
  input logic                   step_order_i,
  input logic [StepBits-1:0]    open_step_i,  // free: the error logic must not depend on it
  input logic                   tbl_valid_i,
  input logic [EntryBits-1:0]   tbl_wdata_i,
  input logic                   arr_valid_i,
  input logic [CounterBits-1:0] arr_counter_i,
  input logic                   host_valid_i,
  input logic [CounterBits-1:0] host_counter_i,
  input logic [Ports-1:0]       port_ready_i,
  input logic [Ports-1:0]       grant_ack_i,
  input logic                   wdog_tick_i,
  input logic [WdogBits-1:0]    wdog_limit_i
);

  logic                   tbl_ready, err, done, unused_idle;
  logic [Ports-1:0]       grant;
  logic [3:0]             cause;
  logic [InfoBits-1:0]    info;
  logic [Ports*IndexBits-1:0] unused_grant_index;
  logic [Ports*EntryBits-1:0] unused_grant_entry;

  nic_sched #(
    .Nodes(Nodes), .Ports(Ports), .Depth(Depth), .Window(Window), .Chunks(Chunks), .Flows(Flows),
    .Steps(Steps), .Counters(Counters), .MaxCount(MaxCount), .ArrivalLanes(ArrivalLanes),
    .DecisionLatency(DecisionLatency), .IndexBits(IndexBits)
  ) u_dut (
    .clk_i, .rst_ni, .clear_i, .step_order_i, .tbl_valid_i, .tbl_wdata_i,
    .shared_window_i(1'b0),  // each port's own window (the shared one: nic_sched_share_formal)
    .open_step_i,
    .tbl_ready_o  (tbl_ready),
    .arr_valid_i, .arr_counter_i, .host_valid_i, .host_counter_i, .port_ready_i,
    .grant_ack_i, .wdog_tick_i, .wdog_limit_i,
    .grant_o      (grant),
    .grant_index_o(unused_grant_index),
    .grant_entry_o(unused_grant_entry),
    .done_o       (done),
    .idle_o       (unused_idle),
    .err_o        (err),
    .err_cause_o  (cause),
    .err_info_o   (info)
  );

  // ---- Reset: low in the first cycle only.
  logic started_q = 1'b0;
  always @(posedge clk_i) started_q <= 1'b1;
`ifdef FORMAL
  always @(*) assume (rst_ni == started_q);
`endif

  // ---- What is not an error but a protocol: step_order_i is held while the scheduler runs (a
  // configuration input), and the DMAs keep the grant handshake (nic_sched_dma_formal: ready
  // dropped after an accepted grant; grant_ack_i free, a DMA may accept late).
  logic             step_order_q = 1'b0;
  logic [Ports-1:0] unused_accepted_q, held_q;
  always @(posedge clk_i) step_order_q <= step_order_i;
  `MT_ASSUME(StepOrderHeld_M, !started_q || step_order_i == step_order_q)
  logic [WdogBits-1:0] limit_q = '0;
  always @(posedge clk_i) limit_q <= wdog_limit_i;
  `MT_ASSUME(WatchdogLimitHeld_M, !started_q || wdog_limit_i == limit_q)
  nic_sched_dma_formal #(.Ports(Ports)) u_dma (
    .clk_i, .rst_ni, .clear_i, .grant_i(grant), .grant_ack_i, .port_ready_i,
    .accepted_q_o(unused_accepted_q), .held_q_o(held_q)
  );

  // ---- The harness's decode of this cycle's inputs (the specification of the checks).
  logic                   write, lane_bad;
  logic [StepBits-1:0]    step;
  logic [3:0]             entry_cause;
  logic [IndexBits-1:0]   written_q = '0;    // entries written since clear_i
  logic                   have_last_q = 1'b0;
  logic [StepBits-1:0]    last_step_q = '0;
  assign write    = tbl_valid_i && tbl_ready && !clear_i;
  assign step     = tbl_wdata_i[StepLsb +: StepBits];
  assign lane_bad = !clear_i && ((arr_valid_i && 32'(arr_counter_i) >= Counters) ||
                                 (host_valid_i && 32'(host_counter_i) >= Counters));
  always @(*) begin
    entry_cause = 4'd0;
    if (32'(tbl_wdata_i[PortLsb +: PortBits]) >= Ports) entry_cause = 4'd1;
    else if (32'(tbl_wdata_i[PeerLsb +: PeerBits]) >= Nodes) entry_cause = 4'd2;
    else if (32'(tbl_wdata_i[ChunkLsb +: ChunkBits]) >= Chunks) entry_cause = 4'd3;
    else if (32'(tbl_wdata_i[FlowLsb +: FlowBits]) >= Flows) entry_cause = 4'd4;
    else if (32'(step) >= Steps) entry_cause = 4'd5;
    else if (32'(tbl_wdata_i[WaitCounterLsb +: CounterBits]) >= Counters) entry_cause = 4'd6;
    else if (32'(tbl_wdata_i[WaitCountLsb +: CountBits]) > MaxCount) entry_cause = 4'd7;
    else if (32'(tbl_wdata_i[DstCounterLsb +: CounterBits]) >= Counters) entry_cause = 4'd8;
    else if (step_order_i && have_last_q && step < last_step_q) entry_cause = 4'd9;
    if (!write) entry_cause = 4'd0;
  end
  always @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      written_q   <= '0;
      have_last_q <= 1'b0;
    end else if (write) begin
      written_q   <= written_q + IndexBits'(1);
      have_last_q <= 1'b1;
      last_step_q <= step;
    end
  end

  // ---- Shadow arrival counts (saturating one past MaxCount) and the age of an overflow.
  logic [Counters*ShadowBits-1:0] count_q = '0;
  logic [2:0]                     over_age_q = '0;  // edges since the overflow, 0: none
  logic [Counters*ShadowBits-1:0] count_d;
  logic                           over_now;
  always @(*) begin
    count_d  = count_q;
    over_now = 1'b0;
    for (int unsigned c = 0; c < Counters; c++) begin
      logic [ShadowBits+1:0] n;
      n = (ShadowBits+2)'(count_q[c*ShadowBits +: ShadowBits]) +
          (ShadowBits+2)'(arr_valid_i && 32'(arr_counter_i) == c) +
          (ShadowBits+2)'(host_valid_i && 32'(host_counter_i) == c);
      if (32'(n) > MaxCount) begin
        over_now = 1'b1;
        n = (ShadowBits+2)'(MaxCount + 1);
      end
      count_d[c*ShadowBits +: ShadowBits] = ShadowBits'(n);
    end
  end
  always @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      count_q    <= '0;
      over_age_q <= '0;
    end else begin
      count_q <= count_d;
      if (over_age_q != 3'd0 && over_age_q != 3'd7) over_age_q <= over_age_q + 3'd1;
      else if (over_age_q == 3'd0 && over_now) over_age_q <= 3'd1;
    end
  end

  // ---- The watchdog's count as specified: ticks while a port's ready level is seen high (one
  // stage at DecisionLatency 2), reset by progress (a table write, a counted lane, an accepted
  // grant) or done_o, saturating.
  logic [Ports-1:0]    seen_ready_q = '0;
  logic [WdogBits-1:0] wd_q = '0;
  logic                progress, stall;
  assign progress = (tbl_valid_i && tbl_ready) || arr_valid_i || host_valid_i ||
                    ((grant & grant_ack_i) != '0) || done;
  assign stall    = wdog_limit_i != '0 && wd_q >= wdog_limit_i;
  always @(posedge clk_i) begin
    seen_ready_q <= (!rst_ni || clear_i) ? '0 : port_ready_i;
    if (!rst_ni || clear_i || progress) wd_q <= '0;
    else if (wdog_tick_i && seen_ready_q != '0 && wd_q != '1) wd_q <= wd_q + WdogBits'(1);
  end

  // ---- The previous cycle, as the properties compare with it.
  logic                 p_valid_q = 1'b0, p_clear_q = 1'b0, p_err_q = 1'b0, p_lane_bad_q = 1'b0;
  logic                 p_stall_q = 1'b0;
  logic [3:0]           p_entry_cause_q = '0, p_cause_q = '0;
  logic [IndexBits-1:0] p_index_q = '0;
  logic [InfoBits-1:0]  p_info_q = '0;
  always @(posedge clk_i) begin
    p_valid_q       <= started_q;
    p_clear_q       <= clear_i;
    p_err_q         <= err;
    p_cause_q       <= cause;
    p_info_q        <= info;
    p_entry_cause_q <= entry_cause;
    p_index_q       <= written_q;
    p_lane_bad_q    <= lane_bad;
    p_stall_q       <= stall;
  end
  logic held, fresh;
  assign held  = p_valid_q && p_err_q && !p_clear_q;   // an error held before the last edge
  assign fresh = p_valid_q && !p_err_q && !p_clear_q;  // none held: the last edge may flag one

  `MT_ASSERT(EntryErrorFlagged_A, !(fresh && p_entry_cause_q != 4'd0) ||
                                  (err && cause == p_entry_cause_q &&
                                   info == InfoBits'(p_index_q)))
  `MT_ASSERT(LaneErrorFlagged_A, !(fresh && p_entry_cause_q == 4'd0 && p_lane_bad_q) ||
                                 (err && cause == 4'd10))
  `MT_ASSERT(OverflowFlagged_A, over_age_q != 3'd4 || err)
  `MT_ASSERT(ErrorHeld_A, !held || (err && cause == p_cause_q && info == p_info_q))
  `MT_ASSERT(ClearClears_A, !(p_valid_q && p_clear_q) || (!err && cause == 4'd0))
  `MT_ASSERT(Halt_A, !(p_valid_q && p_err_q) || (grant & ~held_q) == '0)
  `MT_ASSERT(StallFlagged_A, !(fresh && p_stall_q) || err)
  `MT_ASSERT(StallNotEarly_A, !(fresh && err && cause == 4'd12) || p_stall_q)
  `MT_ASSERT(CauseKnown_A, cause <= 4'd12 && (err == (cause != 4'd0)))
  // Every cause can be reached (no property holds vacuously).
  `MT_COVER(EntryError_C, err && cause == 4'd1)
  `MT_COVER(Unsorted_C, err && cause == 4'd9)
  `MT_COVER(LaneError_C, err && cause == 4'd10)
  `MT_COVER(Overflow_C, err && cause == 4'd11)
  `MT_COVER(Stall_C, err && cause == 4'd12)

endmodule
