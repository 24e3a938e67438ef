#include "model/sim/results.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

#include "model/collective/byte_size.h"
#include "model/core/json_text.h"
#include "model/sim/energy_results.h"

namespace mt {
namespace {

std::string fixed(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

}  // namespace

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

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

std::string text(bool b) {
  return b ? "true" : "false";
}
template <class Number>
std::string text(Number v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// The CSV's columns in file order: the header and every row come from this one list.
struct CsvColumn {
  const char* name;
  std::string (*value)(const RunResult&);
};
constexpr CsvColumn kCsvColumns[] = {
    {"scenario", [](const RunResult& r) { return csv_field(r.scenario); }},
    {"topology", [](const RunResult& r) { return csv_field(r.topology); }},
    {"algorithm", [](const RunResult& r) { return csv_field(r.algorithm); }},
    {"schedule", [](const RunResult& r) { return csv_field(r.schedule); }},
    {"nic_issue", [](const RunResult& r) { return std::string(to_string(r.nic_issue)); }},
    {"nic_flow_control",
     [](const RunResult& r) { return std::string(to_string(r.nic_flow_control)); }},
    {"nic_scheduler", [](const RunResult& r) { return std::string(to_string(r.nic_scheduler)); }},
    {"nodes", [](const RunResult& r) { return text(r.nodes); }},
    {"ports", [](const RunResult& r) { return text(r.ports); }},
    {"bytes", [](const RunResult& r) { return text(r.bytes); }},
    {"completion_cycles", [](const RunResult& r) { return text(r.completion_cycles); }},
    {"clock_ghz", [](const RunResult& r) { return text(r.clock_ghz); }},
    {"completion_ns", [](const RunResult& r) { return fixed(r.completion_ns, 3); }},
    {"bound_cycles", [](const RunResult& r) { return fixed(r.bound_cycles, 1); }},
    {"latency_bound_cycles", [](const RunResult& r) { return fixed(r.latency_bound_cycles, 1); }},
    {"efficiency", [](const RunResult& r) { return fixed(r.efficiency, 4); }},
    {"estimate_cycles", [](const RunResult& r) { return fixed(r.estimate_cycles, 1); }},
    {"steps", [](const RunResult& r) { return text(r.steps); }},
    {"messages", [](const RunResult& r) { return text(r.messages); }},
    {"packets", [](const RunResult& r) { return text(r.packets); }},
    {"data_verified", [](const RunResult& r) { return text(r.data_verified); }},
    {"data_mode", [](const RunResult& r) { return std::string(to_string(r.data_mode)); }},
    {"error", [](const RunResult& r) { return csv_field(r.error); }},
    {"internal_error", [](const RunResult& r) { return text(r.internal_error); }},
    {"wall_seconds", [](const RunResult& r) { return fixed(r.wall_seconds, 3); }},
};

}  // namespace

std::string results_csv_header() {
  std::string header;
  for (const CsvColumn& c : kCsvColumns)
    header += (header.empty() ? "" : ",") + std::string(c.name);
  return header + energy_csv_header();
}

std::string results_csv_row(const RunResult& r) {
  std::string row;
  for (const CsvColumn& c : kCsvColumns) row += (&c == kCsvColumns ? "" : ",") + c.value(r);
  return row + energy_csv_row(r);
}

std::string results_csv_error_row(const std::string& error) {
  std::string row;
  for (const CsvColumn& c : kCsvColumns) {
    if (&c != kCsvColumns) row += ",";
    if (std::string(c.name) == "error") row += csv_field(error);
  }
  return row + energy_csv_empty();
}

std::string host_description(const RunResult& r) {
  const HostTiming& h = r.host;
  std::string text = "software issue by the host `" + std::string(to_string(r.host_preset)) + "`";
  if (h.free())
    return text +
           ": free (arrivals known in the cycle they land, posting costs nothing: the "
           "reference simulator's NIC, a bound no real host reaches; host.preset, docs/host.md)";
  text += ": learns of an arrival " + std::to_string(h.notify_cycles) + " cycles after it lands, " +
          "posts a message in " + std::to_string(h.message_cycles) + " cycles";
  if (h.doorbell_cycles > 0)
    text += " + a " + std::to_string(h.doorbell_cycles) + "-cycle doorbell per " +
            (h.doorbell_batch > 1 ? "up to " + std::to_string(h.doorbell_batch) + " messages"
                                  : std::string("message"));
  text += " on " + std::to_string(h.contexts) + (h.contexts > 1 ? " contexts" : " context");
  if (h.step_cycles > 0) text += ", " + std::to_string(h.step_cycles) + " cycles per later step";
  return text + " (docs/host.md)";
}

nlohmann::json to_json(const RunResult& r, bool with_messages) {
  nlohmann::json links = nlohmann::json::array();
  for (const auto& l : r.links)
    links.push_back({{"link", l.link},
                     {"src", l.src},
                     {"dst", l.dst},
                     {"bytes", l.bytes},
                     {"utilization", l.utilization}});
  nlohmann::json j = {{"scenario", r.scenario},
                      {"topology", r.topology},
                      {"algorithm", r.algorithm},
                      {"schedule", r.schedule},
                      {"nic_choice", r.nic_choice},
                      {"nic_issue", to_string(r.nic_issue)},
                      {"nic_flow_control", to_string(r.nic_flow_control)},
                      {"nic_scheduler", to_string(r.nic_scheduler)},
                      {"nodes", r.nodes},
                      {"ports", r.ports},
                      {"bytes", r.bytes},
                      {"completion_cycles", r.completion_cycles},
                      {"clock_ghz", r.clock_ghz},
                      {"completion_ns", r.completion_ns},
                      {"bound_cycles", r.bound_cycles},
                      {"latency_bound_cycles", r.latency_bound_cycles},
                      {"efficiency", r.efficiency},
                      {"estimate_cycles", r.estimate_cycles},
                      {"steps", r.steps},
                      {"messages", r.messages},
                      {"packets", r.packets},
                      {"cross_flow_waits", r.cross_flow_waits},
                      {"max_staged_bytes", r.max_staged_bytes},
                      {"table_counters", r.table_counters},
                      {"table_entries", r.table_entries},
                      {"data_verified", r.data_verified},
                      {"data_mode", to_string(r.data_mode)},
                      {"error", r.error},
                      {"internal_error", r.internal_error},
                      {"wall_seconds", r.wall_seconds},
                      {"energy", energy_to_json(r)},
                      {"node_finish_cycles", r.node_finish_cycles},
                      {"links", links}};
  if (r.nic_issue == IssueMode::kSoftware)
    j["host"] = {
        {"preset", to_string(r.host_preset)},      {"notify_cycles", r.host.notify_cycles},
        {"message_cycles", r.host.message_cycles}, {"doorbell_cycles", r.host.doorbell_cycles},
        {"doorbell_batch", r.host.doorbell_batch}, {"contexts", r.host.contexts},
        {"step_cycles", r.host.step_cycles}};
  else
    j["scheduler_clock_ghz"] = r.scheduler_clock_ghz;
  if (with_messages) {
    j["message_issue_cycles"] = r.message_issue_cycles;
    j["message_arrival_cycles"] = r.message_arrival_cycles;
  }
  return j;
}

namespace {

// The enum value a results field names ("nic_issue": "hardware"); ResultsError naming the field
// and the names it takes otherwise.
template <typename E>
E enum_field(const nlohmann::json& j, const char* key) {
  const std::string name = j.at(key).get<std::string>();
  if (const std::optional<E> value = parse_enum<E>(name)) return *value;
  throw ResultsError(std::string("results JSON: ") + key + ": \"" + name +
                     "\" is not one of: " + enum_names_joined<E>());
}

}  // namespace

RunResult run_result_from_json(const nlohmann::json& j) {
  RunResult r;
  r.scenario = j.at("scenario").get<std::string>();
  r.topology = j.at("topology").get<std::string>();
  r.algorithm = j.at("algorithm").get<std::string>();
  r.schedule = j.value("schedule", r.algorithm);
  r.nic_choice = j.value("nic_choice", std::string());
  r.nic_issue = enum_field<IssueMode>(j, "nic_issue");
  r.nic_flow_control = enum_field<FlowControl>(j, "nic_flow_control");
  r.nic_scheduler = enum_field<Issuer>(j, "nic_scheduler");
  if (const auto host = j.find("host"); host != j.end()) {
    r.host_preset = enum_field<HostPreset>(*host, "preset");
    r.host.notify_cycles = host->at("notify_cycles").get<std::uint64_t>();
    r.host.message_cycles = host->at("message_cycles").get<std::uint64_t>();
    r.host.doorbell_cycles = host->at("doorbell_cycles").get<std::uint64_t>();
    r.host.doorbell_batch = host->at("doorbell_batch").get<int>();
    r.host.contexts = host->at("contexts").get<int>();
    r.host.step_cycles = host->at("step_cycles").get<std::uint64_t>();
  }
  r.nodes = j.at("nodes").get<int>();
  r.ports = j.at("ports").get<int>();
  r.bytes = j.at("bytes").get<std::uint64_t>();
  r.completion_cycles = j.at("completion_cycles").get<std::uint64_t>();
  r.clock_ghz = j.at("clock_ghz").get<double>();
  r.scheduler_clock_ghz = j.value("scheduler_clock_ghz", 0.0);
  r.completion_ns = j.at("completion_ns").get<double>();
  r.bound_cycles = j.at("bound_cycles").get<double>();
  r.latency_bound_cycles = j.value("latency_bound_cycles", 0.0);
  r.efficiency = j.at("efficiency").get<double>();
  r.estimate_cycles = j.at("estimate_cycles").get<double>();
  r.steps = j.at("steps").get<int>();
  r.messages = j.at("messages").get<std::uint64_t>();
  r.packets = j.at("packets").get<std::uint64_t>();
  r.cross_flow_waits = j.value("cross_flow_waits", std::uint64_t{0});
  r.max_staged_bytes = j.value("max_staged_bytes", std::uint64_t{0});
  r.table_counters = j.value("table_counters", 0);
  r.table_entries = j.value("table_entries", 0);
  r.data_verified = j.at("data_verified").get<bool>();
  r.data_mode = enum_field<DataMode>(j, "data_mode");
  r.error = j.at("error").get<std::string>();
  r.internal_error = j.value("internal_error", false);
  r.wall_seconds = j.at("wall_seconds").get<double>();
  r.node_finish_cycles = j.at("node_finish_cycles").get<std::vector<std::uint64_t>>();
  r.message_issue_cycles = j.value("message_issue_cycles", std::vector<std::uint64_t>{});
  r.message_arrival_cycles = j.value("message_arrival_cycles", std::vector<std::uint64_t>{});
  if (j.contains("energy")) energy_from_json(j.at("energy"), r);
  for (const auto& l : j.at("links"))
    r.links.push_back({l.at("link").get<int>(), l.at("src").get<int>(), l.at("dst").get<int>(),
                       l.at("bytes").get<std::uint64_t>(), l.at("utilization").get<double>()});
  return r;
}

std::string results_json_text(const std::vector<RunResult>& runs) {
  nlohmann::json doc = {{"runs", nlohmann::json::array()}};
  for (const auto& r : runs) doc["runs"].push_back(to_json(r));
  return json_text(doc, 2) + "\n";
}

std::string results_csv_text(const std::vector<RunResult>& runs) {
  std::string text = results_csv_header() + "\n";
  for (const auto& r : runs) text += results_csv_row(r) + "\n";
  return text;
}

void write_results_json(const std::string& path, const std::vector<RunResult>& runs) {
  write_text_atomically(path, results_json_text(runs));
}

void write_results_csv(const std::string& path, const std::vector<RunResult>& runs) {
  write_text_atomically(path, results_csv_text(runs));
}

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
     << fixed(1.0 / first.clock_ghz, 3) << " ns each)\n\n";
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
             << " arrival counters and " << r.table_entries << " entries per node (largest node)\n";
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
  // Which rows co-simulated the RTL scheduler: the text would otherwise read as the C++ model's.
  std::vector<std::string> rtl_labels;
  for (const auto& r : runs) {
    if (r.nic_scheduler == Issuer::kRtl) push_unique(rtl_labels, r.algorithm);
  }
  if (!rtl_labels.empty()) {
    note_line(
        listed("hardware issue by the Verilated RTL scheduler (rtl/nic_sched.sv) in every NIC of:",
               rtl_labels));
  }
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
