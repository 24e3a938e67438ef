// Unit tests of mt::verify(): hand-built valid schedules, then one mutation per kind of error,
// each asserting the exact error text (link contention and Schedule basics:
// test_verify_contention.cpp).

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/collective/schedule.h"
#include "model/collective/verify.h"
#include "model/topology/topology.h"
#include "tests/support/topologies.h"

using mt::test::make;

namespace {

// Ring all-reduce on N nodes with N chunks: reduce-scatter (steps 0..N-2) then all-gather (steps
// N-1..2N-3). Message id = step * N + sender; each depends on what the sender got the step before.
mt::Schedule ring_allreduce(int n) {
  mt::Schedule s;
  s.algorithm = "ring";
  s.topology = "ring:" + std::to_string(n);
  s.nodes = n;
  s.num_chunks = n;
  for (int step = 0; step < 2 * n - 2; ++step) {
    for (int u = 0; u < n; ++u) {
      mt::Op op;
      op.node = u;
      op.peer = (u + 1) % n;
      const bool rs = step < n - 1;
      op.kind = rs ? mt::OpKind::kReduce : mt::OpKind::kBroadcast;
      const int shift = rs ? -step : 1 - (step - (n - 1));
      op.chunk = ((u + shift) % n + n) % n;
      op.step = step;
      if (step > 0) op.deps = std::vector<int>{(step - 1) * n + (u - 1 + n) % n};
      REQUIRE(s.add(op) == step * n + u);
    }
  }
  return s;
}

// Binary tree on 7 nodes (parent of u = (u-1)/2), one chunk. Ids: reduces r(u) for u = 6..1 are
// 0..5 (r6=0, r5=1, r4=2, r3=3, r2=4, r1=5), then broadcasts b(u) into u for u = 1..6 are 6..11.
constexpr int kTreeNodes = 7;
int reduce_id(int u) {
  return kTreeNodes - 1 - u;
}
int bcast_id(int u) {
  return kTreeNodes - 2 + u;
}

mt::Schedule tree_allreduce() {
  mt::Schedule s;
  s.algorithm = "tree";
  s.topology = "switch:nodes=7";
  s.nodes = kTreeNodes;
  s.num_chunks = 1;
  auto children = [](int u) {
    std::vector<int> c;
    for (int k : {2 * u + 1, 2 * u + 2}) {
      if (k < kTreeNodes) c.push_back(k);
    }
    return c;
  };
  for (int u = kTreeNodes - 1; u >= 1; --u) {
    mt::Op op;
    op.node = u;
    op.peer = (u - 1) / 2;
    op.kind = mt::OpKind::kReduce;
    op.step = u >= 3 ? 0 : 1;
    for (int c : children(u)) op.deps.push_back(reduce_id(c));
    REQUIRE(s.add(op) == reduce_id(u));
  }
  for (int u = 1; u < kTreeNodes; ++u) {
    mt::Op op;
    op.node = (u - 1) / 2;
    op.peer = u;
    op.kind = mt::OpKind::kBroadcast;
    op.step = u <= 2 ? 2 : 3;
    if (op.node == 0) {
      op.deps = std::vector<int>{reduce_id(1), reduce_id(2)};
    } else {
      op.deps = std::vector<int>{bcast_id(op.node)};
    }
    REQUIRE(s.add(op) == bcast_id(u));
  }
  return s;
}

// Removes message `id`, renumbering the others and dropping dependencies on it.
mt::Schedule remove_op(const mt::Schedule& s, int id) {
  mt::Schedule r = s;
  r.ops.clear();
  for (const mt::Op& op : s.ops) {
    if (op.id == id) continue;
    mt::Op o = op;
    o.id = static_cast<int>(r.ops.size());
    o.deps.clear();
    for (int d : op.deps) {
      if (d != id) o.deps.push_back(d > id ? d - 1 : d);
    }
    r.ops.push_back(o);
  }
  return r;
}

bool has_error(const mt::VerifyReport& r, const std::string& text) {
  for (const std::string& e : r.errors) {
    if (e == text) return true;
  }
  return false;
}

void require_ok(const mt::VerifyReport& r) {
  INFO(r.first_error);
  REQUIRE(r.ok);
  REQUIRE(r.errors.empty());
  REQUIRE(r.first_error.empty());
}

// The race check and the replay alone (the tree proof off: verify_trees.cpp).
mt::VerifyLimits checked_in_full() {
  mt::VerifyLimits limits;
  limits.tree_proof = false;
  return limits;
}

}  // namespace

