#include "model/collective/tree_packing.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <tuple>
#include <utility>

#include "model/collective/cost_model.h"
#include "model/collective/tree_emitter.h"

namespace mt {

namespace {

/// A packed tree hung from its root: breadth-first order (root first), parents, depths,
/// children and subtree heights (hops to the deepest leaf below).
struct OrientedTree {
  std::vector<int> order;
  std::vector<int> parent;
  std::vector<int> depth;
  std::vector<int> height;
  std::vector<std::vector<int>> children;
};

OrientedTree orient(const TreePacking& packing, int r, int n) {
  const auto at = [](int node) { return static_cast<size_t>(node); };
  std::vector<std::vector<int>> adj(at(n));
  for (int e : packing.members[static_cast<size_t>(r)]) {
    const PackingEdge& pe = packing.edges[static_cast<size_t>(e)];
    adj[at(pe.u)].push_back(pe.v);
    adj[at(pe.v)].push_back(pe.u);
  }
  const int root = packing.roots[static_cast<size_t>(r)];
  OrientedTree tree;
  tree.order = {root};
  tree.parent.assign(at(n), -1);
  tree.depth.assign(at(n), 0);
  tree.height.assign(at(n), 0);
  tree.children.resize(at(n));
  tree.parent[at(root)] = root;
  for (size_t i = 0; i < tree.order.size(); ++i) {
    const int x = tree.order[i];
    for (int y : adj[at(x)]) {
      if (tree.parent[at(y)] >= 0) continue;
      tree.parent[at(y)] = x;
      tree.depth[at(y)] = tree.depth[at(x)] + 1;
      tree.children[at(x)].push_back(y);
      tree.order.push_back(y);
    }
  }
  for (auto it = tree.order.rbegin(); it != tree.order.rend(); ++it) {
    for (int c : tree.children[at(*it)])
      tree.height[at(*it)] = std::max(tree.height[at(*it)], tree.height[at(c)] + 1);
  }
  return tree;
}

}  // namespace

int tree_packing_pipeline(int trees, int height, std::uint64_t bytes, bool short_messages) {
  const std::uint64_t t = static_cast<std::uint64_t>(std::max(1, trees));
  std::uint64_t by_size = bytes / (t * kTreePackingMessageBytes);
  if (short_messages) {
    const std::uint64_t h = static_cast<std::uint64_t>(std::max(1, height));
    const std::uint64_t x = bytes / t * h / kTreePackingMessageFcScaleBytes;  // floor(sqrt(x)):
    by_size = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(x)));
    while (by_size * by_size > x) --by_size;
    while ((by_size + 1) * (by_size + 1) <= x) ++by_size;
  }
  const std::uint64_t cap = std::max<std::uint64_t>(
      1, (short_messages ? kTreePackingMaxShortChunks : kTreePackingMaxChunks) / t);
  return static_cast<int>(std::max<std::uint64_t>(1, std::min(by_size, cap)));
}

int tree_packing_window(const Topology& topology, int trees, int height, int pipeline,
                        std::uint64_t bytes, const BuildContext& context) {
  if (!context.hardware_issue || pipeline <= 2 * height) return 0;
  double hop = 0;  // the slowest hop: wire latency, router pipeline and one message's serialisation
  double per_cycle = 0;
  for (const Link& link : topology.links()) {
    hop = std::max(hop, static_cast<double>(link.latency_cycles));
    per_cycle = per_cycle == 0 ? link.bytes_per_cycle : std::min(per_cycle, link.bytes_per_cycle);
  }
  const double message = static_cast<double>(bytes) / trees / pipeline;
  hop += context.cost.per_hop_cycles + message / std::max(per_cycle, 1e-9);
  // A tree starts a sub-chunk about every bound / pipeline cycles at full rate.
  const double interval =
      bandwidth_bound_cycles(topology, topology.ports_per_node(), bytes) / pipeline;
  const double needed = 1.5 * 2 * height * hop / std::max(interval, 1.0);
  return std::max(2 * height, static_cast<int>(std::ceil(needed)));
}

Schedule build_tree_packing(const Topology& topology, const TreePackingParams& params,
                            const BuildContext& context) {
  const int max_trees = params.trees;
  require_min_nodes("tree_packing", topology);
  const TreePacking packing = pack_spanning_trees(topology, max_trees);
  const std::uint64_t bytes =
      params.bytes.value_or(context.bytes > 0 ? context.bytes : kTreePackingDefaultBytes);
  const int tallest = *std::max_element(packing.heights.begin(), packing.heights.end());
  // Short messages under message flow control, except for the hardware scheduler's step-ordered
  // table (its windows stall on them: see tree_packing_pipeline); a planned table takes them.
  const bool short_messages =
      context.cost.head_per_message && (!context.hardware_issue || context.planned_table_order);
  const int pipeline = params.pipeline.value_or(
      tree_packing_pipeline(packing.trees, tallest, bytes, short_messages));
  const int n = topology.nodes();
  Schedule schedule =
      new_schedule("tree_packing", topology, std::int64_t{packing.trees} * pipeline);
  // Per tree: reduce leaves first (breadth-first order reversed), broadcast root first.
  std::vector<EmitterTree> emitter_trees;
  std::vector<std::vector<int>> up, down;
  for (int r = 0; r < packing.trees; ++r) {
    const OrientedTree tree = orient(packing, r, n);
    const int root = tree.order.front();
    const auto at = [](int node) { return static_cast<size_t>(node); };
    EmitterTree& emitted = emitter_trees.emplace_back(n, root);
    std::vector<int>& down_r = down.emplace_back();
    for (int v : tree.order) {
      if (v == root) continue;
      const int u = tree.parent[at(v)];
      emitted.add_edge(u, v, tree.height[at(v)], tree.height[at(root)] + tree.depth[at(u)]);
      down_r.push_back(v);
    }
    up.emplace_back(down_r.rbegin(), down_r.rend());
  }
  TreePipeline shape;
  shape.sub_chunks = pipeline;
  shape.step_per_sub_chunk = 1;
  shape.window = params.window.value_or(
      tree_packing_window(topology, packing.trees, tallest, pipeline, bytes, context));
  TreeEmitter emitter(schedule, topology, emitter_trees, shape);
  // Sub-chunk outer, tree inner: within a step, earlier sub-chunks come first in program order.
  for (int p = 0; p < pipeline; ++p) {
    for (int r = 0; r < packing.trees; ++r)
      emitter.emit(r, p, up[static_cast<size_t>(r)], down[static_cast<size_t>(r)]);
  }
  return sort_by_step(schedule);
}

}  // namespace mt
