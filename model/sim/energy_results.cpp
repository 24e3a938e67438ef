#include "model/sim/energy_results.h"

#include <iomanip>
#include <sstream>

#include "model/collective/byte_size.h"

namespace mt {
namespace {

// Every line of the breakdown, by the name the JSON and the CSV give it.
struct BreakdownLine {
  const char* name;
  double EnergyBreakdown::*member;
};
constexpr BreakdownLine kLines[] = {
    {"link_data", &EnergyBreakdown::link_data_pj},
    {"link_credit", &EnergyBreakdown::link_credit_pj},
    {"link_idle", &EnergyBreakdown::link_idle_pj},
    {"router_buffer", &EnergyBreakdown::router_buffer_pj},
    {"router_crossbar", &EnergyBreakdown::router_crossbar_pj},
    {"router_allocation", &EnergyBreakdown::router_allocation_pj},
    {"router_clock", &EnergyBreakdown::router_clock_pj},
    {"router_leakage", &EnergyBreakdown::router_leakage_pj},
    {"nic_memory", &EnergyBreakdown::nic_memory_pj},
    {"nic_buffer", &EnergyBreakdown::nic_buffer_pj},
    {"nic_reduction", &EnergyBreakdown::nic_reduction_pj},
    {"scheduler_active", &EnergyBreakdown::scheduler_active_pj},
    {"scheduler_idle", &EnergyBreakdown::scheduler_idle_pj},
    {"scheduler_leakage", &EnergyBreakdown::scheduler_leakage_pj},
};

// Every whole-number count, by its JSON name.
struct CountField {
  const char* name;
  std::uint64_t EnergyCounts::*member;
};
constexpr CountField kCounts[] = {
    {"link_bits", &EnergyCounts::link_bits},
    {"link_credit_bits", &EnergyCounts::link_credit_bits},
    {"router_buffer_writes", &EnergyCounts::router_buffer_writes},
    {"router_buffer_reads", &EnergyCounts::router_buffer_reads},
    {"router_heads", &EnergyCounts::router_heads},
    {"routers", &EnergyCounts::routers},
    {"router_cycles", &EnergyCounts::router_cycles},
    {"nic_buffer_writes", &EnergyCounts::nic_buffer_writes},
    {"nic_buffer_reads", &EnergyCounts::nic_buffer_reads},
    {"memory_read_bits", &EnergyCounts::memory_read_bits},
    {"memory_write_bits", &EnergyCounts::memory_write_bits},
    {"adds", &EnergyCounts::adds},
    {"schedulers", &EnergyCounts::schedulers},
    {"scheduler_active_cycles", &EnergyCounts::scheduler_active_cycles},
    {"scheduler_idle_cycles", &EnergyCounts::scheduler_idle_cycles},
};

std::string uj_fixed(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

double run_pj_per_byte(const RunResult& r) {
  return energy_pj_per_byte(r.energy.total_pj(), r.nodes, r.bytes);
}

}  // namespace

nlohmann::json energy_to_json(const RunResult& r) {
  nlohmann::json lines = nlohmann::json::object();
  for (const BreakdownLine& l : kLines) lines[l.name] = r.energy.*l.member;
  nlohmann::json counts = nlohmann::json::object();
  for (const CountField& c : kCounts) counts[c.name] = r.energy_counts.*c.member;
  counts["link_idle_bits"] = r.energy_counts.link_idle_bits;
  counts["dtype"] = to_string(r.energy_counts.dtype);
  counts["run_ns"] = r.energy_counts.run_ns;
  return {{"preset", to_string(r.energy_preset)},
          {"total_pj", r.energy.total_pj()},
          {"pj_per_byte", run_pj_per_byte(r)},
          {"static_pj", r.energy.static_pj()},
          {"nic_pj", r.energy.nic_pj()},
          {"scheduler_pj", r.energy.scheduler_pj()},
          {"breakdown_pj", lines},
          {"counts", counts}};
}

void energy_from_json(const nlohmann::json& e, RunResult& r) {
  const std::string preset = e.at("preset").get<std::string>();
  if (const std::optional<EnergyPreset> p = parse_enum<EnergyPreset>(preset)) r.energy_preset = *p;
  for (const BreakdownLine& l : kLines) r.energy.*l.member = e.at("breakdown_pj").at(l.name);
  const nlohmann::json& counts = e.at("counts");
  for (const CountField& c : kCounts) r.energy_counts.*c.member = counts.at(c.name);
  r.energy_counts.link_idle_bits = counts.at("link_idle_bits").get<double>();
  if (const std::optional<Dtype> d = parse_enum<Dtype>(counts.at("dtype").get<std::string>()))
    r.energy_counts.dtype = *d;
  r.energy_counts.run_ns = counts.at("run_ns").get<double>();
}

std::string energy_csv_header() {
  std::string h = ",energy_preset,energy_total_uj,energy_pj_per_byte,energy_static_uj";
  for (const BreakdownLine& l : kLines) h += ",energy_" + std::string(l.name) + "_uj";
  return h;
}

std::string energy_csv_row(const RunResult& r) {
  // uJ with 6 decimals: to the picojoule.
  std::string row = "," + std::string(to_string(r.energy_preset)) + "," +
                    uj_fixed(r.energy.total_pj() * 1e-6, 6) + "," +
                    uj_fixed(run_pj_per_byte(r), 3) + "," +
                    uj_fixed(r.energy.static_pj() * 1e-6, 6);
  for (const BreakdownLine& l : kLines) row += "," + uj_fixed(r.energy.*l.member * 1e-6, 6);
  return row;
}

std::string energy_csv_empty() {
  return std::string(4 + std::size(kLines), ',');
}

std::string format_energy_table(const std::vector<RunResult>& runs) {
  std::size_t longest_label = 0;
  bool any = false;
  for (const auto& r : runs) {
    longest_label = std::max(longest_label, r.algorithm.size());
    any = any ||
          (r.error.empty() && r.completion_cycles > 0 && r.granularity == Granularity::kPacket);
  }
  // The message-granularity model counts no energy events (docs/granularity.md).
  if (!any) return "";
  const int algorithm_width = static_cast<int>(std::max<std::size_t>(18, longest_label + 1));
  std::ostringstream os;
  const auto left = [&os](int width, const auto& value) {
    os << std::left << std::setw(width - 1) << value << ' ';
  };
  const auto right = [&os](int width, const auto& value) {
    os << ' ' << std::right << std::setw(width - 1) << value;
  };
  os << "\nenergy per all-reduce (`energy.preset` " << to_string(runs.front().energy_preset)
     << ": logic at 7 nm, local memory HBM2; sources in docs/energy.md)\n\n";
  left(9, "size");
  left(algorithm_width, "algorithm");
  for (const char* h : {"total_uJ", "pJ/B", "links_uJ", "routers_uJ", "memory_uJ", "nic_uJ",
                        "sched_uJ", "static"}) {
    right(h == std::string("static") ? 8 : 12, h);
  }
  os << "\n";
  std::uint64_t last_size = runs.front().bytes;
  for (const auto& r : runs) {
    if (r.bytes != last_size) os << "\n";
    last_size = r.bytes;
    if (!r.error.empty() || r.completion_cycles == 0 || r.granularity != Granularity::kPacket)
      continue;
    const EnergyBreakdown& e = r.energy;
    const double total = e.total_pj();
    const auto uj = [](double pj) { return uj_fixed(pj * 1e-6, 3); };
    left(9, format_byte_size(r.bytes));
    left(algorithm_width, r.algorithm);
    right(12, uj(total));
    right(12, uj_fixed(run_pj_per_byte(r), 2));
    right(12, uj(e.link_data_pj + e.link_credit_pj + e.link_idle_pj));
    right(12, uj(e.router_buffer_pj + e.router_crossbar_pj + e.router_allocation_pj +
                 e.router_clock_pj + e.router_leakage_pj));
    right(12, uj(e.nic_memory_pj));
    right(12, uj(e.nic_buffer_pj + e.nic_reduction_pj));
    right(12, uj(e.scheduler_pj()));
    right(8, uj_fixed(total > 0 ? 100 * e.static_pj() / total : 0.0, 1) + "%");
    os << "\n";
  }
  os << "\nenergy columns: total_uJ = energy of the all-reduce, microjoules; pJ/B = total / (nodes "
        "x size),\n  picojoules per byte reduced; links_uJ = flits (head flits included) and "
        "credits over topology\n  links, and their idle power; routers_uJ = buffer writes and "
        "reads, crossbar, switch and VC\n  allocation, clock tree and leakage; memory_uJ = the "
        "NICs' local-memory reads and writes (DMA,\n  reduction operands); nic_uJ = NIC receive "
        "buffers and reduction-unit adds; sched_uJ = the NIC\n  scheduler under hardware issue "
        "(working, idle-clocked and leaking cycles; the host's energy\n  under software issue is "
        "not counted); static = share of the total that is idle and leakage\n  power over the "
        "run's time. Every line by itself: --json / --csv (energy).\n";
  return os.str();
}

}  // namespace mt
