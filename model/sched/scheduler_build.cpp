#include "model/sched/scheduler_build.h"

#include <algorithm>

// MT_RTL_* come from the top-level CMakeLists.txt (MT_RTL_PARAMS_FILE, read by
// rtl/params.cmake): one definition per nic_sched parameter.

namespace mt {

TableFormat SchedulerBuild::format() const {
  return TableFormat::make(nodes, ports, chunks, flows, steps, counters, max_count);
}

std::vector<std::pair<std::string, long long>> SchedulerBuild::table_capacity() const {
  return {{"Nodes", nodes}, {"Ports", ports},       {"Chunks", chunks},     {"Flows", flows},
          {"Steps", steps}, {"Counters", counters}, {"MaxCount", max_count}};
}

SchedulerBuild scheduler_build() {
  SchedulerBuild b;
  b.nodes = MT_RTL_NODES;
  b.ports = MT_RTL_PORTS;
  b.depth = MT_RTL_DEPTH;
  b.window = MT_RTL_WINDOW;
  b.chunks = MT_RTL_CHUNKS;
  b.flows = MT_RTL_FLOWS;
  b.steps = MT_RTL_STEPS;
  b.counters = MT_RTL_COUNTERS;
  b.max_count = MT_RTL_MAX_COUNT;
  b.arrival_lanes = MT_RTL_ARRIVAL_LANES;
  b.decision_latency = MT_RTL_DECISION_LATENCY;
  b.index_bits = MT_RTL_INDEX_BITS;
  b.file = MT_RTL_PARAMS_NAME;
  return b;
}

std::vector<std::pair<std::string, long long>> table_needs(const PackedSchedule& packed,
                                                           const Schedule& schedule) {
  return {{"Nodes", schedule.nodes},
          {"Ports", packed.ports},
          {"Chunks", std::max(1, schedule.num_chunks)},
          {"Flows", std::max(1, schedule.num_flows)},
          {"Steps", std::max(1, schedule.num_steps)},
          {"Counters", packed.counters},
          {"MaxCount", packed.max_count}};
}

std::string table_misfit(const PackedSchedule& packed, const Schedule& schedule,
                         const std::vector<std::pair<std::string, long long>>& capacity) {
  std::string misfit;
  for (const auto& [name, need] : table_needs(packed, schedule)) {
    const auto have = std::find_if(capacity.begin(), capacity.end(),
                                   [&name = name](const auto& c) { return c.first == name; });
    if (have == capacity.end() || have->second >= need) continue;
    misfit += (misfit.empty() ? "" : ", ") + name + " " + std::to_string(have->second) + " < " +
              std::to_string(need);
  }
  return misfit;
}

}  // namespace mt
