// Co-designed NIC scheduler (top). Holds one node's packed schedule table, counts message
// arrivals per dependency counter and, per port, issues the next table entry whose dependencies
// are met, in step order, under a per-message request/grant handshake with the port's DMA:
//   request  port_ready_i[p] high: the DMA of port p can take a new message (it drops the level
//            from the cycle after a grant until the message is done, then raises it again);
//   grant    grant_o[p] for one cycle with the entry (grant_entry_o) and its index;
//   done     the DMA raises port_ready_i[p] again when the message has left.
// Cycle for cycle equal to the golden model mt::SchedulerModel (model/nic/scheduler_model.h) with
// decision_latency_cycles = DecisionLatency; entry layout and widths: model/nic/SCHEDULE_TABLE.md.
// Loading: clear_i for one cycle, then one tbl_we_i per entry in table order (issue order).

`include "mt_assert.svh"

module nic_sched #(
  parameter int unsigned Nodes           = 16,  // endpoints (peer ids)
  parameter int unsigned Ports           = 4,   // NIC ports (issues per cycle)
  parameter int unsigned Depth           = 64,  // table capacity, entries
  parameter int unsigned Chunks          = 16,  // chunk ids
  parameter int unsigned Flows           = 16,  // flow ids
  parameter int unsigned Steps           = 32,  // schedule steps
  parameter int unsigned Counters        = 32,  // arrival counters per node
  parameter int unsigned MaxCount        = 32,  // largest counter threshold / arrivals per counter
  parameter int unsigned ArrivalLanes    = 4,   // message arrivals accepted per cycle
  parameter int unsigned DecisionLatency = 1,   // input-to-decision latency, cycles (>= 1)
  // Derived: field widths as mt::TableFormat::make() computes them, offsets LSB first.
  localparam int unsigned PortBits       = (Ports > 1) ? $clog2(Ports) : 1,
  localparam int unsigned PeerBits       = (Nodes > 1) ? $clog2(Nodes) : 1,
  localparam int unsigned ChunkBits      = (Chunks > 1) ? $clog2(Chunks) : 1,
  localparam int unsigned FlowBits       = (Flows > 1) ? $clog2(Flows) : 1,
  localparam int unsigned StepBits       = (Steps > 1) ? $clog2(Steps) : 1,
  localparam int unsigned CounterBits    = (Counters > 1) ? $clog2(Counters) : 1,
  localparam int unsigned CountBits      = (MaxCount > 0) ? $clog2(MaxCount + 1) : 1,
  localparam int unsigned KindLsb        = 0,
  localparam int unsigned PortLsb        = KindLsb + 1,
  localparam int unsigned PeerLsb        = PortLsb + PortBits,
  localparam int unsigned ChunkLsb       = PeerLsb + PeerBits,
  localparam int unsigned FlowLsb        = ChunkLsb + ChunkBits,
  localparam int unsigned StepLsb        = FlowLsb + FlowBits,
  localparam int unsigned WaitCounterLsb = StepLsb + StepBits,
  localparam int unsigned WaitCountLsb   = WaitCounterLsb + CounterBits,
  localparam int unsigned DstCounterLsb  = WaitCountLsb + CountBits,
  localparam int unsigned EntryBits      = DstCounterLsb + CounterBits,
  localparam int unsigned IndexBits      = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int unsigned SizeBits       = $clog2(Depth + 1)
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  // Configuration and table load.
  input  logic                                clear_i,        // empty table, reset all state
  input  logic                                step_order_i,   // issue in step order (held)
  input  logic                                tbl_we_i,       // append tbl_wdata_i to the table
  input  logic [EntryBits-1:0]                tbl_wdata_i,    // packed entry
  output logic [SizeBits-1:0]                 tbl_size_o,     // entries loaded
  // Message arrivals: the destination counter from the header of each fully arrived message.
  input  logic [ArrivalLanes-1:0]             arr_valid_i,
  input  logic [ArrivalLanes*CounterBits-1:0] arr_counter_i,
  // Per-port request / grant handshake with the DMAs.
  input  logic [Ports-1:0]                    port_ready_i,   // request: DMA p is free
  output logic [Ports-1:0]                    grant_o,        // grant: issue on port p now
  output logic [Ports*IndexBits-1:0]          grant_index_o,  // table index per port
  output logic [Ports*EntryBits-1:0]          grant_entry_o,  // packed entry per port
  output logic                                done_o          // every loaded entry issued
);

  logic [Depth-1:0]              valid;
  logic [Depth*EntryBits-1:0]    entries;
  logic [Counters*CountBits-1:0] count;
  logic [Ports-1:0]              ready_seen;

  nic_sched_table #(
    .Depth    (Depth),
    .EntryBits(EntryBits),
    .StepLsb  (StepLsb),
    .StepBits (StepBits)
  ) u_table (
    .clk_i,
    .rst_ni,
    .clear_i,
    .we_i     (tbl_we_i),
    .wdata_i  (tbl_wdata_i),
    .size_o   (tbl_size_o),
    .valid_o  (valid),
    .entries_o(entries)
  );

  nic_sched_counters #(
    .Ports          (Ports),
    .Counters       (Counters),
    .CounterBits    (CounterBits),
    .CountBits      (CountBits),
    .ArrivalLanes   (ArrivalLanes),
    .DecisionLatency(DecisionLatency)
  ) u_counters (
    .clk_i,
    .rst_ni,
    .clear_i,
    .arr_valid_i,
    .arr_counter_i,
    .port_ready_i,
    .count_o(count),
    .ready_o(ready_seen)
  );

  nic_sched_issue #(
    .Ports          (Ports),
    .Depth          (Depth),
    .EntryBits      (EntryBits),
    .PortLsb        (PortLsb),
    .PortBits       (PortBits),
    .StepLsb        (StepLsb),
    .StepBits       (StepBits),
    .WaitCounterLsb (WaitCounterLsb),
    .CounterBits    (CounterBits),
    .WaitCountLsb   (WaitCountLsb),
    .CountBits      (CountBits),
    .Counters       (Counters),
    .DecisionLatency(DecisionLatency)
  ) u_issue (
    .clk_i,
    .rst_ni,
    .clear_i,
    .step_order_i,
    .valid_i  (valid),
    .entries_i(entries),
    .count_i  (count),
    .ready_i  (ready_seen),
    .grant_o,
    .grant_index_o,
    .grant_entry_o,
    .done_o
  );

  // Contracts on the loaded entries: fields in range of this instance.
  logic entry_bad;
  assign entry_bad =
      (32'(tbl_wdata_i[PortLsb +: PortBits]) >= Ports) ||
      (32'(tbl_wdata_i[PeerLsb +: PeerBits]) >= Nodes) ||
      (32'(tbl_wdata_i[WaitCounterLsb +: CounterBits]) >= Counters) ||
      (32'(tbl_wdata_i[DstCounterLsb +: CounterBits]) >= Counters);
  `MT_ASSERT(EntryInRange_A, !(tbl_we_i && !clear_i) || !entry_bad)
  `MT_ASSERT(ParamsValid_A, DecisionLatency >= 1 && Depth >= 1 && ArrivalLanes >= 1)

endmodule
