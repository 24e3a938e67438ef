#include "model/collective/swing.h"

#include <algorithm>

#include "model/core/power_of_two.h"

namespace mt {

namespace {

int log2_exact(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

}  // namespace

int swing_rho(int s) {
  int rho = 0;
  int term = 1;
  for (int i = 0; i <= s; ++i) {
    rho += term;
    term *= -2;
  }
  return rho;
}

SwingPattern swing_pattern(const Topology& topology, int index) {
  const TopologyKind kind = topology.kind();
  if (kind != TopologyKind::kTorus && kind != TopologyKind::kRing) {
    throw AlgorithmError("swing: topology " + topology.name() +
                         " is not a ring or torus (Swing's peers wrap around every dimension)");
  }
  const std::vector<int>& dims = topology.dims();
  std::vector<int> active;  // dimensions with more than one node
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!is_power_of_two(dims[d])) {
      throw AlgorithmError("swing needs power-of-two dimensions, topology " + topology.name() +
                           " has " + std::to_string(dims[d]) + " in dimension " +
                           std::to_string(d));
    }
    if (dims[d] > 1) active.push_back(static_cast<int>(d));
  }
  if (active.empty()) throw AlgorithmError("swing: topology " + topology.name() + " has 1 node");
  // Step order: round-robin over the active dimensions from the shifted start, each dimension
  // contributing its log2(size) steps in order, exhausted dimensions skipped.
  const int n_active = static_cast<int>(active.size());
  const int shift = (index / 2) % n_active;
  const bool mirrored = index % 2 == 1;
  std::vector<int> left(static_cast<size_t>(n_active));
  for (int a = 0; a < n_active; ++a)
    left[static_cast<size_t>(a)] =
        log2_exact(dims[static_cast<size_t>(active[static_cast<size_t>(a)])]);
  std::vector<std::pair<int, int>> steps;  // (dimension, step within it)
  for (bool more = true; more;) {
    more = false;
    for (int k = 0; k < n_active; ++k) {
      const int a = (shift + k) % n_active;
      const int d = active[static_cast<size_t>(a)];
      const int total = log2_exact(dims[static_cast<size_t>(d)]);
      if (left[static_cast<size_t>(a)] == 0) continue;
      steps.emplace_back(d, total - left[static_cast<size_t>(a)]);
      --left[static_cast<size_t>(a)];
      more = true;
    }
  }
  const int n = topology.nodes();
  SwingPattern pattern;
  for (const auto& [d, j] : steps) {
    int stride = 1;
    for (int e = 0; e < d; ++e) stride *= dims[static_cast<size_t>(e)];
    const int size = dims[static_cast<size_t>(d)];
    const int rho = mirrored ? -swing_rho(j) : swing_rho(j);
    std::vector<int> peer(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
      const int x = (r / stride) % size;
      const int to = ((x % 2 == 0 ? x + rho : x - rho) % size + size) % size;
      peer[static_cast<size_t>(r)] = r + (to - x) * stride;
    }
    pattern.peers.push_back(std::move(peer));
    pattern.dims.push_back(d);
  }
  return pattern;
}

namespace {

// The latency-optimal variant: each collective's share is one chunk that every node exchanges
// whole with its step-s peer (recursive doubling over the Swing peers: log2 N steps). Both ends
// of an exchange send and receive the same chunk in one step, so each received message is
// staged (Op::apply_after = the receiver's own message to the sender) and reduced only once the
// receiver's own has been issued.
Schedule swing_latency(const Topology& topology, int collectives, int steps) {
  const int n = topology.nodes();
  Schedule schedule = new_schedule("swing", topology, collectives);
  ArrivalTracker tracker(n, collectives);
  std::vector<SwingPattern> patterns;
  for (int c = 0; c < collectives; ++c) patterns.push_back(swing_pattern(topology, c));
  std::vector<int> sent(static_cast<size_t>(n));  // this step's message id per sender
  for (int s = 0; s < steps; ++s) {
    for (int c = 0; c < collectives; ++c) {
      const std::vector<int>& peer = patterns[static_cast<size_t>(c)].peers[static_cast<size_t>(s)];
      for (int r = 0; r < n; ++r) {
        Op op;
        op.node = r;
        op.peer = peer[static_cast<size_t>(r)];
        op.chunk = c;
        op.flow = c;
        op.step = s;
        op.kind = OpKind::kReduce;
        sent[static_cast<size_t>(r)] = tracker.send(schedule, std::move(op));
      }
      for (int r = 0; r < n; ++r) {
        schedule.ops[static_cast<size_t>(sent[static_cast<size_t>(r)])].apply_after =
            sent[static_cast<size_t>(peer[static_cast<size_t>(r)])];
      }
    }
    tracker.commit();
  }
  return schedule;
}

}  // namespace

