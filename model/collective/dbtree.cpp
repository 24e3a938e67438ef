#include "model/collective/dbtree.h"

#include <algorithm>

#include "model/collective/tree_emitter.h"

namespace mt {

TreeParents binary_tree_parents(int n) {
  TreeParents parent(static_cast<size_t>(std::max(n, 0)), -1);
  for (int r = 1; r < n; ++r) {
    int bit = 1;
    while (bit < n && (bit & r) == 0) bit <<= 1;
    int up = (r ^ bit) | (bit << 1);
    if (up >= n) up = r ^ bit;
    parent[static_cast<size_t>(r)] = up;
  }
  return parent;
}

std::vector<TreeParents> double_binary_trees(int n) {
  TreeParents first = binary_tree_parents(n);
  TreeParents second(static_cast<size_t>(n), -1);
  for (int r = 0; r < n; ++r) {
    if (n % 2 == 0) {
      const int u = first[static_cast<size_t>(n - 1 - r)];
      second[static_cast<size_t>(r)] = u < 0 ? -1 : n - 1 - u;
    } else {
      const int u = first[static_cast<size_t>((r - 1 + n) % n)];
      second[static_cast<size_t>(r)] = u < 0 ? -1 : (u + 1) % n;
    }
  }
  return {first, second};
}

Schedule build_dbtree(const Topology& topology, const TypedParams& params, const BuildContext&) {
  const int pipeline = params.integer("pipeline");
  require_min_nodes("dbtree", topology);
  const int n = topology.nodes();
  const auto trees = double_binary_trees(n);

  Schedule schedule;
  schedule.algorithm = "dbtree";
  schedule.topology = topology.name();
  schedule.nodes = n;
  schedule.num_chunks = 2 * pipeline;

  // Per tree: reduce by height (leaves first, preorder within a height), broadcasts in preorder.
  std::vector<EmitterTree> emitter_trees;
  std::vector<std::vector<int>> up(2), down(2);
  for (int t = 0; t < 2; ++t) {
    const RootedTree tree = rooted_tree(trees[static_cast<size_t>(t)]);
    const int tree_height = tree.height[static_cast<size_t>(tree.root)];
    EmitterTree& emitted = emitter_trees.emplace_back(n, tree.root);
    for (int u : tree.preorder) {
      for (int c : tree.children[static_cast<size_t>(u)]) {
        emitted.add_edge(u, c, tree.height[static_cast<size_t>(c)],
                         tree_height + tree.depth[static_cast<size_t>(u)]);
        down[static_cast<size_t>(t)].push_back(c);
      }
    }
    std::vector<int>& by_height = up[static_cast<size_t>(t)];
    for (int u : tree.preorder) {
      if (u != tree.root) by_height.push_back(u);
    }
    std::stable_sort(by_height.begin(), by_height.end(), [&](int a, int b) {
      return tree.height[static_cast<size_t>(a)] < tree.height[static_cast<size_t>(b)];
    });
  }
  TreeEmitter emitter(schedule, topology, emitter_trees, {pipeline, 1});
  for (int t = 0; t < 2; ++t) {
    for (int p = 0; p < pipeline; ++p)
      emitter.emit(t, p, up[static_cast<size_t>(t)], down[static_cast<size_t>(t)]);
  }
  return sort_by_step(schedule);
}

}  // namespace mt
