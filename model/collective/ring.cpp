#include "model/collective/ring.h"

#include <algorithm>
#include <numeric>

namespace mt {

namespace {

/// Expansion limit of the Hamiltonian-cycle search (keeps pathological graphs fast).
constexpr long kHamiltonianSearchLimit = 2000000;

bool adjacent(const std::vector<std::vector<int>>& adj, int u, int v) {
  return std::find(adj[static_cast<size_t>(u)].begin(), adj[static_cast<size_t>(u)].end(), v) !=
         adj[static_cast<size_t>(u)].end();
}

bool is_cycle(const std::vector<std::vector<int>>& adj, const std::vector<int>& order) {
  const size_t n = order.size();
  if (n < 2) return false;
  for (size_t i = 0; i < n; ++i) {
    if (!adjacent(adj, order[i], order[(i + 1) % n])) return false;
  }
  return true;
}

/// Snake cycle of an X x Y grid (needs Y even and X >= 2): row 0 left to right, then rows 1..Y-1
/// alternately right-to-left / left-to-right over columns 1..X-1, back up column 0.
std::vector<int> snake(int nx, int ny, bool transpose) {
  auto id = [&](int a, int b) { return transpose ? b + ny * a : a + nx * b; };
  // When transposed, the roles are swapped: a runs over the even dimension's partner.
  std::vector<int> order;
  for (int x = 0; x < nx; ++x) order.push_back(id(x, 0));
  for (int y = 1; y < ny; ++y) {
    if (y % 2 == 1) {
      for (int x = nx - 1; x >= 1; --x) order.push_back(id(x, y));
    } else {
      for (int x = 1; x < nx; ++x) order.push_back(id(x, y));
    }
  }
  for (int y = ny - 1; y >= 1; --y) order.push_back(id(0, y));
  return order;
}

bool bipartite(const std::vector<std::vector<int>>& adj) {
  std::vector<int> color(adj.size(), -1);
  for (size_t s = 0; s < adj.size(); ++s) {
    if (color[s] >= 0) continue;
    color[s] = 0;
    std::vector<int> stack = {static_cast<int>(s)};
    while (!stack.empty()) {
      int u = stack.back();
      stack.pop_back();
      for (int v : adj[static_cast<size_t>(u)]) {
        if (color[static_cast<size_t>(v)] < 0) {
          color[static_cast<size_t>(v)] = 1 - color[static_cast<size_t>(u)];
          stack.push_back(v);
        } else if (color[static_cast<size_t>(v)] == color[static_cast<size_t>(u)]) {
          return false;
        }
      }
    }
  }
  return true;
}

struct HamiltonSearch {
  const std::vector<std::vector<int>>& adj;
  std::vector<int> path;
  std::vector<char> used;
  long budget = kHamiltonianSearchLimit;

  int free_degree(int v) const {
    int d = 0;
    for (int w : adj[static_cast<size_t>(v)]) d += used[static_cast<size_t>(w)] ? 0 : 1;
    return d;
  }