TEST_CASE("ring reduce-scatter + all-gather verifies for N = 2..8", "[verify]") {
  for (int n = 2; n <= 8; ++n) {
    mt::Schedule s = ring_allreduce(n);
    mt::VerifyReport r = mt::verify(s, make("ring:" + std::to_string(n)));
    INFO("N = " << n);
    require_ok(r);
    require_ok(mt::verify(s, make("ring:" + std::to_string(n)), checked_in_full()));
    CHECK(r.num_messages == 2 * n * (n - 1));
    CHECK(r.num_steps == 2 * n - 2);
    CHECK(r.contention.empty());  // every step uses each clockwise link exactly once
  }
}

TEST_CASE("a single node needs no messages", "[verify]") {
  mt::Schedule s;
  s.nodes = 1;
  s.num_chunks = 3;
  require_ok(mt::verify(s, make("ring:1")));
}

TEST_CASE("tree reduce + broadcast verifies", "[verify]") {
  mt::Schedule s = tree_allreduce();
  mt::VerifyReport r = mt::verify(s, make("switch:7"));
  require_ok(r);
  require_ok(mt::verify(s, make("switch:7"), checked_in_full()));
  CHECK(r.num_messages == 12);
  CHECK(r.num_steps == 4);
  // On the switch, messages of one step to the same receiver share its switch->node link and
  // messages of one step from the same sender share its node->switch link: steps 0 and 1 (to
  // nodes 1, 2 and 0) and steps 2 and 3 (from nodes 0, 1 and 2).
  mt::Topology t = make("switch:7");
  REQUIRE(r.contention.size() == 6);
  CHECK(r.contention[0].step == 0);  // r3, r4 -> 1 share switch->1 (r5, r6 -> 2 share switch->2)
  CHECK(r.contention[0].link == t.link_between(7, 1));
  CHECK(r.contention[0].op_a == reduce_id(4));
  CHECK(r.contention[0].op_b == reduce_id(3));
  CHECK(r.contention[1].link == t.link_between(7, 2));
  CHECK(r.contention[2].step == 1);
  CHECK(r.contention[2].link == t.link_between(7, 0));
  CHECK(r.contention[2].op_a == reduce_id(2));
  CHECK(r.contention[2].op_b == reduce_id(1));
  CHECK(r.contention[3].step == 2);
  CHECK(r.contention[3].link == t.link_between(0, 7));
  CHECK(r.contention[3].op_a == bcast_id(1));
  CHECK(r.contention[3].op_b == bcast_id(2));
  CHECK(r.contention[5].step == 3);
  CHECK(r.contention[5].link == t.link_between(2, 7));
}

TEST_CASE("dropping a message loses a contribution", "[verify]") {
  mt::Schedule s = remove_op(tree_allreduce(), reduce_id(6));
  mt::VerifyReport r = mt::verify(s, make("switch:7"));
  CHECK_FALSE(r.ok);
  CHECK(r.first_error == "node 0 chunk 0 ends without the contribution of node 6");
  CHECK(r.errors.size() == 7);  // every node, node 6 included (the broadcast overwrote it)
  CHECK(has_error(r, "node 6 chunk 0 ends without the contribution of node 6"));
}

TEST_CASE("a duplicated message delivers a contribution twice", "[verify]") {
  mt::Schedule s = tree_allreduce();
  mt::Op dup = s.ops[static_cast<size_t>(reduce_id(6))];
  const int dup_id = s.add(dup);
  s.ops[static_cast<size_t>(reduce_id(2))].deps.push_back(dup_id);
  mt::VerifyReport r = mt::verify(s, make("switch:7"));
  CHECK_FALSE(r.ok);
  CHECK(r.first_error == "node 2 chunk 0: contribution of node 6 arrives twice (message " +
                             std::to_string(dup_id) + "; already held)");
  // Node 2 then forwards {2,5,6}: node 0 holds 6 once; the replay goes on from the union.
  CHECK(r.errors.size() == 1);
}

TEST_CASE("duplicated subtrees report every repeated contributor", "[verify]") {
  mt::Schedule s = tree_allreduce();
  // Node 1 sends its partial sum {1,3,4} to node 0 twice.
  mt::Op dup = s.ops[static_cast<size_t>(reduce_id(1))];
  const int dup_id = s.add(dup);
  for (int u : {1, 2}) s.ops[static_cast<size_t>(bcast_id(u))].deps.push_back(dup_id);
  mt::VerifyReport r = mt::verify(s, make("switch:7"));
  CHECK(r.first_error == "node 0 chunk 0: contributions of nodes 1, 3, 4 arrive twice (message " +
                             std::to_string(dup_id) + "; already held)");
}

