#pragma once
// Routing policy of the network model, apart from the SystemC kernel: cached routes, the port a
// link leaves/enters by, and the dateline virtual-channel classes of ring/torus wraparound links.

#include <cstdint>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/topology/topology.h"

namespace mt {

/// Thrown for a source route that does not lead from its source to its destination.
class RoutingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Routes and virtual-channel policy for one topology.
class RoutingTable {
 public:
  /// Routing for `topology`, which must outlive the table: dateline VC classes on ring/torus,
  /// output/input port indices of every link; routes are computed on first use.
  explicit RoutingTable(const Topology& topology);

  /// The topology routed on.
  const Topology& topology() const { return topology_; }
  /// Topology route from endpoint src to endpoint dst (link ids), computed once and cached.
  const std::vector<int>& route(int src, int dst);
  /// True on ring/torus topologies that have wraparound links: VCs split into two dateline classes.
  bool uses_dateline() const { return dateline_; }
  /// Dimension a link moves along on ring/torus/mesh, -1 on switched topologies.
  int link_dimension(int link) const { return dim_.at(static_cast<std::size_t>(link)); }
  /// True for a ring/torus wraparound link (the dateline of its dimension).
  bool link_wraps(int link) const { return wraps_.at(static_cast<std::size_t>(link)) != 0; }
  /// Position of `link` in out_links(link.src): the output port it leaves by.
  int out_index(int link) const { return out_index_.at(static_cast<std::size_t>(link)); }
  /// Position of `link` in in_links(link.dst): the input port it enters by.
  int in_index(int link) const { return in_index_.at(static_cast<std::size_t>(link)); }
  /// Dateline rule for taking `link`: a new dimension starts in class 0, the wraparound link and
  /// every later hop in its dimension use class 1. Updates `dim` and `vc_class`.
  void advance(int link, int& dim, int& vc_class) const;
  /// VCs [first, last) a packet of `vc_class` may use when a buffer has `vcs` VCs.
  std::pair<int, int> vc_range(int vc_class, int vcs) const;
  /// Throws RoutingError unless `path` is a chain of links from endpoint src to endpoint dst.
  void check_path(const std::vector<int>& path, int src, int dst) const;

 private:
  const Topology& topology_;
  bool dateline_ = false;
  std::vector<int> dim_;
  std::vector<char> wraps_;
  std::vector<int> out_index_;
  std::vector<int> in_index_;
  std::unordered_map<std::int64_t, std::vector<int>> routes_;
};

}  // namespace mt
