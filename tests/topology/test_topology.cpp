// Unit tests of mt::Topology: counts from formulas, neighbor order, routing, distances and VC
// classes (custom topologies, specs and every validation error: test_topology_specs.cpp).

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>
#include <vector>

#include "model/topology/topology.h"
#include "tests/support/topologies.h"

using mt::test::make;

namespace {

// Checks that `path` is a chain of links from endpoint src to endpoint dst.
void require_connected_path(const mt::Topology& t, const std::vector<int>& path, int src, int dst) {
  int cur = src;
  for (int l : path) {
    REQUIRE(t.link(l).src == cur);
    cur = t.link(l).dst;
  }
  REQUIRE(cur == dst);
}

}  // namespace

TEST_CASE("torus and ring link counts follow the formulas", "[topology]") {
  // X,Y > 2: every node has 4 links -> 4XY directed links.
  for (auto [x, y] : std::vector<std::pair<int, int>>{{3, 3}, {4, 4}, {3, 5}, {8, 8}}) {
    mt::TopologyConfig c;
    c.kind = mt::TopologyKind::kTorus;
    c.dims = {x, y};
    mt::Topology t(c);
    CHECK(t.nodes() == x * y);
    CHECK(t.switches() == 0);
    CHECK(t.is_direct());
    CHECK(t.directed_links() == 4 * x * y);
    CHECK(t.ports_per_node() == 4);
  }
  // 2x2 torus: one connection per neighbor pair -> a 4-cycle, 8 directed links.
  CHECK(make("torus:2x2").directed_links() == 8);
  CHECK(make("torus:2x2").ports_per_node() == 2);
  // 2x4: x-dimension 4 rows x 1 edge, y-dimension 2 columns x 4 edges = 12 edges.
  CHECK(make("torus:2x4").directed_links() == 24);
  // A dimension of size 1 has no links: 1x5 is a 5-ring.
  CHECK(make("torus:1x5").directed_links() == 10);
  CHECK(make("torus:4x4x4").directed_links() == 6 * 64);
  CHECK(make("torus:4x4x4").ports_per_node() == 6);
  CHECK(make("ring:8").directed_links() == 16);
  CHECK(make("ring:8").ports_per_node() == 2);
  CHECK(make("ring:2").directed_links() == 2);
  CHECK(make("ring:2").ports_per_node() == 1);
  CHECK(make("ring:1").directed_links() == 0);
}

TEST_CASE("mesh, fattree, bigraph and switch counts follow the formulas", "[topology]") {
  for (auto [x, y] : std::vector<std::pair<int, int>>{{8, 8}, {3, 5}, {2, 2}}) {
    mt::TopologyConfig c;
    c.kind = mt::TopologyKind::kMesh;
    c.dims = {x, y};
    mt::Topology t(c);
    CHECK(t.nodes() == x * y);
    CHECK(t.directed_links() == 2 * (x * (y - 1) + y * (x - 1)));
  }
  CHECK(make("mesh:8x8").ports_per_node() == 4);
  for (int k : {2, 4, 8, 16}) {
    mt::Topology t = make("fattree:k=" + std::to_string(k) + ",levels=2");
    const int n = k * k / 2;
    CHECK(t.nodes() == n);
    CHECK(t.switches() == k + k / 2);
    CHECK(t.directed_links() == 2 * (n + k * k / 2));
    CHECK(t.ports_per_node() == 1);
    CHECK_FALSE(t.is_direct());
  }
  for (auto [m, n] : std::vector<std::pair<int, int>>{{4, 8}, {1, 2}, {3, 6}}) {
    mt::Topology t = make("bigraph:m=" + std::to_string(m) + ",n=" + std::to_string(n));
    CHECK(t.nodes() == m * n);
    CHECK(t.switches() == n);
    CHECK(t.directed_links() == 2 * (m * n + (n / 2) * (n / 2)));
  }
  mt::Topology s = make("switch:nodes=16");
  CHECK(s.nodes() == 16);
  CHECK(s.switches() == 1);
  CHECK(s.vertices() == 17);
  CHECK(s.directed_links() == 32);
  CHECK(make("switch:5").nodes() == 5);
}

