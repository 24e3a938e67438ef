#pragma once
// Routing policy of the network model, apart from the SystemC kernel: cached routes, the port a
// link leaves/enters by, and the virtual-channel classes that keep routes deadlock-free: dateline
// classes on ring/torus wraparound links, hop classes on BiGraph.

#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/core/error.h"
#include "model/topology/topology.h"

namespace mt {

/// Thrown for a source route that does not lead from its source to its destination.
class RoutingError : public Error {
 public:
  using Error::Error;
};

/// Where a packet is on its route, as far as the VC classes care.
struct RouteState {
  int dim = -1;         ///< dimension of the last network link taken on ring/torus/mesh (-1: none)
  int switch_hops = 0;  ///< switch-to-switch links taken so far (switched topologies)
  int vc_class = 0;     ///< VC class of the buffer the packet heads to (0 or 1)
};

/// router.tie_break random: the ways a packet takes in the dimensions where its destination lies
/// half way around (bit d set = dimension d the - way), a fixed pseudo-random function of the
/// message id and the packet's index in it (splitmix64), so runs are reproducible.
unsigned half_way_ways(int message, int packet);

/// Routes and virtual-channel policy for one topology.
class RoutingTable {
 public:
  /// What a route's VC class needs to know of one link, compact enough that a router keeps its
  /// outputs' records beside its own state (see Router::in_fw).
  struct LinkHop {
    int link = -1;             ///< link id (-1: not a network link)
    std::int16_t dim = -1;     ///< link_dimension()
    bool wraps = false;        ///< link_wraps()
    bool switch_pair = false;  ///< both ends are switches
  };

  /// Routing for `topology`, which must outlive the table: VC classes (dateline on ring/torus,
  /// hop classes on BiGraph), output/input port indices of every link; routes are computed on
  /// first use.
  explicit RoutingTable(const Topology& topology);

  /// The topology routed on.
  const Topology& topology() const { return topology_; }
  /// Topology route from endpoint src to endpoint dst (link ids), computed once and cached; with
  /// `half_way_minus`, the half-way dimensions it names go the - way (Topology::route).
  const std::vector<int>& route(int src, int dst, unsigned half_way_minus = 0);
  /// True when VCs split into two classes: on ring/torus topologies with wraparound links
  /// (dateline classes) and on BiGraph (hop classes).
  bool uses_vc_classes() const { return dateline_ || hop_classes_; }
  /// Why the topology needs VC classes, for messages ("wraparound links", ...); empty if none.
  const char* vc_class_reason() const;
  /// Dimension a link moves along on ring/torus (families with the dateline rule), else -1.
  int link_dimension(int link) const { return dim_.at(static_cast<std::size_t>(link)); }
  /// True for a ring/torus wraparound link (the dateline of its dimension).
  bool link_wraps(int link) const { return wraps_.at(static_cast<std::size_t>(link)) != 0; }
  /// Position of `link` in out_links(link.src): the output port it leaves by.
  int out_index(int link) const { return out_index_.at(static_cast<std::size_t>(link)); }
  /// Position of `link` in in_links(link.dst): the input port it enters by.
  int in_index(int link) const { return in_index_.at(static_cast<std::size_t>(link)); }
  /// Updates `state` for taking `link`. Dateline rule (ring/torus): a new dimension starts in
  /// class 0, the wraparound link and every later hop in its dimension use class 1. Hop rule
  /// (BiGraph): the second switch-to-switch link and every later one use class 1. A BiGraph
  /// route between two switches of one half turns through the other half (a -> b -> a'), so
  /// with one class the links a -> b -> a' -> b' -> a would close a cycle of buffer
  /// dependencies; with the rule, class-0 buffers wait only on class-1 or ejection buffers, and
  /// class-1 buffers only on ejection.
  void advance(int link, RouteState& state) const {
    if (uses_vc_classes()) advance(hop(link), state);  // (hop() reads the link's records)
  }
  /// advance() with the link's record.
  void advance(const LinkHop& hop, RouteState& state) const;
  /// The record of `link`.
  LinkHop hop(int link) const;
  /// VCs [first, last) a packet of `vc_class` may use when a buffer has `vcs` VCs.
  std::pair<int, int> vc_range(int vc_class, int vcs) const;
  /// Throws RoutingError unless `path` is a chain of links from endpoint src to endpoint dst.
  void check_path(const std::vector<int>& path, int src, int dst) const;
  /// The links a message from src to dst takes: `source_route` when it names one (checked as
  /// check_path does), else the routing function's route; RoutingError("empty route") when
  /// that has no link.
  const std::vector<int>& message_route(const std::vector<int>& source_route, int src, int dst);

 private:
  const Topology& topology_;
  bool dateline_ = false;
  bool hop_classes_ = false;
  std::vector<int> dim_;
  std::vector<char> wraps_;
  std::vector<int> out_index_;
  std::vector<int> in_index_;
  std::unordered_map<std::int64_t, std::vector<int>> routes_;
};

}  // namespace mt
