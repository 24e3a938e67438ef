#pragma once
// Network topologies: endpoints (NICs), switches and directed links, with the routes, distances
// and rules of one family each (model/topology/family_*.cpp behind TopologyFamily). Pure C++ (no
// SystemC): the simulator, the schedule builders and the verifier share it.

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/core/enum_names.h"
#include "model/core/error.h"

namespace mt {

class TopologyFamily;

/// Thrown for a topology that cannot exist (0 nodes, bad dims, unknown family, bad spec string).
class TopologyError : public Error {
 public:
  using Error::Error;
};

/// Most endpoints a topology may have (every family; the scenario loader's ranges): a 32x32x16
/// pod in the message-granularity model. Memory, not this limit, bounds the packet model there
/// (a schedule's messages are capped by default_message_limit()).
constexpr int kMaxEndpoints = 16384;

/// One explicit edge of a `custom` topology (bidirectional: two directed links are made).
struct EdgeConfig {
  int a = 0;  ///< vertex id (endpoints 0..nodes-1, switches nodes..nodes+switches-1)
  int b = 0;  ///< vertex id
};

/// Topology family. Direct families (ring, torus, mesh) have no switches.
enum class TopologyKind { kRing, kTorus, kMesh, kFatTree, kBiGraph, kSwitch, kCustom };
template <>
struct EnumNames<TopologyKind> {
  static constexpr std::array<const char*, 7> kNames{"ring",    "torus",  "mesh",  "fattree",
                                                     "bigraph", "switch", "custom"};
};

/// How a router splits its virtual channels into two classes so that the family's routes cannot
/// close a cycle of buffer dependencies (model/noc/routing.h applies it, model/noc/deadlock.h
/// checks the result).
enum class VcClassRule {
  kNone,        ///< routes are deadlock-free with one class (mesh XY, up*/down*, one switch)
  kDateline,    ///< ring/torus: a wraparound link and the later hops of its dimension use class 1
  kSwitchHops,  ///< BiGraph: the second switch-to-switch hop and every later one use class 1
};

/// Everything needed to build a topology. Filled by the scenario loader or by parse_topology_spec.
struct TopologyConfig {
  TopologyKind kind = TopologyKind::kTorus;  ///< family
  /// ring: {N}; torus and mesh: {X,Y} or {X,Y,Z}. Endpoint id = x + X*(y + Y*z). Every dimension
  /// >= 1; a torus dimension of size 2 has one link between its two nodes, size 1 none.
  std::vector<int> dims = {4, 4};
  /// fattree: switch radix k, even (k leaves with k/2 endpoints each, k/2 spines: N = k*k/2).
  int fattree_k = 4;
  int fattree_levels = 2;   ///< fattree: only 2 is supported
  int bigraph_m = 4;        ///< bigraph: endpoints per switch (N = m*n)
  int bigraph_n = 4;        ///< bigraph: switches, split into two halves of n/2 (n even)
  int switch_nodes = 16;    ///< switch: endpoints on the single crossbar switch
  int custom_nodes = 0;     ///< custom: number of endpoints
  int custom_switches = 0;  ///< custom: number of switches
  std::vector<EdgeConfig> custom_edges;  ///< custom: bidirectional edges
  /// Bandwidth of every directed link, bytes per network clock cycle (16 = 16 GB/s at 1 GHz).
  double link_bytes_per_cycle = 16.0;
  /// Wire latency of a router-to-router (or switch-to-switch) link, cycles.
  int link_latency_cycles = 150;
  /// Latency of an endpoint-to-switch link on switch topologies, cycles (direct topologies have
  /// none).
  int nic_link_latency_cycles = 150;
  /// NIC ports per endpoint; 0 = default (one per network link on direct topologies, 1 on
  /// switched).
  int ports_per_node = 0;
};

/// One directed link. Ids are dense: 0..links()-1.
struct Link {
  int id = 0;                     ///< index in Topology::links()
  int src = 0;                    ///< vertex id the link leaves
  int dst = 0;                    ///< vertex id the link enters
  double bytes_per_cycle = 16.0;  ///< serialisation bandwidth, bytes per cycle
  int latency_cycles = 0;         ///< wire latency, cycles
  int reverse = -1;               ///< id of the link dst->src (every link has one)
};

/// A network: endpoints 0..nodes()-1 (each holds a NIC), switches nodes()..vertices()-1, and
/// directed links between vertices. Direct topologies (ring, torus, mesh) have no switches: the
/// endpoint's router is the vertex itself.
class Topology {
 public:
  explicit Topology(const TopologyConfig& config);

  /// Canonical spec string, e.g. "torus:4x4", "fattree:k=8,levels=2".
  const std::string& name() const { return name_; }
  /// Family (to_string gives its name: ring, torus, mesh, fattree, bigraph, switch, custom).
  TopologyKind kind() const { return config_.kind; }
  const TopologyConfig& config() const { return config_; }
  /// Dimensions for ring/torus/mesh (empty otherwise).
  const std::vector<int>& dims() const { return config_.dims; }

