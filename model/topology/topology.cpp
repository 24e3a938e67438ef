#include "model/topology/topology.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <limits>
#include <set>
#include <sstream>
#include <utility>

namespace mt {

namespace {

constexpr std::int64_t kMaxEndpoints = 4096;

bool is_direct_kind(TopologyKind kind) {
  return kind == TopologyKind::kRing || kind == TopologyKind::kTorus || kind == TopologyKind::kMesh;
}

std::string join_dims(const std::vector<int>& dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += 'x';
    s += std::to_string(dims[i]);
  }
  return s;
}

void check_endpoint_count(std::int64_t n) {
  if (n < 1) throw TopologyError("topology has 0 endpoints; at least 1 is required");
  if (n > kMaxEndpoints) {
    throw TopologyError("topology has " + std::to_string(n) + " endpoints; at most " +
                        std::to_string(kMaxEndpoints) + " are supported");
  }
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

}  // namespace

Topology::Topology(const TopologyConfig& config) : config_(config) {
  const TopologyKind kind = config_.kind;
  if (!(config_.link_bytes_per_cycle > 0)) {
    throw TopologyError("link bandwidth must be > 0 bytes per cycle, got " +
                        std::to_string(config_.link_bytes_per_cycle));
  }
  if (config_.link_latency_cycles < 0) {
    throw TopologyError("link latency must be >= 0 cycles, got " +
                        std::to_string(config_.link_latency_cycles));
  }
  if (config_.nic_link_latency_cycles < 0) {
    throw TopologyError("NIC link latency must be >= 0 cycles, got " +
                        std::to_string(config_.nic_link_latency_cycles));
  }
  if (config_.ports_per_node < 0) {
    throw TopologyError("ports per node must be >= 0 (0 = default), got " +
                        std::to_string(config_.ports_per_node));
  }
  if (is_direct_kind(kind)) {
    build_ring_torus_mesh();
  } else if (kind == TopologyKind::kFatTree) {
    config_.dims.clear();
    build_fattree();
  } else if (kind == TopologyKind::kBiGraph) {
    config_.dims.clear();
    build_bigraph();
  } else if (kind == TopologyKind::kSwitch) {
    config_.dims.clear();
    build_switch();
  } else {
    config_.dims.clear();
    build_custom();
    compute_custom_distances();
    compute_updown_levels();
  }
  diameter_ = compute_diameter();

  // NIC ports: default one per endpoint link on direct topologies, one on switched ones.
  int max_endpoint_links = 0;
  for (int u = 0; u < nodes_; ++u) {
    max_endpoint_links = std::max(max_endpoint_links, static_cast<int>(out_[u].size()));
  }
  max_endpoint_links = std::max(1, max_endpoint_links);  // a lone endpoint still has a NIC port
  if (config_.ports_per_node > 0) {
    if (config_.ports_per_node > max_endpoint_links) {
      throw TopologyError("ports per node is " + std::to_string(config_.ports_per_node) + " but " +
                          name_ + " endpoints have at most " + std::to_string(max_endpoint_links) +
                          " network link(s); use 1.." + std::to_string(max_endpoint_links) +
                          " (or 0 for the default)");
    }
    ports_per_node_ = config_.ports_per_node;
  } else {
    ports_per_node_ = is_direct() ? max_endpoint_links : 1;
  }
}

void Topology::add_link(int a, int b, int latency_cycles) {
  const int id = static_cast<int>(links_.size());
  Link ab;
  ab.id = id;
  ab.src = a;
  ab.dst = b;
  ab.bytes_per_cycle = config_.link_bytes_per_cycle;
  ab.latency_cycles = latency_cycles;
  ab.reverse = id + 1;
  Link ba = ab;
  ba.id = id + 1;
  ba.src = b;
  ba.dst = a;
  ba.reverse = id;
  links_.push_back(ab);
  links_.push_back(ba);
  out_[static_cast<size_t>(a)].push_back(id);
  in_[static_cast<size_t>(b)].push_back(id);
  out_[static_cast<size_t>(b)].push_back(id + 1);
  in_[static_cast<size_t>(a)].push_back(id + 1);
}

void Topology::build_ring_torus_mesh() {
  const TopologyKind kind = config_.kind;
  const std::string kind_name = to_string(kind);
  const auto& dims = config_.dims;
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
      throw TopologyError(kind_name + " dimension " + std::to_string(i) + " is " +
                          std::to_string(dims[i]) + "; every dimension must be >= 1");
    }
  }
  check_endpoint_count(dims_product(dims));
  nodes_ = static_cast<int>(dims_product(dims));
  name_ = kind_name + ":" + join_dims(dims);
  out_.assign(static_cast<size_t>(nodes_), {});
  in_.assign(static_cast<size_t>(nodes_), {});

  const bool wrap = kind != TopologyKind::kMesh;
  for (int u = 0; u < nodes_; ++u) {
    std::vector<int> c = coords(u);
    for (size_t d = 0; d < dims.size(); ++d) {
      if (dims[d] == 1) continue;
      std::vector<int> n = c;
      n[d] = c[d] + 1;
      if (n[d] == dims[d]) {
        if (!wrap) continue;
        n[d] = 0;
      }
      int v = 0;
      for (size_t k = dims.size(); k-- > 0;) v = v * dims[k] + n[k];
      if (v == u || link_between(u, v) != -1) continue;  // size-2 dimension: one connection only
      add_link(u, v, config_.link_latency_cycles);
    }
  }
  // Put every endpoint's links in neighbor order (N, S, W, E, -Z, +Z).
  for (int u = 0; u < nodes_; ++u) {
    std::vector<int> ordered_out;
    std::vector<int> ordered_in;
    for (int v : neighbors(u)) {
      int l = link_between(u, v);
      ordered_out.push_back(l);
      ordered_in.push_back(links_[static_cast<size_t>(l)].reverse);
    }
    out_[static_cast<size_t>(u)] = ordered_out;
    in_[static_cast<size_t>(u)] = ordered_in;
  }
}

