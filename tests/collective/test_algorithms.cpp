// Every all-reduce algorithm on every topology it supports: verify() proves the data semantics,
// step and message counts follow the algorithms' formulas, unsupported combinations throw.

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/dbtree.h"
#include "model/collective/ring.h"
#include "model/collective/verify.h"
#include "model/topology/topology.h"
#include "tests/support/topologies.h"

using mt::test::make;

namespace {

/// Topologies of the test matrix (direct and switched).
std::vector<std::string> common_specs() {
  std::vector<std::string> specs;
  for (int n = 2; n <= 17; ++n) specs.push_back("ring:" + std::to_string(n));
  for (const char* s : {"ring:64", "torus:2x2", "torus:3x3", "torus:4x4", "torus:3x5", "torus:8x8",
                        "torus:4x4x4", "mesh:2x3", "mesh:4x4", "mesh:8x8", "fattree:k=4,levels=2",
                        "fattree:k=8,levels=2", "bigraph:m=4,n=4", "bigraph:m=4,n=8"}) {
    specs.emplace_back(s);
  }
  return specs;
}

std::vector<std::string> switch_specs() {
  std::vector<std::string> specs;
  for (int n = 2; n <= 64; ++n) specs.push_back("switch:nodes=" + std::to_string(n));
  return specs;
}

/// Builds and verifies; returns the schedule for further checks.
mt::Schedule build_verified(const std::string& algorithm, const mt::Topology& topology,
                            const mt::AlgorithmParams& params = {}) {
  mt::Schedule schedule = mt::build_schedule(algorithm, topology, params);
  const mt::VerifyReport report = mt::verify(schedule, topology);
  INFO(algorithm << " on " << topology.name() << ": " << report.first_error);
  REQUIRE(report.ok);
  REQUIRE(schedule.algorithm == algorithm);
  REQUIRE(schedule.topology == topology.name());
  REQUIRE(schedule.nodes == topology.nodes());
  return schedule;
}

}  // namespace

TEST_CASE("ring verifies with 2(N-1) steps and N chunks on every topology", "[algorithms][ring]") {
  std::vector<std::string> specs = common_specs();
  for (const auto& s : switch_specs()) specs.push_back(s);
  for (const auto& spec : specs) {
    const mt::Topology t = make(spec);
    const int n = t.nodes();
    const mt::Schedule s = build_verified("ring", t);
    INFO(spec);
    CHECK(s.num_steps == 2 * (n - 1));
    CHECK(s.num_chunks == n);
    CHECK(s.ops.size() == static_cast<size_t>(2 * n * (n - 1)));
    if (t.is_direct()) {
      // A Hamiltonian cycle exists on every direct topology of the matrix: no contention.
      CHECK(mt::find_ring_order(t).hamiltonian);
      CHECK(mt::verify(s, t).contention.empty());
    }
  }
}

TEST_CASE("builders that know their message count reserve exactly it", "[algorithms]") {
  // N-chunk schedules are 2 N^2 messages (33.5 M at 4096 nodes): a count reserved too small
  // grows by copies, one too large holds memory for nothing.
  for (const char* spec : {"torus:4x4", "mesh:3x3", "fattree:k=4,levels=2"}) {
    for (const char* name : {"ring", "ring_bi", "multitree"}) {
      const mt::Schedule s = mt::build_schedule(name, make(spec));
      INFO(spec << " " << name);
      CHECK(s.ops.capacity() == s.ops.size());
    }
  }
}

TEST_CASE("ring order: snake cycles, DFS search and the odd-mesh fallback", "[algorithms][ring]") {
  const mt::RingOrder torus = mt::find_ring_order(make("torus:4x4"));
  CHECK(torus.hamiltonian);
  CHECK(torus.order == std::vector<int>{0, 1, 2, 3, 7, 6, 5, 9, 10, 11, 15, 14, 13, 12, 8, 4});
  // 3x5 torus: neither dimension even, the DFS finds a cycle (the torus is not bipartite).
  const mt::Topology t35 = make("torus:3x5");
  const mt::RingOrder odd = mt::find_ring_order(t35);
  REQUIRE(odd.hamiltonian);
  for (size_t i = 0; i < odd.order.size(); ++i) {
    CHECK(t35.distance(odd.order[i], odd.order[(i + 1) % odd.order.size()]) == 1);
  }
  // A 3x3 mesh is bipartite with 9 nodes: no Hamiltonian cycle; fallback order 0..8, routed.
  const mt::Topology mesh = make("mesh:3x3");
  const mt::RingOrder none = mt::find_ring_order(mesh);
  CHECK_FALSE(none.hamiltonian);
  CHECK(none.order == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8});
  const mt::Schedule s = build_verified("ring", mesh);
  CHECK(s.num_steps == 16);
  // Switch topologies: 0..N-1, never "Hamiltonian" (every message crosses a switch).
  CHECK_FALSE(mt::find_ring_order(make("fattree:k=4,levels=2")).hamiltonian);
}

