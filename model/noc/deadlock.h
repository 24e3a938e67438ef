#pragma once
// Deadlock freedom as a checked property: the channel dependency graph (Dally and Seitz) of a set
// of routes under the routing's virtual-channel rules. A channel is a directed link with the VC
// class a packet holds on it; a packet holding one channel waits for the next of its route. With
// no cycle in this graph, no set of packets can wait on each other in a circle.

#include <string>
#include <vector>

#include "model/noc/routing.h"

namespace mt {

/// A channel of the dependency graph.
struct Channel {
  int link = 0;      ///< directed link id
  int vc_class = 0;  ///< VC class held on it (always 0 when the routing has one class)
  bool operator==(const Channel& o) const { return link == o.link && vc_class == o.vc_class; }
};

/// The channels a packet holds along `path` (link ids) under `routing`'s VC rules with `vcs`
/// VCs per buffer (the classes collapse to one below 2 VCs), as the NIC and routers assign them.
std::vector<Channel> channels_of(const RoutingTable& routing, const std::vector<int>& path,
                                 int vcs);

/// A cycle of the dependency graph of `paths`, as its channels in order (the first depends on
/// the last), or empty when the graph is acyclic.
std::vector<Channel> find_channel_cycle(const RoutingTable& routing,
                                        const std::vector<const std::vector<int>*>& paths, int vcs);

/// The routes between every ordered pair of distinct endpoints.
std::vector<std::vector<int>> all_routes(RoutingTable& routing);

/// "link 3 (0->1, VC class 0) -> link 7 (1->2, VC class 0) -> link 3": the cycle, closed.
std::string describe_cycle(const Topology& topology, const std::vector<Channel>& cycle);

}  // namespace mt
