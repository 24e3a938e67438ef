// Issue 19: deadlock freedom checked on the channel dependency graph of every built-in topology
// family with its routing and VC rules; a custom topology routed by plain shortest paths (the
// routing custom edge lists had before) closes a cycle, its up*/down* routes do not.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/noc/deadlock.h"
#include "model/noc/routing.h"
#include "model/topology/topology.h"

namespace {

// Six switches in a ring (vertices 6..11), endpoint i on switch 6 + i.
mt::TopologyConfig switch_ring() {
  mt::TopologyConfig c;
  c.kind = mt::TopologyKind::kCustom;
  c.custom_nodes = 6;
  c.custom_switches = 6;
  for (int i = 0; i < 6; ++i) {
    c.custom_edges.push_back({i, 6 + i});
    c.custom_edges.push_back({6 + i, 6 + (i + 1) % 6});
  }
  return c;
}

std::vector<const std::vector<int>*> pointers(const std::vector<std::vector<int>>& routes) {
  std::vector<const std::vector<int>*> out;
  for (const auto& r : routes) out.push_back(&r);
  return out;
}

// True when `cycle` is a closed chain of links (each ends where the next starts).
bool is_closed_chain(const mt::Topology& t, const std::vector<mt::Channel>& cycle) {
  for (std::size_t i = 0; i < cycle.size(); ++i)
    if (t.link(cycle[i].link).dst != t.link(cycle[(i + 1) % cycle.size()].link).src) return false;
  return !cycle.empty();
}

}  // namespace

TEST_CASE("every built-in topology family routes without a channel dependency cycle") {
  mt::TopologyConfig prism;
  prism.kind = mt::TopologyKind::kCustom;
  prism.custom_nodes = 6;
  prism.custom_edges = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {0, 3}, {1, 4}, {2, 5}};
  std::vector<mt::TopologyConfig> configs;
  for (const char* spec : {"ring:8", "ring:5", "torus:4x4", "torus:3x5", "torus:3x3x3", "mesh:4x4",
                           "mesh:3x2x2", "fattree:k=4,levels=2", "fattree:k=8,levels=2",
                           "bigraph:m=2,n=4", "bigraph:m=4,n=8", "switch:nodes=8"})
    configs.push_back(mt::parse_topology_spec(spec));
  configs.push_back(prism);
  configs.push_back(switch_ring());
  for (const auto& config : configs) {
    const mt::Topology t(config);
    INFO(t.name());
    mt::RoutingTable routing(t);
    const std::vector<std::vector<int>> routes = mt::all_routes(routing);
    CHECK(routes.size() == static_cast<std::size_t>(t.nodes() * (t.nodes() - 1)));
    for (std::size_t i = 0; i < routes.size(); ++i) {
      const int src = static_cast<int>(i) / (t.nodes() - 1);
      const int rank = static_cast<int>(i) % (t.nodes() - 1);
      CHECK_NOTHROW(routing.check_path(routes[i], src, rank < src ? rank : rank + 1));
    }
    for (const int vcs : {2, 4})
      CHECK(mt::describe_cycle(t, mt::find_channel_cycle(routing, pointers(routes), vcs)).empty());
  }
}

TEST_CASE("a torus without its dateline VC classes has a named dependency cycle") {
  const mt::Topology t(mt::parse_topology_spec("ring:4"));
  mt::RoutingTable routing(t);
  const auto routes = mt::all_routes(routing);
  const std::vector<mt::Channel> cycle = mt::find_channel_cycle(routing, pointers(routes), 1);
  REQUIRE(cycle.size() == 4);  // once around the ring, one direction
  CHECK(is_closed_chain(t, cycle));
  CHECK_THAT(mt::describe_cycle(t, cycle),
             Catch::StartsWith("link ") && Catch::Contains(", VC class 0) -> link "));
  CHECK(mt::find_channel_cycle(routing, pointers(routes), 2).empty());
}