TEST_CASE("every link has a consistent reverse and latency by kind", "[topology]") {
  mt::TopologyConfig c = mt::parse_topology_spec("fattree:k=4");
  c.link_latency_cycles = 100;
  c.nic_link_latency_cycles = 7;
  c.link_bytes_per_cycle = 32;
  mt::Topology t(c);
  int nic_links = 0;
  for (const mt::Link& l : t.links()) {
    const mt::Link& r = t.link(l.reverse);
    CHECK(r.reverse == l.id);
    CHECK(r.src == l.dst);
    CHECK(r.dst == l.src);
    CHECK(l.bytes_per_cycle == 32.0);
    const bool nic = !t.is_switch(l.src) || !t.is_switch(l.dst);
    CHECK(l.latency_cycles == (nic ? 7 : 100));
    nic_links += nic ? 1 : 0;
  }
  CHECK(nic_links == 2 * 8);
  for (const std::string spec : {"torus:4x4", "ring:5", "mesh:3x3", "bigraph:m=2,n=4"}) {
    mt::Topology u = make(spec);
    for (const mt::Link& l : u.links()) {
      CHECK(u.link(l.reverse).reverse == l.id);
      CHECK(u.link_between(l.src, l.dst) == l.id);
    }
  }
}

TEST_CASE("neighbors come in N, S, W, E, -Z, +Z order", "[topology]") {
  mt::Topology t = make("torus:4x4");
  // Node 5 = (1,1): N=(1,0)=1, S=(1,2)=9, W=(0,1)=4, E=(2,1)=6.
  CHECK(t.neighbors(5) == std::vector<int>{1, 9, 4, 6});
  // Node 0 wraps: N=(0,3)=12, S=4, W=(3,0)=3, E=1.
  CHECK(t.neighbors(0) == std::vector<int>{12, 4, 3, 1});
  CHECK(t.coords(6) == std::vector<int>{2, 1});
  // out_links follow the same order.
  std::vector<int> dsts;
  for (int l : t.out_links(0)) dsts.push_back(t.link(l).dst);
  CHECK(dsts == std::vector<int>{12, 4, 3, 1});
  std::vector<int> srcs;
  for (int l : t.in_links(0)) srcs.push_back(t.link(l).src);
  CHECK(srcs == std::vector<int>{12, 4, 3, 1});

  CHECK(make("mesh:4x4").neighbors(0) == std::vector<int>{4, 1});
  CHECK(make("mesh:4x4").neighbors(15) == std::vector<int>{11, 14});
  CHECK(make("torus:2x2").neighbors(0) == std::vector<int>{2, 1});
  CHECK(make("torus:4x4x4").neighbors(0) == std::vector<int>{12, 4, 3, 1, 48, 16});
  CHECK(make("torus:4x4x4").coords(27) == std::vector<int>{3, 2, 1});
  CHECK(make("ring:6").neighbors(0) == std::vector<int>{5, 1});
  CHECK(make("ring:2").neighbors(1) == std::vector<int>{0});
  CHECK(make("switch:4").neighbors(0).empty());
}

