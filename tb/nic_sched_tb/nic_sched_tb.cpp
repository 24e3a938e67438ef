// nic_sched_tb: SystemC testbench of the Verilated NIC scheduler (rtl/nic_sched). Streams tables
// packed from real schedules (every registered algorithm on several topologies, every node) and
// random legal tables (up to several times the ring's depth) through the table DMA port, drives
// message arrivals, host doorbells and port ready levels with random delays, and compares every
// grant, done_o and the error outputs, cycle by cycle, with the golden model mt::SchedulerModel.
// Then it injects each error the build can be given (an entry field past its parameter, an
// unsorted table, arrivals past MaxCount, an arrival naming no counter) into a legal table and
// requires both to flag it alike (cause, entry index or counter, cycle) and to halt alike. The
// first mismatch stops the run with the case, cycle, port and both values (exit 1).
//
//   nic_sched_tb [--seed N] [--random N] [--no-real] [--step-order on|off|mixed] [--case K]
//                [--trace F.vcd] [--model-latency L] [--coverage FILE]
//
// Each case's stimulus comes from a generator seeded by (seed, case number) alone, so a mismatch
// reported in case K replays with `--case K` (the same seed and options), e.g. under --trace.
// --model-latency runs the golden model with another decision latency than the RTL's (a
// deliberately wrong model: the testbench must report a mismatch). --coverage writes Verilator's
// line/toggle coverage to FILE (a build with -DMT_RTL_COVERAGE=ON only: scripts/coverage.sh).
//
// Exit status: 0 all equal, 1 a mismatch or a stall, 2 bad arguments.

#include <Vnic_sched.h>
#include <verilated.h>
#include <verilated_vcd_sc.h>
#if MT_RTL_COVERAGE
#include <verilated_cov.h>
#endif

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <systemc>
#include <utility>
#include <vector>

#include "model/sched/table_packer.h"
#include "tb/nic_sched_tb/tb_cases.h"
#include "tb/nic_sched_tb/tb_driver.h"
#include "tb/nic_sched_tb/tb_options.h"

// The testbench's build constants, tables, pin helpers and driver (tb_cases.h, tb_pins.h,
// tb_driver.h).
using namespace nic_sched_tb;  // NOLINT(google-build-using-namespace)