TEST_CASE("ring_bi verifies with two opposite rings, 2N chunks", "[algorithms][ring]") {
  std::vector<std::string> specs = common_specs();
  for (const auto& s : switch_specs()) specs.push_back(s);
  for (const auto& spec : specs) {
    const mt::Topology t = make(spec);
    const int n = t.nodes();
    const mt::Schedule s = build_verified("ring_bi", t);
    INFO(spec);
    CHECK(s.num_steps == 2 * (n - 1));
    CHECK(s.num_chunks == 2 * n);
    CHECK(s.num_flows == 2);
    CHECK(s.ops.size() == static_cast<size_t>(4 * n * (n - 1)));
    if (t.kind() == mt::TopologyKind::kTorus && n > 4) CHECK(mt::verify(s, t).contention.empty());
  }
}

TEST_CASE("dbtree steps=colored: a rank sends one message per step, trees alternating",
          "[algorithms][dbtree]") {
  for (const char* spec : {"torus:4x4", "mesh:4x4", "torus:8x8", "torus:6x2"}) {
    const mt::Topology t = make(spec);
    INFO(spec);
    for (const char* phases : {"overlapped", "separate"}) {
      const mt::Schedule s = build_verified(
          "dbtree", t, {{"pipeline", "4"}, {"steps", "colored"}, {"phases", phases}});
      // Sanders et al.'s colouring gives a rank's two parent edges different colours, so in every
      // step a rank sends in at most one tree; a rank is interior in one tree only, and its two
      // children there differ in colour, so it broadcasts to one child per step.
      std::map<std::pair<int, int>, int> sends;
      for (const mt::Op& op : s.ops) ++sends[{op.node, op.step}];
      for (const auto& kv : sends) CHECK(kv.second == 1);
      // Sub-flow s of a tree is sent 2 steps after sub-flow s-1 by the same rank to the same peer.
      for (const mt::Op& op : s.ops) {
        if (op.chunk % 4 == 0) continue;
        bool found = false;
        for (const mt::Op& prev : s.ops) {
          found = found ||
                  (prev.node == op.node && prev.peer == op.peer && prev.chunk == op.chunk - 1 &&
                   prev.kind == op.kind && prev.step == op.step - 2);
        }
        CHECK(found);
      }
    }
    // Separate phases: a rank's broadcasts wait for every reduce that reaches it.
    const mt::Schedule sep = mt::build_schedule(
        "dbtree", t, {{"pipeline", "4"}, {"steps", "colored"}, {"phases", "separate"}});
    for (const mt::Op& b : sep.ops) {
      if (b.kind != mt::OpKind::kBroadcast) continue;
      for (const mt::Op& r : sep.ops) {
        if (r.kind == mt::OpKind::kReduce && r.peer == b.node) {
          CHECK(std::find(b.deps.begin(), b.deps.end(), r.id) != b.deps.end());
        }
      }
    }
  }
  CHECK_THROWS_WITH(mt::build_schedule("dbtree", make("torus:3x3"), {{"steps", "colored"}}),
                    "dbtree steps=colored needs an even number of endpoints, got 9");
  CHECK_THROWS_WITH(mt::build_schedule("dbtree", make("torus:4x4"), {{"phases", "separate"}}),
                    "dbtree phases=separate needs steps=colored");
}

