#pragma once
// Happens-before over a schedule's dependency DAG, answered in batches under a memory budget:
// "does message x arrive before the issue of message y" (x is a transitive dependency of y,
// through dependencies and receive staging's issue order: staged_issue_predecessors()).
// Shared by the verifier's race check and the NIC table packer.
//
// Messages can only be ordered inside one weakly connected component of the DAG (for tree
// algorithms a component is one tree's messages), so the transitive closure is built one
// component at a time, over the component's own messages only: O(sum of c^2 / 64) words of work
// for components of c messages instead of O(m^2 / 64) for m messages in all. A component whose
// closure exceeds the budget is processed in blocks of queried ancestors.

#include <cstdint>
#include <utility>
#include <vector>

#include "model/collective/schedule.h"

namespace mt {

/// Batch happens-before queries over one schedule.
class HappensBefore {
 public:
  /// Default memory budget of the closure bitsets, 64-bit words (64 MiB).
  static constexpr std::uint64_t kDefaultBudgetWords = std::uint64_t{8} << 20;

  /// Queries over `schedule`, whose ops must have valid dependency ids; `order` is a topological
  /// order of all its ops (every dependency before its dependents). Both must outlive solve().
  /// `budget_words`: largest closure bitset held at once, 64-bit words (at least one word per
  /// message of a component is always used).
  HappensBefore(const Schedule& schedule, const std::vector<int>& order,
                std::uint64_t budget_words = kDefaultBudgetWords);

  /// One query answered at once, exactly, by a depth-first search from y through the
  /// dependencies of messages ordered after x (cost: the part of y's dependency cone after x;
  /// for queries decided one by one, when the batch would ask many that are never needed).
  bool happens_before(int x, int y);
  /// Receive staging: true when y is staged (Op::apply_after k) and x is k or is issued before
  /// k (through dependencies and staged issue order), so x is issued before y is applied at its
  /// receiver (one query, answered at once).
  bool issued_before_staged(int x, int y);
  /// One-at-a-time searches (happens_before, issued_before_staged) that had to walk the graph so
  /// far: a caller whose batch covers its questions leaves it at 0.
  std::uint64_t searches() const { return searches_; }
  /// Adds the query "x happens before y"; returns its index into solve()'s answers.
  std::size_t ask(int x, int y);
  /// Answers every query asked so far: answers[q] is 1 when the query's x is a transitive
  /// dependency of its y, else 0. Components are solved on `threads` threads at once (0: by the
  /// number of queries, threads_for()), each with its share of the memory budget; the answers
  /// do not depend on it.
  const std::vector<char>& solve(int threads = 0);
  /// Threads for `queries` queries: one below kQueriesPerThread, else one per that many, at
  /// most kMaxThreads and the machine's cores.
  static std::size_t threads_for(std::size_t queries);
  static constexpr std::size_t kQueriesPerThread = std::size_t{1} << 20;
  static constexpr std::size_t kMaxThreads = 4;

 private:
  // Depth-first search from y for x: x's arrival (or, with from_issue, its issue) precedes y's
  // issue.
  bool search(int x, int y, bool from_issue);
  void solve_component(const std::vector<int>& ops, const std::vector<std::size_t>& queries,
                       std::uint64_t budget_words);
  // Speed only: start fetching message `id`'s dependency list, or the local indices of its
  // dependencies (solve_component reads them a few messages later).
  void prefetch_deps_of(int id) const;
  void prefetch_local_of_deps(int id) const;

  const Schedule& s_;
  const std::vector<int>& order_;
  std::uint64_t budget_words_;
  std::vector<int> position_;             // per op: position in order_
  std::vector<int> component_;            // per op: weakly connected component
  std::vector<std::vector<int>> staged_;  // per op: staged issue predecessors (empty: none)
  std::vector<std::pair<int, int>> queries_;
  std::vector<char> answers_;
  std::vector<int> local_;              // per op: index inside its component (scratch of solve)
  std::vector<std::uint32_t> visited_;  // per op: last search that visited it (happens_before)
  std::uint32_t search_ = 0;
  std::uint64_t searches_ = 0;
  std::vector<int> stack_;
};

}  // namespace mt
