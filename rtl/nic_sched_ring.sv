// Schedule table of the NIC scheduler v2: a ring buffer of Depth entries written by the host's
// table DMA (valid/ready, one entry per cycle, in table order) and read in order by one pointer
// into the fetch register, from which the top dispatches the entry to its port's window. Storage
// is memory-style (nic_sched_ram): one write port addressed by the write pointer, one read port
// addressed by the read pointer (an SRAM macro, or flops with write enables; no per-entry logic
// beyond the write enable). The pointers are one-hot: each pointer flop drives one entry's write
// enable or read select (EntryBits loads) instead of a binary pointer bit driving half of a
// Depth x EntryBits mux tree, and the read is one AND level and a log2(Depth)-deep OR tree.
// Entries leave the ring when fetched, so Depth bounds the prefetch, not the schedule's length.
// Entry layout: model/sched/SCHEDULE_TABLE.md. Fetched entries are numbered in table order from 0
// after clear_i, modulo 2^IndexBits.

`include "mt_assert.svh"

module nic_sched_ring #(
  parameter int unsigned Depth     = 16,  // ring capacity, entries
  parameter int unsigned EntryBits = 32,  // bits of one packed entry
  parameter int unsigned IndexBits = 8,   // width of the table index of a fetched entry
  parameter int unsigned DecLsb    = 0,   // a field of the entry decoded one-hot into the
  parameter int unsigned DecBits   = 1,   // fetch register beside it (the wait counter: the
  parameter int unsigned DecWidth  = 2,   // refill's count select), bit offset, width, values
  // Derived.
  localparam int unsigned CntBits  = $clog2(Depth + 1)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 clear_i,        // empty the ring and the fetch register
  // Host table DMA (write port).
  input  logic                 wvalid_i,       // wdata_i is the next table entry
  output logic                 wready_o,       // the ring has room (registered)
  input  logic [EntryBits-1:0] wdata_i,        // packed entry
  // Fetch register (read port output).
  output logic                 fetch_valid_o,  // fetch_entry_o holds the next entry in order
  output logic [EntryBits-1:0] fetch_entry_o,  // the entry
  output logic [IndexBits-1:0] fetch_index_o,  // its table index, modulo 2^IndexBits
  output logic [DecWidth-1:0]  fetch_dec_o,    // its field DecLsb +: DecBits, one-hot
  input  logic                 fetch_pop_i,    // the entry leaves the fetch register this cycle
  output logic                 empty_o,        // no entry in the ring (fetch register excluded)
  output logic                 busy_o          // an entry is written or fetched at this edge
);

  logic [Depth-1:0]     wptr_d, wptr_q, rptr_d, rptr_q;  // one-hot
  logic [EntryBits-1:0] rdata;
  logic [CntBits-1:0]   cnt_d, cnt_q;
  logic                 fetch_valid_d, fetch_valid_q;
  logic [EntryBits-1:0] fetch_entry_d, fetch_entry_q;
  logic [DecWidth-1:0]  fetch_dec_d, fetch_dec_q;
  logic [IndexBits-1:0] fetch_index_d, fetch_index_q, next_index_d, next_index_q;
  logic                 push, load, wready_d, wready_q;

  // One-hot pointer to the next entry (rotate by one).
  function automatic logic [Depth-1:0] ptr_inc(logic [Depth-1:0] ptr);
    ptr_inc = (ptr << 1) | (ptr >> (Depth - 1));
  endfunction

  // Storage: written at the write pointer, read at the read pointer.
  nic_sched_ram #(
    .Depth(Depth),
    .Width(EntryBits)
  ) u_ram (
    .clk_i,
    .we_i   (push),
    .wsel_i (wptr_q),
    .wdata_i,
    .rsel_i (rptr_q),
    .rdata_o(rdata)
  );

  assign wready_o = wready_q;  // registered: cnt_q != Depth
  assign empty_o  = cnt_q == '0;
  // clear_i overrides at the registers' inputs only (not inside push and load: it is a late
  // input, and a write or a load under clear_i is discarded with the ring).
  assign push     = wvalid_i && wready_o;
  assign load     = (!fetch_valid_q || fetch_pop_i) && !empty_o;
  assign busy_o   = load || push;

  always_comb begin
    wptr_d        = wptr_q;
    rptr_d        = rptr_q;
    cnt_d         = cnt_q;
    fetch_valid_d = fetch_valid_q;
    fetch_entry_d = fetch_entry_q;
    fetch_index_d = fetch_index_q;
    fetch_dec_d   = fetch_dec_q;
    next_index_d  = next_index_q;
    if (clear_i) begin
      wptr_d        = Depth'(1);
      rptr_d        = Depth'(1);
      cnt_d         = '0;
      fetch_valid_d = 1'b0;
      next_index_d  = '0;
    end else begin
      if (push) wptr_d = ptr_inc(wptr_q);
      if (load) begin
        rptr_d        = ptr_inc(rptr_q);
        fetch_valid_d = 1'b1;
        fetch_entry_d = rdata;
        fetch_dec_d   = DecWidth'(1) << rdata[DecLsb +: DecBits];
        fetch_index_d = next_index_q;
        next_index_d  = next_index_q + IndexBits'(1);
      end else if (fetch_pop_i) begin
        fetch_valid_d = 1'b0;
      end
      cnt_d = cnt_q + CntBits'(push) - CntBits'(load);
    end
    wready_d = cnt_d != CntBits'(Depth);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wptr_q        <= Depth'(1);
      rptr_q        <= Depth'(1);
      cnt_q         <= '0;
      wready_q      <= 1'b1;
      fetch_valid_q <= 1'b0;
      fetch_index_q <= '0;
      next_index_q  <= '0;
    end else begin
      wptr_q        <= wptr_d;
      rptr_q        <= rptr_d;
      cnt_q         <= cnt_d;
      wready_q      <= wready_d;
      fetch_valid_q <= fetch_valid_d;
      fetch_index_q <= fetch_index_d;
      next_index_q  <= next_index_d;
    end
  end

  // The fetched entry: data only, no reset (fetch_valid_q says when it holds one).
  always_ff @(posedge clk_i) begin
    fetch_entry_q <= fetch_entry_d;
    fetch_dec_q   <= fetch_dec_d;
  end

  assign fetch_valid_o = fetch_valid_q;
  assign fetch_entry_o = fetch_entry_q;
  assign fetch_index_o = fetch_index_q;
  assign fetch_dec_o   = fetch_dec_q;

  // Contracts: only a valid fetch register is popped; the pointers stay one-hot; the decoded
  // field is the fetched entry's.
  `MT_ASSERT(PopValid_A, !fetch_pop_i || fetch_valid_q)
  `MT_ASSERT(PointersOneHot_A, $onehot(wptr_q) && $onehot(rptr_q))
  `MT_ASSERT(FetchDecoded_A, !fetch_valid_q ||
                             (fetch_dec_q == DecWidth'(1) << fetch_entry_q[DecLsb +: DecBits]))
  `MT_ASSERT(ReadyRegistered_A, wready_q == (cnt_q != CntBits'(Depth)))

endmodule