void Topology::build_fattree() {
  const int k = config_.fattree_k;
  if (config_.fattree_levels != 2) {
    throw TopologyError("fattree levels is " + std::to_string(config_.fattree_levels) +
                        "; only 2-level fat-trees are supported");
  }
  if (k < 2 || k % 2 != 0) {
    throw TopologyError("fattree k is " + std::to_string(k) + "; k must be even and >= 2");
  }
  check_endpoint_count(std::int64_t{k} * k / 2);
  nodes_ = k * k / 2;
  name_ = "fattree:k=" + std::to_string(k) + ",levels=2";
  const int half = k / 2;
  const int leaves = k;
  const int spines = half;
  out_.assign(static_cast<size_t>(nodes_ + leaves + spines), {});
  in_.assign(out_.size(), {});
  for (int e = 0; e < nodes_; ++e) add_link(e, nodes_ + e / half, config_.nic_link_latency_cycles);
  for (int l = 0; l < leaves; ++l) {
    for (int s = 0; s < spines; ++s) {
      add_link(nodes_ + l, nodes_ + leaves + s, config_.link_latency_cycles);
    }
  }
}

void Topology::build_bigraph() {
  const int m = config_.bigraph_m;
  const int n = config_.bigraph_n;
  if (m < 1) throw TopologyError("bigraph m is " + std::to_string(m) + "; m must be >= 1");
  if (n < 2 || n % 2 != 0) {
    throw TopologyError("bigraph n is " + std::to_string(n) + "; n must be even and >= 2");
  }
  check_endpoint_count(std::int64_t{m} * n);
  nodes_ = m * n;
  name_ = "bigraph:m=" + std::to_string(m) + ",n=" + std::to_string(n);
  out_.assign(static_cast<size_t>(nodes_ + n), {});
  in_.assign(out_.size(), {});
  for (int e = 0; e < nodes_; ++e) add_link(e, nodes_ + e / m, config_.nic_link_latency_cycles);
  for (int a = 0; a < n / 2; ++a) {
    for (int b = n / 2; b < n; ++b) add_link(nodes_ + a, nodes_ + b, config_.link_latency_cycles);
  }
}

