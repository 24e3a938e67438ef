// tree_packing (issue 9): spanning-tree packings that load every link equally, checked
// independently of the construction (union-find for spanning, breadth-first search for heights),
// and the pipelined schedule built on them.

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/tree_packing.h"
#include "model/collective/verify.h"
#include "model/topology/topology.h"
#include "tests/support/forest_checks.h"

using mt::test::make;

namespace {

int find(std::vector<int>& up, int x) {
  while (up[static_cast<size_t>(x)] != x)
    x = up[static_cast<size_t>(x)] = up[static_cast<size_t>(up[static_cast<size_t>(x)])];
  return x;
}

/// True when the edges form a spanning tree of n endpoints (n-1 edges, no cycle).
bool spanning_tree(int n, const mt::TreePacking& p, const std::vector<int>& members) {
  if (static_cast<int>(members.size()) != n - 1) return false;
  std::vector<int> up(static_cast<size_t>(n));
  std::iota(up.begin(), up.end(), 0);
  for (int e : members) {
    const int a = find(up, p.edges[static_cast<size_t>(e)].u);
    const int b = find(up, p.edges[static_cast<size_t>(e)].v);
    if (a == b) return false;
    up[static_cast<size_t>(a)] = b;
  }
  return true;
}

/// Hops from `root` to the farthest endpoint over the tree's edges.
int height_from(int n, const mt::TreePacking& p, const std::vector<int>& members, int root) {
  std::vector<int> dist(static_cast<size_t>(n), -1);
  std::vector<int> queue = {root};
  dist[static_cast<size_t>(root)] = 0;
  int far = 0;
  for (size_t i = 0; i < queue.size(); ++i) {
    const int x = queue[i];
    far = std::max(far, dist[static_cast<size_t>(x)]);
    for (int e : members) {
      const auto& pe = p.edges[static_cast<size_t>(e)];
      const int y = pe.u == x ? pe.v : pe.v == x ? pe.u : -1;
      if (y < 0 || dist[static_cast<size_t>(y)] >= 0) continue;
      dist[static_cast<size_t>(y)] = dist[static_cast<size_t>(x)] + 1;
      queue.push_back(y);
    }
  }
  return far;
}

struct PackingCase {
  const char* spec;
  int trees;       // t
  int load;        // c
  int edges;       // undirected links
  int max_height;  // tallest tree from its root
};

}  // namespace

TEST_CASE("tree packings load every link equally and span every endpoint", "[beyond][packing]") {
  // t and c follow from c/t = (N-1)/E in lowest terms (t <= 32): 4x4 mesh 15/24 = 5/8, 8x8 mesh
  // 63/112 = 9/16, 3x5 mesh 14/22 = 7/11, 4x4 torus 15/32, 7-ring 6/7; the 8x8 torus' 63/128
  // needs t = 128 > 32, so it takes the best ratio within reach, 1/2, with the fewest trees: two
  // link-disjoint spanning trees. Heights: the 4x4 and 8x8 trees reach the network's radius (4
  // and 8), the least any spanning tree can have; a 7-ring's trees are 7-node paths (height 3);
  // on the 3x5 mesh (radius 3) the tallest tree is one hop above it. The 3D tori take the ratio
  // 1/3 (three link-disjoint spanning trees, a few links in none); their random exchanges leave
  // trees of 8 and 20 hops (radius 6 and 12), which re-hanging the deepest subtrees lowers to 7
  // and 16.
  const std::vector<PackingCase> cases = {
      {"mesh:4x4", 8, 5, 24, 4},     {"mesh:8x8", 16, 9, 112, 8},     {"mesh:3x5", 11, 7, 22, 4},
      {"torus:4x4", 32, 15, 32, 4},  {"ring:7", 7, 6, 7, 3},          {"torus:8x8", 2, 1, 128, 8},
      {"torus:4x4x4", 3, 1, 192, 7}, {"torus:8x8x8", 3, 1, 1536, 16},
  };
  for (const PackingCase& c : cases) {
    const mt::Topology t = make(c.spec);
    const mt::TreePacking p = mt::pack_spanning_trees(t);
    INFO(c.spec);
    CHECK(p.trees == c.trees);
    CHECK(p.edge_load == c.load);
    CHECK(static_cast<int>(p.edges.size()) == c.edges);
    REQUIRE(static_cast<int>(p.members.size()) == p.trees);
    std::vector<int> load(p.edges.size(), 0);
    int tallest = 0;
    for (int r = 0; r < p.trees; ++r) {
      const auto& members = p.members[static_cast<size_t>(r)];
      CHECK(spanning_tree(t.nodes(), p, members));
      for (int e : members) ++load[static_cast<size_t>(e)];
      const int h = height_from(t.nodes(), p, members, p.roots[static_cast<size_t>(r)]);
      CHECK(h == p.heights[static_cast<size_t>(r)]);
      tallest = std::max(tallest, h);
    }
    CHECK(*std::max_element(load.begin(), load.end()) == c.load);
    CHECK(tallest == c.max_height);
    if (static_cast<long>(c.load) * c.edges == static_cast<long>(c.trees) * (t.nodes() - 1)) {
      // Exact packings: every link in exactly c trees.
      CHECK(*std::min_element(load.begin(), load.end()) == c.load);
    }
  }
}

