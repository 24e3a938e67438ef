// The text table mtsim run prints: the legend under it explains only the lines it printed.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/sim/results.h"

namespace {

mt::RunResult row(const std::string& algorithm, const std::string& schedule) {
  mt::RunResult r;
  r.scenario = "s";
  r.topology = "torus:4x4";
  r.algorithm = algorithm;
  r.schedule = schedule;
  r.nodes = 16;
  r.ports = 4;
  r.bytes = 4096;
  r.completion_cycles = 1000;
  r.completion_ns = 1000;
  r.data_verified = true;
  r.data_mode = mt::DataMode::kFull;
  return r;
}

}  // namespace

TEST_CASE("the table's legend explains the lines it printed and no others", "[results]") {
  const std::string plain = mt::format_results_table({row("ring", "ring")});
  CHECK_THAT(plain, !Catch::Contains("lines above"));
  const std::string chose =
      mt::format_results_table({row("ring", "ring"), row("auto", "auto:swing(variant=latency)")});
  CHECK_THAT(chose, Catch::Contains("at 4KiB auto chose swing(variant=latency)\n") &&
                        Catch::Contains("lines above: chose = the schedule auto built or the mode "
                                        "the auto NIC picked, and why.\n") &&
                        !Catch::Contains("arrival counters and entries =") &&
                        !Catch::Contains("staged ="));
  mt::RunResult hw = row("multitree-hw", "multitree");
  hw.table_counters = 7;
  hw.table_entries = 30;
  const std::string tables = mt::format_results_table({row("ring", "ring"), hw});
  CHECK_THAT(tables, Catch::Contains("need 7 arrival counters and 30 entries per node") &&
                         Catch::Contains("lines above: arrival counters and entries = the largest "
                                         "node's packed table") &&
                         !Catch::Contains("chose =") && !Catch::Contains("staged ="));
}

TEST_CASE("the table says which rows co-simulated the RTL scheduler", "[results]") {
  mt::RunResult rtl = row("multitree-hw", "multitree");
  rtl.nic_scheduler = mt::Issuer::kRtl;
  mt::RunResult tlm = row("ring", "ring");
  tlm.nic_scheduler = mt::Issuer::kTlm;
  const std::string text = mt::format_results_table({tlm, rtl, rtl});
  CHECK_THAT(text, Catch::Contains("\nhardware issue by the Verilated RTL scheduler "
                                   "(rtl/nic_sched.sv) in every NIC of: multitree-hw\n") &&
                       !Catch::Contains("lines above"));
  CHECK_THAT(mt::format_results_table({tlm}), !Catch::Contains("Verilated"));
}
