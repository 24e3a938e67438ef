#pragma once
// The message model's event queue (model/flow/flow_sim.cpp): events in the order of one
// min-priority queue of (cycle, kind, index): the current cycle's events sorted once, a bucket
// per cycle for the next kWindow cycles and a heap beyond. A 4096-node run holds tens of
// thousands of events; one heap of them all missed the cache at every level of every pop.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "model/flow/reservations.h"

namespace mt {

class EventQueue {
 public:
  /// (cycle, kind, index): popped by cycle, then kind, then index.
  using Event = std::tuple<Cycle, int, int>;

  EventQueue() : ring_(kWindow) {}

  bool empty() const { return size_ == 0; }

  /// Adds `e`; its cycle must not be before the cycle of the last event popped. Kind and index
  /// must not be negative.
  void push(const Event& e) {
    const auto [at, kind, index] = e;
    if (at < now_) throw std::logic_error("EventQueue: an event before the current cycle");
    if (kind < 0 || index < 0) throw std::logic_error("EventQueue: a negative kind or index");
    ++size_;
    if (at == now_) {
      later_.push(key_of(kind, index));
    } else if (at - now_ < kWindow) {
      ring_[at % kWindow].push_back(key_of(kind, index));
      ++in_ring_;
    } else {
      far_.push(e);
    }
  }

  /// The least event (the queue must not be empty).
  Event top() {
    settle();
    const Key k = take_later() ? later_.top() : sorted_.back();
    return {now_, static_cast<int>(k >> 32), static_cast<int>(k & 0xffffffffU)};
  }

  void pop() {
    settle();
    if (take_later()) {
      later_.pop();
    } else {
      sorted_.pop_back();
    }
    --size_;
  }

 private:
  static constexpr Cycle kWindow = 4096;
  // An event of the current cycle: kind in the high half, index in the low one, so that the
  // keys of one cycle sort as their events do.
  using Key = std::uint64_t;
  static Key key_of(int kind, int index) {
    return static_cast<Key>(kind) << 32 | static_cast<std::uint32_t>(index);
  }

  // Whether the least event of the current cycle is among those pushed after it was sorted.
  bool take_later() const {
    return !later_.empty() && (sorted_.empty() || later_.top() < sorted_.back());
  }

  // Makes the current cycle the first one with events: its events of the ring and the far heap
  // sorted at once (descending, taken from the back), where a heap of them missed the cache at
  // every pop; those pushed for it afterwards go to a small heap beside them.
  void settle() {
    if (!sorted_.empty() || !later_.empty()) return;
    while (sorted_.empty()) {
      now_ = in_ring_ > 0 ? now_ + 1 : std::get<0>(far_.top());
      std::vector<Key>& bucket = ring_[now_ % kWindow];
      if (!bucket.empty()) {
        in_ring_ -= bucket.size();
        std::swap(sorted_, bucket);  // bucket keeps the emptied storage
      }
      // Far events enter at their own cycle (the window moved past them one cycle at a time).
      while (!far_.empty() && std::get<0>(far_.top()) == now_) {
        sorted_.push_back(key_of(std::get<1>(far_.top()), std::get<2>(far_.top())));
        far_.pop();
      }
    }
    std::sort(sorted_.begin(), sorted_.end(), std::greater<Key>());
  }

  Cycle now_ = 0;
  std::size_t size_ = 0;
  std::size_t in_ring_ = 0;
  std::vector<Key> sorted_;                                              // now_, descending
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> later_;  // now_, pushed later
  std::vector<std::vector<Key>> ring_;  // cycle c in (now_, now_ + kWindow) at c % kWindow
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> far_;  // the rest
};

}  // namespace mt
