#include "model/collective/disjoint_rings.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <set>

#include "model/collective/ring.h"

namespace mt {

namespace {

/// Follows the successor function from node 0; returns the cycle when it visits all n nodes.
std::vector<int> follow(const std::vector<int>& next) {
  const int n = static_cast<int>(next.size());
  std::vector<int> order;
  std::vector<char> seen(static_cast<size_t>(n), 0);
  int u = 0;
  while (!seen[static_cast<size_t>(u)]) {
    seen[static_cast<size_t>(u)] = 1;
    order.push_back(u);
    u = next[static_cast<size_t>(u)];
  }
  if (static_cast<int>(order.size()) != n || u != 0) return {};
  return order;
}

/// Switch an endpoint hangs off (first switch it links to), or -1.
int home_switch(const Topology& topology, int endpoint) {
  for (int l : topology.out_links(endpoint)) {
    const int w = topology.link(l).dst;
    if (topology.is_switch(w)) return w;
  }
  return -1;
}

/// Depth-first search for a Hamiltonian cycle over `verts` in graph `adj` (small graphs only).
bool cycle_search(const std::vector<std::vector<char>>& adj, std::vector<int>& path,
                  std::vector<char>& used, long& budget) {
  const size_t n = adj.size();
  if (--budget < 0) return false;
  if (path.size() == n) return adj[static_cast<size_t>(path.back())][static_cast<size_t>(path[0])];
  for (size_t v = 0; v < n; ++v) {
    if (used[v] || !adj[static_cast<size_t>(path.back())][v]) continue;
    used[v] = 1;
    path.push_back(static_cast<int>(v));
    if (cycle_search(adj, path, used, budget)) return true;
    path.pop_back();
    used[v] = 0;
  }
  return false;
}

}  // namespace

std::vector<std::vector<int>> torus_hamiltonian_decomposition(const Topology& topology) {
  const auto& dims = topology.dims();
  if (topology.kind() != TopologyKind::kTorus || dims.size() != 2 || dims[0] < 3 || dims[1] < 3)
    return {};
  const int nx = dims[0];
  const int ny = dims[1];
  const int g = std::gcd(nx, ny);
  const int n = nx * ny;
  for (int a = 1; a < g; ++a) {
    std::vector<int> first(static_cast<size_t>(n)), second(static_cast<size_t>(n));
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        const int u = x + nx * y;
        const int east = (x + 1) % nx + nx * y;
        const int south = x + nx * ((y + 1) % ny);
        const bool go_east = (x + y) % g < a;
        first[static_cast<size_t>(u)] = go_east ? east : south;
        second[static_cast<size_t>(u)] = go_east ? south : east;
      }
    }
    std::vector<int> c1 = follow(first);
    std::vector<int> c2 = follow(second);
    if (!c1.empty() && !c2.empty()) return {c1, c2};
  }
  return {};
}

namespace {

/// Undirected cycles as two neighbours per vertex; -1 = no neighbour yet.
using CycleAdj = std::vector<std::array<int, 2>>;

void add_edge(CycleAdj& adj, int a, int b) {
  auto put = [&adj](int u, int v) {
    auto& slot = adj[static_cast<size_t>(u)];
    slot[slot[0] < 0 ? 0 : 1] = v;
  };
  put(a, b);
  put(b, a);
}

void remove_edge(CycleAdj& adj, int a, int b) {
  auto drop = [&adj](int u, int v) {
    auto& slot = adj[static_cast<size_t>(u)];
    if (slot[0] == v) slot[0] = slot[1];
    slot[1] = -1;
  };
  drop(a, b);
  drop(b, a);
}

bool has_edge(const CycleAdj& adj, int a, int b) {
  const auto& slot = adj[static_cast<size_t>(a)];
  return slot[0] == b || slot[1] == b;
}

/// The vertex order of `adj` walked from vertex 0, or empty when it is not one Hamiltonian cycle.
std::vector<int> walk(const CycleAdj& adj) {
  const size_t n = adj.size();
  std::vector<int> order = {0};
  int prev = -1, u = 0;
  while (order.size() <= n) {
    const auto& slot = adj[static_cast<size_t>(u)];
    if (slot[0] < 0 || slot[1] < 0) return {};
    const int next = slot[0] != prev ? slot[0] : slot[1];
    prev = u;
    u = next;
    if (u == 0) break;
    order.push_back(u);
  }
  return order.size() == n && u == 0 ? order : std::vector<int>{};
}

CycleAdj cycle_adj(const std::vector<int>& order, size_t n) {
  CycleAdj adj(n, {-1, -1});
  for (size_t i = 0; i < order.size(); ++i) add_edge(adj, order[i], order[(i + 1) % order.size()]);
  return adj;
}

std::vector<std::vector<int>> torus2d_cycles(int x, int y) {
  TopologyConfig config;
  config.kind = TopologyKind::kTorus;
  config.dims = {x, y};
  return torus_hamiltonian_decomposition(Topology(config));
}

}  // namespace

