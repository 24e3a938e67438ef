#pragma once
// Symbolic replay of a schedule: proves that every node ends with every chunk reduced from all N
// contributions exactly once, independent of message timing, and reports link contention.

#include <string>
#include <vector>

#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// Two messages of the same step sharing one directed link.
struct Contention {
  int step = 0;
  int link = 0;    ///< directed link id
  int op_a = 0;    ///< message ids
  int op_b = 0;
};

/// Outcome of verify(). `ok` is false when the data semantics are violated; contention alone
/// does not make a schedule wrong (it only makes it slower), it is listed separately.
struct VerifyReport {
  bool ok = true;
  /// First violation, precise and readable, e.g. "node 3 chunk 5: contribution of node 7 arrives
  /// twice (messages 12 and 40)". Empty when ok.
  std::string first_error;
  std::vector<std::string> errors;       ///< all violations found (first_error is errors[0])
  std::vector<Contention> contention;    ///< every contended (step, link) pair
  int num_steps = 0;
  int num_messages = 0;
};

/// Replays `schedule` on `topology`. Never throws for a wrong schedule; throws ScheduleError only
/// when ids are out of range in a way that makes replay meaningless (the report says so instead
/// where possible).
VerifyReport verify(const Schedule& schedule, const Topology& topology);

}  // namespace mt
