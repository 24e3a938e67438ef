#include "model/collective/multitree.h"

#include <algorithm>
#include <numeric>

#include "model/collective/cost_model.h"

namespace mt {

namespace {

/// Per-step resource state of the construction.
struct StepState {
  std::vector<char> link_used;
  std::vector<int> sent;
  std::vector<int> received;
};

class ForestBuilder {
 public:
  ForestBuilder(const Topology& topology, int ports)
      : topo_(topology),
        n_(topology.nodes()),
        ports_(ports),
        in_tree_(static_cast<size_t>(n_) * static_cast<size_t>(n_), 0),
        members_(static_cast<size_t>(n_)) {
    for (int r = 0; r < n_; ++r) {
      members_[static_cast<size_t>(r)] = {r};
      in_tree_[index(r, r)] = 1;
    }
    if (topo_.is_direct()) {
      neighbor_links_.resize(static_cast<size_t>(n_));
      for (int u = 0; u < n_; ++u) {
        for (int v : topo_.neighbors(u)) {
          neighbor_links_[static_cast<size_t>(u)].emplace_back(v, topo_.route(u, v));
        }
      }
    }
  }

  MultiTreeForest build() {
    MultiTreeForest forest;
    forest.trees.resize(static_cast<size_t>(n_));
    std::vector<int> priority(static_cast<size_t>(n_), 0);
    for (int u = 0; u < n_; ++u) {
      for (int v = 0; v < n_; ++v) {
        priority[static_cast<size_t>(u)] =
            std::max(priority[static_cast<size_t>(u)], topo_.distance(u, v));
      }
    }
    std::vector<int> order(static_cast<size_t>(n_));
    std::iota(order.begin(), order.end(), 0);
    std::vector<int> sorted = order;
    std::stable_sort(sorted.begin(), sorted.end(), [&](int a, int b) {
      return priority[static_cast<size_t>(a)] > priority[static_cast<size_t>(b)];
    });

    int complete = 0;
    int step = 0;
    while (complete < n_) {
      StepState st{std::vector<char>(topo_.links().size(), 0),
                   std::vector<int>(static_cast<size_t>(n_), 0),
                   std::vector<int>(static_cast<size_t>(n_), 0)};
      std::vector<size_t> parents_at_start(static_cast<size_t>(n_));
      for (int r = 0; r < n_; ++r)
        parents_at_start[static_cast<size_t>(r)] = members_[static_cast<size_t>(r)].size();
      int added_this_step = 0;
      bool any = true;
      while (any) {
        any = false;
        for (int root : order) {
          auto& members = members_[static_cast<size_t>(root)];
          if (static_cast<int>(members.size()) == n_) continue;
          for (size_t p = 0; p < parents_at_start[static_cast<size_t>(root)]; ++p) {
            const int parent = members[p];
            if (st.sent[static_cast<size_t>(parent)] >= ports_) continue;
            std::vector<int> path;
            const int child = find_child(root, parent, st, path);
            if (child < 0) continue;
            for (int l : path) st.link_used[static_cast<size_t>(l)] = 1;
            ++st.sent[static_cast<size_t>(parent)];
            ++st.received[static_cast<size_t>(child)];
            in_tree_[index(root, child)] = 1;
            members.push_back(child);
            forest.trees[static_cast<size_t>(root)].push_back({child, parent, step, path});
            if (static_cast<int>(members.size()) == n_) ++complete;
            any = true;
            ++added_this_step;
            break;
          }
        }
        order = sorted;
      }
      if (added_this_step == 0) {
        throw AlgorithmError("multitree: topology " + topo_.name() +
                             " is disconnected, the trees cannot span all endpoints");
      }
      ++step;
    }
    forest.steps = step;
    return forest;
  }

 private:
  size_t index(int root, int node) const {
    return static_cast<size_t>(root) * static_cast<size_t>(n_) + static_cast<size_t>(node);
  }

  bool child_ok(int root, int v, const StepState& st) const {
    return !in_tree_[index(root, v)] && st.received[static_cast<size_t>(v)] < ports_;
  }

  int find_child(int root, int parent, const StepState& st, std::vector<int>& path) const {
    if (topo_.is_direct()) {
      for (const auto& nl : neighbor_links_[static_cast<size_t>(parent)]) {
        if (!child_ok(root, nl.first, st)) continue;
        bool free = true;
        for (int l : nl.second) free = free && !st.link_used[static_cast<size_t>(l)];
        if (!free) continue;
        path = nl.second;
        return nl.first;
      }
      return -1;
    }
    std::vector<char> visited(static_cast<size_t>(topo_.vertices()), 0);
    visited[static_cast<size_t>(parent)] = 1;
    for (int l : topo_.out_links(parent)) {
      if (st.link_used[static_cast<size_t>(l)]) continue;
      const int w = topo_.link(l).dst;
      if (!topo_.is_switch(w)) {  // endpoint-to-endpoint link (custom topologies)
        if (!child_ok(root, w, st)) continue;
        path = {l};
        return w;
      }
      if (visited[static_cast<size_t>(w)]) continue;
      visited[static_cast<size_t>(w)] = 1;
      path = {l};
      const int found = search_switch(root, w, st, visited, path);
      if (found >= 0) return found;
    }
    path.clear();
    return -1;
  }

  /// True when some link from switch `sw` into an endpoint is still free this step.
  bool has_free_endpoint_link(int sw, const StepState& st) const {
    for (int l : topo_.out_links(sw)) {
      if (!topo_.is_switch(topo_.link(l).dst) && !st.link_used[static_cast<size_t>(l)]) return true;
    }
    return false;
  }

