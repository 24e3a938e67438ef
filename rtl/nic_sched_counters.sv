// Input side of the NIC scheduler v2: the arrival lanes (message arrivals and the host's release
// doorbell) pass DecisionLatency-2 register stages and the port ready levels DecisionLatency-1,
// then the lanes are counted at the clock edge (the windows register, per slot, how many of them
// name its counter), and the ready levels reach the decision. An arrival presented in cycle n can
// thus enable a grant decided in cycle n + DecisionLatency - 1 and seen on grant_o in cycle
// n + DecisionLatency (the golden model's decision latency, model/sched/scheduler_model.h).
// The counters themselves take the counted lanes one cycle later: the lanes are registered
// (lane_q) and added at the next edge through one decoder per lane, so no late input id passes a
// counter compare and an adder before a register. count_o lags by lane_q; count_now_o (= count_o +
// the lanes in lane_q) is the exact count, which the refill adds up for the one counter it reads.
// Errors (reported, not assumed): a counter saturates at MaxCount and flags the arrivals beyond
// it (overflow_o, registered, so the top's encoder of the lowest overflowing counter starts from
// a register, not from the lane sums; the error is flagged three edges after the arrivals were
// counted); a counted lane naming no
// counter (an id >= Counters) is flagged at the edge that counts it (lane_bad_o) and counts
// nowhere. nic_sched registers the first error.

