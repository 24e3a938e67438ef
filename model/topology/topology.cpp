#include "model/topology/topology.h"

#include <algorithm>
#include <utility>

#include "model/topology/topology_family.h"

namespace mt {

bool is_direct_kind(TopologyKind kind) {
  return kind == TopologyKind::kRing || kind == TopologyKind::kTorus || kind == TopologyKind::kMesh;
}

void check_endpoint_count(std::int64_t n) {
  if (n < 1) throw TopologyError("topology has 0 endpoints; at least 1 is required");
  if (n > kMaxEndpoints) {
    throw TopologyError("topology has " + std::to_string(n) + " endpoints; at most " +
                        std::to_string(kMaxEndpoints) + " are supported");
  }
}

int route_hop(const Topology& t, int from, int to) {
  const int l = t.link_between(from, to);
  if (l < 0) {
    throw TopologyError("internal routing error on " + t.name() + ": no link " +
                        std::to_string(from) + "->" + std::to_string(to));
  }
  return l;
}

std::unique_ptr<TopologyFamily> make_topology_family(TopologyKind kind) {
  switch (kind) {
    case TopologyKind::kRing:
    case TopologyKind::kTorus:
    case TopologyKind::kMesh:
      return make_grid_family();
    case TopologyKind::kFatTree:
      return make_fattree_family();
    case TopologyKind::kBiGraph:
      return make_bigraph_family();
    case TopologyKind::kSwitch:
      return make_switch_family();
    case TopologyKind::kCustom:
      break;
  }
  return make_custom_family();
}

bool TopologyFamily::link_goes_up(const Topology&, const Link&) const {
  return false;
}

std::vector<int> TopologyFamily::neighbors(const Topology& t, int u) const {
  std::vector<int> result;
  for (int l : t.out_links(u)) {
    const int v = t.link(l).dst;
    if (!t.is_switch(v)) result.push_back(v);
  }
  return result;
}

VcClassRule TopologyFamily::vc_class_rule(const Topology&) const {
  return VcClassRule::kNone;
}

VcClassRule Topology::vc_class_rule() const {
  return family_->vc_class_rule(*this);
}

unsigned TopologyFamily::half_way_dimensions(const Topology&, int, int) const {
  return 0;
}

std::vector<int> TopologyFamily::route_half_way(const Topology& t, int src, int dst,
                                                unsigned) const {
  return route(t, src, dst);
}

std::vector<int> TopologyFamily::coords(const Topology&, int) const {
  return {};
}

void TopologyBuilder::set_vertices(int nodes, int vertices, std::string name) {
  t_.nodes_ = nodes;
  t_.name_ = std::move(name);
  t_.out_.assign(static_cast<size_t>(vertices), {});
  t_.in_.assign(static_cast<size_t>(vertices), {});
}

void TopologyBuilder::add_link(int a, int b, int latency_cycles) {
  const int id = static_cast<int>(t_.links_.size());
  Link ab;
  ab.id = id;
  ab.src = a;
  ab.dst = b;
  ab.bytes_per_cycle = t_.config_.link_bytes_per_cycle;
  ab.latency_cycles = latency_cycles;
  ab.reverse = id + 1;
  Link ba = ab;
  ba.id = id + 1;
  ba.src = b;
  ba.dst = a;
  ba.reverse = id;
  t_.links_.push_back(ab);
  t_.links_.push_back(ba);
  t_.out_[static_cast<size_t>(a)].push_back(id);
  t_.in_[static_cast<size_t>(b)].push_back(id);
  t_.out_[static_cast<size_t>(b)].push_back(id + 1);
  t_.in_[static_cast<size_t>(a)].push_back(id + 1);
}

void TopologyBuilder::set_link_order(int v, std::vector<int> out, std::vector<int> in) {
  t_.out_[static_cast<size_t>(v)] = std::move(out);
  t_.in_[static_cast<size_t>(v)] = std::move(in);
}

Topology::Topology(const TopologyConfig& config) : config_(config) {
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
  if (!is_direct_kind(config_.kind)) config_.dims.clear();
  std::unique_ptr<TopologyFamily> family = make_topology_family(config_.kind);
  TopologyBuilder builder(*this);
  family->build(builder);
  family_ = std::move(family);
  diameter_ = family_->diameter(*this);

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
  // Behind a switch each NIC port drives its own link to the network, so every endpoint needs
  // exactly one link per port (only a custom topology can break this).
  if (!is_direct()) {
    for (int u = 0; u < nodes_; ++u) {
      const int links = static_cast<int>(out_[static_cast<size_t>(u)].size());
      if (links == ports_per_node_) continue;
      const bool alike = std::all_of(out_.begin(), out_.begin() + nodes_,
                                     [&](const auto& out) { return out.size() == out_[0].size(); });
      throw TopologyError("endpoint " + std::to_string(u) + " has " + std::to_string(links) +
                          " network links but " + std::to_string(ports_per_node_) +
                          " NIC port(s); on a topology with switches each NIC port drives one "
                          "link, so every endpoint needs one link per port" +
                          (alike ? " (" + std::to_string(links) + " ports would match)"
                                 : " (give every endpoint the same number of links)"));
    }
  }
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
  return family_->coords(*this, u);
}

std::vector<int> Topology::neighbors(int u) const {
  return family_->neighbors(*this, u);
}

void Topology::check_route_ends(int src, int dst) const {
  if (src < 0 || src >= nodes_ || dst < 0 || dst >= nodes_) {
    throw TopologyError("route " + std::to_string(src) + "->" + std::to_string(dst) +
                        ": endpoints are 0.." + std::to_string(nodes_ - 1));
  }
}

std::vector<int> Topology::route(int src, int dst) const {
  check_route_ends(src, dst);
  if (src == dst) return {};
  return family_->route(*this, src, dst);
}

unsigned Topology::half_way_dimensions(int src, int dst) const {
  check_route_ends(src, dst);
  return src == dst ? 0 : family_->half_way_dimensions(*this, src, dst);
}

std::vector<int> Topology::route(int src, int dst, unsigned half_way_minus) const {
  if (half_way_minus == 0) return route(src, dst);
  check_route_ends(src, dst);
  return src == dst ? std::vector<int>{} : family_->route_half_way(*this, src, dst, half_way_minus);
}

bool Topology::link_goes_up(int link) const {
  return family_->link_goes_up(*this, links_.at(static_cast<size_t>(link)));
}

int Topology::distance(int u, int v) const {
  const int nv = vertices();
  if (u < 0 || u >= nv || v < 0 || v >= nv) {
    throw TopologyError("distance " + std::to_string(u) + "->" + std::to_string(v) +
                        ": vertices are 0.." + std::to_string(nv - 1));
  }
  if (u == v) return 0;
  return family_->distance(*this, u, v);
}

}  // namespace mt