TEST_CASE("torus and mesh routes are dimension-ordered shortest paths", "[topology]") {
  for (const std::string spec :
       {"torus:4x4", "torus:5x3", "torus:2x3", "torus:4x4x4", "ring:7", "ring:8"}) {
    mt::Topology t = make(spec);
    const auto& dims = t.dims();
    for (int s = 0; s < t.nodes(); ++s) {
      for (int d = 0; d < t.nodes(); ++d) {
        auto cs = t.coords(s);
        auto cd = t.coords(d);
        int expect = 0;
        for (size_t i = 0; i < dims.size(); ++i) {
          int fwd = ((cd[i] - cs[i]) % dims[i] + dims[i]) % dims[i];
          expect += std::min(fwd, dims[i] - fwd);
        }
        auto path = t.route(s, d);
        INFO(spec << " " << s << "->" << d);
        REQUIRE(static_cast<int>(path.size()) == expect);
        REQUIRE(t.distance(s, d) == expect);
        require_connected_path(t, path, s, d);
      }
    }
  }
  for (const std::string spec : {"mesh:8x8", "mesh:3x5"}) {
    mt::Topology t = make(spec);
    for (int s = 0; s < t.nodes(); ++s) {
      for (int d = 0; d < t.nodes(); ++d) {
        auto cs = t.coords(s);
        auto cd = t.coords(d);
        int expect = std::abs(cs[0] - cd[0]) + std::abs(cs[1] - cd[1]);
        auto path = t.route(s, d);
        REQUIRE(static_cast<int>(path.size()) == expect);
        require_connected_path(t, path, s, d);
      }
    }
  }
  mt::Topology t = make("torus:4x4");
  // x first, then y: 0 -> 1 -> 5.
  auto p = t.route(0, 5);
  REQUIRE(p.size() == 2);
  CHECK(t.link(p[0]).dst == 1);
  // Exactly half way goes +: 0 -> 1 -> 2, and 2 -> 3 -> 0.
  p = t.route(0, 2);
  REQUIRE(p.size() == 2);
  CHECK(t.link(p[0]).dst == 1);
  p = t.route(2, 0);
  REQUIRE(p.size() == 2);
  CHECK(t.link(p[0]).dst == 3);
  // Shorter way backwards: 0 -> 3 (wrap).
  p = t.route(0, 3);
  REQUIRE(p.size() == 1);
  CHECK(t.link(p[0]).dst == 3);
  CHECK(t.route(7, 7).empty());
}

TEST_CASE("switched routes are shortest up/down paths", "[topology]") {
  for (const std::string spec : {"fattree:k=4", "fattree:k=8", "bigraph:m=2,n=4", "bigraph:m=4,n=8",
                                 "bigraph:m=3,n=2", "switch:6"}) {
    mt::Topology t = make(spec);
    for (int s = 0; s < t.nodes(); ++s) {
      for (int d = 0; d < t.nodes(); ++d) {
        auto path = t.route(s, d);
        INFO(spec << " " << s << "->" << d);
        REQUIRE(static_cast<int>(path.size()) == t.distance(s, d));
        require_connected_path(t, path, s, d);
        for (size_t i = 1; i + 1 < path.size(); ++i) REQUIRE(t.is_switch(t.link(path[i]).src));
      }
    }
  }
  mt::Topology f = make("fattree:k=4");  // 8 endpoints, leaves 8..11, spines 12..13
  CHECK(f.route(0, 1).size() == 2);
  auto p = f.route(0, 7);
  REQUIRE(p.size() == 4);
  CHECK(f.link(p[0]).dst == 8);
  CHECK(f.link(p[1]).dst == 12 + 7 % 2);  // d-mod-k spine
  CHECK(f.link(p[2]).dst == 11);
  mt::Topology b = make("bigraph:m=2,n=4");  // 8 endpoints, switches 8,9 | 10,11
  CHECK(b.route(0, 1).size() == 2);
  CHECK(b.route(0, 5).size() == 3);  // switch 8 -> switch 10
  p = b.route(0, 3);                 // switch 8 -> other half -> switch 9
  REQUIRE(p.size() == 4);
  CHECK(b.link(p[1]).dst == 10 + 3 % 2);
}

