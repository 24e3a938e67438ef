#include "model/collective/tree_emitter.h"

#include <algorithm>
#include <functional>
#include <utility>

namespace mt {

EmitterTree::EmitterTree(int nodes, int root_in)
    : root(root_in),
      parent(static_cast<std::size_t>(nodes), -1),
      children(static_cast<std::size_t>(nodes)),
      reduce_step(static_cast<std::size_t>(nodes), 0),
      broadcast_step(static_cast<std::size_t>(nodes), 0) {}

void EmitterTree::add_edge(int parent_node, int child, int reduce, int broadcast,
                           std::vector<int> link_path) {
  const auto c = static_cast<std::size_t>(child);
  parent[c] = parent_node;
  children[static_cast<std::size_t>(parent_node)].push_back(child);
  reduce_step[c] = reduce;
  broadcast_step[c] = broadcast;
  if (!link_path.empty()) {
    if (path.empty()) path.resize(parent.size());
    path[c] = std::move(link_path);
  }
}

TreeEmitter::TreeEmitter(Schedule& schedule, const Topology& topology,
                         const std::vector<EmitterTree>& trees, TreePipeline pipeline)
    : schedule_(schedule),
      topology_(topology),
      trees_(trees),
      pipeline_(pipeline),
      nodes_(schedule.nodes) {
  pipeline_.sub_chunks = std::max(1, pipeline_.sub_chunks);
  const std::size_t slots = trees.size() * static_cast<std::size_t>(nodes_) *
                            static_cast<std::size_t>(pipeline_.sub_chunks);
  reduce_msg_.assign(slots, -1);
  broadcast_msg_.assign(slots, -1);
  const int w = pipeline_.window;
  if (w <= 0 || w >= pipeline_.sub_chunks) return;
  // The reduce of (p, v) must come after the broadcast of (p - W, v) in step order:
  // reduce_step[v] + p + s(p) > broadcast_step[v] + p - W + s(p - W) for every non-root v.
  for (const EmitterTree& tree : trees) {
    int gap = 0;
    for (std::size_t v = 0; v < tree.parent.size(); ++v) {
      if (tree.parent[v] >= 0)
        gap = std::max(gap, tree.broadcast_step[v] - tree.reduce_step[v] + 1);
    }
    std::vector<int>& shift =
        shift_.emplace_back(static_cast<std::size_t>(pipeline_.sub_chunks), 0);
    for (int p = w; p < pipeline_.sub_chunks; ++p) {
      const auto i = static_cast<std::size_t>(p);
      shift[i] = std::max(shift[i - 1], shift[i - static_cast<std::size_t>(w)] +
                                            (gap - w) * pipeline_.step_per_sub_chunk);
    }
  }
}

std::size_t TreeEmitter::slot(int tree, int node, int sub) const {
  return (static_cast<std::size_t>(tree) * static_cast<std::size_t>(nodes_) +
          static_cast<std::size_t>(node)) *
             static_cast<std::size_t>(pipeline_.sub_chunks) +
         static_cast<std::size_t>(sub);
}

Op TreeEmitter::message(int tree, int sub, int node, int peer, int step, OpKind kind) const {
  Op op;
  op.node = node;
  op.peer = peer;
  op.chunk = tree * pipeline_.sub_chunks + sub;
  op.flow = tree;
  op.step = step + sub * pipeline_.step_per_sub_chunk;
  if (!shift_.empty())
    op.step += shift_[static_cast<std::size_t>(tree)][static_cast<std::size_t>(sub)];
  op.kind = kind;
  return op;
}

int TreeEmitter::reduce(int tree, int node, int sub) {
  const EmitterTree& t = trees_[static_cast<std::size_t>(tree)];
  const auto u = static_cast<std::size_t>(node);
  Op op = message(tree, sub, node, t.parent[u], t.reduce_step[u], OpKind::kReduce);
  for (const int c : t.children[u]) op.deps.push_back(reduce_msg_[slot(tree, c, sub)]);
  if (pipeline_.window > 0 && sub >= pipeline_.window)
    op.deps.push_back(broadcast_msg_[slot(tree, node, sub - pipeline_.window)]);
  if (!t.path.empty()) {
    const std::vector<int>& down = t.path[u];
    for (auto it = down.rbegin(); it != down.rend(); ++it)
      op.path.push_back(topology_.link(*it).reverse);
  }
  return reduce_msg_[slot(tree, node, sub)] = schedule_.add(std::move(op));
}

int TreeEmitter::broadcast(int tree, int node, int sub) {
  const EmitterTree& t = trees_[static_cast<std::size_t>(tree)];
  const auto v = static_cast<std::size_t>(node);
  const int from = t.parent[v];
  Op op = message(tree, sub, from, node, t.broadcast_step[v], OpKind::kBroadcast);
  if (from == t.root) {
    for (const int c : t.children[static_cast<std::size_t>(from)])
      op.deps.push_back(reduce_msg_[slot(tree, c, sub)]);
  } else {
    op.deps.push_back(broadcast_msg_[slot(tree, from, sub)]);
  }
  if (!t.path.empty()) op.path = t.path[v];
  return broadcast_msg_[slot(tree, node, sub)] = schedule_.add(std::move(op));
}

void TreeEmitter::emit(int tree, int sub, const std::vector<int>& up,
                       const std::vector<int>& down) {
  for (const int node : up) reduce(tree, node, sub);
  for (const int node : down) broadcast(tree, node, sub);
}

void TreeEmitter::reduces(const std::vector<std::pair<int, int>>& edges) {
  for (std::size_t k = 0; k < edges.size(); ++k) {
    prefetch_ahead(edges, k, OpKind::kReduce);
    for (int p = 0; p < pipeline_.sub_chunks; ++p) reduce(edges[k].first, edges[k].second, p);
  }
}

void TreeEmitter::broadcasts(const std::vector<std::pair<int, int>>& edges) {
  for (std::size_t k = 0; k < edges.size(); ++k) {
    prefetch_ahead(edges, k, OpKind::kBroadcast);
    for (int p = 0; p < pipeline_.sub_chunks; ++p) broadcast(edges[k].first, edges[k].second, p);
  }
}

void TreeEmitter::prefetch_ahead(const std::vector<std::pair<int, int>>& edges, std::size_t k,
                                 OpKind kind) const {
  // Three stages, each reading only lines the one before fetched: the node's own entries and
  // the slot its message fills; its children's list; the slots of its children's reduces (or
  // of the broadcast into its parent).
  constexpr std::size_t kAhead = 12;
  const bool reducing = kind == OpKind::kReduce;
  const std::vector<int>& sent = reducing ? reduce_msg_ : broadcast_msg_;
  if (k + kAhead < edges.size()) {
    const auto [tree, node] = edges[k + kAhead];
    const EmitterTree& t = trees_[static_cast<std::size_t>(tree)];
    const auto u = static_cast<std::size_t>(node);
    __builtin_prefetch(&t.parent[u]);
    __builtin_prefetch(reducing ? &t.reduce_step[u] : &t.broadcast_step[u]);
    if (reducing) __builtin_prefetch(&t.children[u]);
    __builtin_prefetch(&sent[slot(tree, node, 0)], 1);
  }
  if (reducing && k + 2 * kAhead / 3 < edges.size()) {
    const auto [tree, node] = edges[k + 2 * kAhead / 3];
    const std::vector<int>& children =
        trees_[static_cast<std::size_t>(tree)].children[static_cast<std::size_t>(node)];
    if (!children.empty()) __builtin_prefetch(children.data());
  }
  if (k + kAhead / 3 < edges.size()) {
    const auto [tree, node] = edges[k + kAhead / 3];
    const EmitterTree& t = trees_[static_cast<std::size_t>(tree)];
    const auto u = static_cast<std::size_t>(node);
    if (reducing) {
      for (const int c : t.children[u]) __builtin_prefetch(&reduce_msg_[slot(tree, c, 0)]);
    } else if (t.parent[u] >= 0) {
      __builtin_prefetch(&broadcast_msg_[slot(tree, t.parent[u], 0)]);
    }
  }
}

RootedTree rooted_tree(const std::vector<int>& parent) {
  const std::size_t n = parent.size();
  RootedTree tree;
  tree.children.resize(n);
  tree.depth.assign(n, 0);
  tree.height.assign(n, 0);
  for (std::size_t r = 0; r < n; ++r) {
    if (parent[r] < 0) {
      tree.root = static_cast<int>(r);
    } else {
      tree.children[static_cast<std::size_t>(parent[r])].push_back(static_cast<int>(r));
    }
  }
  if (tree.root < 0) return tree;
  std::function<void(int, int)> walk = [&](int u, int d) {
    const auto uu = static_cast<std::size_t>(u);
    tree.depth[uu] = d;
    tree.preorder.push_back(u);
    for (const int c : tree.children[uu]) {
      walk(c, d + 1);
      tree.height[uu] = std::max(tree.height[uu], tree.height[static_cast<std::size_t>(c)] + 1);
    }
  };
  walk(tree.root, 0);
  return tree;
}

}  // namespace mt
