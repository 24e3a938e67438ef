#include "model/collective/issue_order.h"

#include <algorithm>
#include <cstddef>

namespace mt {

namespace {

std::string describe(const Op& op) {
  return "message " + std::to_string(op.id) + " (node " + std::to_string(op.node) + ", step " +
         std::to_string(op.step) + ")";
}

}  // namespace

IssueOrder issue_order(const Schedule& schedule) {
  const std::vector<Op>& ops = schedule.ops;
  const std::size_t m = ops.size();
  const auto valid = [m](int id) { return id >= 0 && static_cast<std::size_t>(id) < m; };
  // Same-step waits as edges (waited -> waiting); later-step waits are violations.
  std::vector<std::vector<int>> next(m);
  std::vector<int> waits(m, 0);
  IssueOrder order;
  const auto wait = [&](const Op& op, int waited, int staged) {
    const Op& w = ops[static_cast<std::size_t>(waited)];
    if (w.step > op.step) {
      if (order.violation.waiting < 0) order.violation = {op.id, waited, staged, ""};
      return;
    }
    if (w.step < op.step) return;
    next[static_cast<std::size_t>(waited)].push_back(op.id);
    ++waits[static_cast<std::size_t>(op.id)];
  };
  for (const Op& op : ops) {
    if (op.id != static_cast<int>(&op - ops.data())) continue;  // left to the verifier
    for (const int d : op.deps) {
      if (!valid(d)) continue;
      wait(op, d, -1);
      const int k = ops[static_cast<std::size_t>(d)].apply_after;
      if (valid(k) && k != op.id) wait(op, k, d);
    }
  }
  // Longest chains in each step (Kahn's order over the same-step edges).
  order.rank.assign(m, 0);
  std::vector<int> ready;
  for (std::size_t i = 0; i < m; ++i)
    if (waits[i] == 0) ready.push_back(static_cast<int>(i));
  while (!ready.empty()) {
    const int u = ready.back();
    ready.pop_back();
    for (const int v : next[static_cast<std::size_t>(u)]) {
      int& r = order.rank[static_cast<std::size_t>(v)];
      r = std::max(r, order.rank[static_cast<std::size_t>(u)] + 1);
      if (--waits[static_cast<std::size_t>(v)] == 0) ready.push_back(v);
    }
  }
  StepOrderViolation& v = order.violation;
  if (v.waiting >= 0) {
    const Op& op = ops[static_cast<std::size_t>(v.waiting)];
    const Op& w = ops[static_cast<std::size_t>(v.waited)];
    v.text = describe(op) + " waits for " +
             (v.staged < 0 ? describe(w)
                           : "message " + std::to_string(v.staged) + "'s arrival, staged behind " +
                                 describe(w)) +
             ", a later step: where a node issues its steps in order (nic.issue hardware, "
             "nic.step_barrier) it would wait for ever. A message may wait only for messages of "
             "its own or earlier steps: renumber the steps (SCHEDULE_FORMAT.md, \"Steps and "
             "issue order\"), or run it with nic.issue software and no step barrier";
  }
  return order;
}

}  // namespace mt
