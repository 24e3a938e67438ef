// Issue 19: the verifier's happens-before stays within its memory budget on hostile schedules:
// thousands of broadcasts of one chunk cost O(messages) ordering queries (not one per pair), and
// a schedule needing more queries than the budget is refused with a message saying so.

#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <string>

#include "model/collective/algorithm.h"
#include "model/collective/verify.h"
#include "model/topology/topology.h"

namespace {

// Peak resident memory of this process, MiB.
long peak_rss_mib() {
  struct rusage usage {};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

mt::Op op(int id, int node, int peer, mt::OpKind kind) {
  mt::Op o;
  o.id = id;
  o.node = node;
  o.peer = peer;
  o.kind = kind;
  return o;
}

}  // namespace

TEST_CASE("8000 unordered broadcasts of one chunk verify in bounded memory") {
  mt::Schedule s;
  s.algorithm = "hostile";
  s.nodes = 2;
  s.num_chunks = 1;
  s.num_flows = 1;
  s.num_steps = 1;
  for (int i = 0; i < 8000; ++i) s.ops.push_back(op(i, 0, 1, mt::OpKind::kBroadcast));
  const mt::VerifyReport r = mt::verify(s, mt::Topology(mt::parse_topology_spec("ring:2")));
  CHECK_FALSE(r.ok);
  CHECK(r.first_error ==
        "node 1 chunk 0: arrivals of messages 0 (broadcast) and 1 (broadcast) are unordered: the "
        "final value depends on timing");
  // One query per consecutive pair: 7999 races, 20 shown.
  REQUIRE(r.errors.size() == 21);
  CHECK(r.errors.back() == "... and 7979 more error(s) not shown");
  // Every pair asked separately (32 million queries) took more than 1.5 GB here.
  CHECK(peak_rss_mib() < 200);
}

TEST_CASE("a schedule needing more ordering checks than the budget is refused and not allocated") {
  // Node 1 receives 3000 reductions of chunk 0 and sends 3000 messages of it, none ordered:
  // 3000 x 3000 arrival/issue pairs are more than the 2^22 checks of the budget.
  mt::Schedule s;
  s.algorithm = "hostile";
  s.nodes = 2;
  s.num_chunks = 1;
  s.num_flows = 1;
  s.num_steps = 1;
  for (int i = 0; i < 3000; ++i) s.ops.push_back(op(i, 0, 1, mt::OpKind::kReduce));
  for (int i = 3000; i < 6000; ++i) s.ops.push_back(op(i, 1, 0, mt::OpKind::kReduce));
  const mt::VerifyReport r = mt::verify(s, mt::Topology(mt::parse_topology_spec("ring:2")));
  CHECK_FALSE(r.ok);
  CHECK(r.first_error ==
        "the schedule needs more than 4194304 ordering checks between messages of the same node "
        "and chunk (the verifier's memory budget: 100 MiB of checks plus 64 MiB of happens-before "
        "bitsets); it was not verified");
  CHECK(peak_rss_mib() < 300);
}

// Issue 52 (class 6): the budget is sized to the schedule, and arrivals an issue waits for
// directly are not asked.

TEST_CASE("built-in MultiTree on a 200-node switch verifies within the budget") {
  // Each root waits for its 199 children's reduces before each of its 199 broadcasts: 200 trees
  // x 199 x 199 pairs (7.9 million) were asked one by one and passed the 2^22 budget (exit 1 for
  // a correct built-in schedule).
  const mt::Topology t(mt::parse_topology_spec("switch:nodes=200"));
  const mt::Schedule s = mt::build_schedule("multitree", t);
  const mt::VerifyReport r = mt::verify(s, t);
  CHECK(r.first_error == "");
  CHECK(r.ok);
}

TEST_CASE("the ordering-check budget grows with the schedule's messages") {
  // 2 nodes, 3000 chunks: node 0 reduces each chunk to node 1, which broadcasts it back once it
  // has arrived. Node 0 issues chunk c, then receives it: one check per chunk (3000); node 1's
  // arrival is a direct dependency of its broadcast: none.
  mt::Schedule s;
  s.algorithm = "chains";
  s.nodes = 2;
  s.num_chunks = 3000;
  s.num_flows = 1;
  s.num_steps = 2;
  for (int c = 0; c < 3000; ++c) {
    mt::Op up = op(2 * c, 0, 1, mt::OpKind::kReduce);
    up.chunk = c;
    mt::Op down = op(2 * c + 1, 1, 0, mt::OpKind::kBroadcast);
    down.chunk = c;
    down.step = 1;
    down.deps = {2 * c};
    s.ops.push_back(up);
    s.ops.push_back(down);
  }
  const mt::Topology t(mt::parse_topology_spec("ring:2"));
  mt::VerifyLimits limits;
  limits.tree_proof = false;      // the schedule is a tree all-reduce: the proof would ask nothing
  limits.min_race_checks = 1000;  // fewer than the 3000 checks: the per-message share decides
  limits.race_checks_per_message = 1;
  CHECK(mt::verify(s, t, limits).ok);  // 6000 messages: 6000 checks allowed
  limits.race_checks_per_message = 0;  // the 1000 alone: refused, and says so
  const mt::VerifyReport r = mt::verify(s, t, limits);
  CHECK_FALSE(r.ok);
  CHECK(r.first_error ==
        "the schedule needs more than 1000 ordering checks between messages of the same node and "
        "chunk (the verifier's memory budget: 0 MiB of checks plus 64 MiB of happens-before "
        "bitsets); it was not verified");
}
