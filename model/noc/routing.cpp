#include "model/noc/routing.h"

#include <cstdlib>
#include <string>

namespace mt {

RoutingTable::RoutingTable(const Topology& topology) : topology_(topology) {
  const std::size_t links = topology.links().size();
  dim_.assign(links, -1);
  wraps_.assign(links, 0);
  out_index_.assign(links, -1);
  in_index_.assign(links, -1);
  for (int v = 0; v < topology.vertices(); ++v) {
    const std::vector<int>& out = topology.out_links(v);
    for (std::size_t i = 0; i < out.size(); ++i)
      out_index_[static_cast<std::size_t>(out[i])] = static_cast<int>(i);
    const std::vector<int>& in = topology.in_links(v);
    for (std::size_t i = 0; i < in.size(); ++i)
      in_index_[static_cast<std::size_t>(in[i])] = static_cast<int>(i);
  }
  // The family says which rule its routes need; the dateline rule needs each link's dimension
  // and whether it wraps around (a coordinate jump of more than one).
  const VcClassRule rule = topology.vc_class_rule();
  if (rule == VcClassRule::kDateline) {
    for (const Link& link : topology.links()) {
      const std::vector<int> a = topology.coords(link.src);
      const std::vector<int> b = topology.coords(link.dst);
      for (std::size_t d = 0; d < a.size() && d < b.size(); ++d) {
        if (a[d] == b[d]) continue;
        dim_[static_cast<std::size_t>(link.id)] = static_cast<int>(d);
        if (std::abs(a[d] - b[d]) > 1) {
          wraps_[static_cast<std::size_t>(link.id)] = 1;
          dateline_ = true;
        }
        break;
      }
    }
  }
  hop_classes_ = rule == VcClassRule::kSwitchHops;
}

const char* RoutingTable::vc_class_reason() const {
  if (dateline_) return "wraparound links";
  if (hop_classes_) return "routes that turn between the switch halves";
  return "";
}

unsigned half_way_ways(int message, int packet) {
  std::uint64_t z = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(message)) << 32) |
                    static_cast<std::uint32_t>(packet);
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<unsigned>((z ^ (z >> 31)) >> 61);  // three bits, one per dimension
}

const std::vector<int>& RoutingTable::route(int src, int dst, unsigned half_way_minus) {
  const std::int64_t pair = static_cast<std::int64_t>(src) * topology_.nodes() + dst;
  const std::int64_t key = pair * 8 + half_way_minus;  // at most 3 dimensions
  auto it = routes_.find(key);
  if (it == routes_.end()) {
    it = routes_.emplace(key, topology_.route(src, dst, half_way_minus)).first;
  }
  return it->second;
}

RoutingTable::LinkHop RoutingTable::hop(int link) const {
  const Link& l = topology_.link(link);
  LinkHop hop;
  hop.link = link;
  hop.dim = static_cast<std::int16_t>(link_dimension(link));
  hop.wraps = link_wraps(link);
  hop.switch_pair = topology_.is_switch(l.src) && topology_.is_switch(l.dst);
  return hop;
}

void RoutingTable::advance(const LinkHop& hop, RouteState& state) const {
  if (hop_classes_) {
    if (hop.switch_pair) {
      if (state.switch_hops > 0) state.vc_class = 1;
      ++state.switch_hops;
    }
    return;
  }
  if (!dateline_) return;
  if (hop.dim != state.dim) {
    state.dim = hop.dim;
    state.vc_class = 0;
  }
  if (hop.wraps) state.vc_class = 1;
}

std::pair<int, int> RoutingTable::vc_range(int vc_class, int vcs) const {
  if (!uses_vc_classes() || vcs < 2) return {0, vcs};
  const int split = vcs / 2;
  return vc_class == 0 ? std::make_pair(0, split) : std::make_pair(split, vcs);
}

const std::vector<int>& RoutingTable::message_route(const std::vector<int>& source_route, int src,
                                                    int dst) {
  if (!source_route.empty()) check_path(source_route, src, dst);
  const std::vector<int>& path = source_route.empty() ? route(src, dst) : source_route;
  if (path.empty()) throw RoutingError("empty route");
  return path;
}

void RoutingTable::check_path(const std::vector<int>& path, int src, int dst) const {
  int at = src;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const int id = path[i];
    if (id < 0 || id >= static_cast<int>(topology_.links().size())) {
      throw RoutingError("path from node " + std::to_string(src) + " to node " +
                         std::to_string(dst) + ": link id " + std::to_string(id) + " out of range");
    }
    const Link& link = topology_.link(id);
    if (link.src != at) {
      throw RoutingError("path from node " + std::to_string(src) + " to node " +
                         std::to_string(dst) + ": link " + std::to_string(id) + " leaves vertex " +
                         std::to_string(link.src) + ", expected vertex " + std::to_string(at));
    }
    at = link.dst;
    if (i + 1 < path.size() && !topology_.is_direct() && !topology_.is_switch(at)) {
      throw RoutingError("path from node " + std::to_string(src) + " to node " +
                         std::to_string(dst) + " passes through endpoint " + std::to_string(at) +
                         " (endpoints of switched topologies do not forward)");
    }
  }
  if (at != dst) {
    throw RoutingError("path from node " + std::to_string(src) + " to node " + std::to_string(dst) +
                       " ends at vertex " + std::to_string(at));
  }
  // Fat-tree and custom routes are up*/down*: a path that turns up again after going down could
  // close a cycle of channel dependencies with other routes.
  if (topology_.routes_up_down()) {
    for (std::size_t i = 1; i < path.size(); ++i) {
      if (topology_.link_goes_up(path[i]) && !topology_.link_goes_up(path[i - 1])) {
        const Link& down = topology_.link(path[i - 1]);
        const Link& up = topology_.link(path[i]);
        throw RoutingError(
            "path from node " + std::to_string(src) + " to node " + std::to_string(dst) +
            " goes down (link " + std::to_string(down.id) + ", " + std::to_string(down.src) + "->" +
            std::to_string(down.dst) + ") then up again (link " + std::to_string(up.id) + ", " +
            std::to_string(up.src) + "->" + std::to_string(up.dst) +
            "): " + to_string(topology_.kind()) + " routes are up*/down* (deadlock freedom)");
      }
    }
  }
}

}  // namespace mt
