#pragma once
// Improved MultiTree constructions (`multitree_opt`): per-step maximum matchings on direct
// topologies, local-first two-level trees on switch topologies; emitted with the published
// schedule shape (multitree.h), optionally pipelined.

#include "model/collective/algorithm.h"
#include "model/collective/multitree.h"
#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// Lower bound on the steps of any MultiTree-style construction (one chunk per tree edge per
/// step): the larger of step_lower_bound() (ceil(N(N-1) / usable links)) and the per-endpoint
/// form ceil((N-1) / min over endpoints of min(ports, in-links)): every endpoint must receive one
/// edge of each of the other N-1 trees (e.g. 32 on an 8x8 mesh, whose corners have 2 links).
int multitree_step_bound(const Topology& topology);

/// Improved construction (`multitree_opt`). On direct topologies whose NIC ports cover every
/// link, each step is a maximum matching between the free directed links u->v and the pairs
/// (tree r, endpoint v) with u in tree r and v not yet in it, filled in priority order (trees
/// with more endpoints still missing first, then endpoints with fewer in-links, then farther from
/// the root; several tie-break orders are tried and the construction with the fewest steps is
/// kept). It reaches multitree_step_bound() or one more on the 2D tori and meshes tested (see
/// tests/collective/test_beyond.cpp). On switch topologies (and direct ones with fewer ports than
/// links) it is the published link/port reservation made switch-aware: in its turn a tree first
/// adds a child on a parent's own switch, else a first representative on a switch it has not
/// reached, else any child; the published trees degenerate into stars around their roots (depth 1
/// on a fat-tree), these are two-level trees (depth 2 on fattree:k=8, 3 on bigraph:m=4,n=8) whose
/// switch-to-switch hops carry one message per switch and tree.
MultiTreeForest build_multitree_opt_forest(const Topology& topology, int ports = 0);

/// `multitree_opt`: build_multitree_opt_forest() (or with trees=published the published forest) +
/// multitree_pipelined_schedule() with MultiTreeOptParams::pipeline sub-chunks per tree, root
/// exchanges with roots=exchange. Throws AlgorithmError for N < 2.
Schedule build_multitree_opt(const Topology& topology, const MultiTreeOptParams& params,
                             const BuildContext& context);

}  // namespace mt
