// Errors in hardware of the NIC scheduler (rtl/README.md, Errors), a block of nic_sched: the
// host's entries decoded as they are written, the counted lanes checked, counter overflows
// encoded, the progress watchdog's stall taken (nic_sched_watchdog), and the first error kept with
// its cause and entry index or counter id until clear_i.

`include "mt_assert.svh"
`include "mt_sched_fields.svh"

module nic_sched_errors #(
  parameter int unsigned Nodes     = 16,  // the limits the entries are checked against
  parameter int unsigned Ports     = 4,
  parameter int unsigned Chunks    = 16,
  parameter int unsigned Flows     = 16,
  parameter int unsigned Steps     = 32,
  parameter int unsigned Counters  = 32,
  parameter int unsigned MaxCount  = 32,
  parameter int unsigned IndexBits = 8,   // width of an entry's table index
  parameter int unsigned Lanes     = 5,   // counted lanes (arrivals and the host's doorbell)
  `MT_SCHED_FIELDS,
  localparam int unsigned InfoBits = (IndexBits > CounterBits) ? IndexBits : CounterBits
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         clear_i,          // clears the error and the decode state
  input  logic                         step_order_i,     // entries must come sorted by step
  input  logic                         tbl_write_i,      // the ring takes tbl_wdata_i at this edge
  input  logic [EntryBits-1:0]         tbl_wdata_i,
  input  logic [Lanes-1:0]             lane_bad_i,       // counted lanes naming no counter
  input  logic [Lanes*CounterBits-1:0] lane_counter_i,   // their counter ids
  input  logic [Counters-1:0]          overflow_i,       // counters past MaxCount (registered)
  input  logic                         stalled_i,        // the watchdog's limit passed
  input  logic [IndexBits-1:0]         stall_index_i,    // the entry it names
  output logic                         err_o,            // an error is held
  output logic [3:0]                   err_cause_o,
  output logic [InfoBits-1:0]          err_info_o,
  output logic                         overflow_busy_o   // an overflow is being encoded
);

  logic unused_kind;  // the kind bit (send or receive) has no illegal value
  assign unused_kind = tbl_wdata_i[0];

  // The host's entries are decoded as they are written (fields in range of this instance,
  // MaxCount, and in step order no step below the previous entry's); the counted lanes name
  // existing counters; no counter passes MaxCount. The first error is registered with its cause
  // and its entry's table index (mod 2^IndexBits: the write count since clear_i) or its counter
  // id; at one edge the lowest cause wins; clear_i clears it.
  localparam logic [3:0] ErrPort = 4'd1, ErrPeer = 4'd2, ErrChunk = 4'd3, ErrFlow = 4'd4,
                         ErrStep = 4'd5, ErrWaitCounter = 4'd6, ErrWaitCount = 4'd7,
                         ErrDstCounter = 4'd8, ErrUnsorted = 4'd9, ErrArrivalCounter = 4'd10,
                         ErrOverflow = 4'd11, ErrStalled = 4'd12;
  logic                 last_valid_d, last_valid_q;
  logic [StepBits-1:0]  last_step_d, last_step_q, wr_step;
  logic [IndexBits-1:0] wr_index_d, wr_index_q;
  logic [3:0]           err_cause_d, err_cause_q, entry_cause, new_cause;
  logic [InfoBits-1:0]  err_info_d, err_info_q, lane_info, overflow_info, new_info;

  assign wr_step   = tbl_wdata_i[StepLsb +: StepBits];
  always_comb begin
    entry_cause = '0;
    if (32'(tbl_wdata_i[PortLsb +: PortBits]) >= Ports) begin
      entry_cause = ErrPort;
    end else if (32'(tbl_wdata_i[PeerLsb +: PeerBits]) >= Nodes) begin
      entry_cause = ErrPeer;
    end else if (32'(tbl_wdata_i[ChunkLsb +: ChunkBits]) >= Chunks) begin
      entry_cause = ErrChunk;
    end else if (32'(tbl_wdata_i[FlowLsb +: FlowBits]) >= Flows) begin
      entry_cause = ErrFlow;
    end else if (32'(wr_step) >= Steps) begin
      entry_cause = ErrStep;
    end else if (32'(tbl_wdata_i[WaitCounterLsb +: CounterBits]) >= Counters) begin
      entry_cause = ErrWaitCounter;
    end else if (32'(tbl_wdata_i[WaitCountLsb +: CountBits]) > MaxCount) begin
      entry_cause = ErrWaitCount;
    end else if (32'(tbl_wdata_i[DstCounterLsb +: CounterBits]) >= Counters) begin
      entry_cause = ErrDstCounter;
    end else if (step_order_i && last_valid_q && wr_step < last_step_q) begin
      entry_cause = ErrUnsorted;
    end
  end

  // The lowest bad lane's counter id.
  always_comb begin
    lane_info = '0;
    for (int l = Lanes - 1; l >= 0; l--) begin
      if (lane_bad_i[l]) lane_info = InfoBits'(lane_counter_i[l*CounterBits +: CounterBits]);
    end
  end
  // The lowest overflowing counter, in two stages (an error need not be flagged in the cycle it
  // happens; the encoder of all counters in one cycle was the block's critical path): per group
  // of GroupSize counters whether one overflowed and the lowest of them, registered; then the
  // lowest group with one.
  localparam int unsigned GroupSize = (Counters < 16) ? Counters : 16;
  localparam int unsigned Groups    = (Counters + GroupSize - 1) / GroupSize;
  localparam int unsigned LowBits   = (GroupSize > 1) ? $clog2(GroupSize) : 1;
  localparam int unsigned PickBits  = (GroupSize > Groups) ? GroupSize : Groups;
  // The index of x's lowest set bit (0 when none), log-depth over PickBits bits: a prefix OR
  // (log2 PickBits stages), the lowest set bit alone, each index bit an OR over it. (A priority
  // chain over the counters, as a loop from the top down, was 13 ns of mux chain at Counters 256.)
  // Its callers pick among GroupSize counters or Groups groups, so it is PickBits wide, not
  // Counters: the same gates after synthesis folds the zero bits, and a Verilated model 16 times
  // less work per call.
  function automatic logic [InfoBits-1:0] lowest_set(logic [PickBits-1:0] x);
    logic [PickBits-1:0] upto, first;
    upto = x;
    for (int unsigned s = 1; s < PickBits; s = s * 2) upto = upto | (upto << s);
    first = x & ~(upto << 1);
    lowest_set = '0;
    for (int unsigned c = 0; c < PickBits; c++) begin
      lowest_set = lowest_set | (InfoBits'(c) & {InfoBits{first[c]}});
    end
  endfunction
  logic [Groups-1:0]           grp_any_d, grp_any_q, grp_first;
  logic [Groups*LowBits-1:0]   grp_low_d, grp_low_q;
  logic [Groups*GroupSize-1:0] overflow_padded;
  assign overflow_padded = (Groups*GroupSize)'(overflow_i);
  always_comb begin
    grp_any_d = '0;
    grp_low_d = '0;
    for (int unsigned g = 0; g < Groups; g++) begin
      grp_any_d[g] = !clear_i && (overflow_padded[g*GroupSize +: GroupSize] != '0);
      grp_low_d[g*LowBits +: LowBits] =
          LowBits'(lowest_set(PickBits'(overflow_padded[g*GroupSize +: GroupSize])));
    end
  end
  always_comb begin
    grp_first     = grp_any_q & (Groups'(1) << lowest_set(PickBits'(grp_any_q)));
    overflow_busy_o  = grp_any_q != '0;
    overflow_info = '0;
    for (int unsigned g = 0; g < Groups; g++) begin
      overflow_info = overflow_info |
          ((InfoBits'(g * GroupSize) | InfoBits'(grp_low_q[g*LowBits +: LowBits])) &
           {InfoBits{grp_first[g]}});
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      grp_any_q <= '0;
    end else begin
      grp_any_q <= grp_any_d;
    end
  end
  always_ff @(posedge clk_i) begin
    grp_low_q <= grp_low_d;  // data only (grp_any_q says which)
  end
  always_comb begin
    new_cause = '0;
    new_info  = '0;
    if (tbl_write_i && entry_cause != '0) begin
      new_cause = entry_cause;
      new_info  = InfoBits'(wr_index_q);
    end else if (lane_bad_i != '0) begin
      new_cause = ErrArrivalCounter;
      new_info  = lane_info;
    end else if (overflow_busy_o) begin
      new_cause = ErrOverflow;
      new_info  = overflow_info;
    end else if (stalled_i) begin
      new_cause = ErrStalled;
      new_info  = InfoBits'(stall_index_i);
    end
    err_cause_d  = err_cause_q;
    err_info_d   = err_info_q;
    last_valid_d = last_valid_q;
    last_step_d  = last_step_q;
    wr_index_d   = wr_index_q;
    if (clear_i) begin
      err_cause_d  = '0;
      err_info_d   = '0;
      last_valid_d = 1'b0;
      wr_index_d   = '0;
    end else begin
      if (err_cause_q == '0) begin
        err_cause_d = new_cause;
        err_info_d  = new_info;
      end
      if (tbl_write_i) begin
        last_valid_d = 1'b1;
        last_step_d  = wr_step;
        wr_index_d   = wr_index_q + IndexBits'(1);
      end
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_cause_q  <= '0;
      err_info_q   <= '0;
      last_valid_q <= 1'b0;
      last_step_q  <= '0;
      wr_index_q   <= '0;
    end else begin
      err_cause_q  <= err_cause_d;
      err_info_q   <= err_info_d;
      last_valid_q <= last_valid_d;
      last_step_q  <= last_step_d;
      wr_index_q   <= wr_index_d;
    end
  end
  assign err_o       = err_cause_q != '0;
  assign err_cause_o = err_cause_q;
  assign err_info_o  = err_info_q;

endmodule
