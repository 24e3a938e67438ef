#include "model/run/table_dump.h"

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <vector>

#include "model/noc/routing.h"
#include "model/run/resolve.h"
#include "model/run/run_point.h"
#include "model/sched/scheduler_build.h"

namespace mt {

namespace {

// One packed entry as a hexadecimal number of entry_bits bits, most significant digit first.
std::string entry_hex(const TableEntry& entry, const TableFormat& format) {
  const std::vector<std::uint64_t> words = encode_entry(entry, format);
  const int digits = (format.entry_bits() + 3) / 4;
  std::string hex;
  for (int d = digits - 1; d >= 0; --d) {
    const std::uint64_t word = words[static_cast<std::size_t>(d / 16)];
    hex += "0123456789abcdef"[(word >> (4 * (d % 16))) & 0xf];
  }
  return hex;
}

void check_node(const PackedSchedule& packed, int node) {
  if (node < -1 || node >= static_cast<int>(packed.tables.size())) {
    throw TableError("node " + std::to_string(node) + " is out of range 0.." +
                     std::to_string(static_cast<int>(packed.tables.size()) - 1));
  }
}

}  // namespace

PackedSchedule pack_for_hardware(const Schedule& schedule, const Topology& topology,
                                 const std::vector<std::uint64_t>& planned_issue) {
  RoutingTable routing(topology);
  const int ports = topology.ports_per_node();
  std::vector<int> queues(schedule.ops.size(), 0);
  for (const Op& op : schedule.ops) {
    const std::vector<int>& path = op.path.empty() ? routing.route(op.node, op.peer) : op.path;
    if (path.empty()) throw TableError("message " + std::to_string(op.id) + " has no route");
    queues[static_cast<std::size_t>(op.id)] =
        issue_queue(op, routing.out_index(path.front()), topology.is_direct(), ports, false);
  }
  return pack_schedule(schedule, queues, ports, planned_issue);
}

std::vector<std::uint64_t> planned_issue_cycles(const Schedule& schedule, const Topology& topology,
                                                std::uint64_t bytes) {
  ScenarioConfig scenario;
  scenario.topology = topology.config();
  NicConfig nic;
  nic.issue = IssueChoice::kHardware;
  nic.flow_control = FlowControlChoice::kMessage;
  nic.scheduler_table_order = TableOrder::kPlanned;
  const HostConfig host;
  const NicChoice choice = choose_nic_mode(nic, host_timing(host, scenario.clock_ghz),
                                           NicTrial(FlowControl::kMessage, TableOrder::kPlanned));
  const PointConfig point = resolve(scenario, nic, host, choice, schedule, topology);
  return with_planned_tables(point, topology, schedule, bytes).issue.scheduler.planned_issue;
}

PackedSchedule with_rtl_widths(PackedSchedule packed, const Schedule& schedule,
                               const std::map<std::string, long long>& params) {
  // The counts the widths come from, in the RTL's parameter names: the table's own, then the
  // build's where given.
  TableCounts counts = table_needs(packed, schedule);
  for (const auto& [name, value] : params) {
    const auto it = std::find_if(counts.begin(), counts.end(),
                                 [&name = name](const auto& c) { return c.first == name; });
    if (it == counts.end())
      throw TableError("RTL parameter " + name +
                       " does not set a table width (those are Nodes, Ports, Chunks, Flows, "
                       "Steps, Counters, MaxCount)");
    if (value < it->second)
      throw TableError("RTL parameter " + name + " = " + std::to_string(value) +
                       ", but this schedule's table needs " + std::to_string(it->second));
    if (value > (1LL << 30))
      throw TableError("RTL parameter " + name + " = " + std::to_string(value) +
                       " is out of range (at most 2^30)");
    it->second = value;
  }
  const auto count = [&counts](std::size_t i) { return static_cast<int>(counts[i].second); };
  packed.format =
      TableFormat::make(count(0), count(1), count(2), count(3), count(4), count(5), count(6));
  check_fits(packed, packed.format);  // the counts bound every value: a guard
  return packed;
}

nlohmann::json packed_tables_json(const PackedSchedule& packed, int node) {
  check_node(packed, node);
  const TableFormat& f = packed.format;
  nlohmann::json nodes = nlohmann::json::array();
  for (int u = 0; u < static_cast<int>(packed.tables.size()); ++u) {
    if (node >= 0 && u != node) continue;
    const auto index = static_cast<std::size_t>(u);
    nlohmann::json entries = nlohmann::json::array();
    for (std::size_t i = 0; i < packed.tables[index].size(); ++i) {
      const TableEntry& e = packed.tables[index][i];
      entries.push_back({{"message", packed.messages[index][i]},
                         {"kind", to_string(e.kind)},
                         {"port", e.port},
                         {"peer", e.peer},
                         {"chunk", e.chunk},
                         {"flow", e.flow},
                         {"step", e.step},
                         {"wait_counter", e.wait_counter},
                         {"wait_count", e.wait_count},
                         {"dst_counter", e.dst_counter},
                         {"hex", entry_hex(e, f)}});
    }
    nodes.push_back({{"node", u},
                     {"counter_arrivals", packed.counter_arrivals[index]},
                     {"release_counter", packed.release_counter[index]},
                     {"entries", std::move(entries)}});
  }
  return {{"format",
           {{"kind_bits", f.kind_bits},
            {"port_bits", f.port_bits},
            {"peer_bits", f.peer_bits},
            {"chunk_bits", f.chunk_bits},
            {"flow_bits", f.flow_bits},
            {"step_bits", f.step_bits},
            {"counter_bits", f.counter_bits},
            {"count_bits", f.count_bits},
            {"entry_bits", f.entry_bits()},
            {"entry_words", f.entry_words()}}},
          {"ports", packed.ports},
          {"depth", packed.depth},
          {"counters", packed.counters},
          {"nodes", std::move(nodes)}};
}

std::string packed_table_memh(const PackedSchedule& packed, int node) {
  if (node < 0) throw TableError("a $readmemh file holds one node's table: give --node N");
  check_node(packed, node);
  const TableFormat& f = packed.format;
  const auto& table = packed.tables[static_cast<std::size_t>(node)];
  std::ostringstream os;
  os << "// node " << node << ": " << table.size() << " entries of " << f.entry_bits()
     << " bits, table order; " << packed.counters << " arrival counters\n"
     << "// fields from bit 0: kind " << f.kind_bits << ", port " << f.port_bits << ", peer "
     << f.peer_bits << ", chunk " << f.chunk_bits << ", flow " << f.flow_bits << ", step "
     << f.step_bits << ", wait_counter " << f.counter_bits << ", wait_count " << f.count_bits
     << ", dst_counter " << f.counter_bits << " (model/sched/SCHEDULE_TABLE.md)\n";
  for (const TableEntry& e : table) os << entry_hex(e, f) << "\n";
  return os.str();
}

}  // namespace mt