  /// Endpoint of switch `sw` over a free link that can join tree `root`, or -1.
  int endpoint_child(int root, int sw, const StepState& st, std::vector<int>& path) const {
    for (int l : topo_.out_links(sw)) {
      const int w = topo_.link(l).dst;
      if (topo_.is_switch(w) || st.link_used[static_cast<size_t>(l)] || !child_ok(root, w, st))
        continue;
      path.push_back(l);
      return w;
    }
    return -1;
  }

  /// Depth-first search as published: at switch `sw` take one of its own endpoints; otherwise
  /// look at each neighbor switch reachable over a free link: one that still has a free link
  /// into an endpoint is a leaf, tried for a child but not passed through; one without (a spine,
  /// or a leaf whose endpoints all receive already this step) is descended into.
  int search_switch(int root, int sw, const StepState& st, std::vector<char>& visited,
                    std::vector<int>& path) const {
    const int own = endpoint_child(root, sw, st, path);
    if (own >= 0) return own;
    for (int l : topo_.out_links(sw)) {
      const int w = topo_.link(l).dst;
      if (!topo_.is_switch(w) || st.link_used[static_cast<size_t>(l)] ||
          visited[static_cast<size_t>(w)])
        continue;
      visited[static_cast<size_t>(w)] = 1;
      path.push_back(l);
      if (has_free_endpoint_link(w, st)) {
        const int child = endpoint_child(root, w, st, path);
        if (child >= 0) return child;
      } else {
        const int child = search_switch(root, w, st, visited, path);
        if (child >= 0) return child;
      }
      path.pop_back();
    }
    return -1;
  }

  const Topology& topo_;
  int n_;
  int ports_;
  std::vector<char> in_tree_;
  std::vector<std::vector<int>> members_;
  std::vector<std::vector<std::pair<int, std::vector<int>>>> neighbor_links_;
};

}  // namespace

MultiTreeForest build_multitree_forest(const Topology& topology, int ports) {
  if (ports <= 0) ports = topology.ports_per_node();
  if (ports <= 0) ports = 1;
  if (topology.nodes() < 2) {
    MultiTreeForest forest;
    forest.trees.resize(static_cast<size_t>(topology.nodes()));
    return forest;
  }
  return ForestBuilder(topology, ports).build();
}

MultiTreeStats multitree_stats(const Topology& topology) {
  MultiTreeStats stats;
  stats.construction_steps = build_multitree_forest(topology).steps;
  stats.step_lower_bound = step_lower_bound(topology);
  stats.diameter = topology.diameter();
  return stats;
}

Schedule multitree_schedule(const Topology& topology, const MultiTreeForest& forest) {
  const int n = topology.nodes();
  const int steps = forest.steps;
  Schedule schedule;
  schedule.algorithm = "multitree";
  schedule.topology = topology.name();
  schedule.nodes = n;
  schedule.num_chunks = n;
  const bool explicit_paths = !topology.is_direct();

  auto at = [n](int root, int node) {
    return static_cast<size_t>(root) * static_cast<size_t>(n) + static_cast<size_t>(node);
  };
  std::vector<std::vector<int>> children(static_cast<size_t>(n) * static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) {
    for (const auto& e : forest.trees[static_cast<size_t>(r)])
      children[at(r, e.parent)].push_back(e.child);
  }
  std::vector<int> reduce_msg(static_cast<size_t>(n) * static_cast<size_t>(n), -1);  // sent by node
  std::vector<int> bcast_msg(static_cast<size_t>(n) * static_cast<size_t>(n), -1);   // into node

  for (int t = steps - 1; t >= 0; --t) {
    for (int r = 0; r < n; ++r) {
      for (const auto& e : forest.trees[static_cast<size_t>(r)]) {
        if (e.step != t) continue;
        Op op;
        op.node = e.child;
        op.peer = e.parent;
        op.chunk = r;
        op.flow = r;
        op.step = steps - 1 - t;
        op.kind = OpKind::kReduce;
        for (int c : children[at(r, e.child)]) op.deps.push_back(reduce_msg[at(r, c)]);
        if (explicit_paths) {
          for (auto it = e.path.rbegin(); it != e.path.rend(); ++it)
            op.path.push_back(topology.link(*it).reverse);
        }
        reduce_msg[at(r, e.child)] = schedule.add(std::move(op));
      }
    }
  }
  for (int t = 0; t < steps; ++t) {
    for (int r = 0; r < n; ++r) {
      for (const auto& e : forest.trees[static_cast<size_t>(r)]) {
        if (e.step != t) continue;
        Op op;
        op.node = e.parent;
        op.peer = e.child;
        op.chunk = r;
        op.flow = r;
        op.step = steps + t;
        op.kind = OpKind::kBroadcast;
        if (e.parent == r) {
          for (int c : children[at(r, r)]) op.deps.push_back(reduce_msg[at(r, c)]);
        } else {
          op.deps.push_back(bcast_msg[at(r, e.parent)]);
        }
        if (explicit_paths) op.path = e.path;
        bcast_msg[at(r, e.child)] = schedule.add(std::move(op));
      }
    }
  }
  return schedule;
}

Schedule build_multitree(const Topology& topology, const AlgorithmParams& params) {
  check_params("multitree", params, {});
  require_min_nodes("multitree", topology);
  return multitree_schedule(topology, build_multitree_forest(topology));
}

}  // namespace mt
