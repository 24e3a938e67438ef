#pragma once
// Swing all-reduce (De Sensi, Bonato, Saam, Hoefler, NSDI 2024, "Swing: Short-cutting Rings for
// Higher Bandwidth Allreduce") on rings and 1D/2D/3D tori with power-of-two dimensions.
//
// At step s of a dimension node r talks to r + rho(s) when its coordinate in that dimension is
// even and to r - rho(s) when it is odd (mod the dimension's size), rho(s) = sum_{i=0..s} (-2)^i
// = 1, -1, 3, -5, 11, ...: the peers "swing" left and right and stay closer than recursive
// doubling's 2^s. Multi-dimensional tori cycle over the dimensions step by step; with several NIC
// ports, several collectives run side by side on equal shares of the data, each starting at
// another dimension (shifted) and half of them going the other way (mirrored: r - rho for even
// coordinates), so every step keeps every port busy.

#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// rho(s) = sum_{i=0..s} (-2)^i: 1, -1, 3, -5, 11, -21, ... (s >= 0).
int swing_rho(int s);

/// The communication pattern of one Swing collective on `topology`: peers[s][r] is node r's
/// peer at step s (each step an involution: peers[s][peers[s][r]] == r), and the step's
/// dimension. Collective `index` starts at active dimension (index / 2) mod D and is mirrored
/// when index is odd. Throws AlgorithmError unless the topology is a ring or torus whose
/// dimensions are powers of two (size 1 dimensions are skipped).
struct SwingPattern {
  std::vector<std::vector<int>> peers;  ///< [step][node] -> peer
  std::vector<int> dims;                ///< [step] -> dimension index it moves in
};
SwingPattern swing_pattern(const Topology& topology, int index);

/// `swing`: the bandwidth-optimal variant: a reduce-scatter by recursive halving over the Swing
/// peers, then the mirror all-gather. Node r keeps the blocks of the nodes it can still reach in
/// the remaining steps and sends its peer q the blocks q can reach (N / 2^(s+1) blocks at step
/// s, one message each); block b ends reduced at node b. C collectives (SwingParams::collectives,
/// when absent min(ports, 2 x active dimensions)) each own N chunks: C x N chunks, 2 log2(N) steps,
/// 2 C N (N - 1) messages, flow = collective. SwingVariant::kLatency: the
/// latency-optimal variant, recursive doubling over the same peers: each collective's share
/// is one chunk that every node exchanges whole with its step-s peer, log2(N) steps, C N log2(N)
/// messages; each received message is staged (Op::apply_after: reduced once the receiver's own
/// message of the step has been issued, so neither side sends data already holding the other's).
Schedule build_swing(const Topology& topology, const SwingParams& params,
                     const BuildContext& context);

}  // namespace mt
