#include "model/collective/multitree_opt.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "model/collective/cost_model.h"

namespace mt {

namespace {

/// Random tie-break seeds tried by the matching construction (seed 0: the four deterministic
/// orders; seeds 1..: the remaining-first order with random ties).
constexpr unsigned kOptSeeds = 40;

/// One tie-break order of the matching construction.
enum class OptOrder { kRemainingFirst = 0, kHardFirst = 1, kLoadFirst = 2, kFarFirst = 3 };

/// Matching-based construction on a direct topology (ports cover every link); see the header.
MultiTreeForest matching_forest(const Topology& topo, OptOrder order, unsigned seed) {
  std::mt19937 rng(seed);
  const int n = topo.nodes();
  auto at = [n](int r, int u) {
    return static_cast<size_t>(r) * static_cast<size_t>(n) + static_cast<size_t>(u);
  };
  std::vector<int> links;  // endpoint-to-endpoint directed links
  for (const Link& l : topo.links()) {
    if (!topo.is_switch(l.src) && !topo.is_switch(l.dst)) links.push_back(l.id);
  }
  std::vector<int> indeg(static_cast<size_t>(n), 0);
  std::vector<std::vector<int>> in_of(static_cast<size_t>(n));  // index into links
  for (size_t i = 0; i < links.size(); ++i) {
    const Link& l = topo.link(links[i]);
    ++indeg[static_cast<size_t>(l.dst)];
    in_of[static_cast<size_t>(l.dst)].push_back(static_cast<int>(i));
  }
  std::vector<char> in_tree(static_cast<size_t>(n) * static_cast<size_t>(n), 0);
  std::vector<int> size(static_cast<size_t>(n), 1);
  std::vector<int> depth(static_cast<size_t>(n) * static_cast<size_t>(n), 0);  // in tree r
  std::vector<int> need(static_cast<size_t>(n), n - 1);  // trees still missing endpoint v
  for (int r = 0; r < n; ++r) in_tree[at(r, r)] = 1;
  MultiTreeForest forest;
  forest.trees.resize(static_cast<size_t>(n));
  int complete = 0;
  int step = 0;
  struct Item {
    int root;
    int node;
    double key1;
    double key2;
    double key3;
    std::uint32_t key4;     // random tie-break (0 when seed == 0)
    std::vector<int> cand;  // indices into links
  };
  while (complete < n) {
    const std::vector<char> start = in_tree;
    std::vector<Item> items;
    for (int r = 0; r < n; ++r) {
      if (size[static_cast<size_t>(r)] == n) continue;
      const double remaining = n - size[static_cast<size_t>(r)];
      for (int v = 0; v < n; ++v) {
        if (start[at(r, v)]) continue;
        Item it{r, v, 0, 0, 0, seed == 0 ? 0u : static_cast<std::uint32_t>(rng()), {}};
        for (int li : in_of[static_cast<size_t>(v)]) {
          if (start[at(r, topo.link(links[static_cast<size_t>(li)]).src)]) it.cand.push_back(li);
        }
        if (it.cand.empty()) continue;
        // Shallowest parent first: augmenting paths try links in this order, which keeps the
        // trees shallow (lower latency when messages issue as soon as their inputs arrived).
        std::stable_sort(it.cand.begin(), it.cand.end(), [&](int a, int b) {
          return depth[at(r, topo.link(links[static_cast<size_t>(a)]).src)] <
                 depth[at(r, topo.link(links[static_cast<size_t>(b)]).src)];
        });
        const double hard = -indeg[static_cast<size_t>(v)];
        const double load =
            static_cast<double>(need[static_cast<size_t>(v)]) / indeg[static_cast<size_t>(v)];
        const double far = topo.distance(r, v);
        // Per order, which of (remaining, hard, load, far) are the first, second, third key.
        static constexpr int kKeys[4][3] = {{0, 1, 3}, {1, 0, 3}, {2, 0, 3}, {0, 3, 1}};
        const double keys[4] = {remaining, hard, load, far};
        const int* pick = kKeys[static_cast<int>(order)];
        it.key1 = keys[pick[0]], it.key2 = keys[pick[1]], it.key3 = keys[pick[2]];
        items.push_back(std::move(it));
      }
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      if (a.key1 != b.key1) return a.key1 > b.key1;
      if (a.key2 != b.key2) return a.key2 > b.key2;
      if (a.key3 != b.key3) return a.key3 > b.key3;
      return a.key4 < b.key4;
    });
    // Kuhn's augmenting paths, items in priority order (greedy on the transversal matroid: the
    // matched item set is a maximum matching that prefers earlier items).
    std::vector<int> match(links.size(), -1);
    std::vector<int> seen(links.size(), -1);
    int stamp = 0;
    std::function<bool(int)> augment = [&](int i) -> bool {
      for (int li : items[static_cast<size_t>(i)].cand) {
        if (seen[static_cast<size_t>(li)] == stamp) continue;
        seen[static_cast<size_t>(li)] = stamp;
        if (match[static_cast<size_t>(li)] < 0 || augment(match[static_cast<size_t>(li)])) {
          match[static_cast<size_t>(li)] = i;
          return true;
        }
      }
      return false;
    };
    int matched = 0;
    for (size_t i = 0; i < items.size() && matched < static_cast<int>(links.size()); ++i) {
      ++stamp;
      if (augment(static_cast<int>(i))) ++matched;
    }
    if (matched == 0) {
      throw AlgorithmError("multitree_opt: topology " + topo.name() +
                           " is disconnected, the trees cannot span all endpoints");
    }
    for (size_t li = 0; li < links.size(); ++li) {
      if (match[li] < 0) continue;
      const Item& it = items[static_cast<size_t>(match[li])];
      const Link& l = topo.link(links[li]);
      in_tree[at(it.root, it.node)] = 1;
      depth[at(it.root, it.node)] = depth[at(it.root, l.src)] + 1;
      ++size[static_cast<size_t>(it.root)];
      --need[static_cast<size_t>(it.node)];
      if (size[static_cast<size_t>(it.root)] == n) ++complete;
      forest.trees[static_cast<size_t>(it.root)].push_back({it.node, l.src, step, {l.id}});
    }
    ++step;
  }
  forest.steps = step;
  return forest;
}

}  // namespace