std::vector<std::vector<int>> torus3d_hamiltonian_decomposition(const Topology& topology) {
  const auto& dims = topology.dims();
  if (topology.kind() != TopologyKind::kTorus || dims.size() != 3) return {};
  if (*std::min_element(dims.begin(), dims.end()) < 3) return {};
  const int m = dims[0] * dims[1];
  const int nz = dims[2];
  const auto layer = torus2d_cycles(dims[0], dims[1]);
  if (layer.empty()) return {};
  const auto stack = torus2d_cycles(m, nz);  // position along H1 x layer
  if (stack.empty()) return {};
  const size_t n = static_cast<size_t>(m) * static_cast<size_t>(nz);
  const std::vector<int>& h1 = layer[0];
  const std::vector<int>& h2 = layer[1];
  std::vector<CycleAdj> ab;
  for (const auto& cycle : stack) {
    std::vector<int> order;
    for (int v : cycle) order.push_back(h1[static_cast<size_t>(v % m)] + m * (v / m));
    ab.push_back(cycle_adj(order, n));
  }
  CycleAdj d(n, {-1, -1});
  for (int z = 0; z < nz; ++z) {
    for (int j = 0; j < m; ++j)
      add_edge(d, h2[static_cast<size_t>(j)] + m * z, h2[static_cast<size_t>((j + 1) % m)] + m * z);
  }
  for (int z = 0; z + 1 < nz; ++z) {
    bool merged = false;
    for (int j = 0; j < m && !merged; ++j) {
      const int a = h2[static_cast<size_t>(j)] + m * z;
      const int b = h2[static_cast<size_t>((j + 1) % m)] + m * z;
      const int a2 = a + m, b2 = b + m;
      if (!has_edge(d, a, b) || !has_edge(d, a2, b2)) continue;
      for (CycleAdj& c : ab) {
        if (!has_edge(c, a, a2) || !has_edge(c, b, b2)) continue;
        CycleAdj trial = c;
        remove_edge(trial, a, a2);
        remove_edge(trial, b, b2);
        add_edge(trial, a, b);
        add_edge(trial, a2, b2);
        if (walk(trial).empty()) continue;
        c = std::move(trial);
        remove_edge(d, a, b);
        remove_edge(d, a2, b2);
        add_edge(d, a, a2);
        add_edge(d, b, b2);
        merged = true;
        break;
      }
    }
    if (!merged) return {};
  }
  std::vector<std::vector<int>> out;
  for (const CycleAdj* c : {&ab[0], &ab[1], &d}) {
    out.push_back(walk(*c));
    if (out.back().empty()) return {};
  }
  return out;
}

std::vector<int> switch_ring_order(const Topology& topology) {
  const int n = topology.nodes();
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  if (topology.is_direct()) return order;
  // Endpoint switches in first-seen order, with their endpoints.
  std::vector<int> switches;
  std::vector<std::vector<int>> members;
  std::vector<int> loose;  // endpoints without a switch (custom topologies)
  for (int e = 0; e < n; ++e) {
    const int sw = home_switch(topology, e);
    if (sw < 0) {
      loose.push_back(e);
      continue;
    }
    auto it = std::find(switches.begin(), switches.end(), sw);
    if (it == switches.end()) {
      switches.push_back(sw);
      members.push_back({e});
    } else {
      members[static_cast<size_t>(it - switches.begin())].push_back(e);
    }
  }
  const size_t s = switches.size();
  std::vector<int> seq(s);
  std::iota(seq.begin(), seq.end(), 0);
  if (s >= 3 && s <= 64) {
    std::vector<std::vector<char>> adj(s, std::vector<char>(s, 0));
    for (size_t i = 0; i < s; ++i) {
      for (size_t j = 0; j < s; ++j) {
        adj[i][j] = i != j && topology.link_between(switches[i], switches[j]) >= 0;
      }
    }
    std::vector<int> path = {0};
    std::vector<char> used(s, 0);
    used[0] = 1;
    long budget = 200000;
    if (cycle_search(adj, path, used, budget)) seq = path;
  }
  order.clear();
  for (int i : seq) {
    for (int e : members[static_cast<size_t>(i)]) order.push_back(e);
  }
  for (int e : loose) order.push_back(e);
  return order;
}

