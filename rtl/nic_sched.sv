// Co-designed NIC scheduler, second generation (top). The host's table DMA streams one node's
// packed schedule table (model/sched/SCHEDULE_TABLE.md) into a ring buffer; one read pointer moves
// the entries in table order through a fetch register into a small window per port; arrivals
// (and the host's release doorbell) count per dependency counter and drop the remaining count of
// every waiting window entry of that counter; per port, the oldest ready entry of the smallest
// pending step is granted, registered, under a per-message request/grant/acknowledge handshake
// with the port's DMA:
//   request  port_ready_i[p] high: the DMA of port p can take a new message (it drops the level
//            from the cycle after it accepted a grant until the message is done, then raises it);
//   grant    grant_o[p] with the entry (grant_entry_o) and its table index modulo 2^IndexBits
//            (grant_index_o), held unchanged until accepted;
//   accept   grant_ack_i[p] high at an edge where grant_o[p] is high (valid/ready: a DMA that
//            always takes a grant at once ties it high, and each grant is then one cycle);
// Port binding any (shared_window_i high, held): every entry is on port 0, the one issue queue,
// and window 0 feeds every port's grant register: one decision grants its oldest ready entries to
// the open ports, the k-th oldest to the k-th lowest (nic_sched_share), up to one per port.
// Errors are checked in hardware, not assumed: an entry with a field out of range (or, in step
// order, below the previous entry's step), an arrival naming no counter and a counter past
// MaxCount each raise err_o with a cause and the entry index or counter id (first error kept
// until clear_i); the policy is halt: no new grant is decided while err_o is high (rtl/README.md,
// Errors).
// Cycle for cycle equal to the golden model mt::SchedulerModel (model/sched/scheduler_model.h) with
// the same Window, Depth and decision_latency_cycles = DecisionLatency. Microarchitecture,
// pipeline and parameters: rtl/README.md.
//
//   host --tbl_*--> [ring: Depth x entry] --rptr--> [fetch reg] --port--> [window p: W slots]
//   arrivals --lanes--> [counters] ------count[wait_counter] at refill--^    | rem -= lanes
//   window heads + fetch --min--> [min_step_q] ---------------------------> [decide p] --> grant_q

`include "mt_assert.svh"
`include "mt_sched_fields.svh"