TEST_CASE("tree_packing schedules verify with every endpoint in every tree", "[beyond][packing]") {
  for (const char* spec : {"ring:2", "ring:5", "torus:2x2", "torus:3x4", "torus:4x4", "mesh:2x3",
                           "mesh:3x3", "mesh:4x4", "mesh:4x8", "torus:3x3x3"}) {
    const mt::Topology t = make(spec);
    const int pipeline = 3;
    const mt::Schedule s = mt::build_schedule("tree_packing", t, {{"pipeline", "3"}});
    const mt::TreePacking p = mt::pack_spanning_trees(t);
    INFO(spec);
    const mt::VerifyReport report = mt::verify(s, t);
    INFO(report.first_error);
    REQUIRE(report.ok);
    // Every tree edge carries one reduce and one broadcast per sub-chunk.
    CHECK(s.ops.size() == static_cast<size_t>(2 * (t.nodes() - 1) * p.trees * pipeline));
    CHECK(s.num_chunks == p.trees * pipeline);
    CHECK(s.num_flows == p.trees);
    // Sub-chunk p's messages lie in steps p .. p + 2H - 1 of its tree of height H.
    const int tallest = *std::max_element(p.heights.begin(), p.heights.end());
    CHECK(s.num_steps == pipeline + 2 * tallest - 1);
  }
}

TEST_CASE("tree_packing sizes its pipeline by the all-reduce size", "[beyond][packing]") {
  // Messages of 4 KiB: 4 MiB over 16 trees is 64 sub-chunks per tree, over 8 trees 128; at most
  // 4096 chunks: 16 MiB over 16 trees stops at 256, over 8 trees at 512; at least one sub-chunk.
  CHECK(mt::tree_packing_pipeline(16, 8, 4u << 20, false) == 64);
  CHECK(mt::tree_packing_pipeline(8, 4, 4u << 20, false) == 128);
  CHECK(mt::tree_packing_pipeline(16, 8, 16u << 20, false) == 256);
  CHECK(mt::tree_packing_pipeline(8, 4, 16u << 20, false) == 512);
  CHECK(mt::tree_packing_pipeline(16, 8, 64u << 10, false) == 1);
  // Short messages (message flow control, host issue): floor(sqrt(bytes per tree x height / 32)),
  // at most 8192 chunks, at least one. Height 4 (4x4 mesh): sqrt(bytes per tree / 8).
  CHECK(mt::tree_packing_pipeline(8, 4, 256u << 10, true) == 64);
  CHECK(mt::tree_packing_pipeline(8, 4, 1u << 20, true) == 128);
  CHECK(mt::tree_packing_pipeline(8, 4, 4u << 20, true) == 256);
  CHECK(mt::tree_packing_pipeline(16, 4, 1u << 20, true) == 90);   // 8192: 90^2 = 8100, 91^2 = 8281
  CHECK(mt::tree_packing_pipeline(16, 8, 1u << 20, true) == 128);  // twice as tall: 16384
  CHECK(mt::tree_packing_pipeline(16, 6, 1u << 20, true) == 110);  // 12288: 110^2 = 12100
  CHECK(mt::tree_packing_pipeline(16, 8, 16u << 20, true) == 512);   // 262144: 512^2
  CHECK(mt::tree_packing_pipeline(16, 8, 64u << 20, true) == 512);   // 1024, capped at 8192 / 16
  CHECK(mt::tree_packing_pipeline(8, 4, 64u << 20, true) == 1024);   // 1048576: 1024^2
  CHECK(mt::tree_packing_pipeline(8, 4, 256u << 20, true) == 1024);  // 2048, capped at 8192 / 8
  CHECK(mt::tree_packing_pipeline(16, 4, 64, true) == 1);
  const mt::Topology mesh = make("mesh:4x4");
  CHECK(mt::build_schedule("tree_packing", mesh, {{"bytes", "1MiB"}}).num_chunks == 8 * 32);
  CHECK(mt::build_schedule("tree_packing", mesh).num_chunks == 8 * 512);  // 16 MiB default
  CHECK(mt::build_schedule("tree_packing", mesh, mt::with_size("tree_packing", {}, 2u << 20))
            .num_chunks == 8 * 64);
  // An explicit pipeline wins over the size.
  CHECK(mt::with_size("tree_packing", {{"pipeline", "2"}}, 1u << 20).count("bytes") == 0);
  CHECK(
      mt::build_schedule("tree_packing", mesh, {{"pipeline", "2"}, {"bytes", "1MiB"}}).num_chunks ==
      16);
}