RingSet find_disjoint_rings(const Topology& topology, int ports) {
  if (ports <= 0) ports = topology.ports_per_node();
  if (ports <= 0) ports = 1;
  RingSet set;
  if (!topology.is_direct()) {
    const std::vector<int> order = switch_ring_order(topology);
    set.rings.push_back(order);
    if (ports >= 2) set.rings.emplace_back(order.rbegin(), order.rend());
    set.method = "switch-grouped ring";
    return set;
  }
  // Edge-disjoint Hamiltonian cycles, each used in both directions (link-disjoint rings).
  const auto both_directions = [&set](const std::vector<std::vector<int>>& cycles,
                                      const char* method) {
    if (cycles.empty()) return false;
    for (const auto& c : cycles) {
      set.rings.push_back(c);
      set.rings.emplace_back(c.rbegin(), c.rend());
    }
    set.link_disjoint = true;
    set.method = method;
    return true;
  };
  if (ports >= 6 &&
      both_directions(torus3d_hamiltonian_decomposition(topology),
                      "3D torus Hamiltonian decomposition (layers, stack, square swaps)"))
    return set;
  if (ports >= 4 && both_directions(torus_hamiltonian_decomposition(topology),
                                    "torus diagonal Hamiltonian decomposition"))
    return set;
  const RingOrder ring = find_ring_order(topology);
  set.rings.push_back(ring.order);
  // Two nodes: the reverse ring uses the same links only when there is a single link pair.
  if (ports >= 2 && topology.nodes() >= 3) {
    set.rings.emplace_back(ring.order.rbegin(), ring.order.rend());
  }
  set.link_disjoint = ring.hamiltonian;
  set.method = ring.hamiltonian ? "Hamiltonian cycle, both directions" : "routed ring";
  return set;
}

Schedule build_disjoint_rings(const Topology& topology, const DisjointRingsParams& params,
                              const BuildContext&) {
  const int pipeline = params.pipeline;
  const int max_rings = params.rings;
  require_min_nodes("disjoint_rings", topology);
  const int n = topology.nodes();
  RingSet set = find_disjoint_rings(topology);
  if (static_cast<int>(set.rings.size()) > max_rings)
    set.rings.resize(static_cast<size_t>(max_rings));
  const int r = static_cast<int>(set.rings.size());

  Schedule schedule = new_schedule("disjoint_rings", topology, std::int64_t{r} * n * pipeline);
  ArrivalTracker tracker(n, schedule.num_chunks);
  std::vector<std::vector<std::vector<int>>> groups(static_cast<size_t>(r));
  for (int k = 0; k < r; ++k) {
    groups[static_cast<size_t>(k)].resize(static_cast<size_t>(n));
    for (int g = 0; g < n; ++g) {
      for (int p = 0; p < pipeline; ++p) {
        groups[static_cast<size_t>(k)][static_cast<size_t>(g)].push_back((k * n + g) * pipeline +
                                                                         p);
      }
    }
  }
  // The rings' chunks are disjoint, so each ring's phases commit independently.
  int rs = 0;
  for (int k = 0; k < r; ++k) {
    rs = add_ring_reduce_scatter(schedule, tracker, set.rings[static_cast<size_t>(k)],
                                 groups[static_cast<size_t>(k)], k, 0);
  }
  for (int k = 0; k < r; ++k) {
    add_ring_all_gather(schedule, tracker, set.rings[static_cast<size_t>(k)],
                        groups[static_cast<size_t>(k)], k, rs);
  }
  return sort_by_step(schedule);
}

}  // namespace mt
