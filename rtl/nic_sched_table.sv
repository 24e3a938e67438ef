// Schedule table of the NIC scheduler: Depth entries of EntryBits, loaded by appending one entry
// per cycle through a write port (entry layout: model/nic/SCHEDULE_TABLE.md). clear_i empties it.
// Entries are read in parallel by the issue logic (flattened: entry i at [i*EntryBits +: EntryBits]).

`include "mt_assert.svh"

module nic_sched_table #(
  parameter int unsigned Depth     = 32,  // table capacity, entries
  parameter int unsigned EntryBits = 32,  // bits of one packed entry
  parameter int unsigned StepLsb   = 0,   // bit offset of the step field in an entry
  parameter int unsigned StepBits  = 1,   // width of the step field
  // Derived.
  localparam int unsigned SizeBits = $clog2(Depth + 1)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  input  logic                       clear_i,    // empty the table (synchronous)
  input  logic                       we_i,       // append wdata_i as entry size_o
  input  logic [EntryBits-1:0]       wdata_i,    // packed entry to append
  output logic [SizeBits-1:0]        size_o,     // entries loaded
  output logic [Depth-1:0]           valid_o,    // entry i is loaded
  output logic [Depth*EntryBits-1:0] entries_o   // every entry, flattened
);

  logic [SizeBits-1:0]        size_d, size_q;
  logic [Depth-1:0]           valid_d, valid_q;
  logic [Depth*EntryBits-1:0] entries_d, entries_q;

  always_comb begin
    size_d    = size_q;
    valid_d   = valid_q;
    entries_d = entries_q;
    if (clear_i) begin
      size_d  = '0;
      valid_d = '0;
    end else if (we_i && (size_q < SizeBits'(Depth))) begin
      size_d = size_q + SizeBits'(1);
      for (int unsigned i = 0; i < Depth; i++) begin
        if (size_q == SizeBits'(i)) begin
          valid_d[i]                       = 1'b1;
          entries_d[i*EntryBits +: EntryBits] = wdata_i;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      size_q  <= '0;
      valid_q <= '0;
    end else begin
      size_q  <= size_d;
      valid_q <= valid_d;
    end
  end

  // Entry storage: no reset (valid_q says which entries hold data).
  always_ff @(posedge clk_i) begin
    entries_q <= entries_d;
  end

  assign size_o    = size_q;
  assign valid_o   = valid_q;
  assign entries_o = entries_q;

  // Contracts: never write past the last entry; entries arrive sorted by step (issue order), which
  // lets the issue logic take the smallest pending step from the first pending entry.
  logic [StepBits-1:0] last_step;
  always_comb begin
    last_step = '0;
    for (int unsigned i = 0; i < Depth; i++) begin
      if (size_q == SizeBits'(i + 1)) last_step = entries_q[i*EntryBits + StepLsb +: StepBits];
    end
  end
  `MT_ASSERT(NoTableOverrun_A, !(we_i && !clear_i) || (size_q < SizeBits'(Depth)))
  `MT_ASSERT(TableSorted_A, !(we_i && !clear_i && size_q != '0) ||
                            (wdata_i[StepLsb +: StepBits] >= last_step))

endmodule
