// Table storage of the NIC scheduler v2 (inside nic_sched_ring): Depth words of Width bits with
// one write port and one read port, each addressed by a one-hot word select (the ring's
// pointers), read combinationally, no reset. Built from flops here: a write enable per word and
// an AND-OR read of log2(Depth) levels, no other per-word logic. It is the block an SRAM macro
// (two-port register file) replaces one for one (binary pointers, the ring's fetch register as
// its read register); scripts/synth.sh --hierarchy keep reports its area apart (rtl/README.md).

module nic_sched_ram #(
  parameter int unsigned Depth = 16,  // words
  parameter int unsigned Width = 32   // bits per word
) (
  input  logic             clk_i,
  input  logic             we_i,     // write wdata_i into the selected word at this edge
  input  logic [Depth-1:0] wsel_i,   // one-hot write word select
  input  logic [Width-1:0] wdata_i,
  input  logic [Depth-1:0] rsel_i,   // one-hot read word select
  output logic [Width-1:0] rdata_o   // the selected word
);

  logic [Width-1:0] mem_q [Depth];

  always_comb begin
    rdata_o = '0;
    for (int unsigned i = 0; i < Depth; i++) begin
      rdata_o = rdata_o | (mem_q[i] & {Width{rsel_i[i]}});
    end
  end

  always_ff @(posedge clk_i) begin
    for (int unsigned i = 0; i < Depth; i++) begin
      if (we_i && wsel_i[i]) mem_q[i] <= wdata_i;
    end
  end

endmodule