TEST_CASE("tree_packing rejects switched topologies and bad parameters", "[beyond][packing]") {
  CHECK_THROWS_WITH(mt::build_schedule("tree_packing", make("fattree:k=4,levels=2")),
                    "tree_packing needs a direct topology (endpoints linked to each other), got "
                    "fattree:k=4,levels=2 with switches; use multitree_opt or disjoint_rings "
                    "there");
  const mt::Topology mesh = make("mesh:4x4");
  CHECK_THROWS_WITH(mt::build_schedule("tree_packing", mesh, {{"pipeline", "0"}}),
                    "tree_packing: parameter 'pipeline' must be >= 1, got 0");
  CHECK_THROWS_WITH(mt::build_schedule("tree_packing", mesh, {{"bytes", "big"}}),
                    "tree_packing: parameter 'bytes' must be a size such as 4096 or 16MiB, got "
                    "'big'");
  CHECK_THROWS_WITH(mt::build_schedule("tree_packing", mesh, {{"window", "0"}}),
                    "tree_packing: parameter 'window' must be >= 1, got 0");
  CHECK_THROWS_WITH(
      mt::build_schedule("tree_packing", mesh, {{"depth", "2"}}),
      "tree_packing: unknown parameter 'depth' (known: pipeline, trees, window, bytes)");
}

TEST_CASE("tree_packing's window holds each tree's reduces behind its broadcasts",
          "[beyond][packing]") {
  // 4x4 mesh: 8 trees of height 4, so a node's broadcast of sub-chunk k comes at most 2 x 4 = 8
  // steps after its reduce of k. Window 8: every non-root node's reduce of k >= 8 also waits for
  // the broadcast of k - 8 into it, and no step moves. Window 4: the broadcast of k - 4 would
  // come in the reduce's step or later, so sub-chunk k moves 8 - 4 steps later per window:
  // 4 x floor(k / 4), 12 steps for the last of 16 sub-chunks.
  const mt::Topology mesh = make("mesh:4x4");
  const mt::Schedule plain = mt::build_schedule("tree_packing", mesh, {{"pipeline", "16"}});
  for (const int window : {4, 8}) {
    INFO("window " << window);
    const mt::Schedule s = mt::build_schedule(
        "tree_packing", mesh, {{"pipeline", "16"}, {"window", std::to_string(window)}});
    CHECK(mt::verify(s, mesh).ok);
    CHECK(s.num_steps == plain.num_steps + (window == 4 ? 12 : 0));
    int windowed = 0;
    for (const mt::Op& op : s.ops) {
      if (op.kind != mt::OpKind::kReduce) continue;
      const int sub = op.chunk % 16;
      int waits = 0;
      for (const int d : op.deps) {
        const mt::Op& dep = s.ops[static_cast<std::size_t>(d)];
        if (dep.kind != mt::OpKind::kBroadcast) continue;
        ++waits;
        CHECK(dep.peer == op.node);
        CHECK(dep.chunk == op.chunk - window);
        CHECK(dep.step < op.step);
      }
      CHECK(waits == (sub >= window ? 1 : 0));
      windowed += waits;
    }
    CHECK(windowed == 8 * 15 * (16 - window));
  }
}
