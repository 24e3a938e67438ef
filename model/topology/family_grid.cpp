// Ring, torus and mesh: direct networks of dims {N}, {X,Y} or {X,Y,Z}; endpoint id
// x + X*(y + Y*z); dimension-order routes (shortest direction on wraparound dimensions).

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "model/topology/topology_family.h"

namespace mt {

namespace {

std::string join_dims(const std::vector<int>& dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(dims[i]);
  }
  return s;
}

// Product of dims in 64 bits, saturating well above the endpoint cap.
std::int64_t dims_product(const std::vector<int>& dims) {
  std::int64_t n = 1;
  for (int d : dims) {
    n *= d;
    if (n > (std::int64_t{1} << 40)) return n;
  }
  return n;
}

std::vector<int> grid_coords(const std::vector<int>& dims, int u) {
  std::vector<int> c;
  int rest = u;
  for (int d : dims) {
    c.push_back(rest % d);
    rest /= d;
  }
  return c;
}

int grid_id(const std::vector<int>& dims, const std::vector<int>& c) {
  int v = 0;
  for (size_t k = dims.size(); k-- > 0;) v = v * dims[k] + c[k];
  return v;
}

// Neighbors of endpoint u at coordinates c in the order N, S, W, E, -Z, +Z (ring: W, E),
// skipping missing ones (mesh edges) and duplicates (a dimension of size 2).
std::vector<int> grid_neighbors(const TopologyConfig& config, int u, const std::vector<int>& c) {
  const auto& dims = config.dims;
  const bool wrap = config.kind != TopologyKind::kMesh;
  std::vector<std::pair<size_t, int>> order;  // (dimension, direction)
  if (dims.size() == 1) {
    order = {{0, -1}, {0, +1}};
  } else {
    order = {{1, -1}, {1, +1}, {0, -1}, {0, +1}};
    if (dims.size() == 3) {
      order.push_back({2, -1});
      order.push_back({2, +1});
    }
  }
  std::vector<int> result;
  for (auto [d, dir] : order) {
    std::vector<int> n = c;
    n[d] += dir;
    if (n[d] < 0 || n[d] >= dims[d]) {
      if (!wrap) continue;
      n[d] = (n[d] + dims[d]) % dims[d];
    }
    const int v = grid_id(dims, n);
    if (v == u || std::find(result.begin(), result.end(), v) != result.end()) continue;
    result.push_back(v);
  }
  return result;
}

void check_dims(TopologyKind kind, const std::vector<int>& dims) {
  if (kind == TopologyKind::kRing && dims.size() != 1) {
    throw TopologyError("ring needs exactly 1 dimension {N}, got " + std::to_string(dims.size()));
  }
  if (kind == TopologyKind::kTorus && dims.size() != 2 && dims.size() != 3) {
    throw TopologyError("torus needs 2 or 3 dimensions ({X,Y} or {X,Y,Z}), got " +
                        std::to_string(dims.size()));
  }
  if (kind == TopologyKind::kMesh && dims.size() != 2 && dims.size() != 3) {
    throw TopologyError("mesh needs 2 or 3 dimensions ({X,Y} or {X,Y,Z}), got " +
                        std::to_string(dims.size()));
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 1) {
      throw TopologyError(std::string(to_string(kind)) + " dimension " + std::to_string(i) +
                          " is " + std::to_string(dims[i]) + "; every dimension must be >= 1");
    }
  }
}

