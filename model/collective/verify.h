#pragma once
// Symbolic replay of a schedule: proves that every node ends with every chunk reduced from all N
// contributions exactly once, independent of message timing, and reports link contention.

#include <cstdint>
#include <string>
#include <vector>

#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// Two messages of the same step sharing one directed link.
struct Contention {
  int step = 0;
  int link = 0;  ///< directed link id
  int op_a = 0;  ///< message ids
  int op_b = 0;
};

/// Outcome of verify(). `ok` is false when the data semantics are violated; contention alone
/// does not make a schedule wrong (it only makes it slower), it is listed separately.
struct VerifyReport {
  bool ok = true;
  /// First violation, precise and readable, e.g. "node 3 chunk 5: contribution of node 7 arrives
  /// twice (message 40; already held)". Empty when ok.
  std::string first_error;
  /// Violations found (first_error is errors[0]): at most 20, then one "... and K more error(s)
  /// not shown" line.
  std::vector<std::string> errors;
  std::vector<Contention> contention;  ///< every contended (step, link) pair, by step then link
  int num_steps = 0;                   ///< Schedule::num_steps
  int num_messages = 0;                ///< number of ops
};

/// The verifier's budgets. Its ordering checks between messages of one node and chunk are sized
/// to the schedule: `min_race_checks`, or `race_checks_per_message` per message when that is
/// more. A check costs 25 bytes, so the default is 100 MiB, or 200 bytes a message (a tenth of
/// the 2 KiB a message may take in all, Schedule::message_limit): schedules whose checks grow
/// with their messages (rings, trees: a root's arrivals its broadcasts wait for directly are not
/// asked) always fit, and only quadratic ones (thousands of unordered messages of one chunk at
/// one node) are refused, with a message saying so.
struct VerifyLimits {
  std::uint64_t min_race_checks = std::uint64_t{1} << 22;  ///< checks, whatever the size
  std::uint64_t race_checks_per_message = 8;               ///< checks per message of the schedule
  /// Largest symbolic replay state held at once (a contributor bitset per node and slot), 64-bit
  /// words (1 GiB). A larger schedule whose chunks never meet (no buffers, no staging: N-chunk
  /// schedules at thousands of nodes) is replayed one chunk at a time instead.
  std::uint64_t replay_words = std::uint64_t{1} << 27;
  /// Accept a schedule that is a tree all-reduce by its structure (every chunk reduced up one
  /// spanning tree and broadcast down another from the same root, verify_trees.cpp) without the
  /// race check and the replay, which could find nothing in it. False: always run them (tests
  /// that hold the proof to them, and tests of the two checks themselves).
  bool tree_proof = true;
};

/// Replays `schedule` on `topology` with the semantics of SCHEDULE_FORMAT.md, in this order:
/// structure (ids, ranges, node count, dependency targets; replay stops here on error), explicit
/// paths and contention, dependency cycles (replay stops), timing races (replay stops: it would
/// show one arbitrary timing), then the symbolic replay and the final all-contributions check.
/// A schedule that reduces every chunk up one spanning tree and broadcasts it down another from
/// the same root is shown race-free and correct by its structure instead of the last two
/// (VerifyLimits::tree_proof, verify_trees.cpp): the same report, in a pass per chunk (and a
/// tree schedule beyond the race check's or the replay's budget proven rather than refused).
/// Never throws for a wrong schedule: every problem is an entry of VerifyReport::errors.
VerifyReport verify(const Schedule& schedule, const Topology& topology,
                    const VerifyLimits& limits = {});

}  // namespace mt