module nic_sched #(
  parameter int unsigned Nodes           = 16,  // endpoints (peer ids)
  parameter int unsigned Ports           = 4,   // NIC ports (grants per cycle)
  parameter int unsigned Depth           = 32,  // table ring buffer capacity, entries
  parameter int unsigned Window          = 4,   // issue window per port, entries
  parameter int unsigned Chunks          = 16,  // chunk ids
  parameter int unsigned Flows           = 16,  // flow ids
  parameter int unsigned Steps           = 32,  // schedule steps
  parameter int unsigned Counters        = 32,  // arrival counters per node (release included)
  parameter int unsigned MaxCount        = 32,  // largest counter threshold / arrivals per counter
  parameter int unsigned ArrivalLanes    = 4,   // message arrivals accepted per cycle
  parameter int unsigned DecisionLatency = 2,   // input-to-grant latency, cycles (>= 2)
  parameter int unsigned IndexBits       = 8,   // width of grant_index_o, bits
  // Derived: field widths as mt::TableFormat::make() computes them, offsets LSB first (the kind
  // bit at 0): rtl/include/mt_sched_fields.svh, shared with the formal harnesses.
  `MT_SCHED_FIELDS,
  localparam int unsigned Lanes          = ArrivalLanes + 1,  // + the host's doorbell
  localparam int unsigned InfoBits       = (IndexBits > CounterBits) ? IndexBits : CounterBits,
  localparam int unsigned WdogBits       = 16  // width of the watchdog's count and limit
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // Configuration and the host's table DMA.
  input  logic                                clear_i,        // empty the table, reset state
  input  logic                                step_order_i,   // issue in step order (held)
  input  logic                                shared_window_i,  // window 0 feeds every port
                                                                // (port binding any; held)
  // The highest step the NIC's step barrier lets start (all ones: no barrier; held until it
  // changes): in step order nothing is granted while the smallest pending step is above it.
  input  logic [StepBits-1:0]                 open_step_i,
  input  logic                                tbl_valid_i,    // tbl_wdata_i is the next entry
  output logic                                tbl_ready_o,    // the ring takes it at this edge
  input  logic [EntryBits-1:0]                tbl_wdata_i,    // packed entry, in table order
  // Message arrivals: the destination counter from the header of each fully arrived message.
  input  logic [ArrivalLanes-1:0]             arr_valid_i,
  input  logic [ArrivalLanes*CounterBits-1:0] arr_counter_i,
  // Host doorbell: one more count on a counter (release times: the node's release counter).
  input  logic                                host_valid_i,
  input  logic [CounterBits-1:0]              host_counter_i,
  // Per-port request / grant handshake with the DMAs (grants registered).
  input  logic [Ports-1:0]                    port_ready_i,   // request: DMA p is free
  input  logic [Ports-1:0]                    grant_ack_i,    // accept: DMA p takes grant_o[p]
  // Progress watchdog: a timebase and the ticks without progress, while a port waits, that
  // raise the stall error (0: off; held). rtl/README.md, Errors.
  input  logic                                wdog_tick_i,
  input  logic [WdogBits-1:0]                 wdog_limit_i,
  output logic [Ports-1:0]                    grant_o,        // grant: issue on port p now
  output logic [Ports*IndexBits-1:0]          grant_index_o,  // table index mod 2^IndexBits
  output logic [Ports*EntryBits-1:0]          grant_entry_o,  // packed entry per port
  // Status.
  output logic                                done_o,         // every written entry granted
                                                              // (the last grant_o is over)
  output logic                                idle_o,         // no register changes while the
                                                              // inputs hold (clock-gating hint)
  // Errors (interrupt-style, held until clear_i): the first error's cause and its table entry
  // index (mod 2^IndexBits) or counter id. Causes: rtl/README.md, Errors.
  output logic                                err_o,
  output logic [3:0]                          err_cause_o,
  output logic [InfoBits-1:0]                 err_info_o
);

  // Arrival lanes and counters.
  logic [Lanes-1:0]              lane_valid;
  logic [Lanes*CounterBits-1:0]  lane_counter;
  logic [Lanes-1:0]              lane_q_valid;
  logic [Lanes*CounterBits-1:0]  lane_q_counter;
  logic [Counters*CountBits-1:0] count, count_now;
  logic [Ports-1:0]              ready_seen;
  logic                          counters_busy;
  logic [Counters-1:0]           overflow;
  logic [Lanes-1:0]              lane_bad;

  nic_sched_counters #(
    .Ports          (Ports),
    .Counters       (Counters),
    .CounterBits    (CounterBits),
    .CountBits      (CountBits),
    .MaxCount       (MaxCount),
    .Lanes          (Lanes),
    .DecisionLatency(DecisionLatency)
  ) u_counters (
    .clk_i,
    .rst_ni,
    .clear_i,
    .lane_valid_i  ({host_valid_i, arr_valid_i}),
    .lane_counter_i({host_counter_i, arr_counter_i}),
    .port_ready_i,
    .lane_valid_o  (lane_valid),
    .lane_counter_o(lane_counter),
    .lane_q_valid_o  (lane_q_valid),
    .lane_q_counter_o(lane_q_counter),
    .count_o       (count),
    .count_now_o   (count_now),
    .ready_o       (ready_seen),
    .overflow_o    (overflow),
    .lane_bad_o    (lane_bad),
    .busy_o        (counters_busy)
  );

  // Table ring and fetch register.
  logic                 fetch_valid, fetch_pop, ring_empty, ring_busy;
  logic [EntryBits-1:0] fetch_entry;
  logic [IndexBits-1:0] fetch_index;
  logic [Counters-1:0]  fetch_dec;  // the fetched entry's wait counter, one-hot

  nic_sched_ring #(
    .Depth    (Depth),
    .EntryBits(EntryBits),
    .IndexBits(IndexBits),
    .DecLsb   (WaitCounterLsb),
    .DecBits  (CounterBits),
    .DecWidth (Counters)
  ) u_ring (
    .clk_i,
    .rst_ni,
    .clear_i,
    .wvalid_i     (tbl_valid_i),
    .wready_o     (tbl_ready_o),
    .wdata_i      (tbl_wdata_i),
    .fetch_valid_o(fetch_valid),
    .fetch_entry_o(fetch_entry),
    .fetch_index_o(fetch_index),
    .fetch_dec_o  (fetch_dec),
    .fetch_pop_i  (fetch_pop),
    .empty_o      (ring_empty),
    .busy_o       (ring_busy)
  );

  // Refill: the fetched entry goes to its port's window when that window has room; its remaining
  // count is what its counter lacks now: need - count - late, saturating at 0, where late are the
  // registered lanes on its counter that count does not hold yet. The count is selected by the
  // wait counter decoded one-hot in the fetch register (an AND-OR, no select fanout tree), and
  // late is counted meanwhile; one carry-save step and one add follow. (The window registers
  // the lanes counted at this edge beside the entry.)
  localparam int unsigned HitBits = $clog2(Lanes + 1);
  localparam int unsigned DiffBits = ((CountBits > HitBits) ? CountBits : HitBits) + 2;
  logic [PortBits-1:0]    fetch_port;
  logic [CounterBits-1:0] fetch_counter;
  logic [CountBits-1:0]   fetch_need, fetch_have, fetch_rem;
  logic [HitBits-1:0]     fetch_late;
  logic [DiffBits-1:0]    csa_y, csa_z, csa_s, csa_c, fetch_diff;  // two's complement
  logic [Ports-1:0]       ins_valid, full;

  assign fetch_port    = fetch_entry[PortLsb +: PortBits];
  assign fetch_counter = fetch_entry[WaitCounterLsb +: CounterBits];
  assign fetch_need    = fetch_entry[WaitCountLsb +: CountBits];
  always_comb begin
    fetch_have = '0;
    for (int unsigned c = 0; c < Counters; c++) begin
      fetch_have = fetch_have | (count[c*CountBits +: CountBits] & {CountBits{fetch_dec[c]}});
    end
  end
  logic [Lanes-1:0] fetch_late_lanes;
  always_comb begin
    for (int unsigned l = 0; l < Lanes; l++) begin
      fetch_late_lanes[l] = lane_q_valid[l] &&
                            lane_q_counter[l*CounterBits +: CounterBits] == fetch_counter;
    end
  end
  mt_popcount #(.N(Lanes), .W(HitBits)) u_fetch_late (
    .bits_i (fetch_late_lanes),
    .count_o(fetch_late)
  );
  always_comb begin
    // need - late - have = need + ~late + ~have + 2: one carry-save step (late and have arrive
    // late, need early), then one carry-propagate add.
    csa_y      = ~(DiffBits'(fetch_late));
    csa_z      = ~(DiffBits'(fetch_have));
    csa_s      = DiffBits'(fetch_need) ^ csa_y ^ csa_z;
    csa_c      = ((DiffBits'(fetch_need) & csa_y) | (DiffBits'(fetch_need) & csa_z) |
                  (csa_y & csa_z)) << 1;
    fetch_diff = csa_s + (csa_c | DiffBits'(1)) + DiffBits'(1);
    fetch_rem  = fetch_diff[DiffBits-1] ? '0 : fetch_diff[CountBits-1:0];
  end

  always_comb begin
    ins_valid = '0;
    for (int unsigned p = 0; p < Ports; p++) begin
      // No clear_i here: a refill under clear_i is discarded with the windows and the ring.
      ins_valid[p] = fetch_valid && (fetch_port == PortBits'(p)) && !full[p];
    end
  end
  assign fetch_pop = ins_valid != '0;

  // Windows and the per-port decision.
  logic [StepBits-1:0]        min_step_d, min_step_q;
  logic                       step_open;  // the step barrier lets min_step_q start (below)
  logic [Ports-1:0]           head_valid, take, window_busy, window_empty;
  logic [Ports*StepBits-1:0]  head_step;
  logic [Ports*IndexBits-1:0] head_index;
  logic [Ports*EntryBits-1:0] take_entry;
  // Shared window (shared_window_i): every window's ready slots, ages and entries (window 0's
  // feed nic_sched_share), the open ports, and the grants the shared pick hands each port.
  logic [Ports*Window-1:0]           slot_request, slot_leave;
  logic [Ports*Window*Window-1:0]    slot_older;
  logic [Ports*Window*EntryBits-1:0] slot_entry;
  logic [Ports*Window*IndexBits-1:0] slot_index;
  logic [Ports-1:0]                  port_open, share_take;
  logic [Ports*EntryBits-1:0]        share_entry;
  logic [Ports*IndexBits-1:0]        share_index;
  logic [Window-1:0]                 share_leave;

  nic_sched_share #(
    .Ports    (Ports),
    .Window   (Window),
    .EntryBits(EntryBits),
    .IndexBits(IndexBits)
  ) u_share (
    .clk_i,
    .rst_ni,
    .shared_i (shared_window_i),
    .request_i(slot_request[Window-1:0]),
    .older_i  (slot_older[Window*Window-1:0]),
    .entry_i  (slot_entry[Window*EntryBits-1:0]),
    .index_i  (slot_index[Window*IndexBits-1:0]),
    .open_i   (port_open),
    .leave_o  (share_leave),
    .take_o   (share_take),
    .entry_o  (share_entry),
    .index_o  (share_index)
  );
  // Only window 0's slots are shared; the other windows are empty in that mode, and their
  // exports feed nothing.
  always_comb begin
    slot_leave = '0;
    slot_leave[Window-1:0] = share_leave;
  end
  if (Ports > 1) begin : gen_unused_slots
    logic unused_slots;
    assign unused_slots = ^{slot_request[Ports*Window-1:Window],
                            slot_older[Ports*Window*Window-1:Window*Window],
                            slot_entry[Ports*Window*EntryBits-1:Window*EntryBits],
                            slot_index[Ports*Window*IndexBits-1:Window*IndexBits]};
  end

  for (genvar p = 0; p < Ports; p++) begin : gen_port
    nic_sched_window #(
      .Window         (Window),
      .EntryBits      (EntryBits),
      .IndexBits      (IndexBits),
      .StepLsb        (StepLsb),
      .StepBits       (StepBits),
      .WaitCounterLsb (WaitCounterLsb),
      .WaitCountLsb   (WaitCountLsb),
      .CounterBits    (CounterBits),
      .CountBits      (CountBits),
      .Counters       (Counters),
      .Lanes          (Lanes),
      .DecisionLatency(DecisionLatency)
    ) u_window (
      .clk_i,
      .rst_ni,
      .clear_i,
      .step_order_i,
      .shared_i      (shared_window_i),
      .ins_valid_i   (ins_valid[p]),
      .ins_entry_i   (fetch_entry),
      .ins_index_i   (fetch_index),
      .ins_rem_i     (fetch_rem),
      .full_o        (full[p]),
      .lane_valid_i  (lane_valid),
      .lane_counter_i(lane_counter),
      .min_step_i    (min_step_q),
      .step_open_i   (step_open),
      .ready_i       (ready_seen[p]),
      .grant_ack_i   (grant_ack_i[p]),
      .halt_i        (err_o),
      .count_i       (count_now),
      .ext_take_i    (share_take[p]),
      .ext_entry_i   (share_entry[p*EntryBits +: EntryBits]),
      .ext_index_i   (share_index[p*IndexBits +: IndexBits]),
      .leave_i       (slot_leave[p*Window +: Window]),
      .open_o        (port_open[p]),
      .request_o     (slot_request[p*Window +: Window]),
      .older_o       (slot_older[p*Window*Window +: Window*Window]),
      .slot_entry_o  (slot_entry[p*Window*EntryBits +: Window*EntryBits]),
      .slot_index_o  (slot_index[p*Window*IndexBits +: Window*IndexBits]),
      .head_valid_o  (head_valid[p]),
      .head_step_o   (head_step[p*StepBits +: StepBits]),
      .head_index_o  (head_index[p*IndexBits +: IndexBits]),
      .grant_o       (grant_o[p]),
      .grant_entry_o (grant_entry_o[p*EntryBits +: EntryBits]),
      .grant_index_o (grant_index_o[p*IndexBits +: IndexBits]),
      .take_o        (take[p]),
      .take_entry_o  (take_entry[p*EntryBits +: EntryBits]),
      .busy_o        (window_busy[p])
    );
  end
  assign window_empty = ~head_valid;

  // Smallest pending step: the minimum of the window heads and the fetch register (the table is
  // sorted by step, so every other pending entry is of that step or later; nic_sched_min_step),
  // registered. The decision uses last cycle's value, which is never above the current minimum
  // (entries only leave, and a new one is in the fetch register a cycle before any window).
  localparam int unsigned Cands = Ports + 1;
  logic [Cands*StepBits-1:0] cand;
  logic [StepBits-1:0]       min_step;
  always_comb begin
    cand = '1;
    for (int unsigned p = 0; p < Ports; p++) begin
      if (head_valid[p]) cand[p*StepBits +: StepBits] = head_step[p*StepBits +: StepBits];
    end
    if (fetch_valid) cand[Ports*StepBits +: StepBits] = fetch_entry[StepLsb +: StepBits];
  end
  nic_sched_min_step #(.Cands(Cands), .StepBits(StepBits)) u_min_step (
    .cand_i(cand),
    .min_o (min_step)
  );
  assign min_step_d = clear_i ? '1 : min_step;

  // The step barrier's open step, seen DecisionLatency - 1 edges after it is presented (as the
  // ready levels are). It only rises while the table is worked (the barrier moves on step by
  // step), so a decision never sees it ahead of the barrier. A cleared stage reads 0 (step 0
  // open) until the presented value passes.
  localparam int unsigned OpenStages = (DecisionLatency > 1) ? DecisionLatency - 1 : 1;
  logic [StepBits-1:0]            open_step_seen;
  logic [OpenStages*StepBits-1:0] open_q;
  logic                           open_moving;
  mt_delay_line #(.Width(StepBits), .Stages(OpenStages)) u_open_delay (
    .clk_i, .rst_ni, .clear_i,
    .d_i     (open_step_i),
    .q_o     (open_step_seen),
    .stages_o(open_q)
  );
  always_comb begin
    open_moving = open_step_i != open_q[0 +: StepBits];
    for (int unsigned s = 1; s < OpenStages; s++) begin
      open_moving = open_moving ||
                    (open_q[s*StepBits +: StepBits] != open_q[(s-1)*StepBits +: StepBits]);
    end
  end
  assign step_open = min_step_q <= open_step_seen;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      min_step_q <= '1;
    end else begin
      min_step_q <= min_step_d;
    end
  end

  assign done_o = ring_empty && !fetch_valid && (window_empty == '1) && (grant_o == '0);

  // Idle, from a flop (one inverter between it and idle_o): nothing moved at the last two edges.
  // busy_now covers every register but min_step_q (lanes, ready levels, table writes and loads,
  // refills, decisions, masks, grants, clear_i, the watchdog's count and a stall to flag), and
  // the free window slots' data, which loads the fetch register's entry at every edge and is read
  // only once a refill (a busy edge, which loads it again) makes the slot valid. A
  // quiet edge leaves the state as it was, so inputs held as they were (no arrival, doorbell,
  // clear_i, table write or watchdog tick; the same ready levels) give another quiet edge; and min_step_d depends only on the window heads, the fetch
  // register and clear_i, so after two quiet edges min_step_q has settled too
  // (IdleMinStepSettled_A) without the minimum-step tree in idle_o's cone. The co-simulation
  // evaluates the RTL only while idle_o is low, an input changes or the host has an entry to
  // write (tb/rtl_adapter).
  logic busy_now, busy1_q, busy2_d, busy2_q;
  assign busy_now = counters_busy || ring_busy || fetch_pop || (window_busy != '0) || clear_i ||
                    grp_overflow || wdog_busy || (stalled && !err_o) || open_moving;
  assign busy2_d  = busy_now || busy1_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy1_q <= 1'b1;
      busy2_q <= 1'b1;
    end else begin
      busy1_q <= busy_now;
      busy2_q <= busy2_d;
    end
  end
  assign idle_o = !busy2_q;
  `MT_ASSERT(IdleMinStepSettled_A, !idle_o || clear_i || (min_step_d == min_step_q))

  // Errors in hardware (nic_sched_errors.sv): entries decoded as they are written, lanes naming
  // no counter, counters past MaxCount; the first error kept until clear_i. Halt: while err_o is
  // high no window decides a grant (one already registered stays until accepted); the ring still
  // takes the host's writes, so its DMA never hangs.
  logic grp_overflow;  // an overflow is being encoded (busy)

  // Progress watchdog (nic_sched_watchdog): progress is a table write, a counted lane, an
  // accepted grant or nothing left (done_o); it counts ticks while a port's ready level is seen
  // high. A stall names the oldest entry of the lowest port whose window holds one (0: none).
  logic                 stalled, wdog_busy, progress, waiting;
  logic [IndexBits-1:0] stall_index;
  // (Named nets, not expressions in the port list: Yosys 0.23 fails an internal assertion when a
  // port connection holds an unsized '0.)
  assign progress = (tbl_valid_i && tbl_ready_o) || (lane_valid != '0) ||
                    ((grant_o & grant_ack_i) != '0) || done_o;
  assign waiting  = ready_seen != '0;
  always_comb begin
    stall_index = '0;
    for (int p = Ports - 1; p >= 0; p--) begin
      if (head_valid[p]) stall_index = head_index[p*IndexBits +: IndexBits];
    end
  end
  nic_sched_watchdog #(.Bits(WdogBits)) u_watchdog (
    .clk_i,
    .rst_ni,
    .clear_i,
    .tick_i    (wdog_tick_i),
    .limit_i   (wdog_limit_i),
    .progress_i(progress),
    .waiting_i (waiting),
    .stalled_o (stalled),
    .busy_o    (wdog_busy)
  );
  nic_sched_errors #(
    .Nodes    (Nodes),
    .Ports    (Ports),
    .Chunks   (Chunks),
    .Flows    (Flows),
    .Steps    (Steps),
    .Counters (Counters),
    .MaxCount (MaxCount),
    .IndexBits(IndexBits),
    .Lanes    (Lanes)
  ) u_errors (
    .clk_i,
    .rst_ni,
    .clear_i,
    .step_order_i,
    .tbl_write_i     (tbl_valid_i && tbl_ready_o && !clear_i),
    .tbl_wdata_i,
    .lane_bad_i      (lane_bad),
    .lane_counter_i  (lane_counter),
    .overflow_i      (overflow),
    .stalled_i       (stalled),
    .stall_index_i   (stall_index),
    .err_o,
    .err_cause_o,
    .err_info_o,
    .overflow_busy_o (grp_overflow)
  );

  // Parameters: checked at elaboration, so no tool builds an illegal configuration.
  // One check per rule: the failing one's name says which (rtl/README.md, Parameters).
  `MT_STATIC_ASSERT(CountsPositive_S, Nodes >= 1 && Ports >= 1 && Depth >= 1 && Window >= 1 &&
                                      ArrivalLanes >= 1 && Chunks >= 1 && Flows >= 1 &&
                                      Steps >= 1 && Counters >= 1)
  `MT_STATIC_ASSERT(DecisionLatencyAtLeast2_S, DecisionLatency >= 2)
  `MT_STATIC_ASSERT(IndexBitsCoverEntries_S,
                    IndexBits <= 31 && (1 << IndexBits) >= Depth + 1 + Ports * (Window + 1))

  // Contracts on the decision: no grant before the entry's dependencies have arrived, none of a
  // later step than a pending entry or the step barrier's open step seen (step order), so never
  // a grant twice (entries leave).
`ifndef SYNTHESIS
  logic [Ports-1:0] take_early, take_late, take_closed;
  always_comb begin
    take_early  = '0;
    take_late   = '0;
    take_closed = '0;
    for (int unsigned p = 0; p < Ports; p++) begin
      logic [CounterBits-1:0] c;
      c             = take_entry[p*EntryBits + WaitCounterLsb +: CounterBits];
      take_early[p] = take[p] && (count_now[c*CountBits +: CountBits] <
                                  take_entry[p*EntryBits + WaitCountLsb +: CountBits]);
      take_late[p]  = take[p] && step_order_i &&
                      (take_entry[p*EntryBits + StepLsb +: StepBits] > min_step_d);
      take_closed[p] = take[p] && step_order_i &&
                       (take_entry[p*EntryBits + StepLsb +: StepBits] > open_step_seen);
    end
  end
  `MT_ASSERT(NoIssueBeforeDeps_A, take_early == '0)
  `MT_ASSERT(NoIssueOutOfStep_A, take_late == '0)
  `MT_ASSERT(NoIssueBeyondOpenStep_A, take_closed == '0)
`else
  logic unused_take;  // the windows' takes and their entries feed only these checks
  assign unused_take = ^{take, take_entry};
`endif

endmodule