void Topology::build_switch() {
  check_endpoint_count(config_.switch_nodes);
  nodes_ = config_.switch_nodes;
  name_ = "switch:nodes=" + std::to_string(nodes_);
  out_.assign(static_cast<size_t>(nodes_ + 1), {});
  in_.assign(out_.size(), {});
  for (int e = 0; e < nodes_; ++e) add_link(e, nodes_, config_.nic_link_latency_cycles);
}

void Topology::build_custom() {
  check_endpoint_count(config_.custom_nodes);
  if (config_.custom_switches < 0) {
    throw TopologyError("custom topology has " + std::to_string(config_.custom_switches) +
                        " switches; must be >= 0");
  }
  nodes_ = config_.custom_nodes;
  const int vertices = nodes_ + config_.custom_switches;
  name_ = "custom:nodes=" + std::to_string(nodes_) +
          ",switches=" + std::to_string(config_.custom_switches) +
          ",edges=" + std::to_string(config_.custom_edges.size());
  out_.assign(static_cast<size_t>(vertices), {});
  in_.assign(out_.size(), {});
  for (size_t i = 0; i < config_.custom_edges.size(); ++i) {
    const EdgeConfig& e = config_.custom_edges[i];
    const std::string where = "custom edge " + std::to_string(i) + " (" + std::to_string(e.a) +
                              "-" + std::to_string(e.b) + ")";
    for (int v : {e.a, e.b}) {
      if (v < 0 || v >= vertices) {
        throw TopologyError(where + ": vertex " + std::to_string(v) +
                            " is out of range; vertices are 0.." + std::to_string(vertices - 1) +
                            " (endpoints 0.." + std::to_string(nodes_ - 1) + ", then switches)");
      }
    }
    if (e.a == e.b) throw TopologyError(where + ": a link cannot connect a vertex to itself");
    if (link_between(e.a, e.b) != -1) {
      throw TopologyError(where + ": duplicates an earlier edge between the same vertices");
    }
    const bool nic = is_switch(e.a) != is_switch(e.b);
    add_link(e.a, e.b, nic ? config_.nic_link_latency_cycles : config_.link_latency_cycles);
  }
}

void Topology::compute_custom_distances() {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  const int nv = vertices();
  Graph g(static_cast<size_t>(nv));
  for (const Link& l : links_)
    boost::add_edge(static_cast<size_t>(l.src), static_cast<size_t>(l.dst), g);
  dist_.assign(static_cast<size_t>(nv) * static_cast<size_t>(nv), -1);
  std::vector<int> d(static_cast<size_t>(nv));
  std::vector<boost::default_color_type> color(static_cast<size_t>(nv));
  for (int s = 0; s < nv; ++s) {
    std::fill(d.begin(), d.end(), -1);
    d[static_cast<size_t>(s)] = 0;
    boost::breadth_first_search(g, static_cast<size_t>(s),
                                boost::visitor(boost::make_bfs_visitor(boost::record_distances(
                                                   d.data(), boost::on_tree_edge())))
                                    .color_map(boost::make_iterator_property_map(
                                        color.begin(), boost::get(boost::vertex_index, g))));
    for (int v = 0; v < nv; ++v) {
      dist_[static_cast<size_t>(s) * static_cast<size_t>(nv) + static_cast<size_t>(v)] =
          static_cast<std::int16_t>(d[static_cast<size_t>(v)]);
    }
  }
  for (int v = 0; v < nv; ++v) {
    if (dist_[static_cast<size_t>(v)] < 0) {
      throw TopologyError("custom topology is disconnected: " +
                          std::string(is_switch(v) ? "switch vertex " : "endpoint ") +
                          std::to_string(v) + " cannot be reached from endpoint 0");
    }
  }
}

int Topology::compute_diameter() const {
  const auto& dims = config_.dims;
  int d = 0;
  switch (config_.kind) {
    case TopologyKind::kRing:
    case TopologyKind::kTorus:
      for (int size : dims) d += size / 2;
      return d;
    case TopologyKind::kMesh:
      for (int size : dims) d += size - 1;
      return d;
    case TopologyKind::kFatTree:
      return 4;  // k >= 2: at least two leaves, each with an endpoint
    case TopologyKind::kBiGraph:
      return config_.bigraph_n >= 4 ? 4 : 3;  // two switches of one half exist when n >= 4
    case TopologyKind::kSwitch:
      return nodes_ > 1 ? 2 : 0;
    case TopologyKind::kCustom:
      for (int u = 0; u < nodes_; ++u) {
        for (int v = 0; v < nodes_; ++v) d = std::max(d, distance(u, v));
      }
      return d;
  }
  return d;
}

