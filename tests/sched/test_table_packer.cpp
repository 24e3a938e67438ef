// Issue 52 (class 5): the table packer's issue order. Within a step, a message that waits for
// another of the same step comes after it (a table in program order could fill a window with
// entries waiting for arrivals that only later entries cause); a message that waits for a later
// step's cannot be packed.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/collective/schedule_graph.h"
#include "model/sched/counter_groups.h"
#include "model/sched/table_packer.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

TEST_CASE("entries of one step are ordered by their chain of waits, then program order",
          "[table]") {
  // All in step 0, listed against the order they can go: node 0 sends x (message 0) once y
  // (message 1, from node 1) has arrived, and node 1 sends y once z (message 2, node 0's, waiting
  // for nothing) has arrived. Node 0's table is z, x: program order (x, z) would put x at the
  // head of a one-entry window, where it waits for y, which waits for z behind it.
  Schedule s = test::empty_schedule(2, 3);
  s.add(test::make_op(0, 1, 0, OpKind::kReduce, {1}));
  s.add(test::make_op(1, 0, 1, OpKind::kReduce, {2}));
  s.add(test::make_op(0, 1, 2, OpKind::kReduce, {}));
  const PackedSchedule packed = pack_schedule(s, {0, 0, 0}, 1);
  CHECK(packed.messages[0] == std::vector<int>{2, 0});
  CHECK(packed.messages[1] == std::vector<int>{1});
  // Steps still come first: the same messages with x in step 0 and z in step 1 cannot run in
  // step order (x waits for y, which waits for z of a later step).
  s.ops[2].step = 1;
  s.num_steps = 2;
  CHECK_THROWS_WITH(pack_schedule(s, {0, 0, 0}, 1),
                    Catch::StartsWith("message 1 (node 1, step 0) waits for message 2 (node 0, "
                                      "step 1), a later step: where a node issues its steps in "
                                      "order"));
}

TEST_CASE("a schedule without same-step waits keeps program order within a step", "[table]") {
  const Schedule s = test::ring_allreduce({0, 1, 2, 3});
  const PackedSchedule packed = pack_schedule(s, std::vector<int>(s.ops.size(), 0), 1);
  for (int u = 0; u < 4; ++u) CHECK(packed.messages[static_cast<std::size_t>(u)] == s.ops_of(u));
}

TEST_CASE("a planned order sorts each node's table by issue cycle and refuses one no run issues",
          "[table]") {
  // Node 0 sends a (message 0, step 0) and b (message 1, step 1), neither waiting; node 1 sends
  // c (message 2, step 1) once a has arrived. A plan that issued b at 5 and a at 10 puts b first
  // in node 0's table, against step order; the counters do not depend on the order.
  Schedule s = test::empty_schedule(2, 3);
  s.add(test::make_op(0, 1, 0, OpKind::kReduce, {}, 0));
  s.add(test::make_op(0, 1, 1, OpKind::kReduce, {}, 1));
  s.add(test::make_op(1, 0, 2, OpKind::kReduce, {0}, 1));
  const std::vector<int> ports{0, 0, 0};
  const PackedSchedule stepped = pack_schedule(s, ports, 1);
  CHECK(stepped.messages[0] == std::vector<int>{0, 1});
  const PackedSchedule planned = pack_schedule(s, ports, 1, {10, 5, 20});
  CHECK(planned.messages[0] == std::vector<int>{1, 0});
  CHECK(planned.messages[1] == std::vector<int>{2});
  CHECK(planned.tables[1][0].wait_counter == stepped.tables[1][0].wait_counter);
  CHECK(planned.tables[1][0].wait_count == 1);
  // Equal cycles go by step: a at 5 and b at 5 is step order again.
  CHECK(pack_schedule(s, ports, 1, {5, 5, 20}).messages[0] == std::vector<int>{0, 1});
  // c planned in the cycle a was issued: no run issues a message before what it waits for.
  CHECK_THROWS_WITH(pack_schedule(s, ports, 1, {10, 5, 10}),
                    "planned table order: message 2 (node 1, cycle 10) is planned before "
                    "message 0 (cycle 10), which it waits for");
  CHECK_THROWS_WITH(pack_schedule(s, ports, 1, {10, 5}),
                    "planned table order: 2 issue cycles for 3 messages");
}

TEST_CASE("the packer answers a merge class's cross pairs in its batch, searching none",
          "[table]") {
  // One tree (flow 0, chunk 0) over a chain 2 - 1 - 0: node 2 reduces to 1 (message 0), node 1 to
  // the root 0 once 0 is in (message 1), the root broadcasts to 1 (message 2, after 1) and node 1
  // to 2 (message 3, after 2). Node 1 receives 0 and 2 and sends 1 (waiting for 0) and 3
  // (waiting for 2): two counter groups of one flow and chunk, which merge, since 0 arrives
  // before 3 is issued and 2 after 1 is; 3's threshold then counts both.
  Schedule s = test::empty_schedule(3, 1);
  s.add(test::make_op(2, 1, 0, OpKind::kReduce, {}, 0));
  s.add(test::make_op(1, 0, 0, OpKind::kReduce, {0}, 1));
  s.add(test::make_op(0, 1, 0, OpKind::kBroadcast, {1}, 2));
  s.add(test::make_op(1, 2, 0, OpKind::kBroadcast, {2}, 3));
  const ScheduleGraph graph(s);
  HappensBefore ordering = graph.happens_before();
  packing::NodePack p;
  p.incoming = {0, 2};
  p.entries = {1, 3};
  const std::vector<int> local{0, -1, 1, -1};  // message -> local index at node 1
  packing::group_by_deps(p, s, local, ordering);
  REQUIRE(p.groups == std::vector<std::vector<int>>{{0}, {1}});
  packing::NodeOrders orders(p, ordering.solve(), ordering);
  packing::settle_groups(1, p, orders);
  CHECK(p.groups == std::vector<std::vector<int>>{{0, 1}});
  // The merge's questions (0 before 3's issue, 2 after 1's) came from the batch.
  CHECK(ordering.searches() == 0);

  const PackedSchedule packed = pack_schedule(s, {0, 0, 0, 0}, 1);
  REQUIRE(packed.messages[1] == std::vector<int>{1, 3});
  CHECK(packed.tables[1][0].wait_counter == packed.tables[1][1].wait_counter);
  CHECK(packed.tables[1][0].wait_count == 1);
  CHECK(packed.tables[1][1].wait_count == 2);
}

}  // namespace
}  // namespace mt
