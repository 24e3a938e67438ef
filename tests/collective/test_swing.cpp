// Swing (De Sensi et al., NSDI 2024): the peer sequence, the schedule's step and message counts
// from the formulas (2 log2 N steps, 2 C N (N - 1) messages for C collectives), verification on
// rings and 1D/2D/3D tori, contention, and the errors for what it refuses.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/auto_select.h"
#include "model/collective/swing.h"
#include "model/collective/verify.h"
#include "model/topology/topology.h"
#include "tests/support/forest_checks.h"

using mt::test::make;

TEST_CASE("swing rho is the sum of (-2)^i", "[swing]") {
  const std::vector<int> expected = {1, -1, 3, -5, 11, -21, 43, -85};
  for (int s = 0; s < static_cast<int>(expected.size()); ++s)
    CHECK(mt::swing_rho(s) == expected[static_cast<size_t>(s)]);
}

TEST_CASE("swing peers on ring:8: even nodes go +rho, odd nodes -rho, mirrored the other way",
          "[swing]") {
  const mt::Topology t = make("ring:8");
  const mt::SwingPattern plain = mt::swing_pattern(t, 0);
  REQUIRE(plain.peers.size() == 3);
  // rho = 1, -1, 3: node 0 -> 1, 7, 3; node 1 -> 0, 2, 6 (1 - 3 = -2 = 6); node 2 -> 3, 1, 5.
  CHECK(plain.peers[0] == std::vector<int>{1, 0, 3, 2, 5, 4, 7, 6});
  CHECK(plain.peers[1] == std::vector<int>{7, 2, 1, 4, 3, 6, 5, 0});
  CHECK(plain.peers[2] == std::vector<int>{3, 6, 5, 0, 7, 2, 1, 4});
  const mt::SwingPattern mirrored = mt::swing_pattern(t, 1);
  CHECK(mirrored.peers[0] == std::vector<int>{7, 2, 1, 4, 3, 6, 5, 0});
  CHECK(mirrored.peers[2] == std::vector<int>{5, 4, 7, 6, 1, 0, 3, 2});
}

TEST_CASE("swing peers cycle over torus dimensions, shifted per collective", "[swing]") {
  const mt::Topology t = make("torus:4x4x4");
  for (int c = 0; c < 6; ++c) {
    const mt::SwingPattern p = mt::swing_pattern(t, c);
    REQUIRE(p.peers.size() == 6);
    for (size_t s = 0; s < p.peers.size(); ++s) {
      INFO("collective " << c << " step " << s);
      // Dimension order starts at c / 2 and cycles; two steps per dimension of 4 (rho 1, -1).
      CHECK(p.dims[s] == static_cast<int>((static_cast<size_t>(c / 2) + s) % 3));
      for (int r = 0; r < t.nodes(); ++r) {
        const int q = p.peers[s][static_cast<size_t>(r)];
        CHECK(p.peers[s][static_cast<size_t>(q)] == r);  // an involution: pairs exchange
        CHECK(t.distance(r, q) == 1);                    // |rho| = 1 on a dimension of 4
        const auto a = t.coords(r);
        const auto b = t.coords(q);
        for (int d = 0; d < 3; ++d) {
          if (d != p.dims[s]) CHECK(a[static_cast<size_t>(d)] == b[static_cast<size_t>(d)]);
        }
      }
    }
  }
  // On a ring of 16 the third and fourth peers are 3 and 5 hops away (recursive doubling: 4, 8).
  const mt::SwingPattern ring = mt::swing_pattern(make("ring:16"), 0);
  CHECK(make("ring:16").distance(0, ring.peers[2][0]) == 3);
  CHECK(make("ring:16").distance(0, ring.peers[3][0]) == 5);
}

TEST_CASE("swing: steps, chunks and messages follow the formulas, and it verifies", "[swing]") {
  struct Case {
    const char* spec;
    int collectives;
    int log2n;
    bool contention_free;
  };
  for (const Case& c : {Case{"ring:8", 2, 3, false}, Case{"torus:4x4", 4, 4, true},
                        Case{"torus:4x4x4", 6, 6, true}, Case{"ring:2", 1, 1, true},
                        Case{"torus:2x4", 3, 3, false}, Case{"torus:4x8", 4, 5, false}}) {
    const mt::Topology t = make(c.spec);
    const int n = t.nodes();
    const mt::Schedule s = mt::build_schedule("swing", t);
    const mt::VerifyReport report = mt::verify(s, t);
    INFO(c.spec << ": " << report.first_error);
    REQUIRE(report.ok);
    CHECK(s.algorithm == "swing");
    CHECK(s.num_flows == c.collectives);
    CHECK(s.num_chunks == c.collectives * n);
    CHECK(s.num_steps == 2 * c.log2n);
    CHECK(report.num_messages == 2 * c.collectives * n * (n - 1));
    // Reduce-scatter step s: every node sends N / 2^(s+1) blocks per collective.
    std::vector<int> per_step(static_cast<size_t>(s.num_steps), 0);
    for (const mt::Op& op : s.ops) ++per_step[static_cast<size_t>(op.step)];
    for (int step = 0; step < c.log2n; ++step) {
      const int blocks = c.collectives * n * (n >> (step + 1));
      CHECK(per_step[static_cast<size_t>(step)] == blocks);
      CHECK(per_step[static_cast<size_t>(2 * c.log2n - 1 - step)] == blocks);
    }
    CHECK(report.contention.empty() == c.contention_free);
  }
  // Fewer collectives than ports on request.
  const mt::Schedule one = mt::build_schedule("swing", make("torus:4x4"), {{"collectives", "1"}});
  CHECK(one.num_flows == 1);
  CHECK(mt::verify(one, make("torus:4x4")).ok);
}