TEST_CASE("ring2d verifies on 2D tori and meshes with 2(X-1)+2(Y-1) steps",
          "[algorithms][ring2d]") {
  for (const char* spec : {"torus:2x2", "torus:3x3", "torus:4x4", "torus:3x5", "torus:8x8",
                           "mesh:2x3", "mesh:4x4", "mesh:8x8"}) {
    const mt::Topology t = make(spec);
    const int x = t.dims()[0];
    const int y = t.dims()[1];
    const mt::Schedule s = build_verified("ring2d", t);
    INFO(spec);
    CHECK(s.num_steps == 2 * (x - 1) + 2 * (y - 1));
    CHECK(s.num_chunks == 2 * x * y);
    CHECK(s.num_flows == 4);
    // Half A: row phases (X-1 steps x XY senders x Y chunks) and column phases ((Y-1) x XY x 1),
    // each twice (reduce-scatter, all-gather); half B the same with X and Y swapped.
    const int half_a = 2 * ((x - 1) * x * y * y + (y - 1) * x * y);
    const int half_b = 2 * ((y - 1) * x * y * x + (x - 1) * x * y);
    CHECK(s.ops.size() == static_cast<size_t>(half_a + half_b));
    if (t.kind() == mt::TopologyKind::kTorus && x == y && x > 2) {
      // Only the chunks of one row-ring message share a link (one logical message, which the
      // verifier does not count); no two messages compete.
      CHECK(mt::verify(s, t).contention.empty());
    }
  }
}

TEST_CASE("ring2d lists a node's messages of one step with its two halves in turn",
          "[algorithms][ring2d]") {
  // Half 0 runs rows first, half 1 columns first in the other direction: in a step a node of the
  // 4x4 torus sends 4 messages of each half (one per chunk of its row-ring group) in different
  // directions. A NIC that takes them in list order must see the directions alternate.
  const mt::Schedule s = mt::build_schedule("ring2d", make("torus:4x4"));
  for (int node = 0; node < 16; ++node) {
    for (int step = 0; step < s.num_steps; ++step) {
      std::vector<int> halves;
      for (const mt::Op& op : s.ops) {
        if (op.node == node && op.step == step) halves.push_back(op.flow / 2);
      }
      INFO("node " << node << " step " << step);
      REQUIRE(halves.size() >= 2);
      const int half_0 = static_cast<int>(std::count(halves.begin(), halves.end(), 0));
      CHECK(half_0 * 2 == static_cast<int>(halves.size()));
      for (std::size_t k = 0; k < halves.size(); ++k) CHECK(halves[k] == static_cast<int>(k % 2));
    }
  }
}

TEST_CASE("ring2d rejects topologies that are not 2D", "[algorithms][ring2d]") {
  CHECK_THROWS_WITH(mt::build_schedule("ring2d", make("fattree:k=4,levels=2")),
                    "ring2d needs a 2D torus or mesh, got fattree:k=4,levels=2");
  CHECK_THROWS_AS(mt::build_schedule("ring2d", make("torus:4x4x4")), mt::AlgorithmError);
  CHECK_THROWS_AS(mt::build_schedule("ring2d", make("ring:8")), mt::AlgorithmError);
  // A 1xN torus is the ring N, refused as the ring is.
  CHECK_THROWS_WITH(mt::build_schedule("ring2d", make("torus:1x4")),
                    "ring2d needs at least 2 nodes in each dimension, got torus:1x4 (one ring: use "
                    "ring or ring_bi)");
}

TEST_CASE("dbtree: the two trees are complementary", "[algorithms][dbtree]") {
  CHECK(mt::binary_tree_parents(8) == std::vector<int>{-1, 2, 4, 2, 0, 6, 4, 6});
  for (int n = 2; n <= 64; ++n) {
    const auto trees = mt::double_binary_trees(n);
    std::vector<int> kids0(static_cast<size_t>(n), 0), kids1(static_cast<size_t>(n), 0);
    int roots = 0;
    for (int r = 0; r < n; ++r) {
      if (trees[0][static_cast<size_t>(r)] >= 0)
        ++kids0[static_cast<size_t>(trees[0][static_cast<size_t>(r)])];
      if (trees[1][static_cast<size_t>(r)] >= 0)
        ++kids1[static_cast<size_t>(trees[1][static_cast<size_t>(r)])];
      roots += (trees[0][static_cast<size_t>(r)] < 0) + (trees[1][static_cast<size_t>(r)] < 0);
    }
    INFO("n = " << n);
    CHECK(roots == 2);
    int both_interior = 0;
    for (int r = 0; r < n; ++r) {
      CHECK(kids0[static_cast<size_t>(r)] <= 2);
      CHECK(kids1[static_cast<size_t>(r)] <= 2);
      both_interior += kids0[static_cast<size_t>(r)] > 0 && kids1[static_cast<size_t>(r)] > 0;
    }
    // Even n (mirror): no node is interior in both trees. Odd n (shift): at most one.
    CHECK(both_interior <= (n % 2 == 0 ? 0 : 1));
  }
}

