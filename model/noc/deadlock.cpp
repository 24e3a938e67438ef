#include "model/noc/deadlock.h"

#include <algorithm>

namespace mt {

std::vector<Channel> channels_of(const RoutingTable& routing, const std::vector<int>& path,
                                 int vcs) {
  const bool classes = routing.uses_vc_classes() && vcs >= 2;
  std::vector<Channel> out;
  out.reserve(path.size());
  RouteState state;
  for (std::size_t i = 0; i < path.size(); ++i) {
    routing.advance(path[i], state);
    // A NIC that drives its own link (switched topologies) sends on class 0 (Nic: vc_range(0)).
    const bool nic_link = i == 0 && !routing.topology().is_direct();
    out.push_back({path[i], classes && !nic_link ? state.vc_class : 0});
  }
  return out;
}

std::vector<Channel> find_channel_cycle(const RoutingTable& routing,
                                        const std::vector<const std::vector<int>*>& paths,
                                        int vcs) {
  const std::size_t n = routing.topology().links().size() * 2;
  const auto id = [](const Channel& c) {
    return static_cast<std::size_t>(c.link) * 2 + static_cast<std::size_t>(c.vc_class);
  };
  std::vector<std::vector<std::size_t>> next(n);
  for (const std::vector<int>* path : paths) {
    const std::vector<Channel> chain = channels_of(routing, *path, vcs);
    for (std::size_t i = 0; i + 1 < chain.size(); ++i)
      next[id(chain[i])].push_back(id(chain[i + 1]));
  }
  for (auto& v : next) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  // Iterative depth-first search; a back edge to a channel on the stack closes a cycle.
  std::vector<char> color(n, 0);                           // 0 new, 1 on the stack, 2 done
  std::vector<std::pair<std::size_t, std::size_t>> stack;  // (channel, next edge index)
  for (std::size_t start = 0; start < n; ++start) {
    if (color[start] != 0) continue;
    stack.push_back({start, 0});
    color[start] = 1;
    while (!stack.empty()) {
      auto& [v, e] = stack.back();
      if (e == next[v].size()) {
        color[v] = 2;
        stack.pop_back();
        continue;
      }
      const std::size_t w = next[v][e++];
      if (color[w] == 0) {
        color[w] = 1;
        stack.push_back({w, 0});
      } else if (color[w] == 1) {
        std::vector<Channel> cycle;
        std::size_t k = stack.size();
        while (stack[k - 1].first != w) --k;
        for (; k <= stack.size(); ++k) {
          const std::size_t c = stack[k - 1].first;
          cycle.push_back({static_cast<int>(c / 2), static_cast<int>(c % 2)});
        }
        return cycle;
      }
    }
  }
  return {};
}

std::vector<std::vector<int>> all_routes(RoutingTable& routing) {
  std::vector<std::vector<int>> out;
  const int nodes = routing.topology().nodes();
  for (int s = 0; s < nodes; ++s)
    for (int d = 0; d < nodes; ++d)
      if (s != d) out.push_back(routing.route(s, d));
  return out;
}

std::string describe_cycle(const Topology& topology, const std::vector<Channel>& cycle) {
  std::string text;
  const auto name = [&](const Channel& c) {
    const Link& l = topology.link(c.link);
    return "link " + std::to_string(c.link) + " (" + std::to_string(l.src) + "->" +
           std::to_string(l.dst) + ", VC class " + std::to_string(c.vc_class) + ")";
  };
  for (const Channel& c : cycle) text += name(c) + " -> ";
  return cycle.empty() ? text : text + name(cycle.front());
}

}  // namespace mt