int Topology::link_between(int u, int v) const {
  const int nv = vertices();
  if (u < 0 || u >= nv || v < 0 || v >= nv) return -1;
  // Scan the shorter list: a crossbar switch has thousands of links, an endpoint a handful.
  const auto& out = out_[static_cast<size_t>(u)];
  const auto& in = in_[static_cast<size_t>(v)];
  if (out.size() <= in.size()) {
    for (int l : out) {
      if (links_[static_cast<size_t>(l)].dst == v) return l;
    }
  } else {
    for (int l : in) {
      if (links_[static_cast<size_t>(l)].src == u) return l;
    }
  }
  return -1;
}

std::vector<int> Topology::coords(int u) const {
  if (u < 0 || u >= nodes_) {
    throw TopologyError("endpoint " + std::to_string(u) + " is out of range 0.." +
                        std::to_string(nodes_ - 1));
  }
  std::vector<int> c;
  if (!is_direct_kind(config_.kind)) return c;
  int rest = u;
  for (int d : config_.dims) {
    c.push_back(rest % d);
    rest /= d;
  }
  return c;
}

std::vector<int> Topology::neighbors(int u) const {
  std::vector<int> result;
  if (!is_direct_kind(config_.kind)) {
    // Other families: endpoints directly linked to u, in link order.
    for (int l : out_links(u)) {
      int v = links_[static_cast<size_t>(l)].dst;
      if (!is_switch(v)) result.push_back(v);
    }
    return result;
  }
  const auto& dims = config_.dims;
  const std::vector<int> c = coords(u);
  const bool wrap = config_.kind != TopologyKind::kMesh;
  // (dimension, direction) in the order N, S, W, E, -Z, +Z; ring: W, E.
  std::vector<std::pair<size_t, int>> order;
  if (dims.size() == 1) {
    order = {{0, -1}, {0, +1}};
  } else {
    order = {{1, -1}, {1, +1}, {0, -1}, {0, +1}};
    if (dims.size() == 3) {
      order.push_back({2, -1});
      order.push_back({2, +1});
    }
  }
  for (auto [d, dir] : order) {
    std::vector<int> n = c;
    n[d] += dir;
    if (n[d] < 0 || n[d] >= dims[d]) {
      if (!wrap) continue;
      n[d] = (n[d] + dims[d]) % dims[d];
    }
    int v = 0;
    for (size_t k = dims.size(); k-- > 0;) v = v * dims[k] + n[k];
    if (v == u || std::find(result.begin(), result.end(), v) != result.end()) continue;
    result.push_back(v);
  }
  return result;
}

