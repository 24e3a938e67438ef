// The result table mtsim prints (format_results_table): one row per run, then the notes on
// what each run chose and measured.
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "model/collective/byte_size.h"
#include "model/sim/energy_results.h"
#include "model/sim/results.h"
#include "model/sim/results_text.h"

namespace mt {

using results_text::fixed;
using results_text::text;

namespace {

// `text` broken at spaces into lines of at most `width` characters, every line after the first
// starting with `indent`; each line ends with a newline.
std::string wrapped(const std::string& text, std::size_t width, const std::string& indent) {
  std::string out, line;
  std::istringstream words(text);
  for (std::string word; words >> word;) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = indent;
    } else if (!line.empty() && line != indent) {
      line += " ";
    }
    line += word;
  }
  return out + line + "\n";
}

}  // namespace

std::string format_results_table(const std::vector<RunResult>& runs) {
  if (runs.empty()) return "no runs\n";
  // Speedups are against ring at the same size when ring ran, else against the first algorithm.
  std::map<std::uint64_t, double> reference_ns;
  std::string reference_name = runs.front().algorithm;
  for (const auto& r : runs)
    if (r.algorithm == "ring") reference_name = "ring";
  for (const auto& r : runs)
    if (r.algorithm == reference_name && r.error.empty()) reference_ns[r.bytes] = r.completion_ns;

  const int speedup_width = static_cast<int>(std::max<std::size_t>(10, reference_name.size() + 5));
  std::size_t longest_label = 0;  // labels of any length keep the columns aligned
  for (const auto& r : runs) longest_label = std::max(longest_label, r.algorithm.size());
  const int algorithm_width = static_cast<int>(std::max<std::size_t>(18, longest_label + 1));
  std::ostringstream os;
  const RunResult& first = runs.front();
  os << "scenario " << first.scenario << ": " << first.topology << ", " << first.nodes
     << " nodes; cycles are network clock cycles at " << first.clock_ghz << " GHz ("
     << fixed(1.0 / first.clock_ghz, 3) << " ns each)";
  if (first.granularity == Granularity::kMessage) {
    os << "; message granularity: messages move as units, no energy counted "
          "(docs/granularity.md states its error against the packet model)";
  }
  os << "\n\n";
  // A cell of `width` columns keeps one space towards its neighbour even when the value is
  // wider than the column (huge cycle counts push the row right instead of running together).
  const auto left = [&os](int width, const auto& value) {
    os << std::left << std::setw(width - 1) << value << ' ';
  };
  const auto right = [&os](int width, const auto& value) {
    os << ' ' << std::right << std::setw(width - 1) << value;
  };
  left(9, "size");
  left(algorithm_width, "algorithm");
  right(6, "ports");
  right(7, "steps");
  right(13, "cycles");
  right(12, "time_us");
  right(13, "bound_cyc");
  right(9, "lat_cyc");
  right(8, "eff");
  right(speedup_width, "vs_" + reference_name);
  right(9, "data");
  os << "\n";
  std::uint64_t last_size = runs.front().bytes;
  for (const auto& r : runs) {
    if (r.bytes != last_size) os << "\n";
    last_size = r.bytes;
    left(9, format_byte_size(r.bytes));
    left(algorithm_width, r.algorithm);
    right(6, r.ports);
    right(7, r.steps);
    if (!r.error.empty() && r.completion_cycles == 0) {
      os << "  FAILED: " << r.error << "\n";
      continue;
    }
    const auto ref = reference_ns.find(r.bytes);
    const std::string speedup =
        ref == reference_ns.end() || r.completion_ns <= 0
            ? "-"
            : fixed(ref->second / r.completion_ns, 3) + "x";  // 0.996x, not 1.00x
    const std::string data = !r.error.empty()                ? "FAILED"
                             : r.data_mode == DataMode::kOff ? "timing"
                             : r.data_verified
                                 ? (r.data_mode == DataMode::kSampled ? "sampled" : "ok")
                                 : "WRONG";
    right(13, r.completion_cycles);
    right(12, fixed(r.completion_ns / 1000, 3));
    right(13, fixed(r.bound_cycles, r.bound_cycles < 10 ? 2 : 0));  // 4 B: 0.12, not 0
    right(9, fixed(r.latency_bound_cycles, 0));
    right(8, fixed(r.efficiency, 3));
    right(speedup_width, speedup);
    right(9, data);
    os << "\n";
    if (!r.error.empty()) os << "    error: " << r.error << "\n";
  }
  bool noted = false;
  bool chose_any = false, tables_any = false, staged_any = false;  // which lines to explain
  // "auto:disjoint_rings(pipeline=2)": the schedule auto built (whatever the entry's label).
  const std::string auto_prefix = "auto:";
  for (const auto& r : runs) {
    const bool chose_schedule = r.schedule.rfind(auto_prefix, 0) == 0;
    if (!chose_schedule && r.nic_choice.empty()) continue;
    os << (noted ? "" : "\n") << "at " << format_byte_size(r.bytes) << " " << r.algorithm
       << " chose ";
    if (chose_schedule) os << r.schedule.substr(auto_prefix.size());
    if (!r.nic_choice.empty()) os << (chose_schedule ? " on " : "") << r.nic_choice;
    os << "\n";
    noted = true;
    chose_any = true;
  }
  // NIC state a hardware team would size: the staging buffer's peak (receive staging holds
  // messages unreduced) and, with hardware issue, the packed tables' counters and entries.
  for (const auto& r : runs) {
    const auto note = [&]() -> std::ostream& {
      os << (noted ? "" : "\n") << "at " << format_byte_size(r.bytes) << " " << r.algorithm;
      noted = true;
      return os;
    };
    if (r.max_staged_bytes > 0) {
      staged_any = true;
      note() << " staged up to " << format_byte_size(r.max_staged_bytes)
             << " of received messages in one NIC (receive staging, held unreduced until its own "
                "message issues)\n";
    }
    if (r.table_counters > 0) {
      tables_any = true;
      note() << " the hardware scheduler's tables need " << r.table_counters
             << " arrival counters and " << r.table_entries << " entries per node (largest node)"
             << (r.table_misfit.empty()
                     ? ""
                     : "; more than the nic_sched build holds: " + r.table_misfit)
             << "\n";
    }
  }
  // A note line of its own, wrapped; and a list of labels without repeats, in first-seen order.
  const auto note_line = [&](const std::string& line) {
    os << (noted ? "" : "\n") << wrapped(line, 98, "  ");
    noted = true;
  };
  const auto push_unique = [](std::vector<std::string>& list, const std::string& item) {
    if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
  };
  const auto listed = [](std::string line, const std::vector<std::string>& labels) {
    for (std::size_t i = 0; i < labels.size(); ++i) line += (i ? ", " : " ") + labels[i];
    return line;
  };
  // A note line `text` followed by the labels of the rows where `holds`, when there are any.
  const auto note_rows_where = [&](const std::string& text, const auto& holds) {
    std::vector<std::string> labels;
    for (const auto& r : runs) {
      if (holds(r)) push_unique(labels, r.algorithm);
    }
    if (!labels.empty()) note_line(listed(text, labels));
  };
  // The host of software-issue rows: a free host is a bound, not a machine (docs/host.md).
  std::vector<std::string> hosts;
  for (const auto& r : runs) {
    if (r.nic_issue == IssueMode::kSoftware && r.error.empty())
      push_unique(hosts, host_description(r));
  }
  for (const std::string& text : hosts) note_line(text);
  // Schedulers on a slower clock than the network's: the cycles are still the network's.
  std::vector<std::string> clocks;                                  // in first-seen order
  std::map<std::string, std::vector<std::string>> labels_at_clock;  // clock -> labels
  for (const auto& r : runs) {
    if (r.scheduler_clock_ghz <= 0 || r.scheduler_clock_ghz >= r.clock_ghz) continue;
    const std::string clock =
        text(r.scheduler_clock_ghz) + " GHz beside the network's " + text(r.clock_ghz) + " GHz";
    push_unique(clocks, clock);
    push_unique(labels_at_clock[clock], r.algorithm);
  }
  for (const std::string& clock : clocks) {
    note_line(listed("the NIC scheduler runs at " + clock +
                         " (nic.scheduler_clock_ghz: inputs wait for its next edge, its decision "
                         "takes its own cycles) in:",
                     labels_at_clock[clock]));
  }
  // Which hardware-issue rows ran in step order (nic.step_order auto decides it per schedule).
  note_rows_where(
      "the NIC scheduler issued each table in step order (nic.step_order; auto: where steps "
      "share no link and each flow sends one chunk) in:",
      [](const RunResult& r) { return r.scheduler_step_order; });
  note_rows_where(
      "each node's table in the order a free host issues the schedule, planned by a "
      "message-granularity run (nic.scheduler_table_order planned) in:",
      [](const RunResult& r) { return r.scheduler_planned_table; });
  // Which rows co-simulated the RTL scheduler: the text would otherwise read as the C++ model's.
  note_rows_where(
      "hardware issue by the Verilated RTL scheduler (rtl/nic_sched.sv) in every NIC of:",
      [](const RunResult& r) { return r.nic_scheduler == Issuer::kRtl; });
  if (noted) {
    std::vector<std::string> legend;
    if (chose_any)
      legend.push_back("chose = the schedule auto built or the mode the auto NIC picked, and why");
    if (tables_any)
      legend.push_back(
          "arrival counters and entries = the largest node's packed table under hardware issue (an "
          "RTL build's Counters parameter must hold the counters, its Depth ring streams the "
          "entries)");
    if (staged_any) legend.push_back("staged = the receive-staging buffer's peak in one NIC");
    std::string text = "lines above: ";
    for (std::size_t i = 0; i < legend.size(); ++i) text += (i ? "; " : "") + legend[i];
    if (!legend.empty()) os << "\n" << wrapped(text + ".", 98, "  ");
  }
  os << "\ncolumns: size = all-reduce bytes per node; ports = NIC ports per node; steps = schedule "
        "time steps\n  (reduce-scatter + all-gather); cycles = simulated completion; time_us = "
        "cycles / clock;\n  bound_cyc = bandwidth lower bound (2(N-1) x size over all nodes' "
        "injection bandwidth: 2(N-1)/N x\n  size over one node's when nodes are alike); lat_cyc = "
        "latency lower bound (the farthest pair's\n  cheapest path: link latencies + router "
        "pipelines, + one packet);\n  eff = max(bound_cyc, lat_cyc) / cycles; bound_cyc counts "
        "payload only, so where it rules\n"
        "  eff stays below payload / (payload + head) of each packet or message (256/272 = 0.94 "
        "with\n"
        "  packet flow control's default 256-byte packets and 16-byte heads) and the row's own "
        "ports set\n"
        "  its bound (compare eff between rows of equal ports, cycles between any);\n  vs_"
     << reference_name << " = speedup over " << reference_name
     << " at the same size; data = ok (every node's result equals the exact sum),\n  sampled "
        "(timing-only, sampled chunks checked), timing (not checked), WRONG or FAILED.\n";
  os << format_energy_table(runs);
  return os.str();
}

}  // namespace mt
