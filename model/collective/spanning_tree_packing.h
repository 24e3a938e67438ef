#pragma once
// Spanning-tree packing of a direct topology: t spanning trees such that every undirected link
// is in at most c of them, with c/t as small as the graph allows (tree_packing's trees).

#include <vector>

#include "model/collective/algorithm.h"
#include "model/topology/topology.h"

namespace mt {

/// One undirected link between two endpoints of a direct topology.
struct PackingEdge {
  int u = 0;  ///< endpoint with the smaller id
  int v = 0;  ///< the other endpoint
};

/// A spanning-tree packing of a direct topology.
struct TreePacking {
  int trees = 0;                          ///< t: spanning trees, each carrying 1/t of the data
  int edge_load = 0;                      ///< c: most trees sharing one undirected link
  std::vector<PackingEdge> edges;         ///< undirected links (parallel links merged), by id
  std::vector<std::vector<int>> members;  ///< per tree: its N-1 edge ids
  std::vector<int> roots;                 ///< per tree: the root (a centre of the tree)
  std::vector<int> heights;               ///< per tree: hops from the root to its deepest leaf
};

/// Finds the packing with the smallest load ratio c/t for t <= max_trees (ties: fewest trees),
/// then shortens the trees by load-preserving edge exchanges between pairs of trees (random ones,
/// then, for trees still taller than the network's radius, ones that re-hang the deepest
/// subtrees from shallower endpoints: the 3D tori). Feasibility
/// per (t, c) is decided exactly by Edmonds' matroid-partition augmenting paths, so a ratio is
/// skipped only when no packing exists. Deterministic (fixed seed). Throws AlgorithmError for a
/// topology with switches or a disconnected one.
TreePacking pack_spanning_trees(const Topology& topology, int max_trees = 32);

}  // namespace mt
