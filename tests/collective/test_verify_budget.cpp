// Issue 19: the verifier's happens-before stays within its memory budget on hostile schedules:
// thousands of broadcasts of one chunk cost O(messages) ordering queries (not one per pair), and
// a schedule needing more queries than the budget is refused with a message saying so.

#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <string>

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