`include "mt_assert.svh"

module nic_sched_counters #(
  parameter int unsigned Ports           = 1,  // NIC ports
  parameter int unsigned Counters        = 1,  // arrival counters
  parameter int unsigned CounterBits     = 1,  // width of a counter id
  parameter int unsigned CountBits       = 1,  // width of a counter value
  parameter int unsigned MaxCount        = 1,  // a counter saturates here (overflow_o)
  parameter int unsigned Lanes           = 1,  // arrivals (lanes) accepted per cycle
  parameter int unsigned DecisionLatency = 2   // input-to-grant latency, cycles (>= 2)
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         clear_i,         // reset counters and stages
  input  logic [Lanes-1:0]             lane_valid_i,    // lane l carries an arrival
  input  logic [Lanes*CounterBits-1:0] lane_counter_i,  // counter id per lane
  input  logic [Ports-1:0]             port_ready_i,    // DMA of port p can take a message
  output logic [Lanes-1:0]             lane_valid_o,    // lanes counted at this clock edge
  output logic [Lanes*CounterBits-1:0] lane_counter_o,  // their counter ids
  output logic [Lanes-1:0]             lane_q_valid_o,  // lanes counted last edge, not yet
  output logic [Lanes*CounterBits-1:0] lane_q_counter_o, // in count_o: their counter ids
  output logic [Counters*CountBits-1:0] count_o,        // counters without lane_q (registered)
  output logic [Counters*CountBits-1:0] count_now_o,    // exact counters: count_o + lane_q
  output logic [Ports-1:0]             ready_o,         // ready levels as the decision sees them
  output logic [Counters-1:0]          overflow_o,      // arrivals beyond MaxCount (registered)
  output logic [Lanes-1:0]             lane_bad_o,      // a lane counted now names no counter
  output logic                         busy_o           // a counter or a stage changes at the edge
);

  // (Saturated: nic_sched's DecisionLatencyAtLeast2_S refuses DecisionLatency < 2 at
  // elaboration, but a tool may derive this module first, and a wrapped width would not finish
  // elaborating.)
  localparam int unsigned ArrStages = (DecisionLatency > 2) ? DecisionLatency - 2 : 0;
  localparam int unsigned RdyStages = (DecisionLatency > 1) ? DecisionLatency - 1 : 1;
  localparam int unsigned SumBits   = CountBits + $clog2(Lanes + 1);

  // Ready levels: RdyStages (>= 1) stages; they move while two neighbouring stages differ.
  logic [RdyStages*Ports-1:0] rdy_q;
  logic                       rdy_moving;
  mt_delay_line #(.Width(Ports), .Stages(RdyStages)) u_ready_delay (
    .clk_i, .rst_ni, .clear_i,
    .d_i     (port_ready_i),
    .q_o     (ready_o),
    .stages_o(rdy_q)
  );
  always_comb begin
    rdy_moving = 1'b0;
    for (int unsigned s = 1; s < RdyStages; s++) begin
      rdy_moving = rdy_moving || (rdy_q[s*Ports +: Ports] != rdy_q[(s-1)*Ports +: Ports]);
    end
  end

  // Arrival lanes: ArrStages (>= 0) stages of {counter ids, valid bits}; they move while a
  // stage holds a valid lane.
  localparam int unsigned LaneBits = Lanes * (CounterBits + 1);
  localparam int unsigned ArrKept  = (ArrStages > 0) ? ArrStages : 1;
  logic [ArrKept*LaneBits-1:0] arr_q;
  logic                        arr_moving;
  mt_delay_line #(.Width(LaneBits), .Stages(ArrStages)) u_arrival_delay (
    .clk_i, .rst_ni, .clear_i,
    .d_i     ({lane_counter_i, lane_valid_i}),
    .q_o     ({lane_counter_o, lane_valid_o}),
    .stages_o(arr_q)
  );
  if (ArrStages > 0) begin : gen_arr_moving
    always_comb begin
      arr_moving = 1'b0;
      for (int unsigned s = 0; s < ArrStages; s++) begin
        arr_moving = arr_moving || (arr_q[s*LaneBits +: Lanes] != '0);
      end
    end
  end else begin : gen_arr_direct
    logic unused_stages;  // no stage: the counted lanes are the inputs
    assign unused_stages = ^arr_q;
    assign arr_moving    = lane_valid_o != '0;
  end

  // Counted lanes, registered; the counters add them at the next edge.
  logic [Lanes-1:0]              lane_valid_d, lane_valid_q;
  logic [Lanes*CounterBits-1:0]  lane_counter_q;
  assign lane_valid_d = clear_i ? '0 : lane_valid_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lane_valid_q <= '0;
    end else begin
      lane_valid_q <= lane_valid_d;
    end
  end

  always_ff @(posedge clk_i) begin
    lane_counter_q <= lane_counter_o;  // data only (lane_valid_q says which)
  end

  // Counters: + the registered lanes naming them, one decoder per lane shared by all counters,
  // saturating at MaxCount.
  logic [Counters*CountBits-1:0] count_d, count_q, count_now;
  logic [Lanes*Counters-1:0]     decoded;
  logic [Counters-1:0]           overflow;
  logic [SumBits-1:0]            sum;

  always_comb begin
    for (int unsigned l = 0; l < Lanes; l++) begin
      decoded[l*Counters +: Counters] =
          lane_valid_q[l] ? Counters'(1) << lane_counter_q[l*CounterBits +: CounterBits] : '0;
    end
    count_now = count_q;
    overflow  = '0;
    sum       = '0;
    for (int unsigned c = 0; c < Counters; c++) begin
      sum = SumBits'(count_q[c*CountBits +: CountBits]);
      for (int unsigned l = 0; l < Lanes; l++) begin
        sum = sum + SumBits'(decoded[l*Counters + c]);
      end
      overflow[c] = 32'(sum) > MaxCount;
      count_now[c*CountBits +: CountBits] = overflow[c] ? CountBits'(MaxCount) : sum[CountBits-1:0];
    end
  end
  // (clear_i outside the adds' block: a block reading an input is evaluated again whenever an
  // input changes, so in a Verilated model the adds of every counter would run twice per clock.)
  assign count_d = clear_i ? '0 : count_now;

  logic [Counters-1:0] overflow_d, overflow_q;
  assign overflow_d = clear_i ? '0 : overflow;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q    <= '0;
      overflow_q <= '0;
    end else begin
      count_q    <= count_d;
      overflow_q <= overflow_d;
    end
  end

  assign lane_q_valid_o   = lane_valid_q;
  assign lane_q_counter_o = lane_counter_q;
  assign count_now_o      = count_now;
  assign count_o = count_q;
  // Busy: a lane moves or is counted, or a ready level moves (a changed port_ready_i included).
  assign busy_o  = (lane_valid_i != '0) || arr_moving || (lane_valid_q != '0) || rdy_moving ||
                   (port_ready_i != rdy_q[0 +: Ports]) || (overflow_q != '0);

  // Errors: the overflowing counters (registered) and the lanes counted now that name no counter.
  always_comb begin
    lane_bad_o = '0;
    for (int unsigned l = 0; l < Lanes; l++) begin
      lane_bad_o[l] = lane_valid_o[l] && !clear_i &&
                      (32'(lane_counter_o[l*CounterBits +: CounterBits]) >= Counters);
    end
  end
  assign overflow_o = overflow_q;

endmodule
