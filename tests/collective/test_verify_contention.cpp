// Unit tests of mt::verify()'s link contention (same step and link, explicit paths) and of the
// Schedule container's basics.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/collective/schedule.h"
#include "model/collective/verify.h"
#include "model/topology/topology.h"
#include "tests/support/topologies.h"

using mt::test::make;

TEST_CASE("contention: same step and link once, different steps none", "[verify]") {
  // Steps from 0: the verifier keeps a table of every (step, link); from 100000 (keys far more
  // than the messages): a map of those used. The same answers.
  const int first_step = GENERATE(0, 100000);
  INFO("first step " << first_step);
  mt::Topology t = make("ring:4");
  mt::Schedule s;
  s.nodes = 4;
  s.num_chunks = 1;
  mt::Op a;
  a.node = 0;
  a.peer = 2;  // half way: 0 -> 1 -> 2
  a.step = first_step;
  s.add(a);
  mt::Op b;
  b.node = 1;
  b.peer = 2;  // 1 -> 2
  b.step = first_step;
  s.add(b);
  mt::Op c = b;  // a third message (another flow) on the same link and step: still one entry
  c.node = 0;
  c.peer = 2;
  c.flow = 1;
  s.add(c);
  mt::VerifyReport r = mt::verify(s, t);
  REQUIRE(r.contention.size() == 2);
  CHECK(r.contention[0].step == first_step);
  CHECK(r.contention[0].link == t.link_between(0, 1));
  CHECK(r.contention[0].op_a == 0);
  CHECK(r.contention[0].op_b == 2);
  CHECK(r.contention[1].link == t.link_between(1, 2));
  CHECK(r.contention[1].op_a == 0);
  CHECK(r.contention[1].op_b == 1);

  s.ops[1].step = first_step + 1;
  s.ops[2].step = first_step + 2;
  s.num_steps = first_step + 3;
  CHECK(mt::verify(s, t).contention.empty());
}

TEST_CASE("explicit paths are used for contention and validated", "[verify]") {
  mt::Topology t = make("switch:4");  // switch vertex 4
  mt::Schedule s;
  s.nodes = 4;
  s.num_chunks = 1;
  mt::Op a;
  a.node = 0;
  a.peer = 1;
  a.path = std::vector<int>{t.link_between(0, 4), t.link_between(4, 1)};
  s.add(a);
  mt::Op b;
  b.node = 2;
  b.peer = 1;
  s.add(b);
  mt::VerifyReport r = mt::verify(s, t);
  REQUIRE(r.contention.size() == 1);
  CHECK(r.contention[0].link == t.link_between(4, 1));

  s.ops[0].path = std::vector<int>{t.link_between(0, 4), t.link_between(4, 2)};
  r = mt::verify(s, t);
  CHECK(r.first_error == "message 0: path from node 0 ends at vertex 2, not at peer 1");
  CHECK(r.contention.empty());
  s.ops[0].path = std::vector<int>{t.link_between(0, 4), t.link_between(2, 4)};
  CHECK(mt::verify(s, t).first_error ==
        "message 0: path from node 0 to node 1 is not connected: link " +
            std::to_string(t.link_between(2, 4)) + " leaves vertex 2, expected vertex 4");
  // A path may pass a vertex twice (0 -> switch -> 2 -> switch -> 1: up and down, no channel
  // taken twice), but not take a directed link twice: it would wait for its own channel.
  s.ops[0].path = std::vector<int>{t.link_between(0, 4), t.link_between(4, 2), t.link_between(2, 4),
                                   t.link_between(4, 1)};
  // (two messages are no all-reduce: the replay's error comes first, none about the path)
  CHECK_THAT(mt::verify(s, t).first_error, !Catch::Contains("path"));
  s.ops[0].path = std::vector<int>{t.link_between(0, 4), t.link_between(4, 0), t.link_between(0, 4),
                                   t.link_between(4, 1)};
  CHECK(mt::verify(s, t).first_error ==
        "message 0: path from node 0 to node 1 takes link " + std::to_string(t.link_between(0, 4)) +
            " (0->4) twice: the packet would wait for a channel it holds (a deadlock)");
  s.ops[0].path = std::vector<int>{100};
  CHECK(mt::verify(s, t).first_error == "message 0: path link 100 does not exist (links are 0..7)");
}

TEST_CASE("schedule basics: add, ops_of, chunks, kinds", "[schedule]") {
  mt::Schedule s;
  mt::Op op;
  op.id = 42;
  op.node = 1;
  op.step = 3;
  op.flow = 2;
  CHECK(s.add(op) == 0);
  op.node = 0;
  op.step = 1;
  op.flow = 5;
  CHECK(s.add(op) == 1);
  op.node = 1;
  CHECK(s.add(op) == 2);
  CHECK(s.ops[0].id == 0);
  CHECK(s.num_steps == 4);
  CHECK(s.num_flows == 6);
  CHECK(s.ops_of(1) == std::vector<int>{0, 2});
  CHECK(s.ops_of(0) == std::vector<int>{1});
  CHECK(s.ops_of(3).empty());

  CHECK(mt::chunk_begin(0, 3, 10) == 0);
  CHECK(mt::chunk_end(0, 3, 10) == 3);
  CHECK(mt::chunk_begin(1, 3, 10) == 3);
  CHECK(mt::chunk_end(1, 3, 10) == 6);
  CHECK(mt::chunk_end(2, 3, 10) == 10);
  CHECK(mt::chunk_end(4, 5, 3) == 3);
  CHECK(mt::chunk_begin(1, 5, 3) == 0);  // empty first chunk when E < n
  const std::uint64_t big = ~std::uint64_t{0};
  CHECK(mt::chunk_begin(1, 3, big) == 6148914691236517205ull);
  CHECK(mt::chunk_begin(2, 3, big) == 12297829382473034410ull);
  CHECK(mt::chunk_end(2, 3, big) == big);
  CHECK_THROWS_AS(mt::chunk_begin(0, 0, 10), mt::ScheduleError);
  CHECK_THROWS_AS(mt::chunk_end(3, 3, 10), mt::ScheduleError);
  CHECK(std::string(mt::to_string(mt::OpKind::kReduce)) == "reduce");
  CHECK(std::string(mt::to_string(mt::OpKind::kBroadcast)) == "broadcast");
}