TEST_CASE("closed-form distances match a breadth-first search", "[topology]") {
  for (const std::string spec :
       {"ring:1", "ring:2", "ring:7", "torus:4x4", "torus:2x3", "torus:3x4x2", "mesh:3x5",
        "mesh:2x2x3", "fattree:k=2", "fattree:k=4", "fattree:k=6", "bigraph:m=2,n=2",
        "bigraph:m=2,n=4", "bigraph:m=3,n=6", "switch:1", "switch:5"}) {
    mt::Topology t = make(spec);
    int diameter = 0;
    for (int s = 0; s < t.vertices(); ++s) {
      std::vector<int> dist(static_cast<size_t>(t.vertices()), -1);
      std::vector<int> queue{s};
      dist[static_cast<size_t>(s)] = 0;
      for (size_t i = 0; i < queue.size(); ++i) {
        for (int l : t.out_links(queue[i])) {
          const int v = t.link(l).dst;
          if (dist[static_cast<size_t>(v)] < 0) {
            dist[static_cast<size_t>(v)] = dist[static_cast<size_t>(queue[i])] + 1;
            queue.push_back(v);
          }
        }
      }
      for (int v = 0; v < t.vertices(); ++v) {
        INFO(spec << " " << s << "->" << v);
        REQUIRE(t.distance(s, v) == dist[static_cast<size_t>(v)]);
        if (s < t.nodes() && v < t.nodes())
          diameter = std::max(diameter, dist[static_cast<size_t>(v)]);
      }
    }
    INFO(spec);
    CHECK(t.diameter() == diameter);
  }
}

TEST_CASE("diameters", "[topology]") {
  CHECK(make("torus:4x4").diameter() == 4);
  CHECK(make("torus:8x8").diameter() == 8);
  CHECK(make("torus:4x4x4").diameter() == 6);
  CHECK(make("mesh:8x8").diameter() == 14);
  CHECK(make("ring:16").diameter() == 8);
  CHECK(make("ring:1").diameter() == 0);
  CHECK(make("fattree:k=4").diameter() == 4);
  CHECK(make("bigraph:m=4,n=8").diameter() == 4);
  CHECK(make("bigraph:m=4,n=2").diameter() == 3);
  CHECK(make("switch:16").diameter() == 2);
}

TEST_CASE("each family states its VC class rule", "[topology]") {
  const auto rule = [](const std::string& spec) {
    return mt::Topology(mt::parse_topology_spec(spec)).vc_class_rule();
  };
  CHECK(rule("torus:4x4") == mt::VcClassRule::kDateline);
  CHECK(rule("ring:8") == mt::VcClassRule::kDateline);
  CHECK(rule("mesh:4x4") == mt::VcClassRule::kNone);
  CHECK(rule("bigraph:m=4,n=8") == mt::VcClassRule::kSwitchHops);
  CHECK(rule("fattree:k=4,levels=2") == mt::VcClassRule::kNone);
  CHECK(rule("switch:nodes=8") == mt::VcClassRule::kNone);
}

TEST_CASE("half-way destinations on rings and tori route either way", "[topology]") {
  const mt::Topology torus = make("torus:4x4");
  // Node 2 is half way along x from node 0; node 10 (x 2, y 2) half way in both dimensions.
  CHECK(torus.half_way_dimensions(0, 2) == 1u);
  CHECK(torus.half_way_dimensions(0, 8) == 2u);
  CHECK(torus.half_way_dimensions(0, 10) == 3u);
  CHECK(torus.half_way_dimensions(0, 1) == 0u);
  CHECK(torus.half_way_dimensions(0, 0) == 0u);
  auto hops = [&](const std::vector<int>& path) {
    std::vector<int> vertices{torus.link(path.front()).src};
    for (int l : path) vertices.push_back(torus.link(l).dst);
    return vertices;
  };
  CHECK(hops(torus.route(0, 2)) == std::vector<int>{0, 1, 2});
  CHECK(hops(torus.route(0, 2, 0)) == std::vector<int>{0, 1, 2});
  CHECK(hops(torus.route(0, 2, 1)) == std::vector<int>{0, 3, 2});
  CHECK(hops(torus.route(0, 10, 2)) == std::vector<int>{0, 1, 2, 14, 10});
  CHECK(hops(torus.route(0, 10, 3)) == std::vector<int>{0, 3, 2, 14, 10});
  // A bit for a dimension that is not half way changes nothing.
  CHECK(torus.route(0, 1, 3) == torus.route(0, 1));
  CHECK(make("mesh:4x4").half_way_dimensions(0, 2) == 0u);
  CHECK(make("ring:6").half_way_dimensions(1, 4) == 1u);
  CHECK(make("ring:5").half_way_dimensions(0, 2) == 0u);  // odd: one way is shorter
}
