#pragma once
// Ring all-reduce (unidirectional and bidirectional) and the ring phases the 2D ring reuses.

#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// A cyclic order of all endpoints for ring algorithms.
struct RingOrder {
  std::vector<int> order;  ///< endpoint ids; order[i] sends to order[(i+1) % N]
  /// True when consecutive endpoints (and last -> first) are adjacent by a direct link, i.e. a
  /// Hamiltonian cycle of the endpoint graph was found. Always false on switch topologies
  /// (every message crosses switches, order 0..N-1 is used).
  bool hamiltonian = false;
};

/// Finds the ring order: ring: 0..N-1; 2D torus/mesh with an even dimension: boustrophedon
/// (snake) cycle; other direct topologies: depth-first search for a Hamiltonian cycle with a
/// node-expansion limit (Warnsdorff ordering); switch topologies, or when no cycle exists (a
/// bipartite graph with odd N, e.g. a mesh with both dimensions odd) or none is found within
/// the limit: 0..N-1 with routed paths (hamiltonian = false, contention may result).
RingOrder find_ring_order(const Topology& topology);

/// Adds a ring reduce-scatter over `ring` (positions 0..n-1, position i sends to i+1) to
/// `schedule`: `groups[g]` lists the chunk ids of group g (one group per position). At step
/// `first_step + s` position i sends group (i - s) mod n. At the end position i holds group
/// (i + 1) mod n reduced over the ring. Ops are committed step by step in `tracker`.
/// Returns the number of steps (n - 1).
int add_ring_reduce_scatter(Schedule& schedule, ArrivalTracker& tracker,
                            const std::vector<int>& ring,
                            const std::vector<std::vector<int>>& groups, int flow, int first_step);

/// Adds the matching ring all-gather: position i starts with group (i + 1) mod n and at step
/// `first_step + s` sends group (i + 1 - s) mod n (broadcast). Returns n - 1.
int add_ring_all_gather(Schedule& schedule, ArrivalTracker& tracker, const std::vector<int>& ring,
                        const std::vector<std::vector<int>>& groups, int flow, int first_step);

/// `ring`: N chunks over find_ring_order(), reduce-scatter then all-gather, 2(N-1) steps, flow 0.
/// No parameters. Throws AlgorithmError for N < 2.
Schedule build_ring(const Topology& topology, const RingParams& params,
                    const BuildContext& context);

/// `ring_bi`: the ring order clockwise with chunks 0..N-1 (flow 0) and counter-clockwise with
/// chunks N..2N-1 (flow 1) at the same time: 2N chunks, 2(N-1) steps. No parameters.
Schedule build_ring_bi(const Topology& topology, const RingBiParams& params,
                       const BuildContext& context);

}  // namespace mt
