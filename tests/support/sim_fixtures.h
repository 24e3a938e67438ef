#pragma once
// Shared fixtures of the simulator tests: scenario defaults and hand-built schedules.

#include <cstdint>
#include <vector>

#include "model/collective/schedule.h"
#include "model/params/scenario_config.h"
#include "model/run/resolve.h"
#include "model/sim/run_result.h"
#include "model/sim/system.h"
#include "model/topology/topology.h"

namespace mt::test {

/// A scenario with the default router/NIC and a short watchdog.
inline ScenarioConfig base_scenario() {
  ScenarioConfig scenario;
  scenario.name = "test";
  scenario.watchdog_cycles = 100000;
  return scenario;
}

/// A topology config of `kind` with link latencies `latency` (network and NIC links).
inline TopologyConfig topology_config(const std::string& spec, int latency) {
  TopologyConfig config = parse_topology_spec(spec);
  config.link_latency_cycles = latency;
  config.nic_link_latency_cycles = latency;
  return config;
}

/// One op (id assigned by Schedule::add).
inline Op make_op(int node, int peer, int chunk, OpKind kind, std::vector<int> deps = {},
                  int step = 0) {
  Op op;
  op.node = node;
  op.peer = peer;
  op.chunk = chunk;
  op.kind = kind;
  op.deps = std::move(deps);
  op.step = step;
  return op;
}

/// A schedule skeleton for `nodes` nodes and `chunks` chunks.
inline Schedule empty_schedule(int nodes, int chunks) {
  Schedule schedule;
  schedule.algorithm = "hand";
  schedule.nodes = nodes;
  schedule.num_chunks = chunks;
  return schedule;
}

/// Unidirectional ring all-reduce (reduce-scatter then all-gather) over the cyclic node order
/// `order`, N chunks, 2(N-1) steps. Position i sends to position i+1.
inline Schedule ring_allreduce(const std::vector<int>& order) {
  const int n = static_cast<int>(order.size());
  Schedule schedule = empty_schedule(n, n);
  schedule.algorithm = "hand_ring";
  std::vector<int> last(static_cast<std::size_t>(n), -1);  // message last received by position i
  for (int s = 0; s < 2 * (n - 1); ++s) {
    std::vector<int> sent(static_cast<std::size_t>(n), -1);
    for (int i = 0; i < n; ++i) {
      const bool reduce = s < n - 1;
      const int chunk = reduce ? ((i - s) % n + n) % n : ((i + 1 - (s - (n - 1))) % n + n) % n;
      std::vector<int> deps;
      if (s > 0) deps.push_back(last[static_cast<std::size_t>(i)]);
      sent[static_cast<std::size_t>(i)] = schedule.add(
          make_op(order[static_cast<std::size_t>(i)], order[static_cast<std::size_t>((i + 1) % n)],
                  chunk, reduce ? OpKind::kReduce : OpKind::kBroadcast, deps, s));
    }
    for (int i = 0; i < n; ++i) {
      last[static_cast<std::size_t>((i + 1) % n)] = sent[static_cast<std::size_t>(i)];
    }
  }
  return schedule;
}

/// 0..n-1.
inline std::vector<int> identity_order(int n) {
  std::vector<int> order;
  for (int i = 0; i < n; ++i) order.push_back(i);
  return order;
}

/// Simulates one broadcast message of `bytes` from node src to node dst on `s`'s NIC and router
/// over the ring or torus `spec` with 50-cycle links (no data check: one message is not an
/// all-reduce).
inline RunResult one_message_run(ScenarioConfig s, const std::string& spec, int src, int dst,
                                 std::uint64_t bytes) {
  s.topology = topology_config(spec, 50);
  s.collective.verify_data = false;
  const Topology topology(s.topology);
  Schedule schedule = empty_schedule(topology.nodes(), 1);
  schedule.add(make_op(src, dst, 0, OpKind::kBroadcast));
  return simulate(s, topology, schedule, bytes);
}

/// Bytes a run serialised on the directed link from vertex src to dst (all ones: no such link).
inline std::uint64_t link_bytes(const RunResult& r, int src, int dst) {
  for (const LinkStat& l : r.links) {
    if (l.src == src && l.dst == dst) return l.bytes;
  }
  return ~std::uint64_t{0};
}

/// A Hamiltonian cycle of the 4x4 mesh/torus (every consecutive pair adjacent).
inline std::vector<int> snake_4x4() {
  return {0, 1, 2, 3, 7, 6, 5, 9, 10, 11, 15, 14, 13, 12, 8, 4};
}

}  // namespace mt::test
