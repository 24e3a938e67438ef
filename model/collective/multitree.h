#pragma once
// MultiTree all-reduce (Huang et al., ISCA 2021): one spanning tree per endpoint, built top-down
// one level per time step with every directed link and NIC port used at most once per step.

#include <string>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/schedule.h"
#include "model/core/small_int_list.h"
#include "model/topology/topology.h"

namespace mt {

/// One tree edge, added at construction step `step`.
struct MultiTreeEdge {
  int child = 0;      ///< endpoint joining the tree
  int parent = 0;     ///< endpoint already in the tree at the start of `step`
  int step = 0;       ///< construction time step (0-based)
  SmallIntList path;  ///< directed link ids parent -> child reserved for `step`
};

/// All trees: trees[r] is the tree rooted at endpoint r, edges in insertion order.
struct MultiTreeForest {
  int steps = 0;                                  ///< construction steps T
  std::vector<std::vector<MultiTreeEdge>> trees;  ///< one edge list per root
};

/// Builds the trees as published. Per time step every directed link is used at most once and
/// every endpoint sends at most `ports` and receives at most `ports` new edges (ports <= 0: the
/// topology's ports_per_node()). At the start of a step only endpoints already in a tree may be
/// parents in it. Trees take turns one edge at a time, in rounds over the roots; a step ends
/// when a whole round adds no edge. In its turn a tree tries its parents in insertion order and
/// takes the first addable child: on direct topologies the parent's neighbors in N, S, W, E
/// (-Z, +Z) order over the routed one-hop link; on switch topologies a depth-first search from
/// the parent through switches over links still free this step, taking at each switch its own
/// endpoints first (in link order), then descending to unvisited switches. The first round of
/// the first step visits roots 0..N-1; every later round visits them by descending priority
/// (eccentricity: the largest distance to any endpoint, i.e. 0-equivalent on tori and the
/// distance to the farthest corner on meshes), stable. Throws AlgorithmError when the
/// topology is disconnected.
MultiTreeForest build_multitree_forest(const Topology& topology, int ports = 0);

/// The published link/port reservation made switch-aware (multitree_opt on switch topologies and
/// on direct ones whose NIC ports do not cover every link): in its turn a tree first adds a child
/// on a parent's own switch, else a first representative on a switch it has not reached, else any
/// child (see build_multitree_opt_forest()). ports <= 0: the topology's ports_per_node().
MultiTreeForest build_local_first_forest(const Topology& topology, int ports = 0);

/// Figures reported for a MultiTree construction.
struct MultiTreeStats {
  int construction_steps = 0;  ///< T (the schedule has 2T steps)
  int step_lower_bound = 0;    ///< ceil(N(N-1) / links usable per step), see cost_model.h
  int diameter = 0;            ///< topology diameter, hops
};

/// Builds the forest with the topology's ports and reports T, the lower bound and diameter.
MultiTreeStats multitree_stats(const Topology& topology);

/// Turns a forest into the all-reduce schedule: chunk r and flow r belong to tree r (N chunks).
/// Reduce-scatter: the edge of construction step t sends child -> parent at step T-1-t,
/// depending on the child's own children's reduce messages in that tree. All-gather: parent ->
/// child at step T+t, depending on the parent's broadcast from its parent, or at the root on all
/// reduce messages from its children. Paths are the reserved ones (reversed for reduce) on
/// switch topologies, empty (= routing, the same one-hop link) on direct topologies.
Schedule multitree_schedule(const Topology& topology, const MultiTreeForest& forest);

/// `multitree`: build_multitree_forest() + multitree_schedule(); no parameters (the NIC port
/// count comes from the topology). Throws AlgorithmError for N < 2.
Schedule build_multitree(const Topology& topology, const MultiTreeParams& params,
                         const BuildContext& context);

/// Like multitree_schedule() with every tree's chunk split into `pipeline` sub-chunks (chunk
/// r * pipeline + p, flow r) that follow the same edges and steps; each sub-chunk depends only
/// on its own arrivals, so deep trees stream. `name` becomes Schedule::algorithm.
Schedule multitree_pipelined_schedule(const Topology& topology, const MultiTreeForest& forest,
                                      int pipeline, const std::string& name);

}  // namespace mt
