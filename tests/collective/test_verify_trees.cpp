// The verifier's tree proof (model/collective/verify_trees.cpp): it takes the schedules of the
// tree algorithms, and over thousands of mutated schedules it accepts nothing that the race
// check and the replay reject (verify() gives the same report with the proof as without it).

#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/verify.h"
#include "model/collective/verify_errors.h"
#include "tests/support/topologies.h"

using mt::test::make;

namespace {

// (algorithm, topology) pairs whose schedules reduce every chunk up a tree and broadcast it
// down another from the same root: the trees of the tree algorithms, the paths of the rings,
// the binomial trees of halving-doubling and Swing.
const std::vector<std::pair<std::string, std::string>> kTreeSchedules = {
    {"multitree", "torus:4x4"},
    {"multitree", "mesh:3x4"},
    {"multitree", "torus:2x2x2"},
    {"multitree", "fattree:k=4,levels=2"},
    {"multitree", "bigraph:m=2,n=4"},
    {"multitree_opt", "torus:4x4"},
    {"dbtree", "torus:4x4"},
    {"tree_packing", "torus:3x3"},
    {"ring", "ring:6"},
    {"ring_bi", "torus:4x4"},
    {"ring2d", "torus:4x4"},
    {"halving_doubling", "torus:4x4"},
    {"swing", "torus:4x4"},
    {"disjoint_rings", "torus:4x4"},
};

mt::VerifyLimits checked_in_full() {
  mt::VerifyLimits limits;
  limits.tree_proof = false;
  return limits;
}

// One random change of the kind that breaks schedules (or, for some, leaves them correct): a
// dependency dropped, added, repeated or pointed elsewhere, a kind, peer or chunk changed, a
// message written to another slot or staged, a message removed.
void mutate(mt::Schedule& s, std::mt19937& rng) {
  const auto pick = [&rng](std::size_t n) {
    return static_cast<int>(std::uniform_int_distribution<std::size_t>(0, n - 1)(rng));
  };
  mt::Op& op = s.ops[static_cast<std::size_t>(pick(s.ops.size()))];
  // A message the sender of `op` receives (a dependency the structure check accepts).
  const auto received = [&]() {
    std::vector<int> ids;
    for (const mt::Op& o : s.ops)
      if (o.peer == op.node && o.id != op.id) ids.push_back(o.id);
    return ids.empty() ? -1 : ids[static_cast<std::size_t>(pick(ids.size()))];
  };
  switch (pick(10)) {
    case 0:
      if (!op.deps.empty()) {
        const int at = pick(op.deps.size());
        op.deps.erase(op.deps.begin() + at, op.deps.begin() + at + 1);
      }
      break;
    case 1:
      if (const int d = received(); d >= 0) op.deps.push_back(d);
      break;
    case 2:
      if (!op.deps.empty())
        op.deps.push_back(op.deps[static_cast<std::size_t>(pick(op.deps.size()))]);
      break;
    case 3:
      if (const int d = received(); d >= 0 && !op.deps.empty())
        op.deps[static_cast<std::size_t>(pick(op.deps.size()))] = d;
      break;
    case 4:
      op.kind = op.kind == mt::OpKind::kReduce ? mt::OpKind::kBroadcast : mt::OpKind::kReduce;
      break;
    case 5:
      op.peer = pick(static_cast<std::size_t>(s.nodes));
      break;
    case 6:
      op.chunk = pick(static_cast<std::size_t>(s.num_chunks));
      break;
    case 7:  // written to another slot than its chunk's
      op.dst_chunk = pick(static_cast<std::size_t>(s.num_chunks));
      break;
    case 8:  // staged behind a message its receiver sends of the same chunk
      for (const mt::Op& o : s.ops)
        if (o.node == op.peer && o.chunk == op.chunk) op.apply_after = o.id;
      break;
    default: {  // the message removed, ids and dependencies renumbered
      const int gone = op.id;
      std::vector<mt::Op> kept;
      for (mt::Op o : s.ops) {
        if (o.id == gone) continue;
        std::vector<int> deps;
        for (const int d : o.deps)
          if (d != gone) deps.push_back(d > gone ? d - 1 : d);
        o.deps = deps;
        o.id = static_cast<int>(kept.size());
        kept.push_back(std::move(o));
      }
      s.ops = std::move(kept);
      break;
    }
  }
}

}  // namespace

TEST_CASE("the tree proof takes the tree algorithms' schedules", "[verify]") {
  for (const auto& [algorithm, spec] : kTreeSchedules) {
    INFO(algorithm << " on " << spec);
    const mt::Topology t = make(spec);
    const mt::Schedule s = mt::build_schedule(algorithm, t);
    CHECK(mt::verify_detail::tree_all_reduce(s));
    CHECK(mt::verify(s, t).ok);
    CHECK(mt::verify(s, t, checked_in_full()).ok);
  }
  // Not a tree: Swing's latency variant exchanges whole shares, each received one staged until
  // the receiver's own message has left (Op::apply_after): the full checks decide.
  const mt::Topology t = make("torus:4x4");
  const mt::Schedule staged = mt::build_schedule("swing", t, {{"variant", "latency"}});
  CHECK_FALSE(mt::verify_detail::tree_all_reduce(staged));
  CHECK(mt::verify(staged, t).ok);
}

TEST_CASE("the tree proof accepts nothing the race check and the replay reject", "[verify]") {
  std::mt19937 rng(2026);
  int proven = 0;    // mutants still correct, taken by the proof
  int rejected = 0;  // mutants both reject
  for (const auto& [algorithm, spec] : kTreeSchedules) {
    const mt::Topology t = make(spec);
    const mt::Schedule base = mt::build_schedule(algorithm, t);
    for (int k = 0; k < 150; ++k) {
      mt::Schedule s = base;
      const int changes = 1 + k % 3;
      for (int c = 0; c < changes; ++c) mutate(s, rng);
      const mt::VerifyReport full = mt::verify(s, t, checked_in_full());
      const mt::VerifyReport fast = mt::verify(s, t);
      INFO(algorithm << " on " << spec << ", mutant " << k << ": " << full.first_error);
      REQUIRE(fast.ok == full.ok);
      REQUIRE(fast.errors == full.errors);
      if (full.ok && mt::verify_detail::tree_all_reduce(s)) ++proven;
      if (!full.ok) ++rejected;
    }
  }
  // Both kinds occur: correct mutants (an extra dependency, a removed one that was implied)
  // that the proof takes, and broken ones that it leaves to the full checks.
  CHECK(proven > 50);
  CHECK(rejected > 500);
}