TEST_CASE("a wrong peer breaks the dependency target", "[verify]") {
  mt::Schedule s = tree_allreduce();
  s.ops[static_cast<size_t>(reduce_id(6))].peer = 1;
  mt::VerifyReport r = mt::verify(s, make("switch:7"));
  CHECK_FALSE(r.ok);
  CHECK(r.first_error ==
        "message 4 at node 2 depends on message 0, which is sent to node 1, not "
        "node 2");
}

TEST_CASE("a dependency on a message sent elsewhere is rejected", "[verify]") {
  mt::Schedule s = tree_allreduce();
  s.ops[static_cast<size_t>(bcast_id(6))].deps.push_back(reduce_id(3));
  mt::VerifyReport r = mt::verify(s, make("switch:7"));
  CHECK(r.first_error ==
        "message 11 at node 2 depends on message 3, which is sent to node 1, "
        "not node 2");
  CHECK(r.errors.size() == 1);
}

TEST_CASE("a removed dependency is a timing race", "[verify]") {
  mt::Schedule s = tree_allreduce();
  // Node 2 sends its partial sum without waiting for node 6.
  s.ops[static_cast<size_t>(reduce_id(2))].deps = std::vector<int>{reduce_id(5)};
  mt::VerifyReport r = mt::verify(s, make("switch:7"));
  CHECK_FALSE(r.ok);
  CHECK(r.first_error ==
        "node 2 chunk 0: arrival of message 0 and issue of message 4 are "
        "unordered: the value sent depends on timing");
  // Unordered with issue 4, arrival 0 is unordered with the later issue 10 and the later
  // broadcast arrival 7 too; the verifier asks only adjacent runs of arrivals and issues, and
  // arrivals with no issue between them (the rest follows by transitivity when they pass), so
  // those implied pairs are not listed again.
  CHECK_FALSE(has_error(r,
                        "node 2 chunk 0: arrival of message 0 and issue of message 10 are "
                        "unordered: the value sent depends on timing"));
  CHECK_FALSE(has_error(r,
                        "node 2 chunk 0: arrivals of messages 0 (reduce) and 7 (broadcast) are "
                        "unordered: the final value depends on timing"));
}

TEST_CASE("races are found in a large ring with many messages", "[verify]") {
  // 2*128*127 = 32512 messages: the happens-before bitsets need more than one block.
  const int n = 128;
  mt::Schedule s = ring_allreduce(n);
  mt::Topology t = make("ring:128");
  mt::VerifyReport good = mt::verify(s, t);
  require_ok(good);
  require_ok(mt::verify(s, t, checked_in_full()));
  CHECK(good.num_messages == 32512);
  // The last all-gather message of node 5 stops waiting for what it forwards.
  const int step = 2 * n - 3;
  const int id = step * n + 5;
  s.ops[static_cast<size_t>(id)].deps.clear();
  mt::VerifyReport bad = mt::verify(s, t);
  CHECK_FALSE(bad.ok);
  // It forwards chunk 8 (= 5 + 1 - 126 mod 128). Node 5 received chunk 8 twice: the reduce of
  // step 124 and the broadcast of step 252; neither is now ordered with the issue.
  REQUIRE(s.ops[static_cast<size_t>(id)].chunk == 8);
  REQUIRE(s.ops[static_cast<size_t>(124 * n + 4)].chunk == 8);
  CHECK(bad.first_error == "node 5 chunk 8: arrival of message " + std::to_string(124 * n + 4) +
                               " and issue of message " + std::to_string(id) +
                               " are unordered: the value sent depends on timing");
  // The broadcast of step 252 is unordered with the issue too, but only adjacent runs of
  // arrivals and issues are asked (check_races): that pair is implied and not listed again.
  CHECK_FALSE(has_error(bad, "node 5 chunk 8: arrival of message " +
                                 std::to_string((step - 1) * n + 4) + " and issue of message " +
                                 std::to_string(id) +
                                 " are unordered: the value sent depends on timing"));
  // Node 6 receives the early broadcast unordered with its own reduce of chunk 8 (step 125).
  CHECK(has_error(bad, "node 6 chunk 8: arrivals of messages " + std::to_string(125 * n + 5) +
                           " (reduce) and " + std::to_string(id) +
                           " (broadcast) are unordered: the final value depends on timing"));
  CHECK(has_error(bad, "node 6 chunk 8: arrival of message " + std::to_string(id) +
                           " and issue of message " + std::to_string(126 * n + 6) +
                           " are unordered: the value sent depends on timing"));
  CHECK(bad.errors.size() == 3);  // races stop the replay: no contribution errors
}

