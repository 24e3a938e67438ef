#pragma once
// Recursive halving-doubling (Rabenseifner) all-reduce.

#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// Endpoint of every rank: the identity. With endpoint id = x + X*(y + Y*z) and power-of-two
/// dimensions, rank ^ 2^j for j = 0, 1, ... walks x first (distance 1, 2, 4 hops), then y, then
/// z, so the first (largest) exchanges are between nearest endpoints; on fat-trees/BiGraphs the
/// first exchanges stay under one leaf switch.
std::vector<int> halving_doubling_ranks(const Topology& topology);

/// `halving_doubling`: N = 2^k chunks. Reduce-scatter step j (0..k-1): rank r exchanges with
/// r ^ 2^j, sending the chunks of its current set whose bit j differs from r's (N / 2^(j+1)
/// chunks, one op each); afterwards rank r holds chunk r. All-gather reverses it (bits k-1..0,
/// broadcast). 2k steps. Throws AlgorithmError when N is not a power of two (>= 2).
Schedule build_halving_doubling(const Topology& topology, const HalvingDoublingParams& params,
                                const BuildContext& context);

}  // namespace mt
