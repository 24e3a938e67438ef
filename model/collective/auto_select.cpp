#include "model/collective/auto_select.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <queue>
#include <sstream>
#include <tuple>
#include <utility>

#include "model/collective/schedule_graph.h"

namespace mt {

namespace {

bool power_of_two(int n) {
  return n > 0 && (n & (n - 1)) == 0;
}

}  // namespace

std::string AutoCandidate::label() const {
  std::string out = algorithm;
  if (params.empty()) return out;
  out += "(";
  bool first = true;
  for (const auto& kv : params) {
    if (!first) out += ",";
    out += kv.first + "=" + kv.second;
    first = false;
  }
  return out + ")";
}

std::vector<AutoCandidate> auto_candidates(const Topology& topology) {
  const int n = topology.nodes();
  std::vector<AutoCandidate> c;
  // ring and ring_bi are left out: disjoint_rings covers them (one or two rings per Hamiltonian
  // cycle, pipelined) and was never slower in the calibration runs.
  const auto& dims = topology.dims();
  if ((topology.kind() == "torus" || topology.kind() == "mesh") && dims.size() == 2) {
    c.push_back({"ring2d", {}});
  }
  c.push_back({"dbtree", {}});
  if (power_of_two(n)) c.push_back({"halving_doubling", {}});
  c.push_back({"multitree", {}});
  // Pipelined trees only on direct topologies. On switch topologies the simulator finds both the
  // switch-aware trees of multitree_opt and the pipelined published stars slower than the plain
  // published stars or the rings (their sub-chunks of different trees queue behind each other at
  // the switches: fat-tree k=8 at 1 MiB, 0.63 and 0.80 of the bound against 0.93), and the
  // estimate, which does not model switch contention, ranks them first. (On BiGraph, since its
  // routes use two VC classes, multitree_opt reaches 0.94 at 16 MiB, no better than the rings.)
  if (topology.is_direct()) {
    for (const char* p : {"1", "4"}) c.push_back({"multitree_opt", {{"pipeline", p}}});
    c.push_back({"multitree_opt", {{"pipeline", "4"}, {"trees", "published"}}});
    c.push_back({"tree_packing", {}});  // pipeline sized by choose_algorithm's bytes
  }
  for (const char* p : {"1", "2", "4"}) c.push_back({"disjoint_rings", {{"pipeline", p}}});
  // Swing: rings and tori (its builder refuses dimensions that are not powers of two).
  if (topology.kind() == "torus" || topology.kind() == "ring") c.push_back({"swing", {}});
  return c;
}

double dataflow_estimate(const Schedule& schedule, const Topology& topology, std::uint64_t bytes,
                         const CostParams& params) {
  const size_t m = schedule.ops.size();
  if (m == 0 || schedule.num_chunks <= 0) return 0;
  const std::vector<std::uint64_t> sizes = chunk_byte_sizes(schedule, bytes);
  const ScheduleGraph graph(schedule);
  std::vector<int> missing(m, 0);
  std::vector<double> ready(m, 0.0);
  std::vector<std::vector<int>> paths(m);
  for (const Op& op : schedule.ops) {
    missing[static_cast<size_t>(op.id)] = static_cast<int>(op.deps.size());
    paths[static_cast<size_t>(op.id)] =
        op.path.empty() ? topology.route(op.node, op.peer) : op.path;
  }
  // Each message leaves through the NIC port of its first link; a port sends one message at a
  // time and, like the simulator's software issue, takes the ready message listed first.
  const size_t links = topology.links().size();
  using MinIds = std::priority_queue<int, std::vector<int>, std::greater<int>>;
  std::vector<MinIds> port_queue(links);
  std::vector<double> port_free(links, 0.0);
  std::vector<char> port_pending(links, 0);  // a dispatch event is scheduled
  // Busy intervals per directed link, sorted; a message takes the first gap long enough at or
  // after its head's arrival (intervals ending before the current event time are dropped).
  std::vector<std::vector<std::pair<double, double>>> busy(links);
  auto reserve = [&busy](size_t l, double t, double len, double now) {
    auto& iv = busy[l];
    size_t drop = 0;
    while (drop < iv.size() && iv[drop].second <= now) ++drop;
    if (drop > 0) iv.erase(iv.begin(), iv.begin() + static_cast<std::ptrdiff_t>(drop));
    size_t i = 0;
    while (i < iv.size() && iv[i].second <= t) ++i;
    for (; i < iv.size(); ++i) {
      if (t + len <= iv[i].first) break;
      t = std::max(t, iv[i].second);
    }
    iv.insert(iv.begin() + static_cast<std::ptrdiff_t>(i), {t, t + len});
    return t;
  };
  // Events: (time, kind, index); kind 0 = message ready, 1 = port dispatch. Ready events of a
  // time are handled before dispatches of that time.
  using Event = std::tuple<double, int, int>;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
  for (const Op& op : schedule.ops) {
    if (op.deps.empty()) events.push({0.0, 0, op.id});
  }
  const double packet = std::max(1, params.packet_bytes);
  double end = 0;
  while (!events.empty()) {
    const auto [now, kind, index] = events.top();
    events.pop();
    if (kind == 0) {
      const auto& path = paths[static_cast<size_t>(index)];
      if (path.empty()) continue;
      const size_t port = static_cast<size_t>(path.front());
      port_queue[port].push(index);
      if (!port_pending[port]) {
        port_pending[port] = 1;
        events.push({std::max(now, port_free[port]), 1, static_cast<int>(port)});
      }
      continue;
    }
    const size_t port = static_cast<size_t>(index);
    port_pending[port] = 0;
    if (port_queue[port].empty()) continue;
    const int id = port_queue[port].top();
    port_queue[port].pop();
    const Op& op = schedule.ops[static_cast<size_t>(id)];
    const auto payload = static_cast<double>(sizes.at(static_cast<size_t>(op.chunk)));
    const double wire = payload + std::ceil(payload / packet) * params.head_flit_bytes;
    double t = now;
    double ser = 0;
    bool first = true;
    for (int l : paths[static_cast<size_t>(id)]) {
      const Link& link = topology.link(l);
      ser = wire / link.bytes_per_cycle;
      const double start = reserve(static_cast<size_t>(l), t, ser, now);
      if (first) port_free[port] = start + ser;
      first = false;
      t = start + link.latency_cycles + params.per_hop_cycles;
    }
    const double done = t + ser;
    end = std::max(end, done);
    for (int u : graph.dependents(id)) {
      ready[static_cast<size_t>(u)] = std::max(ready[static_cast<size_t>(u)], done);
      if (--missing[static_cast<size_t>(u)] == 0)
        events.push({ready[static_cast<size_t>(u)], 0, u});
    }
    if (!port_queue[port].empty()) {
      port_pending[port] = 1;
      events.push({port_free[port], 1, static_cast<int>(port)});
    }
  }
  return end;
}

AutoChoice choose_algorithm(const Topology& topology, std::uint64_t bytes,
                            const CostParams& params) {
  AutoChoice choice;
  bool first = true;
  for (AutoCandidate c : auto_candidates(topology)) {
    c.params = with_size(c.algorithm, c.params, bytes);
    Schedule s;
    try {
      s = build_schedule(c.algorithm, topology, c.params);
    } catch (const AlgorithmError&) {
      continue;  // does not support this topology
    }
    const double est = dataflow_estimate(s, topology, bytes, params);
    choice.ranking.emplace_back(c.label(), est);
    if (first || est < choice.estimate_cycles) {
      choice.chosen = c;
      choice.schedule = std::move(s);
      choice.estimate_cycles = est;
      first = false;
    }
  }
  if (first) throw AlgorithmError("auto: no candidate supports topology " + topology.name());
  std::ostringstream note;
  note << "auto: " << choice.chosen.label() << " for " << bytes << " B on " << topology.name()
       << " (estimate " << static_cast<long long>(choice.estimate_cycles) << " cycles)";
  choice.note = note.str();
  return choice;
}

Schedule build_auto(const Topology& topology, const AlgorithmParams& params) {
  check_params("auto", params, {"bytes"});
  require_min_nodes("auto", topology);
  const std::uint64_t bytes = param_bytes("auto", params, "bytes", 16u << 20);
  AutoChoice choice = choose_algorithm(topology, bytes);
  Schedule s = std::move(choice.schedule);
  s.algorithm = "auto:" + choice.chosen.label();
  return s;
}

}  // namespace mt