TEST_CASE("a cyclic dependency names the cycle", "[verify]") {
  mt::Schedule s = tree_allreduce();
  // Leaf 6 waits for the broadcast it should enable.
  s.ops[static_cast<size_t>(reduce_id(6))].deps.push_back(bcast_id(6));
  mt::VerifyReport r = mt::verify(s, make("switch:7"));
  CHECK_FALSE(r.ok);
  REQUIRE(r.errors.size() == 2);
  CHECK(r.errors[0] ==
        "dependency cycle: message 0 waits for 11, which waits for 7, which waits "
        "for 4, which waits for 0");
  CHECK(r.errors[1] ==
        "4 more message(s) can never be issued: they wait, directly or indirectly, "
        "on a dependency cycle");
}

TEST_CASE("dependency ids out of range", "[verify]") {
  mt::Schedule s = tree_allreduce();
  s.ops[3].deps.push_back(99);
  s.ops[4].deps.push_back(-1);
  mt::VerifyReport r = mt::verify(s, make("switch:7"));
  REQUIRE(r.errors.size() == 2);
  CHECK(r.errors[0] == "message 3 depends on message 99, which does not exist (ids are 0..11)");
  CHECK(r.errors[1] == "message 4 depends on message -1, which does not exist (ids are 0..11)");
}

TEST_CASE("range errors", "[verify]") {
  mt::Topology t = make("switch:7");
  {
    mt::Schedule s = tree_allreduce();
    s.ops[0].chunk = 1;
    CHECK(mt::verify(s, t).first_error == "message 0: chunk 1 is out of range 0..0");
  }
  {
    mt::Schedule s = tree_allreduce();
    s.ops[1].node = 7;
    s.ops[2].peer = -1;
    s.ops[3].peer = 3;
    auto r = mt::verify(s, t);
    CHECK(r.errors[0] == "message 1: node 7 is out of range 0..6");
    CHECK(r.errors[1] == "message 2: peer -1 is out of range 0..6");
    CHECK(r.errors[2] == "message 3: node 3 sends to itself");
  }
  {
    mt::Schedule s = tree_allreduce();
    s.ops[0].step = -1;
    s.ops[1].step = 4;
    s.ops[2].flow = -2;
    s.ops[3].flow = 1;
    s.ops[4].port = 1;
    s.ops[5].id = 7;
    auto r = mt::verify(s, t);
    REQUIRE(r.errors.size() == 6);
    CHECK(r.errors[0] == "message 0: step -1 is negative");
    CHECK(r.errors[1] == "message 1: step 4 is >= num_steps 4");
    CHECK(r.errors[2] == "message 2: flow -2 is negative");
    CHECK(r.errors[3] == "message 3: flow 1 is >= num_flows 1");
    CHECK(r.errors[4] == "message 4: port 1 is out of range (-1 = any, or 0..0)");
    CHECK(r.errors[5] == "ops[5] has id 7; ids must equal the index");
  }
  {
    // Declared counts larger than the ones used would show in tables and reports.
    mt::Schedule s = tree_allreduce();
    s.num_steps = 9;
    s.num_flows = 2;
    auto r = mt::verify(s, t);
    REQUIRE(r.errors.size() == 2);
    CHECK(r.errors[0] == "num_steps is 9 but the messages use steps 0..3: it must be 4");
    CHECK(r.errors[1] == "num_flows is 2 but the messages use flows 0..0: it must be 1");
  }
  {
    mt::Schedule s = tree_allreduce();
    auto r = mt::verify(s, make("switch:8"));
    CHECK_FALSE(r.ok);
    CHECK(r.first_error == "schedule is for 7 nodes but topology switch:nodes=8 has 8 endpoints");
    s.num_chunks = 0;
    CHECK(mt::verify(s, t).first_error == "schedule has num_chunks 0; it must be >= 1");
  }
}

