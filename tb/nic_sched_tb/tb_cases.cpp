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
        // A counter past MaxCount is an error the RTL flags (rtl/README.md, Errors): not a legal
        // case.
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

void unsort_steps(Case& c, std::mt19937_64& rng) {
  std::vector<int> steps;
  for (const TableEntry& e : c.table) steps.push_back(e.step);
  std::shuffle(steps.begin(), steps.end(), rng);
  for (std::size_t i = 0; i < steps.size(); ++i) c.table[i].step = steps[i];
  c.name += " (not sorted by step)";
}

void share_window(Case& c) {
  c.shared = true;
  c.name += " (shared window)";
  for (TableEntry& e : c.table) e.port = 0;
}

std::vector<Case> error_cases(const mt::TableFormat& format, std::mt19937_64& rng,
                              std::string* not_injectable) {
  using C = mt::SchedulerFaultCause;
  auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  // A legal table on every port, of at least 8 entries, with a name and the error to expect.
  auto base = [&](const std::string& what, C expect) {
    Case c;
    do {
      c = random_case(rng, kPorts - 1);  // index kPorts - 1: every port
    } while (c.table.size() < 8);
    c.name = "error case: " + what;
    c.expect = expect;
    c.step_order = true;
    return c;
  };
  std::vector<Case> cases;
  // A field past its parameter, where its width leaves room for such a value.
  struct Field {
    const char* name;
    C cause;
    int limit;  // first illegal value
    int bits;
    int TableEntry::*member;
  };
  const Field fields[] = {
      {"port", C::kPort, kPorts, format.port_bits, &TableEntry::port},
      {"peer", C::kPeer, kNodes, format.peer_bits, &TableEntry::peer},
      {"chunk", C::kChunk, kChunks, format.chunk_bits, &TableEntry::chunk},
      {"flow", C::kFlow, kFlows, format.flow_bits, &TableEntry::flow},
      {"step", C::kStep, kSteps, format.step_bits, &TableEntry::step},
      {"wait_counter", C::kWaitCounter, kCounters, format.counter_bits, &TableEntry::wait_counter},
      {"wait_count", C::kWaitCount, kMaxCount + 1, format.count_bits, &TableEntry::wait_count},
      {"dst_counter", C::kDstCounter, kCounters, format.counter_bits, &TableEntry::dst_counter}};
  for (const Field& f : fields) {
    if (f.limit >= (1 << f.bits)) {
      *not_injectable += std::string(not_injectable->empty() ? "" : ", ") + f.name;
      continue;
    }
    Case c = base(std::string(f.name) + " out of range", f.cause);
    TableEntry& e =
        c.table[static_cast<std::size_t>(pick(1, static_cast<int>(c.table.size()) - 1))];
    e.*f.member = pick(f.limit, (1 << f.bits) - 1);
    cases.push_back(c);
  }
  {  // In step order, an entry below the previous one's step.
    Case c = base("table not sorted by step", C::kUnsorted);
    const std::size_t k = static_cast<std::size_t>(pick(1, static_cast<int>(c.table.size()) - 1));
    for (std::size_t i = 0; i < k; ++i) c.table[i].step = std::min(kSteps - 1, c.table[i].step + 1);
    c.table[k].step = c.table[k - 1].step - 1;
    for (std::size_t i = k + 1; i < c.table.size(); ++i)
      c.table[i].step = std::max(c.table[i].step, c.table[k - 1].step);
    cases.push_back(c);
  }
  {  // One arrival fewer than an entry waits for: the watchdog flags the stall (a tick a cycle).
    Case c = base("an arrival that never comes", C::kStalled);
    std::vector<int> need(c.arrivals.size(), 0);
    for (const TableEntry& e : c.table) {
      int& n = need[static_cast<std::size_t>(e.wait_counter)];
      n = std::max(n, e.wait_count);
    }
    const auto x =
        static_cast<std::size_t>(std::max_element(need.begin(), need.end()) - need.begin());
    if (need[x] > 0) {
      c.arrivals[x] = need[x] - 1;
      c.watchdog_limit = pick(8, 40);
      c.tick_percent = 100;
      cases.push_back(c);
    }
  }
  {  // One arrival more than MaxCount on a counter.
    Case c = base("counter past MaxCount", C::kCounterOverflow);
    c.arrivals[static_cast<std::size_t>(pick(0, static_cast<int>(c.arrivals.size()) - 1))] =
        kMaxCount + 1;
    cases.push_back(c);
  }
  if (kCounters < (1 << format.counter_bits)) {  // an arrival on counter kCounters
    Case c = base("arrival naming no counter", C::kArrivalCounter);
    c.arrivals.resize(static_cast<std::size_t>(kCounters) + 1, 0);
    c.arrivals.back() = 1;
    cases.push_back(c);
  } else {
    *not_injectable += std::string(not_injectable->empty() ? "" : ", ") + "arrival counter";
  }
  return cases;
}

}  // namespace nic_sched_tb
