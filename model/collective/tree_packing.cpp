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

/// t forests over the same endpoints, each edge in a forest at most once; paths by search.
class Forests {
 public:
  /// A node's neighbours in one forest, (peer, edge) in the order the edges were added.
  struct Neighbours {
    const std::pair<int, int>* first;
    const std::pair<int, int>* last;
    const std::pair<int, int>* begin() const { return first; }
    const std::pair<int, int>* end() const { return last; }
  };

  Forests(int nodes, int trees, const std::vector<PackingEdge>& edges)
      : edges_(edges),
        trees_(trees),
        nodes_(nodes),
        capacity_(max_degree(nodes, edges)),
        slots_(static_cast<size_t>(trees) * static_cast<size_t>(nodes) *
               static_cast<size_t>(capacity_)),
        degree_(static_cast<size_t>(trees) * static_cast<size_t>(nodes), 0),
        in_(static_cast<size_t>(trees), std::vector<char>(edges.size(), 0)),
        size_(static_cast<size_t>(trees), 0),
        centres_(static_cast<size_t>(trees)),
        prev_edge_(static_cast<size_t>(nodes)),
        dist_(static_cast<size_t>(nodes)) {}

  int trees() const { return trees_; }
  int size(int tree) const { return size_[static_cast<size_t>(tree)]; }
  bool contains(int tree, int edge) const {
    return in_[static_cast<size_t>(tree)][static_cast<size_t>(edge)] != 0;
  }
  Neighbours adjacent(int tree, int node) const {
    const std::pair<int, int>* first = slots_.data() + slot(tree, node);
    return {first, first + degree_[list(tree, node)]};
  }

  void add(int tree, int edge) {
    const PackingEdge& e = edges_[static_cast<size_t>(edge)];
    slots_[slot(tree, e.u) + static_cast<size_t>(degree_[list(tree, e.u)]++)] = {e.v, edge};
    slots_[slot(tree, e.v) + static_cast<size_t>(degree_[list(tree, e.v)]++)] = {e.u, edge};
    in_[static_cast<size_t>(tree)][static_cast<size_t>(edge)] = 1;
    ++size_[static_cast<size_t>(tree)];
    centres_[static_cast<size_t>(tree)].valid = false;
  }

  void remove(int tree, int edge) {
    const PackingEdge& e = edges_[static_cast<size_t>(edge)];
    for (int end : {e.u, e.v}) {
      std::pair<int, int>* first = slots_.data() + slot(tree, end);
      std::pair<int, int>* last = first + degree_[list(tree, end)]--;
      std::pair<int, int>* at = find(first, last, edge);
      std::copy(at + 1, last, at);
    }
    in_[static_cast<size_t>(tree)][static_cast<size_t>(edge)] = 0;
    --size_[static_cast<size_t>(tree)];
    centres_[static_cast<size_t>(tree)].valid = false;
  }

  /// Whether `tree` stays a spanning tree when it gives up edge `drop` for edge `take`: whether
  /// `take`'s endpoints are apart without `drop` (a search from one that stops at the other).
  /// Moves `drop` to the end of its endpoints' adjacency lists, as removing and adding it again
  /// would (the order decides ties in later searches).
  bool can_swap(int tree, int drop, int take) {
    const PackingEdge& out = edges_[static_cast<size_t>(drop)];
    for (int end : {out.u, out.v}) {
      std::pair<int, int>* first = slots_.data() + slot(tree, end);
      std::pair<int, int>* last = first + degree_[list(tree, end)];
      std::pair<int, int>* at = find(first, last, drop);
      std::rotate(at, at + 1, last);
    }
    centres_[static_cast<size_t>(tree)].valid = false;
    const PackingEdge& in = edges_[static_cast<size_t>(take)];
    std::fill(dist_.begin(), dist_.end(), -1);
    queue_.assign(1, in.u);
    dist_[static_cast<size_t>(in.u)] = 0;
    for (size_t i = 0; i < queue_.size(); ++i) {
      for (const auto& [y, e] : adjacent(tree, queue_[i])) {
        if (e == drop || dist_[static_cast<size_t>(y)] >= 0) continue;
        if (y == in.v) return false;
        dist_[static_cast<size_t>(y)] = 0;
        queue_.push_back(y);
      }
    }
    return true;
  }

  /// Tree i gives edge `give` to tree j and takes edge `take` from it (every load unchanged).
  void exchange(int i, int j, int give, int take) {
    remove(i, give);
    add(i, take);
    remove(j, take);
    add(j, give);
  }

  /// Edge ids on the forest path from u to v; false when they are in different components.
  bool path(int tree, int u, int v, std::vector<int>& out) {
    out.clear();
    search(tree, u);
    if (dist_[static_cast<size_t>(v)] < 0) return false;
    for (int x = v; x != u;) {
      const int e = prev_edge_[static_cast<size_t>(x)];
      out.push_back(e);
      const PackingEdge& pe = edges_[static_cast<size_t>(e)];
      x = pe.u == x ? pe.v : pe.u;
    }
    return true;
  }

