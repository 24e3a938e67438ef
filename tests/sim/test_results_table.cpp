// The text table mtsim run prints: the legend under it explains only the lines it printed.

#include <algorithm>
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

// `text` with the table notes' wrapping undone (a line break and its indent become one space).
std::string unwrapped(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && text.compare(i + 1, 2, "  ") == 0) {
      out += ' ';
      i = text.find_first_not_of(' ', i + 1) - 1;
    } else {
      out += text[i];
    }
  }
  return out;
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

TEST_CASE("a run's energy goes through JSON and into the CSV and the table with units",
          "[results][energy]") {
  mt::RunResult r = row("ring", "ring");
  r.energy_preset = mt::EnergyPreset::kOnPackage;
  r.energy_counts.link_bits = 12345;
  r.energy_counts.link_idle_bits = 0.5;
  r.energy_counts.adds = 77;
  r.energy_counts.dtype = mt::Dtype::kInt32;
  r.energy_counts.scheduler_idle_cycles = 9;
  r.energy_counts.run_ns = 1000;
  r.energy.link_data_pj = 2e6;  // 2 uJ
  r.energy.router_leakage_pj = 1e6;
  r.energy.scheduler_idle_pj = 0.25;
  const mt::RunResult back = mt::run_result_from_json(mt::to_json(r));
  CHECK(back.energy_preset == mt::EnergyPreset::kOnPackage);
  CHECK(back.energy_counts.link_bits == 12345);
  CHECK(back.energy_counts.link_idle_bits == 0.5);
  CHECK(back.energy_counts.adds == 77);
  CHECK(back.energy_counts.dtype == mt::Dtype::kInt32);
  CHECK(back.energy_counts.scheduler_idle_cycles == 9);
  CHECK(back.energy.link_data_pj == 2e6);
  CHECK(back.energy.scheduler_idle_pj == 0.25);
  CHECK(mt::to_json(r)["energy"]["total_pj"] == 3e6 + 0.25);
  // 3 uJ over 16 nodes x 4096 bytes.
  CHECK(mt::to_json(r)["energy"]["pj_per_byte"].get<double>() ==
        Approx((3e6 + 0.25) / (16 * 4096.0)));
  CHECK_THAT(mt::results_csv_header(),
             Catch::EndsWith(",energy_preset,energy_total_uj,energy_pj_per_byte,energy_static_uj,"
                             "energy_link_data_uj,energy_link_credit_uj,energy_link_idle_uj,"
                             "energy_router_buffer_uj,energy_router_crossbar_uj,"
                             "energy_router_allocation_uj,energy_router_clock_uj,"
                             "energy_router_leakage_uj,energy_nic_memory_uj,energy_nic_buffer_uj,"
                             "energy_nic_reduction_uj,energy_scheduler_active_uj,"
                             "energy_scheduler_idle_uj,energy_scheduler_leakage_uj"));
  CHECK_THAT(mt::results_csv_row(r),
             Catch::EndsWith(",on_package,3.000000,45.776,1.000000,2.000000,0.000000,0.000000,"
                             "0.000000,0.000000,0.000000,0.000000,1.000000,0.000000,0.000000,"
                             "0.000000,0.000000,0.000000,0.000000"));
  const auto columns = [](const std::string& line) {
    return std::count(line.begin(), line.end(), ',');
  };
  CHECK(columns(mt::results_csv_error_row("boom")) == columns(mt::results_csv_header()));
  const std::string table = mt::format_results_table({r});
  CHECK_THAT(table, Catch::Contains("energy per all-reduce (`energy.preset` on_package"));
  CHECK_THAT(table, Catch::Contains("total_uJ        pJ/B    links_uJ"));
  CHECK_THAT(table, Catch::Contains("3.000       45.78       2.000       1.000       0.000"));
  CHECK_THAT(table, Catch::Contains("33.3%"));
}

