#pragma once
// The message model's event queue (model/flow/flow_sim.cpp): events in the order of one
// min-priority queue of (cycle, kind, index), kept as a heap for the current cycle only, a
// bucket per cycle for the next kWindow cycles and a heap beyond. A 4096-node run holds tens of
// thousands of events; one heap of them all missed the cache at every level of every pop.

#include <algorithm>
#include <cstddef>
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

  /// Adds `e`; its cycle must not be before the cycle of the last event popped.
  void push(const Event& e) {
    const Cycle at = std::get<0>(e);
    if (at < now_) throw std::logic_error("EventQueue: an event before the current cycle");
    ++size_;
    if (at == now_) {
      current_.push_back(e);
      std::push_heap(current_.begin(), current_.end(), std::greater<Event>());
    } else if (at - now_ < kWindow) {
      ring_[at % kWindow].push_back(e);
      ++in_ring_;
    } else {
      far_.push(e);
    }
  }

  /// The least event (the queue must not be empty).
  const Event& top() {
    settle();
    return current_.front();
  }

  void pop() {
    settle();
    std::pop_heap(current_.begin(), current_.end(), std::greater<Event>());
    current_.pop_back();
    --size_;
  }

 private:
  static constexpr Cycle kWindow = 4096;

  // Makes the current cycle the first one with events (every event of that cycle in the heap).
  void settle() {
    while (current_.empty()) {
      now_ = in_ring_ > 0 ? now_ + 1 : std::get<0>(far_.top());
      std::vector<Event>& bucket = ring_[now_ % kWindow];
      if (!bucket.empty()) {
        in_ring_ -= bucket.size();
        std::swap(current_, bucket);  // bucket keeps the heap's emptied storage
      }
      // Far events enter at their own cycle (the window moved past them one cycle at a time).
      while (!far_.empty() && std::get<0>(far_.top()) == now_) {
        current_.push_back(far_.top());
        far_.pop();
      }
      std::make_heap(current_.begin(), current_.end(), std::greater<Event>());
    }
  }

  Cycle now_ = 0;
  std::size_t size_ = 0;
  std::size_t in_ring_ = 0;
  std::vector<Event> current_;            // heap of the events at now_
  std::vector<std::vector<Event>> ring_;  // cycle c in (now_, now_ + kWindow) at c % kWindow
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> far_;  // the rest
};

}  // namespace mt
