// Project assertion macro: the only way RTL in rtl/ states a contract.
//
//   `MT_ASSERT(Name_A, expr)  expr must hold on every rising clk_i edge while rst_ni is high.
//
// Expands to
//   - a concurrent assertion under Verilator (and any other simulator): checked in simulation,
//     a failure stops the simulation with the assertion's name;
//   - an immediate assertion in an always block under Yosys -formal (FORMAL defined), the subset
//     Yosys 0.23 accepts, for SymbiYosys proofs;
//   - nothing for synthesis (SYNTHESIS defined, as scripts/synth.sh does).
// The enclosing module must have clk_i and rst_ni.

`ifndef MT_ASSERT_SVH
`define MT_ASSERT_SVH

`ifdef FORMAL
  `define MT_ASSERT(__name, __expr) \
    always @(posedge clk_i) begin : __name \
      if (rst_ni) assert (__expr); \
    end
`elsif SYNTHESIS
  `define MT_ASSERT(__name, __expr)
`else
  `define MT_ASSERT(__name, __expr) \
    __name: assert property (@(posedge clk_i) disable iff (!rst_ni) (__expr)) \
      else $error("assertion %s failed", `"__name`");
`endif

`endif  // MT_ASSERT_SVH