Schedule build_swing(const Topology& topology, const SwingParams& params, const BuildContext&) {
  require_min_nodes("swing", topology);
  const int n = topology.nodes();
  const SwingPattern first = swing_pattern(topology, 0);
  int active = 0;
  for (int d : topology.dims()) active += d > 1 ? 1 : 0;
  const int ports = std::max(1, topology.ports_per_node());
  const int collectives = params.collectives.value_or(std::min(ports, 2 * active));
  const int steps = static_cast<int>(first.peers.size());
  if (params.variant == SwingVariant::kLatency) return swing_latency(topology, collectives, steps);

  Schedule schedule = new_schedule("swing", topology, std::int64_t{collectives} * n);
  ArrivalTracker tracker(n, schedule.num_chunks);
  std::vector<SwingPattern> patterns;
  // reach[c][s][v]: nodes collective c's node v reaches with steps s..L-1 (v included), sorted.
  std::vector<std::vector<std::vector<std::vector<int>>>> reach(static_cast<size_t>(collectives));
  for (int c = 0; c < collectives; ++c) {
    patterns.push_back(c == 0 ? first : swing_pattern(topology, c));
    auto& rc = reach[static_cast<size_t>(c)];
    rc.assign(static_cast<size_t>(steps) + 1,
              std::vector<std::vector<int>>(static_cast<size_t>(n)));
    for (int v = 0; v < n; ++v) rc[static_cast<size_t>(steps)][static_cast<size_t>(v)] = {v};
    for (int s = steps - 1; s >= 0; --s) {
      for (int v = 0; v < n; ++v) {
        const int q = patterns.back().peers[static_cast<size_t>(s)][static_cast<size_t>(v)];
        std::vector<int> set = rc[static_cast<size_t>(s) + 1][static_cast<size_t>(v)];
        const auto& other = rc[static_cast<size_t>(s) + 1][static_cast<size_t>(q)];
        set.insert(set.end(), other.begin(), other.end());
        std::sort(set.begin(), set.end());
        if (std::adjacent_find(set.begin(), set.end()) != set.end()) {
          throw AlgorithmError("swing: internal error: step " + std::to_string(s) + " of " +
                               topology.name() + " reaches a node twice from node " +
                               std::to_string(v));
        }
        rc[static_cast<size_t>(s)][static_cast<size_t>(v)] = std::move(set);
      }
    }
  }
  auto send = [&](int c, int s, int r, int block, int step, OpKind kind) {
    Op op;
    op.node = r;
    op.peer =
        patterns[static_cast<size_t>(c)].peers[static_cast<size_t>(s)][static_cast<size_t>(r)];
    op.chunk = c * n + block;
    op.flow = c;
    op.step = step;
    op.kind = kind;
    tracker.send(schedule, std::move(op));
  };
  // Reduce-scatter: at step s node r holds the blocks it reaches from step s on; it sends its
  // peer q the ones q reaches from s + 1 on and keeps its own.
  for (int s = 0; s < steps; ++s) {
    for (int c = 0; c < collectives; ++c) {
      const auto& rc = reach[static_cast<size_t>(c)];
      for (int r = 0; r < n; ++r) {
        const int q =
            patterns[static_cast<size_t>(c)].peers[static_cast<size_t>(s)][static_cast<size_t>(r)];
        for (int b : rc[static_cast<size_t>(s) + 1][static_cast<size_t>(q)])
          send(c, s, r, b, s, OpKind::kReduce);
      }
    }
    tracker.commit();
  }
  // All-gather, steps in reverse: node r sends the finished blocks it holds (those it reaches
  // from s + 1 on) to its step-s peer.
  for (int s = steps - 1; s >= 0; --s) {
    for (int c = 0; c < collectives; ++c) {
      const auto& rc = reach[static_cast<size_t>(c)];
      for (int r = 0; r < n; ++r) {
        for (int b : rc[static_cast<size_t>(s) + 1][static_cast<size_t>(r)])
          send(c, s, r, b, steps + (steps - 1 - s), OpKind::kBroadcast);
      }
    }
    tracker.commit();
  }
  return schedule;
}

}  // namespace mt