  /// Breadth-first search of `tree` from `from`; returns the farthest endpoint. dist() and the
  /// predecessor edges hold the result until the next search.
  int search(int tree, int from) {
    std::fill(dist_.begin(), dist_.end(), -1);
    queue_.assign(1, from);
    dist_[static_cast<size_t>(from)] = 0;
    int last = from;
    for (size_t i = 0; i < queue_.size(); ++i) {
      const int x = queue_[i];
      last = x;
      for (const auto& [y, e] : adjacent(tree, x)) {
        if (dist_[static_cast<size_t>(y)] >= 0) continue;
        dist_[static_cast<size_t>(y)] = dist_[static_cast<size_t>(x)] + 1;
        prev_edge_[static_cast<size_t>(y)] = e;
        queue_.push_back(y);
      }
    }
    return last;
  }
  int dist(int node) const { return dist_[static_cast<size_t>(node)]; }
  /// The edge to `node`'s predecessor in the last search (undefined at its start).
  int parent_edge(int node) const { return prev_edge_[static_cast<size_t>(node)]; }
  int nodes() const { return static_cast<int>(dist_.size()); }
  /// The endpoints the last search reached, in breadth-first order.
  const std::vector<int>& order() const { return queue_; }

  /// A centre of a spanning tree and its height (hops from the centre to the farthest endpoint).
  /// Kept until the tree's next add, remove or can_swap (each reorders its adjacency lists, and
  /// with them which of two centres the searches find), so a repeated call costs no search.
  std::pair<int, int> centre(int tree) {
    Centre& known = centres_[static_cast<size_t>(tree)];
    if (!known.valid) known = {find_centre(tree), true};
    return known.result;
  }

 private:
  struct Centre {
    std::pair<int, int> result;
    bool valid = false;
  };

  std::pair<int, int> find_centre(int tree) {
    const int a = search(tree, 0);
    const int b = search(tree, a);
    const int diameter = dist(b);
    int x = b;
    for (int hops = 0; hops < diameter / 2; ++hops) {
      const PackingEdge& pe = edges_[static_cast<size_t>(prev_edge_[static_cast<size_t>(x)])];
      x = pe.u == x ? pe.v : pe.u;
    }
    return {x, diameter - diameter / 2};
  }

  const std::vector<PackingEdge>& edges_;
  /// The most edges at one endpoint: every forest's adjacency list of a node fits in it.
  static int max_degree(int nodes, const std::vector<PackingEdge>& edges) {
    std::vector<int> degree(static_cast<size_t>(nodes), 0);
    for (const PackingEdge& e : edges) {
      ++degree[static_cast<size_t>(e.u)];
      ++degree[static_cast<size_t>(e.v)];
    }
    return degree.empty() ? 0 : *std::max_element(degree.begin(), degree.end());
  }
  size_t list(int tree, int node) const {
    return static_cast<size_t>(tree) * static_cast<size_t>(nodes_) + static_cast<size_t>(node);
  }
  size_t slot(int tree, int node) const {
    return list(tree, node) * static_cast<size_t>(capacity_);
  }
  static std::pair<int, int>* find(std::pair<int, int>* first, std::pair<int, int>* last,
                                   int edge) {
    return std::find_if(first, last,
                        [edge](const std::pair<int, int>& a) { return a.second == edge; });
  }

  int trees_;
  int nodes_;
  int capacity_;
  // Per forest and node, `capacity_` slots of (peer, edge), the first degree_ of them in use.
  std::vector<std::pair<int, int>> slots_;
  std::vector<int> degree_;
  std::vector<std::vector<char>> in_;  // tree, edge
  std::vector<int> size_;
  std::vector<Centre> centres_;
  std::vector<int> prev_edge_;
  std::vector<int> dist_;
  std::vector<int> queue_;
};

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

Schedule build_tree_packing(const Topology& topology, const TypedParams& params,
                            const BuildContext& context) {
  const int max_trees = params.integer("trees");
  require_min_nodes("tree_packing", topology);
  const TreePacking packing = pack_spanning_trees(topology, max_trees);
  const std::uint64_t bytes =
      params.size_or("bytes", context.bytes > 0 ? context.bytes : kTreePackingDefaultBytes);
  const int tallest = *std::max_element(packing.heights.begin(), packing.heights.end());
  const int pipeline = params.integer_or(
      "pipeline", tree_packing_pipeline(packing.trees, tallest, bytes,
                                        context.cost.head_per_message && !context.hardware_issue));
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
  shape.window = params.integer_or(
      "window", tree_packing_window(topology, packing.trees, tallest, pipeline, bytes, context));
  TreeEmitter emitter(schedule, topology, emitter_trees, shape);
  // Sub-chunk outer, tree inner: within a step, earlier sub-chunks come first in program order.
  for (int p = 0; p < pipeline; ++p) {
    for (int r = 0; r < packing.trees; ++r)
      emitter.emit(r, p, up[static_cast<size_t>(r)], down[static_cast<size_t>(r)]);
  }
  return sort_by_step(schedule);
}

}  // namespace mt
