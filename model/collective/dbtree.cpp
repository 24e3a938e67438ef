#include "model/collective/dbtree.h"

#include <algorithm>
#include <functional>

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

Schedule build_dbtree(const Topology& topology, const AlgorithmParams& params) {
  check_params("dbtree", params, {"pipeline"});
  const int pipeline = param_int("dbtree", params, "pipeline", 8, 1);
  require_min_nodes("dbtree", topology);
  const int n = topology.nodes();
  const auto trees = double_binary_trees(n);

  Schedule schedule;
  schedule.algorithm = "dbtree";
  schedule.topology = topology.name();
  schedule.nodes = n;
  schedule.num_chunks = 2 * pipeline;

  for (int t = 0; t < 2; ++t) {
    const TreeParents& parent = trees[static_cast<size_t>(t)];
    std::vector<std::vector<int>> children(static_cast<size_t>(n));
    int root = -1;
    for (int r = 0; r < n; ++r) {
      if (parent[static_cast<size_t>(r)] < 0) {
        root = r;
      } else {
        children[static_cast<size_t>(parent[static_cast<size_t>(r)])].push_back(r);
      }
    }
    std::vector<int> height(static_cast<size_t>(n), 0), depth(static_cast<size_t>(n), 0);
    std::vector<int> preorder;
    std::function<void(int, int)> walk = [&](int u, int d) {
      depth[static_cast<size_t>(u)] = d;
      preorder.push_back(u);
      for (int c : children[static_cast<size_t>(u)]) {
        walk(c, d + 1);
        height[static_cast<size_t>(u)] =
            std::max(height[static_cast<size_t>(u)], height[static_cast<size_t>(c)] + 1);
      }
    };
    walk(root, 0);
    const int tree_height = height[static_cast<size_t>(root)];
    // Reduce: nodes in increasing height so children's messages exist before their parent's.
    std::vector<int> by_height = preorder;
    std::stable_sort(by_height.begin(), by_height.end(), [&](int a, int b) {
      return height[static_cast<size_t>(a)] < height[static_cast<size_t>(b)];
    });
    for (int p = 0; p < pipeline; ++p) {
      const int chunk = t * pipeline + p;
      std::vector<int> reduce_msg(static_cast<size_t>(n), -1);  // message node -> parent
      for (int u : by_height) {
        if (u == root) continue;
        Op op;
        op.node = u;
        op.peer = parent[static_cast<size_t>(u)];
        op.chunk = chunk;
        op.flow = t;
        op.step = p + height[static_cast<size_t>(u)];
        op.kind = OpKind::kReduce;
        for (int c : children[static_cast<size_t>(u)])
          op.deps.push_back(reduce_msg[static_cast<size_t>(c)]);
        reduce_msg[static_cast<size_t>(u)] = schedule.add(std::move(op));
      }
      std::vector<int> bcast_in(static_cast<size_t>(n), -1);  // message parent -> node
      for (int u : preorder) {                                // parents before children
        for (int c : children[static_cast<size_t>(u)]) {
          Op op;
          op.node = u;
          op.peer = c;
          op.chunk = chunk;
          op.flow = t;
          op.step = p + tree_height + depth[static_cast<size_t>(u)];
          op.kind = OpKind::kBroadcast;
          if (u == root) {
            for (int cc : children[static_cast<size_t>(u)])
              op.deps.push_back(reduce_msg[static_cast<size_t>(cc)]);
          } else {
            op.deps.push_back(bcast_in[static_cast<size_t>(u)]);
          }
          bcast_in[static_cast<size_t>(c)] = schedule.add(std::move(op));
        }
      }
    }
  }
  return sort_by_step(schedule);
}

}  // namespace mt
