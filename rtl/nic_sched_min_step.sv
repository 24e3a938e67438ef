// The smallest of Cands step numbers, combinational, for the NIC scheduler's step order
// (nic_sched: the window heads and the fetch register; an empty candidate is all ones). Every
// pair of candidates is compared at once and the winner (the lowest candidate strictly below
// every earlier one and not above any later one) is selected by an AND-OR: one comparator and an
// AND-OR deep, where a tree of compare-and-select stages is log2(Cands) of them in series.

module nic_sched_min_step #(
  parameter int unsigned Cands    = 2,  // candidates
  parameter int unsigned StepBits = 1   // bits per step
) (
  input  logic [Cands*StepBits-1:0] cand_i,  // candidate i at [i*StepBits +: StepBits]
  output logic [StepBits-1:0]       min_o
);

  logic [Cands-1:0] win;
  always_comb begin
    win = '1;
    for (int unsigned i = 0; i < Cands; i++) begin
      for (int unsigned j = i + 1; j < Cands; j++) begin
        if (cand_i[j*StepBits +: StepBits] < cand_i[i*StepBits +: StepBits]) begin
          win[i] = 1'b0;
        end else begin
          win[j] = 1'b0;
        end
      end
    end
    min_o = '0;
    for (int unsigned i = 0; i < Cands; i++) begin
      min_o = min_o | (cand_i[i*StepBits +: StepBits] & {StepBits{win[i]}});
    end
  end

endmodule
