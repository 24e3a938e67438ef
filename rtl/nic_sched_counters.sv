// Input side of the NIC scheduler: the arrival lanes and port ready levels pass DecisionLatency-1
// register stages, then update the per-node arrival counters and the ready levels the issue logic
// sees. An arrival presented in cycle n is counted by the decision of cycle n + DecisionLatency
// (the golden model's decision latency, model/nic/scheduler_model.h).

`include "mt_assert.svh"

module nic_sched_counters #(
  parameter int unsigned Ports           = 1,  // NIC ports
  parameter int unsigned Counters        = 1,  // arrival counters
  parameter int unsigned CounterBits     = 1,  // width of a counter id
  parameter int unsigned CountBits       = 1,  // width of a counter value
  parameter int unsigned ArrivalLanes    = 1,  // arrivals accepted per cycle
  parameter int unsigned DecisionLatency = 1   // input-to-decision latency, cycles (>= 1)
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic                                clear_i,        // reset counters and stages
  input  logic [ArrivalLanes-1:0]             arr_valid_i,    // lane l carries an arrival
  input  logic [ArrivalLanes*CounterBits-1:0] arr_counter_i,  // counter id per lane
  input  logic [Ports-1:0]                    port_ready_i,   // DMA of port p can take a message
  output logic [Counters*CountBits-1:0]       count_o,        // counters as the decision sees them
  output logic [Ports-1:0]                    ready_o         // ready levels as the decision sees
);

  localparam int unsigned SumBits = CountBits + $clog2(ArrivalLanes + 1);

  // Last stage of the input pipeline (the inputs themselves when DecisionLatency == 1).
  logic [ArrivalLanes-1:0]             lane_valid;
  logic [ArrivalLanes*CounterBits-1:0] lane_counter;
  logic [Ports-1:0]                    lane_ready;

  if (DecisionLatency > 1) begin : gen_stages
    localparam int unsigned Stages = DecisionLatency - 1;
    logic [Stages*ArrivalLanes-1:0]             valid_d, valid_q;
    logic [Stages*ArrivalLanes*CounterBits-1:0] counter_d, counter_q;
    logic [Stages*Ports-1:0]                    ready_d, ready_q;

    // Stage 0 takes the inputs; stage s takes stage s-1; the last stage feeds the counters.
    always_comb begin
      valid_d   = '0;
      counter_d = '0;
      ready_d   = '0;
      if (!clear_i) begin
        for (int unsigned s = 0; s < Stages; s++) begin
          if (s == 0) begin
            valid_d[0 +: ArrivalLanes]                 = arr_valid_i;
            counter_d[0 +: ArrivalLanes*CounterBits]   = arr_counter_i;
            ready_d[0 +: Ports]                        = port_ready_i;
          end else begin
            valid_d[s*ArrivalLanes +: ArrivalLanes]    = valid_q[(s-1)*ArrivalLanes +: ArrivalLanes];
            counter_d[s*ArrivalLanes*CounterBits +: ArrivalLanes*CounterBits] =
                counter_q[(s-1)*ArrivalLanes*CounterBits +: ArrivalLanes*CounterBits];
            ready_d[s*Ports +: Ports]                  = ready_q[(s-1)*Ports +: Ports];
          end
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q   <= '0;
        counter_q <= '0;
        ready_q   <= '0;
      end else begin
        valid_q   <= valid_d;
        counter_q <= counter_d;
        ready_q   <= ready_d;
      end
    end

    assign lane_valid   = valid_q[(Stages-1)*ArrivalLanes +: ArrivalLanes];
    assign lane_counter = counter_q[(Stages-1)*ArrivalLanes*CounterBits +:
                                    ArrivalLanes*CounterBits];
    assign lane_ready   = ready_q[(Stages-1)*Ports +: Ports];
  end else begin : gen_no_stages
    assign lane_valid   = arr_valid_i;
    assign lane_counter = arr_counter_i;
    assign lane_ready   = port_ready_i;
  end

  logic [Counters*CountBits-1:0] count_d, count_q;
  logic [Ports-1:0]              ready_d, ready_q;
  logic [Counters-1:0]           overflow;
  logic [SumBits-1:0]            sum;

  always_comb begin
    count_d  = count_q;
    ready_d  = lane_ready;
    overflow = '0;
    sum      = '0;
    if (clear_i) begin
      count_d = '0;
      ready_d = '0;
    end else begin
      for (int unsigned c = 0; c < Counters; c++) begin
        sum = SumBits'(count_q[c*CountBits +: CountBits]);
        for (int unsigned l = 0; l < ArrivalLanes; l++) begin
          if (lane_valid[l] && lane_counter[l*CounterBits +: CounterBits] == CounterBits'(c)) begin
            sum = sum + SumBits'(1);
          end
        end
        count_d[c*CountBits +: CountBits] = sum[CountBits-1:0];
        overflow[c] = (sum >> CountBits) != '0;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      ready_q <= '0;
    end else begin
      count_q <= count_d;
      ready_q <= ready_d;
    end
  end

  assign count_o = count_q;
  assign ready_o = ready_q;

  // Contracts: counters never wrap, arrivals name an existing counter.
  logic [ArrivalLanes-1:0] lane_bad;
  always_comb begin
    lane_bad = '0;
    for (int unsigned l = 0; l < ArrivalLanes; l++) begin
      lane_bad[l] = arr_valid_i[l] &&
                    (32'(arr_counter_i[l*CounterBits +: CounterBits]) >= Counters);
    end
  end
  `MT_ASSERT(NoCounterOverflow_A, overflow == '0)
  `MT_ASSERT(ArrivalCounterInRange_A, lane_bad == '0)

endmodule
