// Issue 52 (class 5): in-order issue of steps (hardware issue, nic.step_barrier) needs every wait
// to go to the same or an earlier step; issue_order() finds the first message that breaks it and
// ranks same-step waits, which the table packer orders by.

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "model/collective/algorithm.h"
#include "model/collective/issue_order.h"
#include "model/collective/verify.h"
#include "tests/support/topologies.h"

using mt::test::make;

namespace {

const char* const kRule =
    ", a later step: where a node issues its steps in order (nic.issue hardware, "
    "nic.step_barrier) it would wait for ever. A message may wait only for messages of its own "
    "or earlier steps: renumber the steps (SCHEDULE_FORMAT.md, \"Steps and issue order\"), or run "
    "it with nic.issue software and no step barrier";

}  // namespace

TEST_CASE("a schedule whose steps run backwards is named at its first backward wait") {
  const mt::Topology t = make("ring:4");
  mt::Schedule s = mt::build_schedule("ring", t);
  REQUIRE(mt::issue_order(s).ok());
  for (mt::Op& op : s.ops) op.step = s.num_steps - 1 - op.step;
  REQUIRE(mt::verify(s, t).ok);  // still correct: steps do not change the semantics
  const mt::IssueOrder order = mt::issue_order(s);
  REQUIRE_FALSE(order.ok());
  const mt::Op& waiting = s.ops[static_cast<std::size_t>(order.violation.waiting)];
  const mt::Op& waited = s.ops[static_cast<std::size_t>(order.violation.waited)];
  // The first message by id with a dependency, and that dependency.
  CHECK(order.violation.waiting == 4);
  CHECK(waiting.deps == std::vector<int>{order.violation.waited});
  CHECK(waited.step == waiting.step + 1);
  CHECK(order.violation.staged == -1);
  CHECK(order.violation.text == "message 4 (node " + std::to_string(waiting.node) + ", step " +
                                    std::to_string(waiting.step) + ") waits for message " +
                                    std::to_string(waited.id) + " (node " +
                                    std::to_string(waited.node) + ", step " +
                                    std::to_string(waited.step) + ")" + kRule);
}

TEST_CASE("a wait through a staged arrival counts the issue it is staged behind") {
  // Node 1 sends 0 -> ... : message 2 (node 1, step 0) depends on message 0 (0 -> 1), which node
  // 1 applies only once it has issued message 1 (step 1): 2 waits for 1's issue.
  mt::Schedule s;
  s.nodes = 2;
  s.num_chunks = 1;
  const auto add = [&s](int node, int peer, int step, std::vector<int> deps, int after) {
    mt::Op op;
    op.node = node;
    op.peer = peer;
    op.step = step;
    op.deps = std::move(deps);
    op.apply_after = after;
    return s.add(op);
  };
  add(0, 1, 0, {}, 1);
  add(1, 0, 1, {}, -1);
  add(1, 0, 0, {0}, -1);
  const mt::IssueOrder order = mt::issue_order(s);
  CHECK(order.violation.waiting == 2);
  CHECK(order.violation.waited == 1);
  CHECK(order.violation.staged == 0);
  CHECK(order.violation.text == std::string("message 2 (node 1, step 0) waits for message 0's "
                                            "arrival, staged behind message 1 (node 1, step 1)") +
                                    kRule);
}

TEST_CASE("ranks count the chain of waits within one step") {
  // All in step 0: 0 -> 1 -> 2 (each waits for the one before), 3 waits for nothing.
  mt::Schedule s;
  s.nodes = 3;
  s.num_chunks = 1;
  const auto add = [&s](int node, int peer, std::vector<int> deps) {
    mt::Op op;
    op.node = node;
    op.peer = peer;
    op.deps = std::move(deps);
    return s.add(op);
  };
  add(0, 1, {});
  add(1, 2, {0});
  add(2, 0, {1});
  add(0, 2, {});
  const mt::IssueOrder order = mt::issue_order(s);
  CHECK(order.ok());
  CHECK(order.rank == std::vector<int>{0, 1, 2, 0});
}

TEST_CASE("every built-in schedule runs under in-order issue of steps") {
  for (const char* spec :
       {"torus:4x4", "mesh:3x5", "ring:7", "switch:nodes=6", "fattree:k=4,levels=2", "ring:2"}) {
    const mt::Topology t = make(spec);
    for (const std::string& name : mt::algorithm_names()) {
      if (name == "file") continue;
      mt::Schedule s;
      try {
        s = mt::build_schedule(name, t);
      } catch (const mt::AlgorithmError&) {
        continue;  // not offered on this topology
      }
      INFO(spec << " " << name);
      CHECK(mt::issue_order(s).violation.text == "");
    }
  }
  // Root exchanges wait within a step: the root's exchange for its other children's reduces.
  const mt::Topology torus = make("torus:4x4");
  const mt::Schedule x = mt::build_schedule("multitree_opt", torus, {{"roots", "exchange"}});
  const mt::IssueOrder order = mt::issue_order(x);
  CHECK(order.ok());
  CHECK(*std::max_element(order.rank.begin(), order.rank.end()) == 1);
}
