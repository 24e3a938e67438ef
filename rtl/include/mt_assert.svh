// Project assertion macros: the only way RTL in rtl/ states a contract (after OpenTitan's
// prim_assert: one macro per kind, one expansion per tool).
//
//   `MT_ASSERT(Name_A, expr)  expr must hold on every rising clk_i edge while rst_ni is high.
//   `MT_ASSUME(Name_M, expr)  input contract: the environment keeps expr true (same sampling).
//                             Checked like an assertion in simulation, an assumption in proofs.
//   `MT_COVER(Name_C, expr)   expr must be reachable (a cover point).
//   `MT_STATIC_ASSERT(Name_S, expr)  expr, of parameters only, must hold at elaboration: an
//                             illegal parameter set stops every tool before it builds anything.
//
// Expand to
//   - concurrent assert/assume/cover properties under Verilator (and any other simulator):
//     assertions and assumptions are checked in simulation (a failure stops the run with the
//     name), covers are counted by --coverage;
//   - immediate assert/assume/cover statements in a clocked always block under Yosys -formal
//     (FORMAL defined), the subset Yosys 0.23 accepts; scripts/formal.sh proves them with
//     yosys-smtbmc (rtl/formal/README.md);
//   - nothing for synthesis (SYNTHESIS defined, as scripts/synth.sh does).
// MT_STATIC_ASSERT is a generate branch taken only when expr fails: under Verilator it holds
// $error (the build stops naming Name_S); under any other tool (Yosys for synthesis and proofs)
// an instance of the module Name_S, which does not exist, because Yosys 0.23 reports $error even
// in a generate branch that is not taken: "Module `\Name_S' referenced in module ... is not part
// of the design".
// The enclosing module must have clk_i and rst_ni.

`ifndef MT_ASSERT_SVH
`define MT_ASSERT_SVH

`ifdef VERILATOR
  `define MT_STATIC_ASSERT(__name, __expr) \
    if (!(__expr)) begin : __name \
      $error("parameter check %s failed: illegal parameters (rtl/README.md)", `"__name`"); \
    end
`else
  `define MT_STATIC_ASSERT(__name, __expr) \
    if (!(__expr)) begin : __name \
      __name illegal_parameters_see_rtl_readme (); \
    end
`endif

`ifdef MT_FORMAL_COVERS
  // scripts/formal.sh cover runs: each cover becomes a bad state that the model checker must
  // reach (its trace is the witness); assertions are not checked in these runs.
  `define MT_ASSERT(__name, __expr)
  `define MT_ASSUME(__name, __expr) \
    always @(posedge clk_i) begin : __name \
      if (rst_ni) assume (__expr); \
    end
  `define MT_COVER(__name, __expr) \
    always @(posedge clk_i) begin : __name \
      if (rst_ni) assert (!(__expr)); \
    end
`elsif FORMAL
  `define MT_ASSERT(__name, __expr) \
    always @(posedge clk_i) begin : __name \
      if (rst_ni) assert (__expr); \
    end
  `define MT_ASSUME(__name, __expr) \
    always @(posedge clk_i) begin : __name \
      if (rst_ni) assume (__expr); \
    end
  `define MT_COVER(__name, __expr) \
    always @(posedge clk_i) begin : __name \
      if (rst_ni) cover (__expr); \
    end
`elsif SYNTHESIS
  `define MT_ASSERT(__name, __expr)
  `define MT_ASSUME(__name, __expr)
  `define MT_COVER(__name, __expr)
`else
  `define MT_ASSERT(__name, __expr) \
    __name: assert property (@(posedge clk_i) disable iff (!rst_ni) (__expr)) \
      else $error("assertion %s failed", `"__name`");
  `define MT_ASSUME(__name, __expr) \
    __name: assume property (@(posedge clk_i) disable iff (!rst_ni) (__expr)) \
      else $error("assumption %s failed", `"__name`");
  `define MT_COVER(__name, __expr) \
    __name: cover property (@(posedge clk_i) disable iff (!rst_ni) (__expr));
`endif

`endif  // MT_ASSERT_SVH
