#pragma once
// Pipelined all-reduce over link-disjoint directed rings chosen per topology: on a 2D torus the
// two edge-disjoint Hamiltonian cycles of a diagonal decomposition, each in both directions (4
// rings, every directed link and NIC port busy); on a 3D torus three such cycles (6 rings); on
// meshes, rings and other direct topologies one Hamiltonian cycle in both directions; on switch
// topologies a switch-grouped ring per NIC port. Each ring carries an equal share of the buffer,
// split into pipeline sub-chunks per ring position so large messages stream.

#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// Directed rings over all endpoints: rings[k][i] sends to rings[k][(i+1) % N].
struct RingSet {
  std::vector<std::vector<int>> rings;  ///< endpoint orders, each a permutation of 0..N-1
  /// True when every consecutive pair of every ring is one direct link and no directed link is
  /// used by two rings (contention-free by construction).
  bool link_disjoint = false;
  const char* method = "";  ///< how the rings were found, e.g. "torus diagonal decomposition"
};

/// Two edge-disjoint Hamiltonian cycles of a 2D torus X x Y (both dims >= 3) from a diagonal
/// decomposition: with g = gcd(X, Y), node (x, y) of diagonal class c = (x + y) mod g leaves the
/// first cycle eastwards when c < a and southwards otherwise, the second cycle the other way.
/// Returns the two cycles as endpoint orders (first a = 1..g-1 for which both are Hamiltonian),
/// or an empty vector when the topology is not such a torus or no a works (e.g. gcd(X, Y) = 1).
std::vector<std::vector<int>> torus_hamiltonian_decomposition(const Topology& topology);

/// Three edge-disjoint Hamiltonian cycles of a 3D torus X x Y x Z (every dimension >= 3), which
/// together use every link: the layers' 2D decomposition H1, H2 (torus_hamiltonian_decomposition
/// on X x Y); H1 x the Z dimension is a 2D torus XY x Z, decomposed the same way into A and B;
/// the Z layer copies of H2 are then merged into one cycle, layer pair by layer pair, by
/// exchanging a square (two H2 edges of adjacent layers against the two vertical links between
/// them) with whichever of A or B holds both vertical links and stays Hamiltonian after the swap.
/// Returns {A, B, H2-merged} as endpoint orders, or an empty vector when the topology is not such
/// a torus or no square works.
std::vector<std::vector<int>> torus3d_hamiltonian_decomposition(const Topology& topology);

/// Endpoint order for a ring on a switch topology: endpoints grouped by their switch, switches in
/// the order of a cycle of the switch graph when one exists among the endpoint switches (so every
/// switch change is one switch-to-switch hop), else by switch id.
std::vector<int> switch_ring_order(const Topology& topology);

/// The rings used by `disjoint_rings` (see the header comment); `ports` <= 0 means the
/// topology's ports_per_node(). The number of rings never exceeds the NIC ports.
RingSet find_disjoint_rings(const Topology& topology, int ports = 0);

/// `disjoint_rings`: R rings from find_disjoint_rings(), chunks R x N x pipeline; ring k owns
/// chunks [k N P, (k+1) N P) in N groups of P; ring reduce-scatter then all-gather, 2(N-1) steps,
/// flow k per ring; a sub-chunk depends only on its own arrivals, so sub-chunks stream.
/// P = DisjointRingsParams::pipeline, R at most its rings. Throws AlgorithmError for N < 2.
Schedule build_disjoint_rings(const Topology& topology, const DisjointRingsParams& params,
                              const BuildContext& context);

}  // namespace mt
