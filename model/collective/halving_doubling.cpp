#include "model/collective/halving_doubling.h"

#include <numeric>

#include "model/core/power_of_two.h"

namespace mt {

std::vector<int> halving_doubling_ranks(const Topology& topology) {
  std::vector<int> ranks(static_cast<size_t>(topology.nodes()));
  std::iota(ranks.begin(), ranks.end(), 0);
  return ranks;
}

Schedule build_halving_doubling(const Topology& topology, const HalvingDoublingParams&,
                                const BuildContext&) {
  require_min_nodes("halving_doubling", topology);
  const int n = topology.nodes();
  if (!is_power_of_two(n)) {
    throw AlgorithmError("halving_doubling needs a power-of-two number of endpoints, topology " +
                         topology.name() + " has " + std::to_string(n));
  }
  int k = 0;
  while ((1 << k) < n) ++k;
  const std::vector<int> node_of = halving_doubling_ranks(topology);

  Schedule schedule = new_schedule("halving_doubling", topology, n);
  ArrivalTracker tracker(n, n);

  auto low_bits_equal = [](int a, int b, int bits) {
    const int mask = (1 << bits) - 1;
    return (a & mask) == (b & mask);
  };
  // Reduce-scatter: before step j rank r holds chunks agreeing with r on bits 0..j-1.
  for (int j = 0; j < k; ++j) {
    for (int r = 0; r < n; ++r) {
      const int partner = r ^ (1 << j);
      for (int c = 0; c < n; ++c) {
        if (!low_bits_equal(c, r, j) || ((c >> j) & 1) == ((r >> j) & 1)) continue;
        Op op;
        op.node = node_of[static_cast<size_t>(r)];
        op.peer = node_of[static_cast<size_t>(partner)];
        op.chunk = c;
        op.flow = 0;
        op.step = j;
        op.kind = OpKind::kReduce;
        tracker.send(schedule, std::move(op));
      }
    }
    tracker.commit();
  }
  // All-gather: before the exchange over bit j rank r holds chunks agreeing with r on bits 0..j.
  for (int j = k - 1; j >= 0; --j) {
    for (int r = 0; r < n; ++r) {
      const int partner = r ^ (1 << j);
      for (int c = 0; c < n; ++c) {
        if (!low_bits_equal(c, r, j + 1)) continue;
        Op op;
        op.node = node_of[static_cast<size_t>(r)];
        op.peer = node_of[static_cast<size_t>(partner)];
        op.chunk = c;
        op.flow = 0;
        op.step = k + (k - 1 - j);
        op.kind = OpKind::kBroadcast;
        tracker.send(schedule, std::move(op));
      }
    }
    tracker.commit();
  }
  return schedule;
}

}  // namespace mt
