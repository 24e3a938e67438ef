#include "tb/nic_sched_tb/tb_cases.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <sstream>

#include "model/collective/algorithm.h"
#include "model/topology/topology.h"

namespace nic_sched_tb {

std::string describe(const TableEntry& e) {
  std::ostringstream s;
  s << "{kind " << mt::to_string(e.kind) << ", port " << e.port << ", peer " << e.peer << ", chunk "
    << e.chunk << ", flow " << e.flow << ", step " << e.step << ", wait_counter " << e.wait_counter
    << ", wait_count " << e.wait_count << ", dst_counter " << e.dst_counter << "}";
  return s.str();
}

// Tables of every node of every algorithm x topology that packs and fits the build.
std::vector<Case> real_cases(const mt::TableFormat& format, int* schedules, int* skipped,
                             int* unsupported) {
  const std::vector<std::string> topologies = {"torus:4x4", "mesh:4x4", "switch:nodes=16", "ring:8",
                                               "torus:2x4", "mesh:3x5", "torus:8x8"};
  // Built as a run under hardware issue builds them (tree_packing then reuses its arrival
  // counters every window, so its tables fit the build) for a 1 MiB all-reduce (the size
  // schedules sized by it are built for; the others do not depend on it).
  mt::BuildContext context;
  context.hardware_issue = true;
  context.bytes = std::uint64_t{1} << 20;
  std::vector<Case> cases;
  for (const std::string& spec : topologies) {
    const mt::Topology topology(mt::parse_topology_spec(spec));
    for (const std::string& algorithm : mt::algorithm_names()) {
      mt::Schedule schedule;
      try {
        schedule = mt::build_schedule(algorithm, topology, {}, context);
      } catch (const mt::AlgorithmError& e) {  // the algorithm does not support this topology
        ++*unsupported;
        std::cerr << "nic_sched_tb: not built: " << algorithm << " on " << spec << ": " << e.what()
                  << "\n";
        continue;
      }
      const int ports = topology.ports_per_node();
      std::vector<int> message_ports;
      for (const mt::Op& op : schedule.ops) {
        message_ports.push_back(op.port >= 0 ? op.port % ports : op.peer % ports);
      }
      mt::PackedSchedule packed;
      try {
        packed = mt::pack_schedule(schedule, message_ports, ports);
        if (ports > kPorts || packed.counters > kCounters) {
          throw mt::TableError(std::to_string(ports) + " ports and " +
                               std::to_string(packed.counters) + " counters do not fit the build");
        }
        mt::check_fits(packed, format);
        // The RTL assumes a counter never counts past MaxCount (NoCounterOverflow_A).
        for (const auto& arrivals : packed.counter_arrivals) {
          for (const int n : arrivals) {
            if (n > kMaxCount) {
              throw mt::TableError("a counter receives " + std::to_string(n) +
                                   " arrivals, more than the build's MaxCount " +
                                   std::to_string(kMaxCount));
            }
          }
        }
      } catch (const mt::TableError& e) {
        ++*skipped;
        std::cerr << "nic_sched_tb: skipping " << algorithm << " on " << spec << ": " << e.what()
                  << "\n";
        continue;
      }
      ++*schedules;
      for (int u = 0; u < schedule.nodes; ++u) {
        Case c;
        c.name = algorithm + " on " + spec + " node " + std::to_string(u);
        c.table = packed.tables[static_cast<std::size_t>(u)];
        c.arrivals = packed.counter_arrivals[static_cast<std::size_t>(u)];
        c.arrivals.resize(static_cast<std::size_t>(packed.counters), 0);
        c.ports = ports;
        cases.push_back(std::move(c));
      }
    }
  }
  return cases;
}

// A random legal table: sorted by step, fields in range, thresholds reachable.
Case random_case(std::mt19937_64& rng, int index) {
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Case c;
  c.name = "random table " + std::to_string(index);
  // Tables longer than the ring (it streams) in one of ten, full depth in one of five; port
  // counts in turn (every count from 1 to kPorts); a few counters in half the tables, up to every
  // counter in the others.
  const int choice = pick(0, 9);
  const int size = choice == 0   ? pick(kDepth, 4 * kDepth + 8)
                   : choice <= 2 ? kDepth
                                 : pick(1, std::min(kDepth, 48));
  c.ports = 1 + index % kPorts;
  const int counters = pick(0, 1) == 0 ? pick(1, std::min(kCounters, 12)) : pick(1, kCounters);
  c.arrivals.assign(static_cast<std::size_t>(counters), 0);
  const int steps_used = pick(1, std::min(kSteps, size));
  std::vector<int> steps;
  for (int i = 0; i < size; ++i) steps.push_back(pick(0, steps_used - 1));
  std::sort(steps.begin(), steps.end());
  const int count_limit = std::min(kMaxCount, pick(1, 6));
  for (int i = 0; i < size; ++i) {
    TableEntry e;
    e.kind = pick(0, 1) ? mt::OpKind::kBroadcast : mt::OpKind::kReduce;
    e.port = pick(0, c.ports - 1);
    e.peer = pick(0, kNodes - 1);
    e.chunk = pick(0, kChunks - 1);
    e.flow = pick(0, kFlows - 1);
    e.step = steps[static_cast<std::size_t>(i)];
    e.wait_counter = pick(0, counters - 1);
    e.wait_count = pick(0, 3) == 0 ? 0 : pick(0, count_limit);
    e.dst_counter = pick(0, kCounters - 1);
    int& total = c.arrivals[static_cast<std::size_t>(e.wait_counter)];
    total = std::max(total, e.wait_count);
    c.table.push_back(e);
  }
  for (int& total : c.arrivals) total = std::min(kMaxCount, total + pick(0, 2));
  return c;
}

}  // namespace nic_sched_tb
