#pragma once
// The link and port reservations of the message-granularity model (model/flow/flow_sim.h).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace mt {

/// A cycle of the network clock.
using Cycle = std::uint64_t;

/// Busy intervals of one resource of the message model (a link or a NIC port), sorted by start;
/// reserve() takes the first gap long enough at or after the requested cycle. Intervals that end
/// at or before the engine's current cycle can no longer matter and are dropped. (Measured: a
/// strict FIFO, each reservation after the last one, is far further from the cycle model:
/// docs/granularity.md.)
class Reservations {
 public:
  /// Reserves `length` cycles for a message of flow `flow` (its sender-receiver pair) from the
  /// first gap at or after `at`; returns the start and sets `other_flow` when it waited behind a
  /// message of another flow (all cycles).
  Cycle reserve(Cycle at, Cycle length, Cycle now, std::int64_t flow, bool& other_flow) {
    other_flow = false;
    if (now >= last_end_) {  // every interval is over (a port, a link at rest): none is read
      busy_.clear();
    } else {
      std::size_t drop = 0;
      while (drop < busy_.size() && busy_[drop].end <= now) ++drop;
      if (drop > 0) busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(drop));
    }
    std::size_t i = at >= last_end_ ? busy_.size() : 0;  // after every interval: no search
    while (i < busy_.size() && busy_[i].end <= at) ++i;
    for (; i < busy_.size(); ++i) {
      if (at + length <= busy_[i].begin) break;
      at = std::max(at, busy_[i].end);
      other_flow = other_flow || busy_[i].flow != flow;
    }
    busy_.insert(busy_.begin() + static_cast<std::ptrdiff_t>(i), Busy{at, at + length, flow});
    last_end_ = std::max(last_end_, at + length);
    busy_cycles_ += length;
    return at;
  }
  /// The first cycle at or after `at` where a reservation could start (no length known yet).
  Cycle free_from(Cycle at) const {
    if (at >= last_end_) return at;  // the intervals are not read: one cache miss less
    for (const Busy& b : busy_)
      if (b.begin <= at && at < b.end) at = b.end;
    return at;
  }
  /// Cycles reserved so far.
  Cycle busy_cycles() const { return busy_cycles_; }

 private:
  struct Busy {
    Cycle begin, end;
    std::int64_t flow;
  };
  std::vector<Busy> busy_;
  Cycle last_end_ = 0;  // the latest end of any interval (none at or after it)
  Cycle busy_cycles_ = 0;
};

}  // namespace mt
