// Routing policy without SystemC: wraparound links, dateline VC classes, port indices, path checks.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/noc/routing.h"
#include "model/topology/topology.h"

namespace mt {
namespace {

TEST_CASE("a ring has exactly one wraparound link per direction", "[noc][routing]") {
  const Topology ring(parse_topology_spec("ring:6"));
  const RoutingTable routing(ring);
  CHECK(routing.uses_vc_classes());
  CHECK(std::string(routing.vc_class_reason()) == "wraparound links");
  int wraps = 0;
  for (const Link& link : ring.links()) {
    if (!routing.link_wraps(link.id)) continue;
    ++wraps;
    CHECK(((link.src == 5 && link.dst == 0) || (link.src == 0 && link.dst == 5)));
    CHECK(routing.link_dimension(link.id) == 0);
  }
  CHECK(wraps == 2);
}

TEST_CASE("meshes and fat-trees need no VC classes", "[noc][routing]") {
  const Topology mesh(parse_topology_spec("mesh:4x4"));
  const Topology fattree(parse_topology_spec("fattree:k=4"));
  CHECK_FALSE(RoutingTable(mesh).uses_vc_classes());
  const RoutingTable switched(fattree);
  CHECK_FALSE(switched.uses_vc_classes());  // up/down routes: acyclic on their own
  CHECK(switched.link_dimension(0) == -1);
  CHECK(switched.vc_range(1, 4) == std::make_pair(0, 4));
}

TEST_CASE("dateline classes on a torus: class 1 after the wraparound, reset per dimension",
          "[noc][routing]") {
  const Topology torus(parse_topology_spec("torus:4x4"));
  const RoutingTable routing(torus);
  REQUIRE(routing.uses_vc_classes());
  // 3 (3,0) -> 0 (0,0) is the x wraparound; 0 -> 4 is +y; 4 -> 5 is +x.
  const int wrap_x = torus.link_between(3, 0);
  const int plus_y = torus.link_between(0, 4);
  CHECK(routing.link_wraps(wrap_x));
  CHECK_FALSE(routing.link_wraps(plus_y));
  RouteState state;
  routing.advance(wrap_x, state);
  CHECK(state.dim == 0);
  CHECK(state.vc_class == 1);
  routing.advance(torus.link_between(0, 1), state);  // still x: stays in class 1
  CHECK(state.vc_class == 1);
  routing.advance(plus_y, state);  // new dimension: back to class 0
  CHECK(state.dim == 1);
  CHECK(state.vc_class == 0);
  CHECK(routing.vc_range(0, 4) == std::make_pair(0, 2));
  CHECK(routing.vc_range(1, 4) == std::make_pair(2, 4));
  CHECK(routing.vc_range(1, 3) == std::make_pair(1, 3));
}

TEST_CASE("hop classes on a bigraph: class 1 from the second switch-to-switch link on",
          "[noc][routing]") {
  // bigraph:m=2,n=4: endpoints 0..7, endpoint e on switch 8 + e/2; switches 8, 9 form one half
  // and 10, 11 the other. Endpoint 0 (switch 8) to endpoint 2 (switch 9) turns through the other
  // half: 0 -> 8 -> 10 or 11 -> 9 -> 2.
  const Topology bigraph(parse_topology_spec("bigraph:m=2,n=4"));
  const RoutingTable routing(bigraph);
  REQUIRE(routing.uses_vc_classes());
  CHECK(std::string(routing.vc_class_reason()) == "routes that turn between the switch halves");
  const std::vector<int> route = bigraph.route(0, 2);
  REQUIRE(route.size() == 4);
  RouteState state;
  std::vector<int> classes;
  for (int link : route) {
    routing.advance(link, state);
    classes.push_back(state.vc_class);
  }
  CHECK(classes == std::vector<int>{0, 0, 1, 1});  // injection, first turn, second, ejection
  CHECK(state.switch_hops == 2);
  CHECK(routing.vc_range(0, 4) == std::make_pair(0, 2));
  CHECK(routing.vc_range(1, 4) == std::make_pair(2, 4));
}

TEST_CASE("port indices follow out_links and in_links", "[noc][routing]") {
  const Topology torus(parse_topology_spec("torus:4x4"));
  const RoutingTable routing(torus);
  for (int v = 0; v < torus.vertices(); ++v) {
    for (std::size_t i = 0; i < torus.out_links(v).size(); ++i) {
      CHECK(routing.out_index(torus.out_links(v)[i]) == static_cast<int>(i));
    }
    for (std::size_t i = 0; i < torus.in_links(v).size(); ++i) {
      CHECK(routing.in_index(torus.in_links(v)[i]) == static_cast<int>(i));
    }
  }
}

TEST_CASE("source routes are checked link by link", "[noc][routing]") {
  const Topology torus(parse_topology_spec("torus:4x4"));
  RoutingTable routing(torus);
  const std::vector<int>& route = routing.route(0, 10);
  CHECK(route == torus.route(0, 10));
  CHECK(&routing.route(0, 10) == &route);  // cached
  CHECK_NOTHROW(routing.check_path(route, 0, 10));
  CHECK_THROWS_WITH(routing.check_path(route, 0, 11), Catch::Contains("ends at vertex 10"));
  CHECK_THROWS_WITH(routing.check_path({torus.link_between(1, 2)}, 0, 2),
                    Catch::Contains("leaves vertex 1, expected vertex 0"));
  CHECK_THROWS_AS(routing.check_path({9999}, 0, 1), RoutingError);

  const Topology fattree(parse_topology_spec("fattree:k=4"));
  const RoutingTable switched(fattree);
  // endpoint 0 -> leaf -> endpoint 1 -> leaf: endpoints do not forward.
  const int up = fattree.out_links(0).front();
  const int leaf = fattree.link(up).dst;
  const int down1 = fattree.link_between(leaf, 1);
  const int up1 = fattree.link_between(1, leaf);
  const int down2 = fattree.link_between(leaf, 2);
  CHECK_THROWS_WITH(switched.check_path({up, down1, up1, down2}, 0, 2),
                    Catch::Contains("passes through endpoint 1"));
}

}  // namespace
}  // namespace mt
