#include "model/collective/dbtree.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>

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

namespace {

int trailing_zeros(int r) {
  int z = 0;
  while (r > 0 && (r & 1) == 0) {
    r >>= 1;
    ++z;
  }
  return z;
}

/// Sanders et al.'s two-colouring of the double binary tree (even n): colour[t][r] is the colour
/// of rank r's edge to its parent in tree t. Interior ranks of a tree (even ranks in tree 0, odd
/// ones in tree 1) take their parent's colour, flipped when n/2 is odd, flipped again when the
/// parent is below them in tree 0 (above them in tree 1); the roots count as 0 (tree 0) and 1
/// (tree 1); a rank's leaf edge in one tree takes the other colour than its edge in the other.
std::vector<std::vector<int>> two_tree_colours(const std::vector<TreeParents>& trees) {
  const int n = static_cast<int>(trees[0].size());
  std::vector<std::vector<int>> colour(2, std::vector<int>(static_cast<size_t>(n), -1));
  const int root0 =
      static_cast<int>(std::find(trees[0].begin(), trees[0].end(), -1) - trees[0].begin());
  const int root1 =
      static_cast<int>(std::find(trees[1].begin(), trees[1].end(), -1) - trees[1].begin());
  std::function<int(int)> interior = [&](int r) {
    if (r == root0) return 0;
    if (r == root1) return 1;
    const int t = r % 2;
    int& c = colour[static_cast<size_t>(t)][static_cast<size_t>(r)];
    if (c >= 0) return c;
    const int parent = trees[static_cast<size_t>(t)][static_cast<size_t>(r)];
    const int flip = (n / 2) % 2;
    c = interior(parent) ^ flip ^ (t == 0 ? parent < r : parent > r);
    return c;
  };
  for (int r = 0; r < n; ++r)
    colour[static_cast<size_t>(r % 2)][static_cast<size_t>(r)] = interior(r);
  for (int r = 0; r < n; ++r) {
    const int leaf_tree = 1 - r % 2;
    colour[static_cast<size_t>(leaf_tree)][static_cast<size_t>(r)] =
        1 - colour[static_cast<size_t>(r % 2)][static_cast<size_t>(r)];
  }
  return colour;
}

// Both stage assignments start with colour 1 and flip the colour every stage; a rank's stage is
// -1 at the root.

/// Reduce sub-steps of one tree, the leaves' level (`level` 0) first: each stage sends the edges
/// of one colour among the ranks of the current level.
std::vector<int> reduce_stages(const std::vector<int>& colour, const std::vector<int>& level) {
  const int n = static_cast<int>(level.size());
  std::vector<int> stage(static_cast<size_t>(n), -1);
  int c = 1;
  int next = 0;
  const int top = *std::max_element(level.begin(), level.end());
  for (int l = 0; l <= top; ++l) {
    int left = static_cast<int>(std::count(level.begin(), level.end(), l));
    while (left > 0) {
      for (int r = 0; r < n; ++r) {
        if (level[static_cast<size_t>(r)] == l && colour[static_cast<size_t>(r)] == c) {
          stage[static_cast<size_t>(r)] = next;
          --left;
        }
      }
      ++next;
      c ^= 1;
    }
  }
  return stage;
}

/// Broadcast sub-steps of one tree, the root's children first: each stage sends the edges of one
/// colour among the ranks whose parent already has the data.
std::vector<int> broadcast_stages(const TreeParents& parent, const std::vector<int>& colour) {
  const int n = static_cast<int>(parent.size());
  std::vector<int> stage(static_cast<size_t>(n), -1);
  int c = 1;
  int next = 0;
  std::vector<int> ready;
  for (int r = 0; r < n; ++r) {
    if (parent[static_cast<size_t>(r)] >= 0 &&
        parent[static_cast<size_t>(parent[static_cast<size_t>(r)])] < 0)
      ready.push_back(r);
  }
  while (!ready.empty()) {
    std::vector<int> later;
    for (int r : ready) {
      if (colour[static_cast<size_t>(r)] != c) {
        later.push_back(r);
        continue;
      }
      stage[static_cast<size_t>(r)] = next;
      for (int k = 0; k < n; ++k) {
        if (parent[static_cast<size_t>(k)] == r) later.push_back(k);
      }
    }
    ready = std::move(later);
    ++next;
    c ^= 1;
  }
  return stage;
}

/// dbtree steps=colored: Sanders et al.'s two-tree schedule as the MultiTree authors' simulator
/// builds it. Sub-flow s of tree t is sent by a rank at step 2s + its colour stage (reduce), so a
/// rank alternates between its two trees; with `separate` phases a rank broadcasts only once
/// every contribution of both trees has reached it.
Schedule build_colored(const Topology& topology, int pipeline, bool separate) {
  const int n = topology.nodes();
  if (n % 2 != 0) {
    throw AlgorithmError("dbtree steps=colored needs an even number of endpoints, got " +
                         std::to_string(n));
  }
  const auto trees = double_binary_trees(n);
  const auto colour = two_tree_colours(trees);
  Schedule schedule = new_schedule("dbtree", topology, std::int64_t{2} * pipeline);
  std::vector<std::vector<int>> up(2), down(2);
  int reduce_steps = 0;
  for (int t = 0; t < 2; ++t) {
    // Level of a rank: the trailing zeros of its rank in tree 0, of its mirror in tree 1.
    std::vector<int> level(static_cast<size_t>(n));
    for (int r = 0; r < n; ++r) {
      const int id = t == 0 ? r : n - 1 - r;
      level[static_cast<size_t>(r)] =
          trees[static_cast<size_t>(t)][static_cast<size_t>(r)] < 0 ? -1 : trailing_zeros(id);
    }
    up[static_cast<size_t>(t)] = reduce_stages(colour[static_cast<size_t>(t)], level);
    down[static_cast<size_t>(t)] =
        broadcast_stages(trees[static_cast<size_t>(t)], colour[static_cast<size_t>(t)]);
    const int stages =
        *std::max_element(up[static_cast<size_t>(t)].begin(), up[static_cast<size_t>(t)].end()) + 1;
    reduce_steps = std::max(reduce_steps, 2 * (pipeline - 1) + stages);
  }
  // reduce_msg[t][s][r]: the reduce of sub-flow s of tree t sent by r; bcast_msg: into r.
  auto slot = [&](int t, int s, int r) { return (static_cast<size_t>(t) * pipeline + s) * n + r; };
  std::vector<int> reduce_msg(static_cast<size_t>(2 * pipeline * n), -1);
  std::vector<int> bcast_msg(reduce_msg.size(), -1);
  std::vector<std::vector<int>> received(static_cast<size_t>(n));  // reduces arriving at a rank
  // Ranks in stage order (children before parents going up, parents first going down).
  auto by_stage = [n](const std::vector<int>& stage) {
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return stage[static_cast<size_t>(a)] < stage[static_cast<size_t>(b)];
    });
    return order;
  };
  auto message = [&](int t, int s, int node, int peer, int step, OpKind kind) {
    Op op;
    op.node = node;
    op.peer = peer;
    op.chunk = t * pipeline + s;
    op.flow = t;
    op.step = step;
    op.kind = kind;
    return op;
  };
  for (int t = 0; t < 2; ++t) {
    const TreeParents& parent = trees[static_cast<size_t>(t)];
    const std::vector<int>& stage = up[static_cast<size_t>(t)];
    for (int s = 0; s < pipeline; ++s) {
      for (int r : by_stage(stage)) {
        const int p = parent[static_cast<size_t>(r)];
        if (p < 0) continue;
        Op op = message(t, s, r, p, 2 * s + stage[static_cast<size_t>(r)], OpKind::kReduce);
        for (int c = 0; c < n; ++c) {
          if (parent[static_cast<size_t>(c)] == r) op.deps.push_back(reduce_msg[slot(t, s, c)]);
        }
        const int id = schedule.add(std::move(op));
        reduce_msg[slot(t, s, r)] = id;
        received[static_cast<size_t>(p)].push_back(id);
      }
    }
  }
  for (int t = 0; t < 2; ++t) {
    const TreeParents& parent = trees[static_cast<size_t>(t)];
    const std::vector<int>& stage = down[static_cast<size_t>(t)];
    for (int s = 0; s < pipeline; ++s) {
      for (int c : by_stage(stage)) {
        const int p = parent[static_cast<size_t>(c)];
        if (p < 0) continue;
        Op op = message(t, s, p, c, reduce_steps + 2 * s + stage[static_cast<size_t>(c)],
                        OpKind::kBroadcast);
        if (parent[static_cast<size_t>(p)] >= 0) {
          op.deps.push_back(bcast_msg[slot(t, s, p)]);
        } else {
          for (int k = 0; k < n; ++k) {
            if (parent[static_cast<size_t>(k)] == p) op.deps.push_back(reduce_msg[slot(t, s, k)]);
          }
        }
        if (separate) {
          for (int id : received[static_cast<size_t>(p)]) op.deps.push_back(id);
        }
        std::sort(op.deps.begin(), op.deps.end());
        op.deps.erase(std::unique(op.deps.begin(), op.deps.end()), op.deps.end());
        bcast_msg[slot(t, s, c)] = schedule.add(std::move(op));
      }
    }
  }
  return sort_by_step(schedule);
}

}  // namespace

Schedule build_dbtree(const Topology& topology, const DbtreeParams& params, const BuildContext&) {
  const int pipeline = params.pipeline;
  require_min_nodes("dbtree", topology);
  if (params.steps == DbtreeSteps::kColored) {
    return build_colored(topology, pipeline, params.phases == DbtreePhases::kSeparate);
  }
  if (params.phases == DbtreePhases::kSeparate) {
    throw AlgorithmError("dbtree phases=separate needs steps=colored");
  }
  const int n = topology.nodes();
  const auto trees = double_binary_trees(n);

  Schedule schedule = new_schedule("dbtree", topology, std::int64_t{2} * pipeline);

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
