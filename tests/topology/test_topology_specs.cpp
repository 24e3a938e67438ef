// Unit tests of mt::Topology's inputs: custom topologies, names and specs that round trip, and
// every validation error (spec and config), each with its exact text.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/topology/topology.h"
#include "tests/support/topologies.h"

using mt::test::make;

namespace {

std::string error_of(const mt::TopologyConfig& c) {
  try {
    mt::Topology t(c);
  } catch (const mt::TopologyError& e) {
    return e.what();
  }
  return "<no error>";
}

std::string spec_error_of(const std::string& spec) {
  try {
    mt::Topology t(mt::parse_topology_spec(spec));
  } catch (const mt::TopologyError& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("custom topology builds, routes and validates", "[topology]") {
  mt::TopologyConfig c;
  c.kind = mt::TopologyKind::kCustom;
  c.custom_nodes = 4;
  c.custom_switches = 1;
  // 0-1-2-3 line of endpoints plus a switch (vertex 4) joined to 0 and 3.
  c.custom_edges = {{0, 1}, {1, 2}, {2, 3}, {0, 4}, {4, 3}};
  c.link_latency_cycles = 10;
  c.nic_link_latency_cycles = 3;
  // Behind a switch every NIC port drives one link: each endpoint has two, so two ports.
  CHECK(error_of(c) ==
        "endpoint 0 has 2 network links but 1 NIC port(s); on a topology with switches each NIC "
        "port drives one link, so every endpoint needs one link per port (2 ports would match)");
  c.ports_per_node = 2;
  mt::Topology t(c);
  CHECK(t.nodes() == 4);
  CHECK(t.switches() == 1);
  CHECK(t.directed_links() == 10);
  CHECK(t.name() == "custom:nodes=4,switches=1,edges=5");
  CHECK(t.dims().empty());
  CHECK(t.link(t.link_between(0, 1)).latency_cycles == 10);
  CHECK(t.link(t.link_between(0, 4)).latency_cycles == 3);
  CHECK(t.distance(0, 3) == 2);
  CHECK(t.diameter() == 2);
  CHECK(t.ports_per_node() == 2);
  // 0 -> 3: through the switch (0-4-3) is shorter than along the line (0-1-2-3).
  auto p = t.route(0, 3);
  REQUIRE(p.size() == 2);
  CHECK(t.link(p[0]).dst == 4);
  CHECK(t.neighbors(0) == std::vector<int>{1});

  auto bad = c;
  bad.custom_edges.push_back({2, 9});
  CHECK(error_of(bad) ==
        "custom edge 5 (2-9): vertex 9 is out of range; vertices are 0..4 (endpoints 0..3, then "
        "switches)");
  bad = c;
  bad.custom_edges.push_back({2, 2});
  CHECK(error_of(bad) == "custom edge 5 (2-2): a link cannot connect a vertex to itself");
  bad = c;
  bad.custom_edges.push_back({3, 2});
  CHECK(error_of(bad) ==
        "custom edge 5 (3-2): duplicates an earlier edge between the same vertices");
  bad = c;
  bad.custom_edges.push_back({1, 4});  // endpoint 1 now has three links, the others two
  CHECK(error_of(bad) ==
        "endpoint 1 has 3 network links but 2 NIC port(s); on a topology with switches each NIC "
        "port drives one link, so every endpoint needs one link per port (give every endpoint the "
        "same number of links)");
  bad = c;
  bad.custom_edges = {{0, 1}, {2, 3}};
  CHECK(error_of(bad) ==
        "custom topology is disconnected: endpoint 2 cannot be reached from endpoint 0");
  bad = c;
  bad.custom_edges = {{0, 1}, {1, 2}, {2, 3}};
  CHECK(error_of(bad) ==
        "custom topology is disconnected: switch vertex 4 cannot be reached from endpoint 0");
}

TEST_CASE("names and specs round trip", "[topology]") {
  for (const std::string spec : {"ring:16", "torus:4x4", "torus:4x4x4", "mesh:8x8",
                                 "fattree:k=8,levels=2", "bigraph:m=4,n=8", "switch:nodes=16"}) {
    CHECK(make(spec).name() == spec);
  }
  CHECK(make("switch:16").name() == "switch:nodes=16");
  CHECK(make("fattree:k=4").name() == "fattree:k=4,levels=2");
  CHECK(make("fattree:levels=2,k=4").name() == "fattree:k=4,levels=2");
  mt::TopologyConfig c = mt::parse_topology_spec("torus:4x2x3");
  CHECK(c.kind == mt::TopologyKind::kTorus);
  CHECK(c.dims == std::vector<int>{4, 2, 3});
  c = mt::parse_topology_spec("bigraph:m=3,n=6");
  CHECK(c.bigraph_m == 3);
  CHECK(c.bigraph_n == 6);
  CHECK(c.dims.empty());
  CHECK(mt::parse_topology_spec("fattree:k=6").fattree_k == 6);
}

TEST_CASE("spec errors name the bad part", "[topology]") {
  CHECK(spec_error_of("torus:4xq") ==
        "topology spec \"torus:4xq\": dimension \"q\" is not a positive integer");
  CHECK(spec_error_of("torus:4x0") ==
        "topology spec \"torus:4x0\": dimension \"0\" is not a positive integer");
  CHECK(spec_error_of("torus:4x") ==
        "topology spec \"torus:4x\": dimension \"\" is not a positive integer");
  CHECK(spec_error_of("ring:-3") ==
        "topology spec \"ring:-3\": dimension \"-3\" is not a positive integer");
  CHECK(spec_error_of("ring:99999999999") ==
        "topology spec \"ring:99999999999\": dimension \"99999999999\" is too large");
  CHECK(spec_error_of("torus") ==
        "topology spec \"torus\": expected <kind>:<parameters>, e.g. \"torus:4x4\" or "
        "\"fattree:k=8,levels=2\"");
  CHECK(spec_error_of("hypercube:4") ==
        "topology spec \"hypercube:4\": unknown kind \"hypercube\" (expected ring, torus, mesh, "
        "fattree, bigraph or switch)");
  CHECK(spec_error_of("ring:4x4") ==
        "topology spec \"ring:4x4\": ring takes one size, e.g. \"ring:16\"");
  CHECK(spec_error_of("torus:16") ==
        "topology spec \"torus:16\": torus takes 2 or 3 dimensions, e.g. \"torus:4x4\" or "
        "\"torus:4x4x4\"");
  CHECK(spec_error_of("fattree:k=8,depth=2") ==
        "topology spec \"fattree:k=8,depth=2\": unknown parameter \"depth\" (keys: k, levels)");
  CHECK(
      spec_error_of("fattree:levels=2") ==
      "topology spec \"fattree:levels=2\": missing parameter \"k\", e.g. \"fattree:k=8,levels=2\"");
  CHECK(spec_error_of("fattree:k") ==
        "topology spec \"fattree:k\": parameter \"k\" is not key=value (keys: k, levels)");
  CHECK(spec_error_of("fattree:k=x") ==
        "topology spec \"fattree:k=x\": parameter k value \"x\" is not a positive integer");
  CHECK(spec_error_of("bigraph:m=4,m=4") ==
        "topology spec \"bigraph:m=4,m=4\": parameter \"m\" is given twice");
  CHECK(spec_error_of("bigraph:m=4") ==
        "topology spec \"bigraph:m=4\": missing parameter \"n\", e.g. \"bigraph:m=4,n=8\"");
  CHECK(spec_error_of("switch:nodes=0") ==
        "topology spec \"switch:nodes=0\": parameter nodes value \"0\" is not a positive integer");
  CHECK(spec_error_of("switch:abc") ==
        "topology spec \"switch:abc\": node count \"abc\" is not a positive integer");
}

TEST_CASE("config validation errors are actionable", "[topology]") {
  CHECK(spec_error_of("ring:1000000") ==
        "topology has 1000000 endpoints; at most 16384 are supported");
  CHECK(spec_error_of("torus:1000x1000x1000") ==
        "topology has 1000000000 endpoints; at most 16384 are supported");
  CHECK(spec_error_of("fattree:k=7") == "fattree k is 7; k must be even and >= 2");
  CHECK(spec_error_of("fattree:k=256") ==
        "topology has 32768 endpoints; at most 16384 are supported");
  CHECK(spec_error_of("fattree:k=4,levels=3") ==
        "fattree levels is 3; only 2-level fat-trees are supported");
  CHECK(spec_error_of("bigraph:m=4,n=7") == "bigraph n is 7; n must be even and >= 2");
  CHECK(make("ring:4096").nodes() == 4096);

  mt::TopologyConfig c;
  c.kind = mt::TopologyKind::kTorus;
  c.dims = {4, 0};
  CHECK(error_of(c) == "torus dimension 1 is 0; every dimension must be >= 1");
  c.dims = {4};
  CHECK(error_of(c) == "torus needs 2 or 3 dimensions ({X,Y} or {X,Y,Z}), got 1");
  c.kind = mt::TopologyKind::kRing;
  c.dims = {};
  CHECK(error_of(c) == "ring needs exactly 1 dimension {N}, got 0");
  c = {};
  c.kind = mt::TopologyKind::kSwitch;
  c.switch_nodes = 0;
  CHECK(error_of(c) == "topology has 0 endpoints; at least 1 is required");
  c = {};
  c.kind = mt::TopologyKind::kCustom;
  CHECK(error_of(c) == "topology has 0 endpoints; at least 1 is required");
  c = {};
  c.link_bytes_per_cycle = 0;
  CHECK(error_of(c) == "link bandwidth must be > 0 bytes per cycle, got 0.000000");
  c = {};
  c.link_latency_cycles = -1;
  CHECK(error_of(c) == "link latency must be >= 0 cycles, got -1");
  c = {};
  c.nic_link_latency_cycles = -2;
  CHECK(error_of(c) == "NIC link latency must be >= 0 cycles, got -2");
  c = {};
  c.ports_per_node = 5;
  CHECK(
      error_of(c) ==
      "ports per node is 5 but torus:4x4 endpoints have at most 4 network link(s); use 1..4 (or 0 "
      "for the default)");
  c.ports_per_node = 2;
  CHECK(mt::Topology(c).ports_per_node() == 2);
  c.ports_per_node = -1;
  CHECK(error_of(c) == "ports per node must be >= 0 (0 = default), got -1");
  c = mt::parse_topology_spec("switch:8");
  c.ports_per_node = 2;
  CHECK(error_of(c) ==
        "ports per node is 2 but switch:nodes=8 endpoints have at most 1 network link(s); use 1..1 "
        "(or 0 for the default)");
  c = mt::parse_topology_spec("ring:1");
  CHECK(mt::Topology(c).ports_per_node() == 1);
  c.ports_per_node = 1;
  CHECK(mt::Topology(c).ports_per_node() == 1);
  mt::Topology t = make("torus:4x4");
  CHECK_THROWS_AS(t.route(0, 16), mt::TopologyError);
  CHECK_THROWS_AS(t.coords(-1), mt::TopologyError);
}
