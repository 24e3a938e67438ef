// The number of set bits of bits_i, as a balanced tree of pairwise adds: log2(N) adder levels of
// growing width, not N chained increments (a loop of `if (bit) count += 1` elaborates as a chain
// of N adders with a mux each, which synthesis does not rebalance: in the NIC scheduler the lane
// hits were the longest stretch of its critical paths). The NIC scheduler counts with it the
// arrival lanes that name a window slot's counter (nic_sched_window) or the fetched entry's
// (nic_sched), and the shared pick's ranks (nic_sched_share). Not the counters' own sums
// (nic_sched_counters): there the lanes are unconditional adds into the count, which synthesis
// maps as one multi-operand adder, and 256 trees made the Verilated model 16% slower. Nor
// $countones: Yosys maps it as one such adder, which ABC left at 5.97 ns on the refill path
// (5.35-5.58 ns with the trees; rtl/README.md, One parameter set).

`include "mt_assert.svh"

module mt_popcount #(
  parameter int unsigned N = 1,                  // bits counted
  parameter int unsigned W = $clog2(N + 1)       // result width (at least $clog2(N + 1))
) (
  input  logic [N-1:0] bits_i,
  output logic [W-1:0] count_o
);

  if (N == 1) begin : gen_one
    assign count_o = W'(bits_i);
  end else begin : gen_tree
    localparam int unsigned Levels = $clog2(N);
    // sum[i] after level v: the count of bits [i*2^(v+1), (i+1)*2^(v+1)); one spare slot so
    // that the last pair's second operand is always in range (it is zero).
    logic [(N+1)*W-1:0] sum;

    always_comb begin
      sum = '0;
      for (int unsigned i = 0; i < N; i++) begin
        sum[i*W +: W] = W'(bits_i[i]);
      end
      for (int unsigned v = 0; v < Levels; v++) begin
        // ((N + 2^v - 1) >> v) partial sums before level v; pair them (an odd last one alone).
        for (int unsigned i = 0; 2 * i < ((N + (1 << v) - 1) >> v); i++) begin
          sum[i*W +: W] = sum[2*i*W +: W] + sum[(2*i+1)*W +: W];
        end
        // The slots past the new partial sums must read as zero at the next level.
        for (int unsigned i = 0; i < N + 1; i++) begin
          if (i >= ((N + (1 << (v + 1)) - 1) >> (v + 1))) sum[i*W +: W] = '0;
        end
      end
    end
    assign count_o = sum[0 +: W];
  end

  `MT_STATIC_ASSERT(PopcountWidth_S, W >= $clog2(N + 1))

endmodule
