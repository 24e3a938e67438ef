// RouteMemo (model/topology/route_memo.h): every route it returns is Topology::route's, also once
// it has started over past the pairs it keeps.

#include <catch2/catch.hpp>
#include <vector>

#include "model/topology/route_memo.h"
#include "tests/support/topologies.h"

using mt::test::make;

TEST_CASE("a route memo returns the topology's routes, before and after it starts over",
          "[topology]") {
  for (const char* spec : {"torus:4x4", "fattree:k=4,levels=2", "mesh:3x3"}) {
    INFO(spec);
    const mt::Topology t = make(spec);
    mt::RouteMemo kept(t);                     // every pair kept
    mt::RouteMemo small(t, 3);                 // starts over after three pairs
    for (int round = 0; round < 2; ++round) {  // the second round asks kept pairs again
      for (int src = 0; src < t.nodes(); ++src) {
        for (int dst = 0; dst < t.nodes(); ++dst) {
          const std::vector<int> expected = t.route(src, dst);
          REQUIRE(kept.route(src, dst) == expected);
          REQUIRE(small.route(src, dst) == expected);
          REQUIRE(small.route(src, dst) == expected);  // a kept pair again
        }
      }
    }
  }
}