TEST_CASE("shortest-path routing on a ring of switches deadlocks but up*/down* does not") {
  const mt::Topology t(switch_ring());
  mt::RoutingTable routing(t);
  // Shortest paths, clockwise when the distance is at most half the ring (what BFS routing gave).
  std::vector<std::vector<int>> shortest;
  for (int s = 0; s < 6; ++s) {
    for (int d = 0; d < 6; ++d) {
      if (s == d) continue;
      std::vector<int> path{t.link_between(s, 6 + s)};
      const int step = (d - s + 6) % 6 <= 3 ? 1 : 5;
      for (int at = s; at != d; at = (at + step) % 6)
        path.push_back(t.link_between(6 + at, 6 + (at + step) % 6));
      path.push_back(t.link_between(6 + d, d));
      shortest.push_back(path);
    }
  }
  const std::vector<mt::Channel> cycle = mt::find_channel_cycle(routing, pointers(shortest), 4);
  REQUIRE(cycle.size() == 6);  // around the six switches
  CHECK(is_closed_chain(t, cycle));
  for (const mt::Channel& c : cycle) CHECK(t.is_switch(t.link(c.link).src));
  // The topology's own routes: up*/down* from switch 6, no cycle.
  const auto routes = mt::all_routes(routing);
  CHECK(mt::find_channel_cycle(routing, pointers(routes), 4).empty());
  // Endpoint 3 sits opposite the root: 3 -> 0 goes up to the root and down (3 switch hops).
  const std::vector<int>& far = routing.route(3, 0);
  CHECK(far.size() == 5);
  // One up*/down* route is longer than the shortest path: 2 -> 4 (switches 8 -> 10, two hops
  // through 9) would go down to 9 (level 3) and up again; it goes up to the root and down:
  // 2->8->7->6->11->10->4.
  CHECK(routing.route(2, 4).size() == 6);
}

TEST_CASE("fat-tree and custom source routes that go down and up again are refused") {
  const mt::Topology t(mt::parse_topology_spec("fattree:k=4,levels=2"));
  mt::RoutingTable routing(t);
  // 4 endpoints... k=4: 8 endpoints (0..7), leaves 8..11, spines 12..13.
  const int leaf0 = 8, leaf1 = 9, leaf2 = 10, spine0 = 12, spine1 = 13;
  const std::vector<int> valley = {t.link_between(0, leaf0),      t.link_between(leaf0, spine0),
                                   t.link_between(spine0, leaf1), t.link_between(leaf1, spine1),
                                   t.link_between(spine1, leaf2), t.link_between(leaf2, 4)};
  CHECK_THROWS_WITH(routing.check_path(valley, 0, 4),
                    "path from node 0 to node 4 goes down (link " + std::to_string(valley[2]) +
                        ", 12->9) then up again (link " + std::to_string(valley[3]) +
                        ", 9->13): fattree routes are up*/down* (deadlock freedom)");
  const std::vector<int> legal = {t.link_between(0, leaf0), t.link_between(leaf0, spine1),
                                  t.link_between(spine1, leaf2), t.link_between(leaf2, 4)};
  CHECK_NOTHROW(routing.check_path(legal, 0, 4));

  // Custom: 2 -> 4 over switches 8 -> 9 -> 10 goes down to 9 (level 3) and up to 10 (level 2).
  const mt::Topology ring(switch_ring());
  mt::RoutingTable ring_routing(ring);
  const std::vector<int> short_cut = {ring.link_between(2, 8), ring.link_between(8, 9),
                                      ring.link_between(9, 10), ring.link_between(10, 4)};
  CHECK_THROWS_WITH(ring_routing.check_path(short_cut, 2, 4),
                    Catch::Contains("goes down (link " + std::to_string(short_cut[1]) +
                                    ", 8->9) then up again (link " + std::to_string(short_cut[2]) +
                                    ", 9->10): custom routes are up*/down*"));
  CHECK_NOTHROW(ring_routing.check_path(ring_routing.route(2, 4), 2, 4));
}