class GridFamily : public TopologyFamily {
 public:
  void build(TopologyBuilder& b) override {
    const TopologyConfig& config = b.config();
    const TopologyKind kind = config.kind;
    const auto& dims = config.dims;
    check_dims(kind, dims);
    check_endpoint_count(dims_product(dims));
    const int nodes = static_cast<int>(dims_product(dims));
    b.set_vertices(nodes, nodes, std::string(to_string(kind)) + ":" + join_dims(dims));
    const Topology& t = b.topology();
    const bool wrap = kind != TopologyKind::kMesh;
    for (int u = 0; u < nodes; ++u) {
      const std::vector<int> c = grid_coords(dims, u);
      for (size_t d = 0; d < dims.size(); ++d) {
        if (dims[d] == 1) continue;
        std::vector<int> n = c;
        n[d] = c[d] + 1;
        if (n[d] == dims[d]) {
          if (!wrap) continue;
          n[d] = 0;
        }
        const int v = grid_id(dims, n);
        if (v == u || t.link_between(u, v) != -1) continue;  // size-2 dimension: one connection
        b.add_link(u, v, config.link_latency_cycles);
      }
    }
    // Put every endpoint's links in neighbor order (N, S, W, E, -Z, +Z).
    for (int u = 0; u < nodes; ++u) {
      std::vector<int> ordered_out;
      std::vector<int> ordered_in;
      for (int v : grid_neighbors(config, u, grid_coords(dims, u))) {
        const int l = t.link_between(u, v);
        ordered_out.push_back(l);
        ordered_in.push_back(t.link(l).reverse);
      }
      b.set_link_order(u, std::move(ordered_out), std::move(ordered_in));
    }
  }

  std::vector<int> route(const Topology& t, int src, int dst) const override {
    return route_half_way(t, src, dst, 0);
  }

  unsigned half_way_dimensions(const Topology& t, int src, int dst) const override {
    if (t.kind() == TopologyKind::kMesh) return 0;
    const auto& dims = t.dims();
    const std::vector<int> a = grid_coords(dims, src);
    const std::vector<int> b = grid_coords(dims, dst);
    unsigned mask = 0;
    for (size_t d = 0; d < dims.size(); ++d) {
      const int fwd = ((b[d] - a[d]) % dims[d] + dims[d]) % dims[d];
      if (fwd != 0 && 2 * fwd == dims[d]) mask |= 1u << d;
    }
    return mask;
  }

  std::vector<int> route_half_way(const Topology& t, int src, int dst,
                                  unsigned minus) const override {
    const auto& dims = t.dims();
    const bool mesh = t.kind() == TopologyKind::kMesh;
    std::vector<int> cur = grid_coords(dims, src);
    const std::vector<int> target = grid_coords(dims, dst);
    std::vector<int> path;
    for (size_t d = 0; d < dims.size(); ++d) {
      const int size = dims[d];
      while (cur[d] != target[d]) {
        int step;
        if (mesh) {
          step = target[d] > cur[d] ? 1 : -1;
        } else {
          const int fwd = ((target[d] - cur[d]) % size + size) % size;
          step = (2 * fwd <= size) ? 1 : -1;  // exactly half way: + unless `minus` says -
          if (2 * fwd == size && (minus >> d & 1u) != 0) step = -1;
        }
        const int from = grid_id(dims, cur);
        cur[d] = ((cur[d] + step) % size + size) % size;
        path.push_back(route_hop(t, from, grid_id(dims, cur)));
      }
    }
    return path;
  }

  int distance(const Topology& t, int u, int v) const override {
    const bool mesh = t.kind() == TopologyKind::kMesh;
    int d = 0;
    for (int size : t.dims()) {
      const int diff = std::abs(u % size - v % size);
      d += mesh ? diff : std::min(diff, size - diff);
      u /= size;
      v /= size;
    }
    return d;
  }

  int diameter(const Topology& t) const override {
    const bool mesh = t.kind() == TopologyKind::kMesh;
    int d = 0;
    for (int size : t.dims()) d += mesh ? size - 1 : size / 2;
    return d;
  }

  std::vector<int> neighbors(const Topology& t, int u) const override {
    return grid_neighbors(t.config(), u, t.coords(u));  // coords: TopologyError out of range
  }

  std::vector<int> coords(const Topology& t, int u) const override {
    return grid_coords(t.dims(), u);
  }

  // Ring and torus wrap around (a dimension of 2 or 1 has no wraparound link: the router then
  // finds none and uses one class); mesh XY routes need no classes.
  VcClassRule vc_class_rule(const Topology& t) const override {
    return t.kind() == TopologyKind::kMesh ? VcClassRule::kNone : VcClassRule::kDateline;
  }
};

}  // namespace

std::unique_ptr<TopologyFamily> make_grid_family() {
  return std::make_unique<GridFamily>();
}

}  // namespace mt
