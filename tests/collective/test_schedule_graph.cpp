// The schedule-graph core: topological order with a named cycle, happens-before over a small
// hand-built schedule, structural checks of ops.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/collective/schedule_graph.h"
#include "tests/support/sim_fixtures.h"

using mt::OpKind;

namespace {

// Star of 4 nodes reduced into node 0 and broadcast back:
//   0: 1->0 r   1: 2->0 r   2: 3->0 r   3: 0->1 b {0,1,2}   4: 0->2 b {0,1,2}   5: 0->3 b {0,1,2}
// then 6: 1->2 r {3} (node 1 forwards after the broadcast reached it).
std::vector<int> listed(mt::IntSpan span) {
  return {span.begin(), span.end()};
}

mt::Schedule star() {
  mt::Schedule s = mt::test::empty_schedule(4, 1);
  s.add(mt::test::make_op(1, 0, 0, OpKind::kReduce, {}, 0));
  s.add(mt::test::make_op(2, 0, 0, OpKind::kReduce, {}, 0));
  s.add(mt::test::make_op(3, 0, 0, OpKind::kReduce, {}, 0));
  for (int v = 1; v <= 3; ++v) s.add(mt::test::make_op(0, v, 0, OpKind::kBroadcast, {0, 1, 2}, 1));
  s.add(mt::test::make_op(1, 2, 0, OpKind::kReduce, {3}, 2));
  return s;
}

}  // namespace

TEST_CASE("the topological order is Kahn's: ready messages by id, then dependents in op order",
          "[schedule_graph]") {
  const mt::Schedule s = star();
  const mt::ScheduleGraph graph(s);
  REQUIRE(graph.acyclic());
  CHECK(graph.topological().order == std::vector<int>{0, 1, 2, 3, 4, 5, 6});
  CHECK(listed(graph.dependents(0)) == std::vector<int>{3, 4, 5});
  CHECK(listed(graph.dependents(3)) == std::vector<int>{6});
  CHECK(graph.dependents(6).empty());
  CHECK(graph.topological().cycle_text().empty());
}

TEST_CASE("a dependency cycle is named message by message, with the messages stuck behind it",
          "[schedule_graph]") {
  mt::Schedule s = star();
  s.ops[1].deps = {6};  // 2->0 now waits for 6, which waits for 3, which waits for 1
  s.ops[1].node = 2;
  const mt::ScheduleGraph graph(s);
  const mt::TopologicalOrder& t = graph.topological();
  REQUIRE_FALSE(t.acyclic());
  // Only 0 and 2 can ever issue; 1 -> 6 -> 3 -> 1 is the cycle; 4 and 5 wait on it.
  CHECK(t.order == std::vector<int>{0, 2});
  CHECK(t.cycle == std::vector<int>{1, 6, 3});
  CHECK(t.cycle_text() ==
        "dependency cycle: message 1 waits for 6, which waits for 3, which "
        "waits for 1");
  CHECK(t.stuck == 2);
  CHECK(t.stuck_text() ==
        "2 more message(s) can never be issued: they wait, directly or indirectly, on a "
        "dependency cycle");
  CHECK_THROWS_AS(graph.happens_before(), mt::ScheduleError);
}

TEST_CASE("a message waiting for itself is a cycle of one", "[schedule_graph]") {
  mt::Schedule s = star();
  s.ops[6].deps.push_back(6);
  s.ops[6].node = 1;
  const mt::TopologicalOrder t = mt::topological_order(
      s.ops.size(), [&s](int i) -> mt::IntSpan { return s.ops[static_cast<std::size_t>(i)].deps; });
  CHECK(t.cycle == std::vector<int>{6});
  CHECK(t.cycle_text() == "dependency cycle: message 6 waits for 6");
  CHECK(t.stuck == 0);
}

TEST_CASE("happens-before over the hand-built star follows the dependencies transitively",
          "[schedule_graph]") {
  const mt::Schedule s = star();
  const mt::ScheduleGraph graph(s);
  for (const std::uint64_t budget : {std::uint64_t{1}, std::uint64_t{1024}}) {
    mt::HappensBefore hb = graph.happens_before(budget);
    // 6 waits for 3, which waits for 0, 1, 2: all four precede 6; 4 and 5 do not.
    const std::size_t q0 = hb.ask(0, 6);
    const std::size_t q3 = hb.ask(3, 6);
    const std::size_t q4 = hb.ask(4, 6);
    const std::size_t q6 = hb.ask(6, 3);
    const std::size_t q12 = hb.ask(1, 2);
    const std::vector<char>& a = hb.solve();
    CHECK(a[q0] == 1);
    CHECK(a[q3] == 1);
    CHECK(a[q4] == 0);
    CHECK(a[q6] == 0);
    CHECK(a[q12] == 0);
    CHECK(hb.happens_before(2, 5));
    CHECK_FALSE(hb.happens_before(5, 6));
  }
}

