#pragma once
// Whether a schedule can run where a node issues its steps in order (the co-designed NIC's
// hardware issue, whose table is sorted by step, and nic.step_barrier), and the order within a
// step that makes it run there. SCHEDULE_FORMAT.md, "Steps and issue order", has the rule and
// why it suffices.

#include <string>
#include <vector>

#include "model/collective/schedule.h"

namespace mt {

/// A message that waits for a message of a later step: under in-order issue of steps it would
/// wait for ever (the node, or the step order of its table, holds back what it waits for).
struct StepOrderViolation {
  int waiting = -1;  ///< the message that waits
  int waited = -1;   ///< the later-step message it waits for (its issue, through `staged`)
  int staged = -1;   ///< the dependency whose arrival is staged behind `waited`; -1 = direct
  /// "message 7 (node 1, step 0) waits for message 12 (node 0, step 2), a later step: ...",
  /// naming the rule and what to do.
  std::string text;
};

/// The order of a schedule's messages for in-order issue of steps.
struct IssueOrder {
  /// Per message: the longest chain of waits within its own step that ends at it (0 when it
  /// waits only for earlier steps). Table order is step, then this rank, then program order.
  std::vector<int> rank;
  /// The first message (by id) that waits for a later step's; waiting < 0 when there is none.
  StepOrderViolation violation;

  /// True when the schedule runs under in-order issue of steps (no violation).
  bool ok() const { return violation.waiting < 0; }
};

/// Message m waits for d (each of its deps) and, when d is staged behind k (d.apply_after = k,
/// a message of m's own node), for k's issue. With every such wait going to the same or an
/// earlier step, issuing by (step, rank) never stalls: the pending message of smallest
/// (step, rank) has everything it waits for issued, and every pending entry before it in its
/// node's table has the same (step, rank), so it can issue too (proof: SCHEDULE_FORMAT.md).
/// Ids out of range and waits in a cycle are left to the verifier (they get rank 0 here).
IssueOrder issue_order(const Schedule& schedule);

}  // namespace mt
