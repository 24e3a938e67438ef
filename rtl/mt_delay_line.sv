// A delay line: d_i leaves on q_o Stages clock edges later (Stages 0: q_o is d_i). Every stage
// resets to 0 and clear_i loads 0 into every stage at the next edge. stages_o shows the stages,
// stage 0 (the newest) in the lowest Width bits, for callers that need to know whether anything
// is still in flight. The NIC scheduler delays its arrival lanes and its ports' ready levels with
// it (nic_sched_counters).

module mt_delay_line #(
  parameter int unsigned Width  = 1,  // bits per stage
  parameter int unsigned Stages = 1,  // register stages (0: a wire)
  localparam int unsigned Kept  = (Stages > 0) ? Stages : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  clear_i,   // empty every stage at the next edge
  input  logic [Width-1:0]      d_i,
  output logic [Width-1:0]      q_o,       // d_i of Stages edges ago
  output logic [Kept*Width-1:0] stages_o   // stage s at [s*Width +: Width] (0s when Stages = 0)
);

  if (Stages > 0) begin : gen_stages
    logic [Stages*Width-1:0] stage_d, stage_q;

    always_comb begin
      stage_d = '0;
      if (!clear_i) begin
        stage_d[0 +: Width] = d_i;
        for (int unsigned s = 1; s < Stages; s++) begin
          stage_d[s*Width +: Width] = stage_q[(s-1)*Width +: Width];
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        stage_q <= '0;
      end else begin
        stage_q <= stage_d;
      end
    end

    assign q_o      = stage_q[(Stages-1)*Width +: Width];
    assign stages_o = stage_q;
  end else begin : gen_wire
    logic unused_clock;
    assign unused_clock = ^{clk_i, rst_ni, clear_i};
    assign q_o          = d_i;
    assign stages_o     = '0;
  end

endmodule