TEST_CASE("structural checks name each problem, in op order", "[schedule_graph]") {
  mt::Schedule s = star();
  s.ops[0].peer = 9;        // peer out of range
  s.ops[2].node = 0;        // sends to itself
  s.ops[4].chunk = 1;       // chunk out of range
  s.ops[5].port = 4;        // port out of range
  s.ops[6].deps = {4, 42};  // 4 goes to node 2, not 1; 42 does not exist
  std::vector<std::string> errors;
  std::vector<std::vector<int>> named;  // the messages each problem names that exist
  mt::OpChecks checks;
  checks.ports = 4;
  CHECK_FALSE(mt::check_ops(s, checks, [&](std::string e, std::vector<int> messages) {
    errors.push_back(e);
    named.push_back(messages);
  }));
  CHECK(errors == std::vector<std::string>{
                      "message 0: peer 9 is out of range 0..3", "message 2: node 0 sends to itself",
                      "message 3 at node 0 depends on message 0, which is sent to node 9, not "
                      "node 0",
                      "message 4: chunk 1 is out of range 0..0",
                      "message 4 at node 0 depends on message 0, which is sent to node 9, not "
                      "node 0",
                      "message 5: port 4 is out of range (-1 = any, or 0..3)",
                      "message 5 at node 0 depends on message 0, which is sent to node 9, not "
                      "node 0",
                      "message 6 at node 1 depends on message 4, which is sent to node 2, not "
                      "node 1",
                      "message 6 depends on message 42, which does not exist (ids are 0..6)"});
  CHECK(named ==
        std::vector<std::vector<int>>{{0}, {2}, {3, 0}, {4}, {4, 0}, {5}, {5, 0}, {6, 4}, {6}});
  // References only: the chunk and the port are not looked at.
  errors.clear();
  mt::OpChecks references;
  references.fields = false;
  CHECK_FALSE(
      mt::check_ops(s, references, [&](std::string e, std::vector<int>) { errors.push_back(e); }));
  CHECK(errors.size() == 7);
  CHECK_THROWS_WITH(mt::require_valid_ops(s, references), "message 0: peer 9 is out of range 0..3");
  CHECK_THROWS_WITH(mt::ScheduleGraph(s),
                    "message 6 depends on message 42, which does not exist (ids are 0..6)");
  CHECK(mt::check_ops(star(), checks, [](std::string, std::vector<int>) {}));
}

// Receive staging: 0: 0->1 and 1: 1->0 exchange chunk 0, each staged behind the other; 2: 1->2
// forwards once 0 has been applied at node 1, which is after node 1 issued 1.
TEST_CASE("receive staging orders issues without claiming an arrival", "[schedule_graph]") {
  mt::Schedule s = mt::test::empty_schedule(3, 1);
  s.add(mt::test::make_op(0, 1, 0, OpKind::kReduce));
  s.add(mt::test::make_op(1, 0, 0, OpKind::kReduce));
  s.add(mt::test::make_op(1, 2, 0, OpKind::kReduce, {0}, 1));
  s.ops[0].apply_after = 1;
  s.ops[1].apply_after = 0;
  CHECK(mt::staged_issue_predecessors(s) == std::vector<std::vector<int>>{{}, {}, {1}});
  const mt::ScheduleGraph graph(s);
  REQUIRE(graph.acyclic());
  CHECK(listed(graph.dependents(0)) == std::vector<int>{2});
  CHECK(graph.dependents(1).empty());  // the issue order is not a dependency
  mt::HappensBefore hb = graph.happens_before();
  CHECK(hb.happens_before(0, 2));
  CHECK_FALSE(hb.happens_before(1, 2));  // 1 arrives at node 0, nothing orders that with 2
  CHECK(hb.issued_before_staged(1, 0));  // node 1's own message goes out before 0 is applied
  CHECK_FALSE(hb.issued_before_staged(2, 0));
  const std::size_t q = hb.ask(1, 2);
  CHECK(hb.solve()[q] == 0);

  // A staged message the receiver's own message waits for can never be applied: a cycle.
  mt::Schedule stuck = s;
  stuck.ops[1].deps = {0};
  CHECK_FALSE(mt::ScheduleGraph(stuck).acyclic());

  // apply_after must name another message the receiver sends reading the slot written.
  mt::Schedule bad = s;
  bad.ops[0].apply_after = 7;
  bad.ops[1].apply_after = 2;  // 2 is node 1's, but it goes to node 0: 1 -> 0's receiver is 0
  bad.ops[2].apply_after = 2;
  std::vector<std::string> errors;
  CHECK_FALSE(
      mt::check_ops(bad, {}, [&](std::string e, std::vector<int>) { errors.push_back(e); }));
  CHECK(errors == std::vector<std::string>{
                      "message 0: apply_after 7 is neither -1 nor a message id (0..2)",
                      "message 1 (node 1 -> 0, writes chunk 0): apply_after names message 2 "
                      "(node 1 -> 2, reads chunk 0); it must name another message node 0 sends "
                      "(or local step it runs) reading chunk 0",
                      "message 2 (node 1 -> 2, writes chunk 0): apply_after names message 2 "
                      "(node 1 -> 2, reads chunk 0); it must name another message node 2 sends "
                      "(or local step it runs) reading chunk 0"});
}