TEST_CASE("a software-issue run names its host in JSON and under the table", "[results][host]") {
  mt::RunResult free_host = row("ring", "ring");
  CHECK_THAT(unwrapped(mt::format_results_table({free_host})),
             Catch::Contains("\nsoftware issue by the host `free`: free (arrivals known in the "
                             "cycle they land"));
  mt::RunResult proxy = row("multitree", "multitree");
  proxy.host_preset = mt::HostPreset::kCpuProxy;
  proxy.host = {1200, 150, 300, 4, 2, 40};  // notify, message, doorbell, batch, contexts, step
  const mt::RunResult back = mt::run_result_from_json(mt::to_json(proxy));
  CHECK(back.host_preset == mt::HostPreset::kCpuProxy);
  CHECK(back.host.notify_cycles == 1200);
  CHECK(back.host.message_cycles == 150);
  CHECK(back.host.doorbell_cycles == 300);
  CHECK(back.host.doorbell_batch == 4);
  CHECK(back.host.contexts == 2);
  CHECK(back.host.step_cycles == 40);
  CHECK_THAT(unwrapped(mt::format_results_table({free_host, proxy, proxy})),
             Catch::Contains("software issue by the host `cpu_proxy`: learns of an arrival 1200 "
                             "cycles after it lands, posts a message in 150 cycles + a 300-cycle "
                             "doorbell per up to 4 messages on 2 contexts, 40 cycles per later "
                             "step (docs/host.md)\n"));
  mt::RunResult hw = row("multitree-hw", "multitree");
  hw.nic_issue = mt::IssueMode::kHardware;
  CHECK_FALSE(mt::to_json(hw).contains("host"));
  CHECK_THAT(mt::format_results_table({hw}), !Catch::Contains("software issue by"));
}

TEST_CASE("a scheduler's step order is said in JSON and under the table", "[results]") {
  mt::RunResult ordered = row("multitree-hw", "multitree");
  ordered.nic_issue = mt::IssueMode::kHardware;
  ordered.scheduler_step_order = true;
  mt::RunResult free_order = row("tree_packing-hw", "tree_packing");
  free_order.nic_issue = mt::IssueMode::kHardware;
  CHECK(mt::run_result_from_json(mt::to_json(ordered)).scheduler_step_order);
  CHECK_FALSE(mt::run_result_from_json(mt::to_json(free_order)).scheduler_step_order);
  CHECK(mt::to_json(free_order).at("scheduler_step_order") == false);
  CHECK_FALSE(mt::to_json(row("ring", "ring")).contains("scheduler_step_order"));
  CHECK_THAT(unwrapped(mt::format_results_table({free_order, ordered, ordered})),
             Catch::Contains("\nthe NIC scheduler issued each table in step order "
                             "(nic.step_order; auto: where steps share no link and each flow "
                             "sends one chunk) in: multitree-hw\n"));
  CHECK_THAT(mt::format_results_table({free_order}), !Catch::Contains("step order"));
}

TEST_CASE("a scheduler on a slower clock is said in JSON and under the table", "[results]") {
  mt::RunResult slow = row("multitree-hw", "multitree");
  slow.nic_issue = mt::IssueMode::kHardware;
  slow.scheduler_clock_ghz = 0.25;
  mt::RunResult fast = row("ring-hw", "ring");
  fast.nic_issue = mt::IssueMode::kHardware;
  fast.scheduler_clock_ghz = 1.0;  // the network's own clock: nothing to say
  CHECK(mt::run_result_from_json(mt::to_json(slow)).scheduler_clock_ghz == 0.25);
  CHECK_FALSE(mt::to_json(row("ring", "ring")).contains("scheduler_clock_ghz"));
  CHECK_THAT(unwrapped(mt::format_results_table({fast, slow, slow})),
             Catch::Contains("\nthe NIC scheduler runs at 0.25 GHz beside the network's 1 GHz "
                             "(nic.scheduler_clock_ghz: inputs wait for its next edge, its "
                             "decision takes its own cycles) in: multitree-hw\n"));
  CHECK_THAT(mt::format_results_table({fast}), !Catch::Contains("NIC scheduler runs at"));
}
