// Lowest-index pick: the one-hot grant of the lowest set request bit and its index. Log-depth
// prefix OR (no ripple chain through Width requests).

module nic_sched_pick #(
  parameter int unsigned Width     = 2,                        // requests
  parameter int unsigned IndexBits = (Width > 1) ? $clog2(Width) : 1  // width of index_o
) (
  input  logic [Width-1:0]     req_i,    // requests, bit i = index i
  output logic [Width-1:0]     gnt_o,    // one-hot: lowest set bit of req_i (0 when none)
  output logic                 any_o,    // some request is set
  output logic [IndexBits-1:0] index_o   // index of the grant (0 when none)
);

  localparam int unsigned Levels = (Width > 1) ? $clog2(Width) : 1;

  logic [Width-1:0] below;  // inclusive prefix OR: below[i] = |req_i[i:0]

  always_comb begin
    below = req_i;
    for (int unsigned k = 0; k < Levels; k++) begin
      below = below | (below << (1 << k));
    end
    gnt_o   = req_i & ~(below << 1);
    any_o   = |req_i;
    index_o = '0;
    for (int unsigned i = 0; i < Width; i++) begin
      if (gnt_o[i]) index_o = index_o | IndexBits'(i);
    end
  end

endmodule