int sc_main(int argc, char** argv) {
  TbOptions o;
  if (const int status = parse_tb_options(argc, argv, o); status >= 0) return status;
  const std::uint64_t seed = o.seed;
  const int random_tables = o.random_tables;
  const std::string& step_mode = o.step_mode;
  const std::string& trace_file = o.trace_file;
  const long only_case = o.only_case;

  const mt::TableFormat format =
      mt::TableFormat::make(kNodes, kPorts, kChunks, kFlows, kSteps, kCounters, kMaxCount);
  std::vector<Case> cases;
  int schedules = 0;
  int skipped = 0;
  int unsupported = 0;
  if (o.real) cases = real_cases(format, &schedules, &skipped, &unsupported);
  const std::size_t real_tables = cases.size();
  std::mt19937_64 rng(seed);
  int unsorted = 0;  // random tables not sorted by step (without step order)
  for (int i = 0; i < random_tables; ++i) {
    cases.push_back(random_case(rng, i));
    // One table in three of two or more ports: port binding any (a shared window).
    if (cases.back().ports > 1 && i % 3 == 1) share_window(cases.back());
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    cases[i].step_order = step_mode == "on" ? true : step_mode == "off" ? false : (rng() % 4 != 0);
    // Without step order a table need not be sorted (a planned table): every other random one.
    if (i >= real_tables && !cases[i].step_order && i % 2 == 0) {
      unsort_steps(cases[i], rng);
      ++unsorted;
    }
  }
  // The error cases come last (their step order is on: an unsorted table is an error only then).
  std::string not_injectable;
  const std::vector<Case> errors = error_cases(format, rng, &not_injectable);
  cases.insert(cases.end(), errors.begin(), errors.end());
  if (only_case >= static_cast<long>(cases.size()))
    return usage_error("--case " + std::to_string(only_case) + ": there are " +
                       std::to_string(cases.size()) + " cases (0.." +
                       std::to_string(cases.size() - 1) + ") with these options");

  if (!trace_file.empty()) Verilated::traceEverOn(true);
  sc_core::sc_clock clk("clk", 1, sc_core::SC_NS);
  Vnic_sched dut("dut");
  Driver driver("driver");
  driver.cases = std::move(cases);
  driver.format = format;
  driver.seed = seed;
  driver.model_latency = o.model_latency;
  driver.only_case = only_case;
  driver.clk_i(clk);
  dut.clk_i(clk);
  dut.rst_ni(driver.rst_n);
  dut.clear_i(driver.clear);
  dut.step_order_i(driver.step_order);
  dut.shared_window_i(driver.shared_window);
  dut.open_step_i(driver.open_step);
  dut.tbl_valid_i(driver.tbl_valid);
  dut.tbl_ready_o(driver.tbl_ready);
  dut.tbl_wdata_i(driver.wdata);
  dut.host_valid_i(driver.host_valid);
  dut.host_counter_i(driver.host_counter);
  dut.arr_valid_i(driver.arr_valid);
  dut.arr_counter_i(driver.arr_counter);
  dut.port_ready_i(driver.ready);
  dut.grant_ack_i(driver.ack);
  dut.grant_o(driver.grant);
  dut.grant_index_o(driver.grant_index);
  dut.grant_entry_o(driver.grant_entry);
  dut.done_o(driver.done);
  dut.idle_o(driver.idle);
  dut.err_o(driver.err);
  dut.err_cause_o(driver.err_cause);
  dut.err_info_o(driver.err_info);
  dut.wdog_tick_i(driver.wdog_tick);
  dut.wdog_limit_i(driver.wdog_limit);

  std::unique_ptr<VerilatedVcdSc> trace;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  if (!trace_file.empty()) {
    trace = std::make_unique<VerilatedVcdSc>();
    dut.trace(trace.get(), 99);
    trace->open(trace_file.c_str());
    if (!trace->isOpen()) {
      std::cerr << "nic_sched_tb: --trace " << trace_file << ": cannot write the file\n";
      return 2;
    }
  }
  sc_core::sc_start();
  if (trace) trace->close();
  dut.final();
#if MT_RTL_COVERAGE
  if (!o.coverage_file.empty())
    Verilated::threadContextp()->coveragep()->write(o.coverage_file.c_str());
#endif

  std::cout << "nic_sched_tb: RTL " << build_parameters() << "\n";
  std::cout << "nic_sched_tb: seed " << seed << ": " << real_tables << " real tables (" << schedules
            << " schedules, " << skipped << " skipped, " << unsupported
            << " algorithm-topology pairs not built), " << random_tables << " random tables ("
            << unsorted << " not sorted by step, without step order), " << driver.cycles_compared
            << " cycles compared, " << driver.issues_compared << " issues ("
            << driver.held_grant_cycles << " cycles a grant waited for its acknowledge), "
            << driver.arrivals_driven << " arrivals, " << driver.doorbells_driven << " doorbells, "
            << driver.errors_flagged << " of " << errors.size()
            << " injected errors flagged and halted alike, " << driver.stalls_flagged
            << " legal cases stopped by the watchdog alike"
            << (not_injectable.empty()
                    ? ""
                    : " (not injectable in this build, a field full: " + not_injectable + ")")
            << (only_case >= 0 ? " (case " + std::to_string(only_case) + " alone)" : "") << ": "
            << (driver.failed ? driver.failure_kind : "all equal") << "\n";
  return driver.failed ? 1 : 0;
}

// SystemC's own main() prints its banner before sc_main can turn it off; this main sets the
// switch first, then runs the kernel's usual entry (as mtsim does).
int main(int argc, char* argv[]) {
  ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
