#pragma once
// The one schedule-graph core: the dependency graph of a Schedule (who waits for whom), its
// topological order with a named cycle when there is none, happens-before under a memory budget
// (happens_before.h) and the structural checks every consumer of a schedule needs before it may
// index ops by id. Used by the verifier, the NIC table packer, the cost model's estimates, the
// MSCCL reader and writer. No SystemC, no topology: pure schedule data.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/collective/happens_before.h"
#include "model/collective/schedule.h"
#include "model/core/flat_lists.h"

namespace mt {

/// Kahn's topological order of a dependency graph, or the cycle that prevents one.
struct TopologicalOrder {
  /// Messages, every dependency before its dependents: FIFO over the ready messages, first the
  /// initially ready ones by id, then each message's dependents in the order they were listed.
  /// Holds every message when acyclic(), else only those that can ever issue.
  std::vector<int> order;
  /// Empty when acyclic; else one dependency cycle: cycle[i] waits for cycle[i + 1] and the last
  /// waits for cycle[0].
  std::vector<int> cycle;
  /// Messages neither in `order` nor on `cycle`: they wait, directly or not, on a cycle.
  std::size_t stuck = 0;

  bool acyclic() const { return cycle.empty(); }
  /// "dependency cycle: message 0 waits for 11, which waits for 7, which waits for 0" (empty when
  /// acyclic).
  std::string cycle_text() const;
  /// "K more message(s) can never be issued: ..." for stuck > 0, else empty.
  std::string stuck_text() const;
};

/// Dependencies of message i, for topological_order() over data that is not a Schedule.
using DepsOf = std::function<IntSpan(int)>;

/// Kahn's order of `messages` messages whose dependencies are `deps_of(i)`, every id in
/// 0..messages-1 (the caller checks, e.g. with check_ops()).
TopologicalOrder topological_order(std::size_t messages, const DepsOf& deps_of);

/// Marks with `generation` in `stamp` (one entry per message) every message whose arrival happens
/// before the issue of the messages in `starts` (their dependencies, transitively), visiting at
/// most `budget` messages: for a few ancestry questions where HappensBefore's batch would cost
/// more than it saves. Returns false when the budget ran out (the marks are then incomplete).
bool mark_ancestors(const DepsOf& deps_of, const std::vector<int>& starts, std::vector<int>& stamp,
                    int generation, int budget);

/// Every message's dependents (the messages that list it in Op::deps, once per listing, in op
/// order), held flat. Throws ScheduleError "message 3 depends on message 99, which does not exist
/// (ids are 0..11)" for the first dependency out of range.
FlatLists dependent_lists(const Schedule& schedule);

/// Dependency graph of one schedule: per message the messages that wait for it (its dependents,
/// in the order of the ops listing them) and the topological order. The schedule must outlive
/// the graph.
class ScheduleGraph {
 public:
  /// Throws ScheduleError "message 3 depends on message 99, which does not exist (ids are 0..11)"
  /// for the first dependency out of range.
  explicit ScheduleGraph(const Schedule& schedule);

  const Schedule& schedule() const { return schedule_; }
  std::size_t size() const { return dependents_.size(); }
  /// Messages that list `id` among their deps (once per listing), in op order.
  IntSpan dependents(int id) const { return dependents_[id]; }
  const TopologicalOrder& topological() const { return topological_; }
  bool acyclic() const { return topological_.acyclic(); }
  /// Happens-before queries over this graph (acyclic() required), closure bitsets under
  /// `budget_words` 64-bit words; see HappensBefore.
  HappensBefore happens_before(
      std::uint64_t budget_words = HappensBefore::kDefaultBudgetWords) const;

 private:
  const Schedule& schedule_;
  FlatLists dependents_;
  TopologicalOrder topological_;
};

/// What check_ops() checks besides the references (ids equal to the index, node and peer in
/// 0..nodes-1, no message to itself, dependencies that exist and arrive at the sender).
struct OpChecks {
  bool fields = true;  ///< also chunk, step, flow against the schedule's counts, and kind
  int ports = 0;       ///< > 0: Op::port must be -1 or 0..ports-1
};

/// One problem check_ops() found: a sentence, and the messages it names that exist (for callers
/// that say where each was written).
using OpProblem = std::function<void(std::string sentence, std::vector<int> messages)>;

/// Structural checks of every op, in op order (per op: id, node, peer, chunk, step, flow, port,
/// kind, then each dependency), each problem passed to `report`, e.g. "message 1: node 7 is out
/// of range 0..6" or "message 4 at node 2 depends on message 0, which is sent to node 1, not
/// node 2" (messages 4 and 0). Returns true when there is none.
bool check_ops(const Schedule& schedule, const OpChecks& checks, const OpProblem& report);

/// check_ops() that throws ScheduleError with the first problem.
void require_valid_ops(const Schedule& schedule, const OpChecks& checks);

}  // namespace mt