  bool extend() {
    if (--budget < 0) return false;
    const int n = static_cast<int>(adj.size());
    const int u = path.back();
    if (static_cast<int>(path.size()) == n) return adjacent(adj, u, path.front());
    std::vector<int> cand;
    for (int v : adj[static_cast<size_t>(u)]) {
      if (!used[static_cast<size_t>(v)]) cand.push_back(v);
    }
    // Warnsdorff: fewest onward options first (stable, so ties keep neighbor order).
    std::stable_sort(cand.begin(), cand.end(),
                     [&](int a, int b) { return free_degree(a) < free_degree(b); });
    for (int v : cand) {
      used[static_cast<size_t>(v)] = 1;
      path.push_back(v);
      if (extend()) return true;
      path.pop_back();
      used[static_cast<size_t>(v)] = 0;
      if (budget < 0) return false;
    }
    return false;
  }
};

std::vector<int> identity(int n) {
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  return order;
}

}  // namespace

RingOrder find_ring_order(const Topology& topology) {
  const int n = topology.nodes();
  RingOrder result;
  result.order = identity(n);
  if (!topology.is_direct() || n < 2) return result;

  std::vector<std::vector<int>> adj(static_cast<size_t>(n));
  for (int u = 0; u < n; ++u) adj[static_cast<size_t>(u)] = topology.neighbors(u);

  if (is_cycle(adj, result.order)) {  // ring, and any topology where 0..N-1 already is a cycle
    result.hamiltonian = true;
    return result;
  }
  const auto& dims = topology.dims();
  if ((topology.kind() == TopologyKind::kTorus || topology.kind() == TopologyKind::kMesh) &&
      dims.size() == 2 && dims[0] >= 2 && dims[1] >= 2) {
    std::vector<int> order;
    if (dims[1] % 2 == 0) {
      order = snake(dims[0], dims[1], false);
    } else if (dims[0] % 2 == 0) {
      // Snake over the transposed grid: a walks y (size dims[1]), b walks x (even).
      order = snake(dims[1], dims[0], true);
    }
    if (!order.empty() && is_cycle(adj, order)) {
      result.order = order;
      result.hamiltonian = true;
      return result;
    }
  }
  if (n % 2 == 1 && bipartite(adj)) return result;  // no Hamiltonian cycle can exist
  HamiltonSearch search{adj, {0}, std::vector<char>(static_cast<size_t>(n), 0)};
  search.used[0] = 1;
  if (search.extend()) {
    result.order = search.path;
    result.hamiltonian = true;
  }
  return result;
}

namespace {

// One ring phase: N-1 steps in which node ring[i] sends its chunk group (i + group_offset - s)
// to ring[i+1]; reduce-scatter starts at offset 0, all-gather at offset 1 (the group each node
// finished reducing).
int add_ring_phase(Schedule& schedule, ArrivalTracker& tracker, const std::vector<int>& ring,
                   const std::vector<std::vector<int>>& groups, int flow, int first_step,
                   OpKind kind, int group_offset) {
  const int n = static_cast<int>(ring.size());
  for (int s = 0; s + 1 < n; ++s) {
    for (int i = 0; i < n; ++i) {
      const int g = ((i + group_offset - s) % n + n) % n;
      for (int chunk : groups[static_cast<size_t>(g)]) {
        Op op;
        op.node = ring[static_cast<size_t>(i)];
        op.peer = ring[static_cast<size_t>((i + 1) % n)];
        op.chunk = chunk;
        op.flow = flow;
        op.step = first_step + s;
        op.kind = kind;
        tracker.send(schedule, std::move(op));
      }
    }
    tracker.commit();
  }
  return std::max(0, n - 1);
}

}  // namespace

int add_ring_reduce_scatter(Schedule& schedule, ArrivalTracker& tracker,
                            const std::vector<int>& ring,
                            const std::vector<std::vector<int>>& groups, int flow, int first_step) {
  return add_ring_phase(schedule, tracker, ring, groups, flow, first_step, OpKind::kReduce, 0);
}

int add_ring_all_gather(Schedule& schedule, ArrivalTracker& tracker, const std::vector<int>& ring,
                        const std::vector<std::vector<int>>& groups, int flow, int first_step) {
  return add_ring_phase(schedule, tracker, ring, groups, flow, first_step, OpKind::kBroadcast, 1);
}

Schedule build_ring(const Topology& topology, const RingParams&, const BuildContext&) {
  require_min_nodes("ring", topology);
  const int n = topology.nodes();
  const RingOrder ring = find_ring_order(topology);
  Schedule schedule = new_schedule("ring", topology, n);
  schedule.reserve(std::size_t{2} * static_cast<std::size_t>(n - 1) * static_cast<std::size_t>(n));
  std::vector<std::vector<int>> groups(static_cast<size_t>(n));
  for (int g = 0; g < n; ++g) groups[static_cast<size_t>(g)] = {g};
  ArrivalTracker tracker(n, n);
  const int rs = add_ring_reduce_scatter(schedule, tracker, ring.order, groups, 0, 0);
  add_ring_all_gather(schedule, tracker, ring.order, groups, 0, rs);
  return schedule;
}

Schedule build_ring_bi(const Topology& topology, const RingBiParams&, const BuildContext&) {
  require_min_nodes("ring_bi", topology);
  const int n = topology.nodes();
  const RingOrder ring = find_ring_order(topology);
  std::vector<int> reverse(ring.order.rbegin(), ring.order.rend());
  Schedule schedule = new_schedule("ring_bi", topology, std::int64_t{2} * n);
  schedule.reserve(std::size_t{4} * static_cast<std::size_t>(n - 1) * static_cast<std::size_t>(n));
  std::vector<std::vector<int>> cw(static_cast<size_t>(n)), ccw(static_cast<size_t>(n));
  for (int g = 0; g < n; ++g) {
    cw[static_cast<size_t>(g)] = {g};
    ccw[static_cast<size_t>(g)] = {n + g};
  }
  ArrivalTracker tracker(n, 2 * n);
  // Both directions run in the same steps; their chunks are disjoint, so each phase may be
  // committed independently.
  const int rs = add_ring_reduce_scatter(schedule, tracker, ring.order, cw, 0, 0);
  add_ring_reduce_scatter(schedule, tracker, reverse, ccw, 1, 0);
  add_ring_all_gather(schedule, tracker, ring.order, cw, 0, rs);
  add_ring_all_gather(schedule, tracker, reverse, ccw, 1, rs);
  return sort_by_step(schedule);
}

}  // namespace mt