std::vector<int> Topology::route(int src, int dst) const {
  if (src < 0 || src >= nodes_ || dst < 0 || dst >= nodes_) {
    throw TopologyError("route " + std::to_string(src) + "->" + std::to_string(dst) +
                        ": endpoints are 0.." + std::to_string(nodes_ - 1));
  }
  std::vector<int> path;
  if (src == dst) return path;
  auto hop = [&](int from, int to) {
    int l = link_between(from, to);
    if (l < 0) {
      throw TopologyError("internal routing error on " + name_ + ": no link " +
                          std::to_string(from) + "->" + std::to_string(to));
    }
    path.push_back(l);
  };
  const TopologyKind kind = config_.kind;
  if (is_direct_kind(kind)) {
    const auto& dims = config_.dims;
    std::vector<int> cur = coords(src);
    const std::vector<int> target = coords(dst);
    auto id_of = [&](const std::vector<int>& c) {
      int v = 0;
      for (size_t k = dims.size(); k-- > 0;) v = v * dims[k] + c[k];
      return v;
    };
    for (size_t d = 0; d < dims.size(); ++d) {
      const int size = dims[d];
      while (cur[d] != target[d]) {
        int step;
        if (kind == TopologyKind::kMesh) {
          step = target[d] > cur[d] ? 1 : -1;
        } else {
          const int fwd = ((target[d] - cur[d]) % size + size) % size;
          step = (2 * fwd <= size) ? 1 : -1;  // exactly half way: + direction
        }
        const int from = id_of(cur);
        cur[d] = ((cur[d] + step) % size + size) % size;
        hop(from, id_of(cur));
      }
    }
    return path;
  }
  if (kind == TopologyKind::kSwitch) {
    hop(src, nodes_);
    hop(nodes_, dst);
    return path;
  }
  if (kind == TopologyKind::kFatTree) {
    const int half = config_.fattree_k / 2;
    const int leaf_s = nodes_ + src / half;
    const int leaf_d = nodes_ + dst / half;
    hop(src, leaf_s);
    if (leaf_s != leaf_d) {
      // d-mod-k: the spine is chosen by the destination, spreading traffic over all spines.
      const int spine = nodes_ + config_.fattree_k + dst % half;
      hop(leaf_s, spine);
      hop(spine, leaf_d);
    }
    hop(leaf_d, dst);
    return path;
  }
  if (kind == TopologyKind::kBiGraph) {
    const int m = config_.bigraph_m;
    const int halfn = config_.bigraph_n / 2;
    const int sw_s = src / m;
    const int sw_d = dst / m;
    hop(src, nodes_ + sw_s);
    if (sw_s != sw_d) {
      const bool same_half = (sw_s < halfn) == (sw_d < halfn);
      if (same_half) {
        // Through the other half; the middle switch is chosen by the destination.
        const int other_base = sw_s < halfn ? halfn : 0;
        const int mid = other_base + dst % halfn;
        hop(nodes_ + sw_s, nodes_ + mid);
        hop(nodes_ + mid, nodes_ + sw_d);
      } else {
        hop(nodes_ + sw_s, nodes_ + sw_d);
      }
    }
    hop(nodes_ + sw_d, dst);
    return path;
  }
  return updown_route(src, dst);
}

void Topology::compute_updown_levels() {
  const int root = is_direct() ? 0 : nodes_;
  level_.assign(static_cast<size_t>(vertices()), -1);
  std::deque<int> queue{root};
  level_[static_cast<size_t>(root)] = 0;
  while (!queue.empty()) {
    const int v = queue.front();
    queue.pop_front();
    for (int l : out_[static_cast<size_t>(v)]) {
      const int w = links_[static_cast<size_t>(l)].dst;
      if (level_[static_cast<size_t>(w)] >= 0) continue;
      level_[static_cast<size_t>(w)] = level_[static_cast<size_t>(v)] + 1;
      queue.push_back(w);
    }
  }
}

bool Topology::link_goes_up(int link) const {
  const Link& l = links_.at(static_cast<size_t>(link));
  if (config_.kind == TopologyKind::kFatTree) {
    const auto tier = [&](int v) {
      return v < nodes_ ? 0 : v < nodes_ + config_.fattree_k ? 1 : 2;
    };
    return tier(l.dst) > tier(l.src);
  }
  if (config_.kind != TopologyKind::kCustom) return false;
  const auto order = [&](int v) { return std::make_pair(level_[static_cast<size_t>(v)], v); };
  return order(l.dst) < order(l.src);
}

