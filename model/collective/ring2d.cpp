#include "model/collective/ring2d.h"

#include <algorithm>

#include "model/collective/ring.h"

namespace mt {

namespace {

/// Steps of the rings of one dimension for one half, in one phase.
struct Phase {
  bool rows;     // true: rings along x (one per row), false: along y (one per column)
  bool reverse;  // ring direction: -x / -y when true
  bool gather;   // all-gather instead of reduce-scatter
};

}  // namespace

Schedule build_ring2d(const Topology& topology, const Ring2dParams&, const BuildContext&) {
  const auto& dims = topology.dims();
  if ((topology.kind() != TopologyKind::kTorus && topology.kind() != TopologyKind::kMesh) ||
      dims.size() != 2) {
    throw AlgorithmError("ring2d needs a 2D torus or mesh, got " + topology.name());
  }
  if (dims[0] < 2 || dims[1] < 2) {
    throw AlgorithmError("ring2d needs at least 2 nodes in each dimension, got " + topology.name() +
                         " (one ring: use ring or ring_bi)");
  }
  require_min_nodes("ring2d", topology);
  const int nx = dims[0];
  const int ny = dims[1];
  const int n = nx * ny;
  const int per_half = n;

  Schedule schedule = new_schedule("ring2d", topology, std::int64_t{2} * per_half);
  ArrivalTracker tracker(n, 2 * per_half);

  auto id = [nx](int x, int y) { return x + nx * y; };

  for (int half = 0; half < 2; ++half) {
    const bool rows_first = half == 0;
    const bool reverse = half == 1;
    const int base = half * per_half;
    // Chunk of half: first-dimension group g (0..n1-1), sub-chunk j (0..n2-1) -> base + g*n2 + j,
    // where n1 is the ring size of the first phase and n2 of the second.
    const int n1 = rows_first ? nx : ny;
    const int n2 = rows_first ? ny : nx;
    const Phase phases[4] = {{rows_first, reverse, false},
                             {!rows_first, reverse, false},
                             {!rows_first, reverse, true},
                             {rows_first, reverse, true}};
    int step = 0;
    for (int p = 0; p < 4; ++p) {
      const Phase& ph = phases[p];
      const bool first_dim = (p == 0 || p == 3);
      const int lines = ph.rows ? ny : nx;  // number of rings of this phase
      const int len = ph.rows ? nx : ny;    // ring length
      int steps = 0;
      for (int line = 0; line < lines; ++line) {
        std::vector<int> ring;
        for (int k = 0; k < len; ++k) {
          ring.push_back(ph.rows ? id(k, line) : id(line, k));
        }
        if (reverse) std::reverse(ring.begin(), ring.end());
        std::vector<std::vector<int>> groups(static_cast<size_t>(len));
        if (first_dim) {
          for (int g = 0; g < n1; ++g) {
            for (int j = 0; j < n2; ++j)
              groups[static_cast<size_t>(g)].push_back(base + g * n2 + j);
          }
        } else {
          // After the first-dimension reduce-scatter, position i of a first-dimension ring holds
          // group (i + 1) mod n1. This ring is the line `line` of the second dimension, i.e. a
          // fixed coordinate of the first dimension; find its position on the first ring.
          const int coord = line;  // coordinate along the first dimension
          const int pos = reverse ? n1 - 1 - coord : coord;
          const int g = (pos + 1) % n1;
          for (int j = 0; j < n2; ++j) groups[static_cast<size_t>(j)] = {base + g * n2 + j};
        }
        const int flow = half * 2 + (first_dim ? 0 : 1);
        if (ph.gather) {
          steps = add_ring_all_gather(schedule, tracker, ring, groups, flow, step);
        } else {
          steps = add_ring_reduce_scatter(schedule, tracker, ring, groups, flow, step);
        }
      }
      step += steps;
    }
  }
  // The two halves send in different directions in every step (+x and -y, say): list them in
  // turn, so a NIC that takes a step's messages in list order starts both directions at once.
  return sort_by_step(schedule, StepListing::kFlowsInTurn);
}

}  // namespace mt