TEST_CASE("dbtree verifies on every topology, N = 2..64", "[algorithms][dbtree]") {
  std::vector<std::string> specs = common_specs();
  for (const auto& s : switch_specs()) specs.push_back(s);
  for (const auto& spec : specs) {
    const mt::Topology t = make(spec);
    const int n = t.nodes();
    const mt::Schedule s = build_verified("dbtree", t);
    INFO(spec);
    CHECK(s.num_chunks == 16);
    CHECK(s.num_flows == 2);
    // Every chunk goes up N-1 edges and down N-1 edges.
    CHECK(s.ops.size() == static_cast<size_t>(16 * 2 * (n - 1)));
  }
}

TEST_CASE("dbtree step count is pipeline + 2 x height - 1", "[algorithms][dbtree]") {
  const mt::Topology t16 = make("switch:nodes=16");
  // 16 ranks: both trees have height 4 (0 -> 8 -> 4 -> 2 -> 1).
  CHECK(build_verified("dbtree", t16).num_steps == 8 + 2 * 4 - 1);
  CHECK(build_verified("dbtree", t16, {{"pipeline", "1"}}).num_steps == 1 + 2 * 4 - 1);
  CHECK(build_verified("dbtree", t16, {{"pipeline", "3"}}).num_chunks == 6);
  // 2 ranks: heights 1.
  CHECK(build_verified("dbtree", make("ring:2"), {{"pipeline", "4"}}).num_steps == 4 + 2 - 1);
  CHECK_THROWS_WITH(mt::build_schedule("dbtree", t16, {{"pipeline", "0"}}),
                    "dbtree: parameter 'pipeline' must be >= 1, got 0");
  CHECK_THROWS_WITH(mt::build_schedule("dbtree", t16, {{"pipeline", "4x"}}),
                    "dbtree: parameter 'pipeline' must be an integer, got '4x'");
}

TEST_CASE("halving_doubling verifies with 2 log2 N steps on power-of-two topologies",
          "[algorithms][halving_doubling]") {
  for (const char* spec :
       {"ring:2", "ring:4", "ring:8", "ring:16", "ring:64", "torus:2x2", "torus:4x4", "torus:8x8",
        "torus:4x4x4", "mesh:4x4", "mesh:8x8", "fattree:k=4,levels=2", "fattree:k=8,levels=2",
        "bigraph:m=4,n=4", "bigraph:m=4,n=8", "switch:nodes=2", "switch:nodes=32",
        "switch:nodes=64"}) {
    const mt::Topology t = make(spec);
    const int n = t.nodes();
    int log2n = 0;
    while ((1 << log2n) < n) ++log2n;
    const mt::Schedule s = build_verified("halving_doubling", t);
    INFO(spec);
    CHECK(s.num_steps == 2 * log2n);
    CHECK(s.num_chunks == n);
    CHECK(s.ops.size() == static_cast<size_t>(2 * n * (n - 1)));
    if (t.kind() == mt::TopologyKind::kTorus || t.kind() == mt::TopologyKind::kMesh) {
      // Step 0 partners are direct neighbors (x distance 1).
      for (const auto& op : s.ops) {
        if (op.step == 0) CHECK(t.distance(op.node, op.peer) == 1);
      }
    }
  }
}

TEST_CASE("halving_doubling needs a power of two", "[algorithms][halving_doubling]") {
  CHECK_THROWS_WITH(mt::build_schedule("halving_doubling", make("ring:12")),
                    "halving_doubling needs a power-of-two number of endpoints, topology ring:12 "
                    "has 12");
  CHECK_THROWS_AS(mt::build_schedule("halving_doubling", make("torus:3x5")), mt::AlgorithmError);
}

