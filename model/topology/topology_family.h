#pragma once
// The one interface every topology family implements (build, route, distance, diameter, the
// up*/down* rule, neighbor order and coordinates), one family per file, and the builder through
// which a family fills a Topology. Internal to model/topology/: users see only Topology.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/topology/topology.h"

namespace mt {

/// What a family may change in the Topology it builds; used only inside TopologyFamily::build.
class TopologyBuilder {
 public:
  explicit TopologyBuilder(Topology& topology) : t_(topology) {}
  const TopologyConfig& config() const { return t_.config_; }
  const Topology& topology() const { return t_; }
  /// Sets the endpoint count, the canonical spec name and the vertex count (endpoints first,
  /// then switches); every vertex starts with no links.
  void set_vertices(int nodes, int vertices, std::string name);
  /// Adds the two directed links a->b and b->a (ids n and n+1), appended to both vertices' lists.
  void add_link(int a, int b, int latency_cycles);
  /// Replaces the order of vertex v's out and in links (the same links, reordered).
  void set_link_order(int v, std::vector<int> out, std::vector<int> in);

 private:
  Topology& t_;
};

/// One topology family. The Topology checks ids and the src == dst / u == v cases before it
/// calls route() and distance().
class TopologyFamily {
 public:
  virtual ~TopologyFamily() = default;
  /// Checks the family's parameters (TopologyError naming the bad one) and adds its vertices and
  /// links. May keep tables the other calls read (custom: distances, spanning-tree levels).
  virtual void build(TopologyBuilder& b) = 0;
  /// Deterministic minimal route from endpoint src to endpoint dst (src != dst), link ids.
  virtual std::vector<int> route(const Topology& t, int src, int dst) const = 0;
  /// Dimensions (bit d = dimension d) in which dst lies exactly half way around a ring from src,
  /// so that both directions are shortest (ring and torus; default: none).
  virtual unsigned half_way_dimensions(const Topology& t, int src, int dst) const;
  /// route() with the half-way dimensions in `minus` taken the - way (default: route()).
  virtual std::vector<int> route_half_way(const Topology& t, int src, int dst,
                                          unsigned minus) const;
  /// Hop count of a shortest path between vertices u != v.
  virtual int distance(const Topology& t, int u, int v) const = 0;
  /// Largest endpoint-to-endpoint distance.
  virtual int diameter(const Topology& t) const = 0;
  /// True when `link` goes up on an up*/down* family (fattree, custom); false elsewhere.
  virtual bool link_goes_up(const Topology& t, const Link& link) const;
  /// Endpoint neighbors of endpoint u (Topology::neighbors). Default: endpoints directly linked
  /// to u, in link order.
  virtual std::vector<int> neighbors(const Topology& t, int u) const;
  /// Coordinates of endpoint u on grid families; empty elsewhere.
  virtual std::vector<int> coords(const Topology& t, int u) const;
  /// The VC class rule the family's routes need (default: none).
  virtual VcClassRule vc_class_rule(const Topology& t) const;
};

/// The family of `kind`: ring, torus and mesh share the grid family.
std::unique_ptr<TopologyFamily> make_topology_family(TopologyKind kind);

// One factory per family file.
std::unique_ptr<TopologyFamily> make_grid_family();     // ring, torus, mesh
std::unique_ptr<TopologyFamily> make_fattree_family();  // 2-level fat-tree
std::unique_ptr<TopologyFamily> make_bigraph_family();  // BiGraph
std::unique_ptr<TopologyFamily> make_switch_family();   // one crossbar switch
std::unique_ptr<TopologyFamily> make_custom_family();   // explicit edges, up*/down* routes

/// Ring, torus and mesh: direct families described by dims.
bool is_direct_kind(TopologyKind kind);
/// TopologyError unless 1 <= n <= the supported endpoint count.
void check_endpoint_count(std::int64_t n);
/// The link from->to of a route on `t`; TopologyError "internal routing error" when there is none.
int route_hop(const Topology& t, int from, int to);

}  // namespace mt