TEST_CASE("swing latency variant: whole-share exchanges, staged, log2 N steps", "[swing]") {
  struct Case {
    const char* spec;
    int collectives;
    int log2n;
  };
  for (const Case& c : {Case{"ring:8", 2, 3}, Case{"torus:4x4", 4, 4}, Case{"torus:4x4x4", 6, 6},
                        Case{"ring:2", 1, 1}, Case{"torus:4x8", 4, 5}}) {
    const mt::Topology t = make(c.spec);
    const int n = t.nodes();
    const mt::Schedule s = mt::build_schedule("swing", t, {{"variant", "latency"}});
    const mt::VerifyReport report = mt::verify(s, t);
    INFO(c.spec << ": " << report.first_error);
    REQUIRE(report.ok);
    CHECK(s.num_chunks == c.collectives);
    CHECK(s.num_steps == c.log2n);
    CHECK(report.num_messages == c.collectives * n * c.log2n);
    for (const mt::Op& op : s.ops) {
      // Each message is staged behind the receiver's own message of the exchange.
      REQUIRE(op.apply_after >= 0);
      const mt::Op& own = s.ops[static_cast<size_t>(op.apply_after)];
      CHECK(own.node == op.peer);
      CHECK(own.peer == op.node);
      CHECK(own.chunk == op.chunk);
      CHECK(own.step == op.step);
      CHECK(op.kind == mt::OpKind::kReduce);
      CHECK(op.deps.size() == static_cast<size_t>(op.step));  // every earlier step's arrival
    }
  }
  // The same exchanges without staging race: the verifier says where.
  mt::Schedule plain = mt::build_schedule("swing", make("ring:2"), {{"variant", "latency"}});
  for (mt::Op& op : plain.ops) op.apply_after = -1;
  CHECK(mt::verify(plain, make("ring:2")).first_error ==
        "node 0 chunk 0: arrival of message 1 and issue of message 0 are unordered: the value "
        "sent depends on timing");
}

TEST_CASE("swing refuses what it cannot run, saying why", "[swing]") {
  CHECK_THROWS_WITH(mt::build_schedule("swing", make("torus:3x4")),
                    "swing needs power-of-two dimensions, topology torus:3x4 has 3 in "
                    "dimension 0");
  CHECK_THROWS_WITH(mt::build_schedule("swing", make("ring:6")),
                    "swing needs power-of-two dimensions, topology ring:6 has 6 in dimension 0");
  CHECK_THROWS_WITH(mt::build_schedule("swing", make("mesh:4x4")),
                    "swing: topology mesh:4x4 is not a ring or torus (Swing's peers wrap around "
                    "every dimension)");
  CHECK_THROWS_WITH(mt::build_schedule("swing", make("torus:4x4"), {{"variant", "fast"}}),
                    "swing: parameter 'variant' must be 'bandwidth' or 'latency', got 'fast'");
  CHECK_THROWS_WITH(mt::build_schedule("swing", make("torus:4x4"), {{"pipeline", "2"}}),
                    "swing: unknown parameter 'pipeline' (known: variant, collectives)");
}

TEST_CASE("auto considers swing on tori and rings only", "[swing][auto]") {
  auto has_swing = [](const char* spec) {
    const auto cands = mt::auto_candidates(make(spec));
    return std::any_of(cands.begin(), cands.end(),
                       [](const mt::AutoCandidate& c) { return c.algorithm == "swing"; });
  };
  CHECK(has_swing("torus:4x4"));
  CHECK(has_swing("ring:8"));
  CHECK_FALSE(has_swing("mesh:4x4"));
  CHECK_FALSE(has_swing("fattree:k=4,levels=2"));
  const mt::AutoChoice choice = mt::choose_algorithm(make("torus:4x4"), 256 * 1024);
  CHECK(std::any_of(choice.ranking.begin(), choice.ranking.end(),
                    [](const auto& r) { return r.first == "swing"; }));
}
