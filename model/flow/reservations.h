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
/// at or before the engine's current cycle can no longer matter and are dropped (passed over,
/// their room reused, the list compacted once they are half of it). (Measured: a
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
      head_ = 0;
    } else {
      while (head_ < busy_.size() && busy_[head_].end <= now) ++head_;
    }
    std::size_t i = at >= last_end_ ? busy_.size() : head_;  // after every interval: no search
    while (i < busy_.size() && busy_[i].end <= at) ++i;
    for (; i < busy_.size(); ++i) {
      if (at + length <= busy_[i].begin) break;
      at = std::max(at, busy_[i].end);
      other_flow = other_flow || busy_[i].flow != flow;
    }
    place(i, Busy{at, at + length, flow});
    last_end_ = std::max(last_end_, at + length);
    busy_cycles_ += length;
    return at;
  }
  /// The first cycle at or after `at` where a reservation could start (no length known yet).
  Cycle free_from(Cycle at) const {
    if (at >= last_end_) return at;  // the intervals are not read: one cache miss less
    // By start, not overlapping: past an interval that starts after `at`, none holds it.
    for (std::size_t i = head_; i < busy_.size() && busy_[i].begin <= at; ++i)
      if (at < busy_[i].end) at = busy_[i].end;
    return at;
  }
  /// Cycles reserved so far.
  Cycle busy_cycles() const { return busy_cycles_; }

 private:
  struct Busy {
    Cycle begin, end;
    std::int64_t flow;
  };
  // Puts `b` before busy_[i], moving whichever side is shorter: the intervals before it one
  // place toward the front when a dropped one left room there, else those after it one place
  // back. A link or port booked far ahead holds thousands of intervals, and a new one mostly
  // fills a gap near the front: moving the rest of the list each time took a fifth of a
  // 2048-node MultiTree's simulation.
  void place(std::size_t i, const Busy& b) {
    if (head_ > 0 && i - head_ < busy_.size() - i) {
      std::move(busy_.begin() + static_cast<std::ptrdiff_t>(head_),
                busy_.begin() + static_cast<std::ptrdiff_t>(i),
                busy_.begin() + static_cast<std::ptrdiff_t>(head_ - 1));
      --head_;
      busy_[i - 1] = b;
    } else {
      busy_.insert(busy_.begin() + static_cast<std::ptrdiff_t>(i), b);
    }
    if (head_ >= kCompactFrom && 2 * head_ > busy_.size()) {
      busy_.erase(busy_.begin(), busy_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }

  static constexpr std::size_t kCompactFrom = 64;
  std::vector<Busy> busy_;  // busy_[head_..]: the intervals; those before head_ are over
  std::size_t head_ = 0;
  Cycle last_end_ = 0;  // the latest end of any interval (none at or after it)
  Cycle busy_cycles_ = 0;
};

}  // namespace mt