int multitree_step_bound(const Topology& topology) {
  const int n = topology.nodes();
  if (n < 2) return 0;
  const int ports = std::max(1, topology.ports_per_node());
  int worst = ports;
  for (int u = 0; u < n; ++u) {
    worst = std::min(worst, static_cast<int>(topology.in_links(u).size()));
  }
  worst = std::max(worst, 1);
  return std::max(step_lower_bound(topology), (n - 1 + worst - 1) / worst);
}

MultiTreeForest build_multitree_opt_forest(const Topology& topology, int ports) {
  if (ports <= 0) ports = topology.ports_per_node();
  if (ports <= 0) ports = 1;
  const int n = topology.nodes();
  if (n < 2) {
    MultiTreeForest forest;
    forest.trees.resize(static_cast<size_t>(std::max(n, 0)));
    return forest;
  }
  bool ports_cover_links = topology.is_direct();
  for (int u = 0; u < n && ports_cover_links; ++u) {
    ports_cover_links = static_cast<int>(topology.out_links(u).size()) <= ports;
  }
  if (!ports_cover_links) return build_local_first_forest(topology, ports);
  MultiTreeForest best;
  const int bound = multitree_step_bound(topology);
  for (unsigned seed = 0; seed < kOptSeeds; ++seed) {
    for (OptOrder order : {OptOrder::kRemainingFirst, OptOrder::kLoadFirst, OptOrder::kHardFirst,
                           OptOrder::kFarFirst}) {
      MultiTreeForest f = matching_forest(topology, order, seed);
      if (best.trees.empty() || f.steps < best.steps) best = std::move(f);
      if (best.steps <= bound) return best;
      if (seed > 0) break;  // random tie-breaks: the remaining-first order only
    }
  }
  return best;
}

Schedule build_multitree_opt(const Topology& topology, const MultiTreeOptParams& params,
                             const BuildContext&) {
  const int pipeline = params.pipeline;
  require_min_nodes("multitree_opt", topology);
  const MultiTreeForest forest = params.trees == MultiTreeOptTrees::kOpt
                                     ? build_multitree_opt_forest(topology)
                                     : build_multitree_forest(topology);
  Schedule schedule = multitree_pipelined_schedule(topology, forest, pipeline, "multitree_opt");
  if (params.roots == MultiTreeOptRoots::kExchange) exchange_at_roots(schedule);
  return schedule;
}

}  // namespace mt