// Shortest up*/down* path: BFS over (vertex, gone down yet) states, out links in id order so the
// first path found takes the lowest link id at every hop. Every pair has one (up the spanning
// tree to the root, then down), so the search always reaches dst.
std::vector<int> Topology::updown_route(int src, int dst) const {
  const size_t nv = static_cast<size_t>(vertices());
  std::vector<int> via(2 * nv, -2);  // state -> link taken into it (-1: the start)
  std::vector<size_t> parent(2 * nv, 0);
  std::deque<size_t> queue{static_cast<size_t>(src) * 2};
  via[static_cast<size_t>(src) * 2] = -1;
  size_t found = 2 * nv;
  while (!queue.empty() && found == 2 * nv) {
    const size_t state = queue.front();
    queue.pop_front();
    const bool down = state % 2 == 1;
    std::vector<int> out = out_[state / 2];
    std::sort(out.begin(), out.end());
    for (int l : out) {
      const bool up = link_goes_up(l);
      if (down && up) continue;  // no up link after a down link
      const size_t next =
          static_cast<size_t>(links_[static_cast<size_t>(l)].dst) * 2 + (up ? 0 : 1);
      if (via[next] != -2) continue;
      via[next] = l;
      parent[next] = state;
      if (next / 2 == static_cast<size_t>(dst)) {
        found = next;
        break;
      }
      queue.push_back(next);
    }
  }
  if (found == 2 * nv)  // cannot happen on a connected graph; never return a wrong route
    throw TopologyError("internal routing error on " + name_ + ": no up*/down* route " +
                        std::to_string(src) + "->" + std::to_string(dst));
  std::vector<int> path;
  for (size_t state = found; via[state] >= 0; state = parent[state]) path.push_back(via[state]);
  std::reverse(path.begin(), path.end());
  return path;
}

int Topology::distance(int u, int v) const {
  const int nv = vertices();
  if (u < 0 || u >= nv || v < 0 || v >= nv) {
    throw TopologyError("distance " + std::to_string(u) + "->" + std::to_string(v) +
                        ": vertices are 0.." + std::to_string(nv - 1));
  }
  if (u == v) return 0;
  switch (config_.kind) {
    case TopologyKind::kRing:
    case TopologyKind::kTorus:
    case TopologyKind::kMesh: {
      int d = 0;
      for (int size : config_.dims) {
        const int diff = std::abs(u % size - v % size);
        d += config_.kind == TopologyKind::kMesh ? diff : std::min(diff, size - diff);
        u /= size;
        v /= size;
      }
      return d;
    }
    case TopologyKind::kSwitch:
      return is_switch(u) || is_switch(v) ? 1 : 2;
    case TopologyKind::kFatTree: {
      // Vertex classes: 0 endpoint, 1 leaf, 2 spine.
      const int k = config_.fattree_k;
      const int half = k / 2;
      auto level = [&](int x) { return x < nodes_ ? 0 : x < nodes_ + k ? 1 : 2; };
      if (level(u) > level(v)) std::swap(u, v);
      const int lu = level(u);
      const int lv = level(v);
      if (lu == 0 && lv == 0) return u / half == v / half ? 2 : 4;
      if (lu == 0 && lv == 1) return nodes_ + u / half == v ? 1 : 3;
      if (lu == 0) return 2;  // endpoint - spine
      if (lu == 1 && lv == 1) return 2;
      if (lu == 1) return 1;  // leaf - spine
      return 2;               // spine - spine
    }
    case TopologyKind::kBiGraph: {
      const int m = config_.bigraph_m;
      const int halfn = config_.bigraph_n / 2;
      if (is_switch(u) && !is_switch(v)) std::swap(u, v);
      if (!is_switch(u)) {
        const int su = u / m;
        const int sv = is_switch(v) ? v - nodes_ : v / m;
        const int extra = is_switch(v) ? 0 : 1;  // last hop switch -> endpoint
        if (su == sv) return 1 + extra;
        return ((su < halfn) != (sv < halfn) ? 2 : 3) + extra;
      }
      return ((u - nodes_ < halfn) != (v - nodes_ < halfn)) ? 1 : 2;
    }
    case TopologyKind::kCustom:
      break;
  }
  return dist_[static_cast<size_t>(u) * static_cast<size_t>(nv) + static_cast<size_t>(v)];
}

// ---------------------------------------------------------------------------------------------
// Spec parsing

