// Progress watchdog of the NIC scheduler (rtl/README.md, Errors): counts the ticks of a slow
// timebase (tick_i: one count per cycle it is high, e.g. a prescaler's pulse every 1024 clocks)
// during which a port's DMA waited for a grant and nothing moved, and reports a stall once
// limit_i of them have passed (limit_i 0: off). Progress is anything that moves the schedule on:
// a table entry written, an arrival or doorbell counted, a grant accepted, or nothing left to
// issue (done); it resets the count. The count saturates. Counting a timebase instead of clock
// cycles keeps the block idle between ticks, so a clock-gated (or co-simulated) scheduler that
// waits is not woken every cycle by its own watchdog.

module nic_sched_watchdog #(
  parameter int unsigned Bits = 16  // width of the count and of limit_i
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic            clear_i,     // reset the count
  input  logic            tick_i,      // the timebase: count at this edge (if waiting, no progress)
  input  logic [Bits-1:0] limit_i,     // ticks to a stall, 0: never (held)
  input  logic            progress_i,  // something moved at this edge, or nothing is pending
  input  logic            waiting_i,   // a port's ready level (as the decision sees it) is high
  output logic            stalled_o,   // limit_i != 0 and the count reached it
  output logic            busy_o       // the count changes at this edge
);

  logic [Bits-1:0] count_d, count_q;
  always_comb begin
    count_d = count_q;
    if (clear_i || progress_i) begin
      count_d = '0;
    end else if (tick_i && waiting_i && count_q != '1) begin
      count_d = count_q + Bits'(1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
    end else begin
      count_q <= count_d;
    end
  end

  assign stalled_o = (limit_i != '0) && (count_q >= limit_i);
  assign busy_o    = count_d != count_q;

endmodule
