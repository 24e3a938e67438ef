// HappensBefore: batch answers (per component, in blocks under a tiny budget, on one thread or
// several) and single searches agree with the transitive closure computed by hand on small
// dependency graphs.
#include <catch2/catch.hpp>

#include <utility>
#include <vector>

#include "model/collective/happens_before.h"
#include "model/collective/schedule.h"

namespace {

// Ops 0..n-1 with the given dependency lists (node/peer do not matter here).
mt::Schedule graph(const std::vector<std::vector<int>>& deps) {
  mt::Schedule s;
  s.nodes = 2;
  s.num_chunks = 1;
  for (std::size_t i = 0; i < deps.size(); ++i) {
    mt::Op op;
    op.id = static_cast<int>(i);
    op.deps = deps[i];
    s.ops.push_back(op);
  }
  return s;
}

// Reference: x reaches y through deps (y depends on x, transitively).
bool reaches(const mt::Schedule& s, int x, int y) {
  for (const int d : s.ops[static_cast<std::size_t>(y)].deps) {
    if (d == x || reaches(s, x, d)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("happens-before answers match the transitive closure, in blocks and one by one") {
  // Two components: a diamond with a tail (0..5) and a chain (6..8); 9 stands alone.
  const mt::Schedule s = graph({{}, {0}, {0}, {1, 2}, {3}, {1}, {}, {6}, {7}, {}});
  const std::vector<int> order = {0, 6, 9, 1, 2, 7, 3, 5, 8, 4};
  for (const auto& [budget, threads] : {std::pair{std::uint64_t{1}, 1},
                                        {mt::HappensBefore::kDefaultBudgetWords, 1},
                                        {std::uint64_t{1}, 2},
                                        {mt::HappensBefore::kDefaultBudgetWords, 3}}) {
    mt::HappensBefore batch(s, order, budget);
    std::vector<std::pair<int, int>> pairs;
    for (int x = 0; x < 10; ++x) {
      for (int y = 0; y < 10; ++y) pairs.emplace_back(x, y);
    }
    std::vector<std::size_t> ids;
    for (const auto& [x, y] : pairs) ids.push_back(batch.ask(x, y));
    const std::vector<char>& answers = batch.solve(threads);
    int ordered = 0;
    for (std::size_t q = 0; q < pairs.size(); ++q) {
      const auto [x, y] = pairs[q];
      INFO("x " << x << " y " << y << " budget " << budget << " threads " << threads);
      CHECK((answers[ids[q]] != 0) == reaches(s, x, y));
      CHECK(batch.happens_before(x, y) == reaches(s, x, y));
      ordered += answers[ids[q]] != 0 ? 1 : 0;
    }
    // 0 precedes 1, 2, 3, 4, 5; 1 precedes 3, 4, 5; 2 precedes 3, 4; 3 precedes 4; 6 precedes 7,
    // 8; 7 precedes 8: 14 ordered pairs, none across components.
    CHECK(ordered == 14);
    CHECK_FALSE(batch.happens_before(0, 8));
    CHECK_FALSE(batch.happens_before(4, 0));
  }
}

TEST_CASE("happens-before over 200 chained components answers a thousand queries in blocks") {
  const int threads = GENERATE(1, 4);  // components solved one after the other, or four at once
  INFO("threads " << threads);
  // 200 chains of 64 ops: op c*64+i depends on c*64+i-1. Budget of one 64-bit word per row.
  std::vector<std::vector<int>> deps;
  for (int c = 0; c < 200; ++c) {
    for (int i = 0; i < 64; ++i)
      deps.push_back(i == 0 ? std::vector<int>{} : std::vector<int>{c * 64 + i - 1});
  }
  const mt::Schedule s = graph(deps);
  std::vector<int> order(deps.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  mt::HappensBefore hb(s, order, 64);
  std::vector<std::size_t> ids;
  std::vector<bool> expected;
  for (int q = 0; q < 1000; ++q) {
    // Odd queries inside one chain (true one way, false the other), even ones anywhere.
    const int x = q % 2 ? (q % 200) * 64 + q % 30 : (q * 7919) % 12800;
    const int y = q % 2 ? x + 1 + q % 33 : (q * 104729 + 13) % 12800;
    ids.push_back(hb.ask(q % 4 == 1 ? y : x, q % 4 == 1 ? x : y));
    expected.push_back(q % 4 != 1 && x / 64 == y / 64 && x < y);
  }
  int expected_true = 0;
  for (const bool e : expected) expected_true += e ? 1 : 0;
  CHECK(expected_true == 251);  // 250 inside a chain, 1 of the pairs anywhere
  const std::vector<char>& answers = hb.solve(threads);
  for (std::size_t q = 0; q < ids.size(); ++q) CHECK((answers[ids[q]] != 0) == expected[q]);
}
