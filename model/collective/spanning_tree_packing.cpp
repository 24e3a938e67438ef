#include "model/collective/spanning_tree_packing.h"

#include "model/collective/spanning_forests.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <tuple>
#include <utility>

namespace mt {

namespace {

/// Undirected endpoint-to-endpoint links; parallel links count once (routing uses one of them).
std::vector<PackingEdge> undirected_edges(const Topology& topology) {
  std::vector<PackingEdge> edges;
  for (const Link& l : topology.links()) {
    if (l.src < l.dst) edges.push_back({l.src, l.dst});
  }
  std::sort(edges.begin(), edges.end(), [](const PackingEdge& a, const PackingEdge& b) {
    return std::make_pair(a.u, a.v) < std::make_pair(b.u, b.v);
  });
  edges.erase(std::unique(edges.begin(), edges.end(),
                          [](const PackingEdge& a, const PackingEdge& b) {
                            return a.u == b.u && a.v == b.v;
                          }),
              edges.end());
  return edges;
}

/// Edmonds' matroid-partition step: places one more copy of `edge` into some forest, moving
/// other edges between forests along a shortest augmenting path. False when no forest can take
/// it however the others are rearranged.
bool insert_edge(Forests& forests, const std::vector<PackingEdge>& edges, int edge) {
  struct Element {
    int home;  // forest holding this copy, -1 for the new one
    int edge;
    int from;  // queue index of the element whose cycle it lies on
  };
  const int t = forests.trees();
  std::vector<Element> queue = {{-1, edge, -1}};
  std::vector<char> labeled(static_cast<size_t>(t) * edges.size(), 0);
  std::vector<int> path;
  for (size_t q = 0; q < queue.size(); ++q) {
    const Element y = queue[q];
    const PackingEdge& pe = edges[static_cast<size_t>(y.edge)];
    for (int i = 0; i < t; ++i) {
      if (i == y.home || forests.contains(i, y.edge)) continue;
      if (!forests.path(i, pe.u, pe.v, path)) {
        forests.add(i, y.edge);
        for (size_t cur = q; queue[cur].home >= 0; cur = static_cast<size_t>(queue[cur].from)) {
          const Element& moved = queue[cur];
          forests.remove(moved.home, moved.edge);
          forests.add(moved.home, queue[static_cast<size_t>(moved.from)].edge);
        }
        return true;
      }
      for (int g : path) {
        const size_t slot = static_cast<size_t>(i) * edges.size() + static_cast<size_t>(g);
        if (labeled[slot]) continue;
        labeled[slot] = 1;
        queue.push_back({i, g, static_cast<int>(q)});
      }
    }
  }
  return false;
}

/// Fills t forests with up to c copies of every edge until each is a spanning tree; false when
/// no such packing exists.
bool fill_forests(Forests& forests, const std::vector<PackingEdge>& edges, int nodes, int load) {
  const int t = forests.trees();
  const long target = static_cast<long>(t) * (nodes - 1);
  long placed = 0;
  std::vector<int> copies(edges.size(), 0);
  bool progress = true;
  while (placed < target && progress) {
    progress = false;
    for (size_t e = 0; e < edges.size() && placed < target; ++e) {
      if (copies[e] >= load) continue;
      if (!insert_edge(forests, edges, static_cast<int>(e))) continue;
      ++copies[e];
      ++placed;
      progress = true;
    }
  }
  return placed == target;
}

/// Tree heights (from each tree's centre) as the exchange search scores them: the tallest
/// first, then the sum.
std::pair<int, int> score(const std::vector<int>& heights) {
  return {*std::max_element(heights.begin(), heights.end()),
          std::accumulate(heights.begin(), heights.end(), 0)};
}

/// Lowers tree heights with exchanges that keep every edge's load: tree i takes edge f from
/// tree j and gives it an edge e of the cycle f closes in i, when e reconnects j.
void shorten_trees(Forests& forests, const std::vector<PackingEdge>& edges,
                   std::vector<int>& heights) {
  const int t = forests.trees();
  std::mt19937 rng(12345);
  std::vector<int> cycle;
  std::vector<int> holders;
  const int budget = 3000 * t;
  for (int attempt = 0; attempt < budget; ++attempt) {
    // Half of the attempts work on a tallest tree.
    int i = static_cast<int>(rng() % static_cast<unsigned>(t));
    if (attempt % 2 == 0) {
      const int top = *std::max_element(heights.begin(), heights.end());
      std::vector<int> tall;
      for (int k = 0; k < t; ++k)
        if (heights[static_cast<size_t>(k)] == top) tall.push_back(k);
      i = tall[rng() % tall.size()];
    }
    const int f = static_cast<int>(rng() % edges.size());
    if (forests.contains(i, f)) continue;
    holders.clear();
    for (int k = 0; k < t; ++k)
      if (forests.contains(k, f)) holders.push_back(k);
    if (holders.empty()) continue;
    const int j = holders[rng() % holders.size()];
    const PackingEdge& fe = edges[static_cast<size_t>(f)];
    forests.path(i, fe.u, fe.v, cycle);
    const int e = cycle[rng() % cycle.size()];
    if (forests.contains(j, e) || !forests.can_swap(j, f, e)) continue;
    const auto before = score(heights);
    const int old_i = heights[static_cast<size_t>(i)];
    const int old_j = heights[static_cast<size_t>(j)];
    forests.exchange(i, j, e, f);
    heights[static_cast<size_t>(i)] = forests.centre(i).second;
    heights[static_cast<size_t>(j)] = forests.centre(j).second;
    if (score(heights) > before) {
      forests.exchange(i, j, f, e);
      heights[static_cast<size_t>(i)] = old_i;
      heights[static_cast<size_t>(j)] = old_j;
    }
  }
}

/// The network's radius (the least eccentricity of an endpoint): no spanning tree is shorter from
/// its centre.
int graph_radius(const Topology& topology) {
  const int n = topology.nodes();
  int radius = n;
  for (int u = 0; u < n; ++u) {
    int far = 0;
    for (int v = 0; v < n && far < radius; ++v) far = std::max(far, topology.distance(u, v));
    radius = std::min(radius, far);
  }
  return radius;
}

/// A tree's height from its centre and how many endpoints lie that deep; leaves the search from
/// the centre in `forests` (its dist() and predecessor edges).
std::pair<int, int> height_and_deepest(Forests& forests, int tree) {
  const auto [centre, height] = forests.centre(tree);
  forests.search(tree, centre);
  int deepest = 0;
  for (int x = 0; x < forests.nodes(); ++x) deepest += forests.dist(x) == height;
  return {height, deepest};
}

/// What rehang_deepest lowers: the tallest height, the trees that tall, their deepest endpoints,
/// then the heights' sum.
std::tuple<int, int, int, int> rehang_score(const std::vector<int>& heights,
                                            const std::vector<int>& deepest) {
  const int top = *std::max_element(heights.begin(), heights.end());
  int tallest = 0;
  int at_top = 0;
  for (size_t k = 0; k < heights.size(); ++k) {
    if (heights[k] != top) continue;
    ++tallest;
    at_top += deepest[k];
  }
  return {top, tallest, at_top, std::accumulate(heights.begin(), heights.end(), 0)};
}

/// After shorten_trees, trees still taller than the network's radius (3D tori: the random
/// exchanges leave them 1.7-2x the radius) are lowered by re-hanging subtrees: tree i cuts the
/// subtree of z (a deepest endpoint or one of its ancestors) from z's parent, gives that edge to
/// a tree j, and takes from j an edge f joining a member a of the subtree to an endpoint b outside
/// it at least two levels shallower than a, when j stays a spanning tree without f. A move is
/// kept unless it makes rehang_score worse (moves that keep it equal let the search cross
/// plateaus). Nothing changes when every tree is at the radius (the 2D tori and meshes).
void rehang_deepest(Forests& forests, const std::vector<PackingEdge>& edges,
                    std::vector<int>& heights, int radius) {
  const int t = forests.trees();
  std::mt19937 rng(54321);
  std::vector<int> deepest(static_cast<size_t>(t), 0);
  for (int k = 0; k < t; ++k)
    deepest[static_cast<size_t>(k)] = height_and_deepest(forests, k).second;
  std::vector<int> candidates;
  std::vector<int> holders;
  std::vector<std::vector<int>> incident(static_cast<size_t>(forests.nodes()));
  for (size_t f = 0; f < edges.size(); ++f) {
    incident[static_cast<size_t>(edges[f].u)].push_back(static_cast<int>(f));
    incident[static_cast<size_t>(edges[f].v)].push_back(static_cast<int>(f));
  }
  std::vector<char> below(static_cast<size_t>(forests.nodes()), 0);
  std::vector<int> members;  // the endpoints below the cut, breadth-first
  // Moves kept since the heights were last lowered (undone at the end: the packing changes only
  // where the tallest height or the heights' sum fell).
  struct Move {
    int i, j, e, f;
  };
  std::vector<Move> since_best;
  std::vector<int> best_heights = heights;
  auto exchange = [&](const Move& m, bool undo) {
    forests.exchange(m.i, m.j, undo ? m.f : m.e, undo ? m.e : m.f);
  };
  const int budget = 10000 * t;
  for (int attempt = 0; attempt < budget; ++attempt) {
    std::vector<int> tall;
    for (int k = 0; k < t; ++k)
      if (heights[static_cast<size_t>(k)] > radius) tall.push_back(k);
    if (tall.empty()) break;
    const int i = tall[rng() % tall.size()];
    const int height = height_and_deepest(forests, i).first;
    candidates.clear();
    for (int x = 0; x < forests.nodes(); ++x)
      if (forests.dist(x) == height) candidates.push_back(x);
    int z = candidates[rng() % candidates.size()];
    // Cut the subtree of z, a deepest endpoint or one of its ancestors, from its parent...
    const auto levels = static_cast<unsigned>(height / 2 + 1);
    for (int up = static_cast<int>(rng() % levels); up > 0 && forests.dist(z) > 1; --up) {
      const PackingEdge& pe = edges[static_cast<size_t>(forests.parent_edge(z))];
      z = pe.u == z ? pe.v : pe.u;
    }
    const int e = forests.parent_edge(z);
    std::fill(below.begin(), below.end(), 0);
    members.clear();
    for (int v : forests.order()) {
      if (v == z) {
        below[static_cast<size_t>(v)] = 1;
      } else if (forests.dist(v) > forests.dist(z)) {
        const PackingEdge& pe = edges[static_cast<size_t>(forests.parent_edge(v))];
        below[static_cast<size_t>(v)] = below[static_cast<size_t>(pe.u == v ? pe.v : pe.u)];
      }
      if (below[static_cast<size_t>(v)]) members.push_back(v);
    }
    // ...and hang it again over an edge tree i does not hold, from a member a of the subtree to
    // an endpoint b outside it at least two levels shallower than a (in edge order).
    candidates.clear();
    for (int a : members) {
      for (int f : incident[static_cast<size_t>(a)]) {
        const PackingEdge& fe = edges[static_cast<size_t>(f)];
        const int b = fe.u == a ? fe.v : fe.u;
        if (!below[static_cast<size_t>(b)] && !forests.contains(i, f) &&
            forests.dist(b) < forests.dist(a) - 1)
          candidates.push_back(f);
      }
    }
    if (candidates.empty()) continue;
    std::sort(candidates.begin(), candidates.end());
    const int f = candidates[rng() % candidates.size()];
    holders.clear();
    for (int k = 0; k < t; ++k)
      if (k != i && forests.contains(k, f) && !forests.contains(k, e)) holders.push_back(k);
    if (holders.empty()) continue;
    const int j = holders[rng() % holders.size()];
    if (!forests.can_swap(j, f, e)) continue;
    const Move move{i, j, e, f};
    const auto before = rehang_score(heights, deepest);
    const std::vector<int> old_heights = heights;
    const std::vector<int> old_deepest = deepest;
    exchange(move, false);
    for (int k : {i, j}) {
      const auto [h, d] = height_and_deepest(forests, k);
      heights[static_cast<size_t>(k)] = h;
      deepest[static_cast<size_t>(k)] = d;
    }
    const auto after = rehang_score(heights, deepest);
    if (before < after) {
      exchange(move, true);
      heights = old_heights;
      deepest = old_deepest;
    } else if (score(heights) < score(best_heights)) {
      best_heights = heights;
      since_best.clear();
    } else {
      since_best.push_back(move);
    }
  }
  for (auto it = since_best.rbegin(); it != since_best.rend(); ++it) exchange(*it, true);
  heights = best_heights;
}

}  // namespace

TreePacking pack_spanning_trees(const Topology& topology, int max_trees) {
  if (!topology.is_direct()) {
    throw AlgorithmError(
        "tree_packing needs a direct topology (endpoints linked to each other), "
        "got " +
        topology.name() + " with switches; use multitree_opt or disjoint_rings there");
  }
  const int n = topology.nodes();
  const std::vector<PackingEdge> edges = undirected_edges(topology);
  const long e_count = static_cast<long>(edges.size());
  // Candidate (t, c) pairs by load ratio c/t, then fewer trees.
  std::vector<std::pair<int, int>> candidates;
  for (int t = 1; t <= std::max(1, max_trees); ++t) {
    const long c = (static_cast<long>(t) * (n - 1) + e_count - 1) / std::max(1L, e_count);
    if (c <= t) candidates.emplace_back(t, static_cast<int>(c));
  }
  std::stable_sort(candidates.begin(), candidates.end(), [](const auto& a, const auto& b) {
    return static_cast<long>(a.second) * b.first < static_cast<long>(b.second) * a.first;
  });
  for (const auto& [t, c] : candidates) {
    Forests forests(n, t, edges);
    if (!fill_forests(forests, edges, n, c)) continue;
    TreePacking packing;
    packing.trees = t;
    packing.edges = edges;
    packing.heights.resize(static_cast<size_t>(t));
    for (int r = 0; r < t; ++r) packing.heights[static_cast<size_t>(r)] = forests.centre(r).second;
    shorten_trees(forests, edges, packing.heights);
    rehang_deepest(forests, edges, packing.heights, graph_radius(topology));
    std::vector<int> load(edges.size(), 0);
    for (int r = 0; r < t; ++r) {
      std::vector<int> members;
      for (size_t e = 0; e < edges.size(); ++e) {
        if (!forests.contains(r, static_cast<int>(e))) continue;
        members.push_back(static_cast<int>(e));
        ++load[e];
      }
      packing.members.push_back(std::move(members));
      packing.roots.push_back(forests.centre(r).first);
    }
    packing.edge_load = *std::max_element(load.begin(), load.end());
    return packing;
  }
  throw AlgorithmError("tree_packing: topology " + topology.name() +
                       " has no spanning tree packing (is it connected?)");
}

}  // namespace mt