TEST_CASE("multitree verifies on every topology", "[algorithms][multitree]") {
  std::vector<std::string> specs = common_specs();
  for (const auto& s : switch_specs()) specs.push_back(s);
  for (const auto& spec : specs) {
    const mt::Topology t = make(spec);
    const int n = t.nodes();
    const mt::Schedule s = build_verified("multitree", t);
    INFO(spec);
    CHECK(s.num_chunks == n);
    CHECK(s.num_flows == n);
    CHECK(s.num_steps % 2 == 0);
    CHECK(s.ops.size() == static_cast<size_t>(2 * n * (n - 1)));
    // Links are reserved per step: no contention anywhere.
    CHECK(mt::verify(s, t).contention.empty());
  }
}

TEST_CASE("arrival tracker: reduce arrivals accumulate, a broadcast replaces them",
          "[algorithms]") {
  mt::Schedule s;
  s.nodes = 3;
  s.num_chunks = 1;
  mt::ArrivalTracker tracker(3, 1);
  mt::Op op;
  op.node = 1;
  op.peer = 0;
  const int a = tracker.send(s, op);  // reduce 1 -> 0
  CHECK(tracker.deps(0, 0).empty());  // not visible before commit
  op.node = 2;
  const int b = tracker.send(s, op);  // reduce 2 -> 0, same step
  tracker.commit();
  CHECK(tracker.deps(0, 0) == std::vector<int>{a, b});
  op.node = 0;
  op.peer = 1;
  op.kind = mt::OpKind::kBroadcast;
  const int c = tracker.send(s, op);
  CHECK(s.ops[static_cast<size_t>(c)].deps == std::vector<int>{a, b});
  tracker.commit();
  CHECK(tracker.deps(1, 0) == std::vector<int>{c});
  op.node = 2;
  op.peer = 0;
  const int d = tracker.send(s, op);
  tracker.commit();
  CHECK(tracker.deps(0, 0) == std::vector<int>{d});
}

