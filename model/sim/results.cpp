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
#include "model/sim/results_text.h"

namespace mt {

using results_text::fixed;
using results_text::text;

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {

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
                      {"granularity", to_string(r.granularity)},
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
  else {
    j["scheduler_clock_ghz"] = r.scheduler_clock_ghz;
    j["scheduler_step_order"] = r.scheduler_step_order;
    j["scheduler_table_order"] = r.scheduler_planned_table ? "planned" : "step";
    // Only where the tables were packed and measured (packet granularity, a run that got so
    // far): "" = they fit.
    if (r.table_counters > 0) j["table_misfit"] = r.table_misfit;
  }
  if (!r.trial_refused.empty()) j["trial_refused"] = r.trial_refused;
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
  if (j.contains("granularity")) r.granularity = enum_field<Granularity>(j, "granularity");
  r.scheduler_clock_ghz = j.value("scheduler_clock_ghz", 0.0);
  r.scheduler_step_order = j.value("scheduler_step_order", false);
  r.scheduler_planned_table = j.value("scheduler_table_order", std::string("step")) == "planned";
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
  r.trial_refused = j.value("trial_refused", std::string());
  r.table_misfit = j.value("table_misfit", std::string());
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

}  // namespace mt
