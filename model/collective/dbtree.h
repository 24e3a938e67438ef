#pragma once
// NCCL-style double binary tree all-reduce.

#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// Parent of every rank in one binary tree (-1 at the root).
using TreeParents = std::vector<int>;

/// NCCL's binary tree over ranks 0..n-1: rank r with lowest set bit b has parent
/// (r ^ b) | (b << 1), or r ^ b when that is out of range; rank 0 is the root with one child.
TreeParents binary_tree_parents(int n);

/// The two complementary trees: tree 0 = binary_tree_parents(n); tree 1 = its mirror
/// (rank r -> n-1-r) for even n, its shift by one (r -> r+1 mod n) for odd n. Every interior
/// node of one tree is a leaf of the other (for even n; odd n: all but at most one).
std::vector<TreeParents> double_binary_trees(int n);

/// `dbtree`: ranks are endpoint ids. Each tree carries half of the data split into
/// DbtreeParams::pipeline chunks: tree t chunk p is chunk t*pipeline + p, flow t. Per chunk the
/// data is reduced up the tree (a node sends once all its children's messages arrived) and then
/// broadcast down. Step of a reduce send of chunk p by a node of height h (leaves 0) is p + h;
/// of a broadcast by a node at depth d (root 0) is p + H + d, H = the tree's height; total
/// steps P + 2H - 1 for the taller tree. Works for every N >= 2. steps=colored and
/// phases=separate: DbtreeSteps, DbtreePhases.
Schedule build_dbtree(const Topology& topology, const DbtreeParams& params,
                      const BuildContext& context);

}  // namespace mt