namespace {

[[noreturn]] void spec_error(const std::string& spec, const std::string& what) {
  throw TopologyError("topology spec \"" + spec + "\": " + what);
}

int parse_positive(const std::string& spec, const std::string& text, const std::string& what) {
  int value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(first, last, value);
  if (text.empty() || ec == std::errc::invalid_argument || ptr != last || value <= 0) {
    if (ec == std::errc::result_out_of_range) {
      spec_error(spec, what + " \"" + text + "\" is too large");
    }
    spec_error(spec, what + " \"" + text + "\" is not a positive integer");
  }
  if (ec == std::errc::result_out_of_range)
    spec_error(spec, what + " \"" + text + "\" is too large");
  return value;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  parts.push_back(cur);
  return parts;
}

// Parses "k=8,levels=2" into a map, checking every key is in `allowed`.
std::vector<std::pair<std::string, int>> parse_keys(const std::string& spec,
                                                    const std::string& params,
                                                    const std::vector<std::string>& allowed) {
  std::vector<std::pair<std::string, int>> result;
  std::string allowed_list;
  for (size_t i = 0; i < allowed.size(); ++i) {
    allowed_list += (i ? ", " : "") + allowed[i];
  }
  for (const std::string& item : split(params, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      spec_error(spec, "parameter \"" + item + "\" is not key=value (keys: " + allowed_list + ")");
    }
    const std::string key = item.substr(0, eq);
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      spec_error(spec, "unknown parameter \"" + key + "\" (keys: " + allowed_list + ")");
    }
    for (const auto& kv : result) {
      if (kv.first == key) spec_error(spec, "parameter \"" + key + "\" is given twice");
    }
    result.emplace_back(key,
                        parse_positive(spec, item.substr(eq + 1), "parameter " + key + " value"));
  }
  return result;
}

int required_key(const std::string& spec, const std::vector<std::pair<std::string, int>>& kv,
                 const std::string& key, const std::string& example) {
  for (const auto& p : kv) {
    if (p.first == key) return p.second;
  }
  spec_error(spec, "missing parameter \"" + key + "\", e.g. \"" + example + "\"");
}

}  // namespace

TopologyConfig parse_topology_spec(const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos) {
    spec_error(spec,
               "expected <kind>:<parameters>, e.g. \"torus:4x4\" or \"fattree:k=8,levels=2\"");
  }
  const std::string kind = spec.substr(0, colon);
  const std::string params = spec.substr(colon + 1);
  TopologyConfig config;
  const std::optional<TopologyKind> parsed = parse_enum<TopologyKind>(kind);
  if (!parsed || *parsed == TopologyKind::kCustom) {
    spec_error(spec, "unknown kind \"" + kind +
                         "\" (expected ring, torus, mesh, fattree, bigraph or switch)");
  }
  config.kind = *parsed;
  if (is_direct_kind(config.kind)) {
    config.dims.clear();
    for (const std::string& part : split(params, 'x')) {
      config.dims.push_back(parse_positive(spec, part, "dimension"));
    }
    const size_t n = config.dims.size();
    if (config.kind == TopologyKind::kRing && n != 1) {
      spec_error(spec, "ring takes one size, e.g. \"ring:16\"");
    }
    if (config.kind != TopologyKind::kRing && n != 2 && n != 3) {
      spec_error(spec, kind + " takes 2 or 3 dimensions, e.g. \"" + kind + ":4x4\" or \"" + kind +
                           ":4x4x4\"");
    }
  } else if (config.kind == TopologyKind::kFatTree) {
    config.dims.clear();
    const auto kv = parse_keys(spec, params, {"k", "levels"});
    config.fattree_k = required_key(spec, kv, "k", "fattree:k=8,levels=2");
    config.fattree_levels = 2;
    for (const auto& p : kv) {
      if (p.first == "levels") config.fattree_levels = p.second;
    }
  } else if (config.kind == TopologyKind::kBiGraph) {
    config.dims.clear();
    const auto kv = parse_keys(spec, params, {"m", "n"});
    config.bigraph_m = required_key(spec, kv, "m", "bigraph:m=4,n=8");
    config.bigraph_n = required_key(spec, kv, "n", "bigraph:m=4,n=8");
  } else {
    config.dims.clear();
    if (params.find('=') == std::string::npos) {
      config.switch_nodes = parse_positive(spec, params, "node count");
    } else {
      const auto kv = parse_keys(spec, params, {"nodes"});
      config.switch_nodes = required_key(spec, kv, "nodes", "switch:nodes=16");
    }
  }
  return config;
}

}  // namespace mt