TEST_CASE("sort_by_step with flows in turn alternates a node's flows within a step",
          "[algorithms]") {
  mt::Schedule s;
  s.nodes = 3;
  s.num_chunks = 6;
  // Node 0 in step 0: flow 0 three times, then flow 1 twice (as a builder adds them); node 1 in
  // step 0 once; node 0 in step 1 once, added first.
  auto add = [&s](int node, int step, int flow, int chunk) {
    mt::Op op;
    op.node = node;
    op.peer = (node + 1) % 3;
    op.step = step;
    op.flow = flow;
    op.chunk = chunk;
    s.add(op);
  };
  add(0, 1, 0, 5);
  for (int c = 0; c < 3; ++c) add(0, 0, 0, c);
  add(1, 0, 0, 5);
  for (int c = 3; c < 5; ++c) add(0, 0, 1, c);
  s.ops[3].deps = {0};  // renumbered with the ops
  const mt::Schedule as_built = mt::sort_by_step(s);
  const mt::Schedule in_turn = mt::sort_by_step(s, mt::StepListing::kFlowsInTurn);
  auto chunks_of_node0 = [](const mt::Schedule& x) {
    std::vector<int> chunks;
    for (const mt::Op& op : x.ops) {
      if (op.node == 0) chunks.push_back(op.chunk);
    }
    return chunks;
  };
  CHECK(chunks_of_node0(as_built) == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(chunks_of_node0(in_turn) == std::vector<int>{0, 3, 1, 4, 2, 5});
  // The op of chunk 2 depended on the op of chunk 5 (now the last op, id 6).
  for (const mt::Op& op : in_turn.ops) {
    if (op.chunk == 2) CHECK(op.deps == std::vector<int>{6});
  }
}

TEST_CASE("sort_by_step renumbers ids and deps", "[algorithms]") {
  mt::Schedule s;
  s.nodes = 2;
  s.num_chunks = 1;
  mt::Op late;
  late.node = 0;
  late.peer = 1;
  late.step = 1;
  late.kind = mt::OpKind::kBroadcast;
  s.add(late);  // id 0, step 1
  mt::Op early;
  early.node = 1;
  early.peer = 0;
  early.step = 0;
  s.add(early);  // id 1, step 0
  s.ops[0].deps = {1};
  s.chunk_offsets = {0, 3};               // one chunk of 3 elements, as a file may give it
  s.op_sources = {"a.xml:7", "a.xml:9"};  // where each message was written
  const mt::Schedule sorted = mt::sort_by_step(s);
  REQUIRE(sorted.ops.size() == 2);
  CHECK(sorted.ops[0].step == 0);
  CHECK(sorted.ops[0].node == 1);
  CHECK(sorted.ops[1].id == 1);
  CHECK(sorted.ops[1].deps == std::vector<int>{0});
  CHECK(sorted.num_steps == 2);
  // Chunk boundaries and sources travel with the messages.
  CHECK(sorted.chunk_offsets == s.chunk_offsets);
  CHECK(sorted.op_sources == std::vector<std::string>{"a.xml:9", "a.xml:7"});
}

TEST_CASE("registry: names, help and errors", "[algorithms]") {
  CHECK(mt::algorithm_names() == std::vector<std::string>{"ring", "ring_bi", "ring2d", "dbtree",
                                                          "halving_doubling", "multitree",
                                                          "multitree_opt", "disjoint_rings",
                                                          "tree_packing", "swing", "auto"});
  for (const auto& name : mt::algorithm_names()) CHECK_FALSE(mt::algorithm_help(name).empty());
  const mt::Topology t = make("torus:4x4");
  CHECK_THROWS_WITH(
      mt::build_schedule("rings", t),
      "unknown algorithm 'rings' (known: ring, ring_bi, ring2d, dbtree, "
      "halving_doubling, multitree, multitree_opt, disjoint_rings, tree_packing, swing, auto)");
  CHECK_THROWS_WITH(mt::algorithm_help("tree"), Catch::Contains("unknown algorithm 'tree'"));
  CHECK_THROWS_WITH(mt::build_schedule("ring", t, {{"chunks", "4"}}),
                    "ring: unknown parameter 'chunks' (known: none)");
  CHECK_THROWS_WITH(mt::build_schedule("dbtree", t, {{"pipe", "4"}}),
                    "dbtree: unknown parameter 'pipe' (known: pipeline, steps, phases)");
  CHECK_THROWS_WITH(mt::build_schedule("multitree", make("ring:1")),
                    "multitree needs at least 2 endpoints, topology ring:1 has 1");
}

TEST_CASE("algorithms on custom topologies (direct and switched)", "[algorithms]") {
  // Triangular prism: two triangles 0-1-2 and 3-4-5 joined by 0-3, 1-4, 2-5 (Hamiltonian).
  mt::TopologyConfig prism;
  prism.kind = mt::TopologyKind::kCustom;
  prism.custom_nodes = 6;
  prism.custom_edges = {{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 3}, {0, 3}, {1, 4}, {2, 5}};
  const mt::Topology direct(prism);
  // Two switches (6, 7) with three endpoints each, joined by one switch-to-switch edge.
  mt::TopologyConfig two;
  two.kind = mt::TopologyKind::kCustom;
  two.custom_nodes = 6;
  two.custom_switches = 2;
  two.custom_edges = {{0, 6}, {1, 6}, {2, 6}, {3, 7}, {4, 7}, {5, 7}, {6, 7}};
  const mt::Topology switched(two);
  // Op counts on N = 6 endpoints: ring 2N(N-1), ring_bi 4N(N-1), dbtree 16 chunks up and down
  // N-1 edges each, multitree N trees of N-1 reduce and N-1 broadcast messages.
  const std::vector<std::pair<const char*, std::size_t>> ops = {{"ring", 2 * 6 * 5},
                                                                {"ring_bi", 4 * 6 * 5},
                                                                {"dbtree", 16 * 2 * 5},
                                                                {"multitree", 2 * 6 * 5}};
  for (const mt::Topology* t : {&direct, &switched}) {
    for (const auto& [algorithm, count] : ops) {
      INFO(algorithm << " on " << t->name());
      CHECK(build_verified(algorithm, *t).ops.size() == count);
    }
  }
  const mt::RingOrder ring = mt::find_ring_order(direct);
  CHECK(ring.hamiltonian);
  // Direct custom topology: every multitree edge is one hop, no contention.
  const mt::Schedule mt_direct = mt::build_schedule("multitree", direct);
  CHECK(mt::verify(mt_direct, direct).contention.empty());
  for (const auto& op : mt_direct.ops) CHECK(direct.distance(op.node, op.peer) == 1);
}