  int nodes() const { return nodes_; }                            ///< endpoints (NICs)
  int vertices() const { return static_cast<int>(out_.size()); }  ///< endpoints + switches
  int switches() const { return vertices() - nodes_; }            ///< switch vertices
  bool is_switch(int v) const { return v >= nodes_; }             ///< vertex v is a switch
  bool is_direct() const { return switches() == 0; }  ///< no switches (ring, torus, mesh)
  /// NIC ports per endpoint: config value, or the default (most links of any endpoint on direct
  /// topologies, 1 on switched ones). Never more than the endpoints' link count.
  int ports_per_node() const { return ports_per_node_; }

  const std::vector<Link>& links() const { return links_; }  ///< all directed links, by id
  /// Link `id`; throws std::out_of_range for a bad id.
  const Link& link(int id) const { return links_.at(static_cast<size_t>(id)); }
  /// Directed links leaving vertex v, in a fixed order (direct topologies: see neighbor order).
  const std::vector<int>& out_links(int v) const { return out_.at(static_cast<size_t>(v)); }
  /// Directed links entering vertex v (direct topologies: from the neighbors, in neighbor order).
  const std::vector<int>& in_links(int v) const { return in_.at(static_cast<size_t>(v)); }
  /// Link id from u to v, or -1 when they are not adjacent.
  int link_between(int u, int v) const;
  /// Endpoint neighbors of endpoint u on direct topologies in the order N (y-1), S (y+1),
  /// W (x-1), E (x+1) (then -Z, +Z), skipping missing ones (mesh edges) and duplicates (dimension
  /// of size 2); ring: W, E. Other kinds: endpoints directly linked to u, in link order.
  std::vector<int> neighbors(int u) const;

  /// Deterministic minimal route from endpoint src to endpoint dst as link ids:
  /// dimension-order on torus (x, then y, then z; shortest direction, exactly half way goes +),
  /// XY(Z) on mesh, ring the shortest way (ties +). Fat-tree: up/down, endpoint->leaf[->spine
  /// (dst mod k/2)->leaf]->endpoint. BiGraph: endpoint->switch[->switch of the other half]->
  /// endpoint, or for two switches of the same half via the other half's switch (dst mod n/2).
  /// Switch: endpoint->switch->endpoint. Custom: up*/down* on a BFS spanning tree (shortest legal
  /// path, lowest link id first; see link_goes_up).
  /// Empty when src == dst. Throws TopologyError for ids out of range. Deadlock freedom: mesh XY,
  /// fat-tree up/down, switch and custom up*/down* routes are deadlock-free as is; ring/torus need
  /// dateline virtual channels; BiGraph needs a separate virtual channel for a second
  /// switch-to-switch hop. model/noc/deadlock.h checks it on the channel dependency graph.
  std::vector<int> route(int src, int dst) const;
  /// Ring and torus: the dimensions (bit d = dimension d) in which dst lies exactly half way
  /// around from src, where route() goes + and the - way is as short. 0 on other families.
  unsigned half_way_dimensions(int src, int dst) const;
  /// route() with the half-way dimensions set in `half_way_minus` taken the - way (BookSim's
  /// torus dimension-order routing picks either at random per packet).
  std::vector<int> route(int src, int dst, unsigned half_way_minus) const;
  /// Hop count (links) of a shortest path between two vertices (endpoints or switches). O(1):
  /// closed forms per family, a precomputed BFS table on custom topologies (always connected).
  int distance(int u, int v) const;
  /// True when `link` goes up: on a fat-tree towards the spines; on a custom topology towards the
  /// root of the BFS spanning tree (the first switch, or endpoint 0 when there is none) in the
  /// order (tree level, vertex id). A legal route takes up links, then down links only
  /// (up*/down*): no cycle of channel dependencies can form. False on other families.
  bool link_goes_up(int link) const;
  /// The family's virtual-channel class rule (VcClassRule).
  VcClassRule vc_class_rule() const;
  /// True on the families whose routes are up*/down* (fattree, custom).
  bool routes_up_down() const {
    return kind() == TopologyKind::kFatTree || kind() == TopologyKind::kCustom;
  }
  /// Largest endpoint-to-endpoint shortest-path hop count (precomputed).
  int diameter() const { return diameter_; }
  /// Number of directed links (every physical connection counts twice).
  int directed_links() const { return static_cast<int>(links_.size()); }
  /// Coordinates {x}, {x,y} or {x,y,z} of endpoint u on ring/torus/mesh (empty on other kinds).
  std::vector<int> coords(int u) const;

 private:
  friend class TopologyBuilder;  // a family fills the vertices and links (topology_family.h)

  /// Throws TopologyError unless src and dst are endpoint ids.
  void check_route_ends(int src, int dst) const;

  TopologyConfig config_;
  std::string name_;
  int nodes_ = 0;
  int ports_per_node_ = 1;
  std::vector<Link> links_;
  std::vector<std::vector<int>> out_;
  std::vector<std::vector<int>> in_;
  // The family's routes, distances and rules (one file each: family_*.cpp); shared by copies.
  std::shared_ptr<const TopologyFamily> family_;
  int diameter_ = 0;
};

/// Parses a CLI topology spec (topology_spec.cpp): "ring:16", "torus:4x4", "torus:4x4x4",
/// "mesh:8x8", "fattree:k=8,levels=2", "bigraph:m=4,n=8", "switch:nodes=16". Throws TopologyError
/// naming the bad part. Link bandwidth/latency keep their defaults.
TopologyConfig parse_topology_spec(const std::string& spec);

}  // namespace mt