TEST_CASE("an absurd chunk count is reported, not allocated", "[verify]") {
  mt::Schedule s;
  s.nodes = 4096;
  s.num_chunks = 1 << 30;
  mt::VerifyReport r = mt::verify(s, make("switch:4096"));
  CHECK_FALSE(r.ok);
  // 2^12 nodes x 2^30 chunks x 2^6 words x 8 bytes; no message, so chunk by chunk is tried too.
  CHECK(r.first_error ==
        "cannot replay 4096 nodes x 1073741824 chunks: one chunk at a time it would still write "
        "and check 2147483648 MiB of symbolic state (limit 32768 MiB); use fewer chunks");
  // With a scratch slot the chunks can meet: the whole state or nothing.
  s.num_chunks = 1 << 20;
  s.scratch_chunks = 1;
  r = mt::verify(s, make("switch:4096"));
  CHECK(r.first_error ==
        "cannot replay 4096 nodes x 1048577 chunks: the symbolic state would need 2097154 MiB "
        "(limit 1024 MiB); use fewer chunks");  // 2^12 x (2^20 + 1) x 2^6 x 8 B
}

TEST_CASE("a schedule too large to replay whole is replayed chunk by chunk", "[verify]") {
  // The 8-node ring holds 8 x 8 sets of one word: a limit of 63 words forces one chunk at a time.
  mt::VerifyLimits chunkwise;
  chunkwise.replay_words = 63;
  chunkwise.tree_proof = false;  // the ring is a tree all-reduce: replayed only without it
  const mt::Topology t = make("ring:8");
  require_ok(mt::verify(ring_allreduce(8), t, chunkwise));
  // The same errors as the whole replay, chunk by chunk: dropping message 0 (node 0 sends chunk 0
  // to node 1 in the reduce-scatter) loses node 0's contribution to chunk 0 everywhere.
  const mt::Schedule broken = remove_op(ring_allreduce(8), 0);
  const mt::VerifyReport whole = mt::verify(broken, t);
  const mt::VerifyReport chunks = mt::verify(broken, t, chunkwise);
  CHECK_FALSE(chunks.ok);
  CHECK(chunks.errors == whole.errors);
  CHECK(has_error(chunks, "node 3 chunk 0 ends without the contribution of node 0"));
}

TEST_CASE("a broadcast of an incomplete reduction", "[verify]") {
  // Node 0 broadcasts {0,1} before node 2's contribution reached it; node 1 forwards it to node 2,
  // overwriting node 2's own contribution. Race-free, but contribution 2 is lost everywhere.
  mt::Schedule s;
  s.nodes = 3;
  s.num_chunks = 1;
  mt::Op op;
  op.node = 1;
  op.peer = 0;
  s.add(op);  // 0
  op.node = 0;
  op.peer = 1;
  op.kind = mt::OpKind::kBroadcast;
  op.step = 1;
  op.deps = std::vector<int>{0};
  s.add(op);  // 1
  op.node = 1;
  op.peer = 2;
  op.step = 2;
  op.deps = std::vector<int>{1};
  s.add(op);  // 2
  mt::VerifyReport r = mt::verify(s, make("ring:3"));
  CHECK_FALSE(r.ok);
  REQUIRE(r.errors.size() == 3);
  CHECK(r.errors[0] == "node 0 chunk 0 ends without the contribution of node 2");
  CHECK(r.errors[1] == "node 1 chunk 0 ends without the contribution of node 2");
  CHECK(r.errors[2] == "node 2 chunk 0 ends without the contribution of node 2");
}

TEST_CASE("a node that is never reached", "[verify]") {
  mt::Schedule s = remove_op(tree_allreduce(), bcast_id(6));
  mt::VerifyReport r = mt::verify(s, make("switch:7"));
  CHECK_FALSE(r.ok);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.first_error == "node 6 never receives chunk 0");
}

TEST_CASE("missing contributor lists are capped", "[verify]") {
  mt::Schedule s;
  s.nodes = 12;
  s.num_chunks = 2;
  mt::Op op;
  op.node = 1;
  op.peer = 0;
  op.chunk = 1;
  s.add(op);
  mt::VerifyReport r = mt::verify(s, make("ring:12"));
  CHECK(r.errors[0] == "node 0 never receives chunk 0");
  CHECK(r.errors[1] ==
        "node 0 chunk 1 ends without the contributions of nodes 2, 3, 4, 5, 6, 7, "
        "8, 9 and 2 more");
  // 24 (node, chunk) pairs are wrong: 20 shown and a summary line.
  REQUIRE(r.errors.size() == 21);
  CHECK(r.errors[20] == "... and 4 more error(s) not shown");
}
