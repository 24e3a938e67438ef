#pragma once
// The step barrier of a NIC (`nic.step_barrier`): once every operation of the step a node is
// sending has started, it starts no operation of a later step until all of its ports are free.
// Steps are taken strictly in order. Plain C++ (tests/nic/test_step_barrier.cpp).

#include <algorithm>
#include <cstddef>
#include <vector>

namespace mt {

/// Step barrier state of one node.
class StepBarrier {
 public:
  /// A barrier over operations of the given `steps` (one per program entry; negative = 0);
  /// `enabled` false allows everything.
  StepBarrier(bool enabled, const std::vector<int>& steps) : enabled_(enabled) {
    if (!enabled_) return;
    for (const int s : steps) {
      const auto step = static_cast<std::size_t>(std::max(s, 0));
      if (left_.size() <= step) left_.resize(step + 1, 0);
      ++left_[step];
    }
    skip_done();
  }

  /// True when an operation of `step` may start now; `all_ports_free()` (called only when it
  /// matters) says whether every port of the node is free.
  template <class AllPortsFree>
  bool allows(int step, AllPortsFree all_ports_free) const {
    if (!enabled_) return true;
    // Only the lowest step with operations left, and when that is a new step only once every
    // port is free.
    if (step != current_) return false;
    if (step == started_) return true;
    return all_ports_free();
  }
  /// The highest step whose operations may start now (`all_ports_free` as for allows()): the
  /// current step once the barrier lets it start, else the one before (at least 0); `any` when
  /// the barrier is off.
  template <class AllPortsFree>
  int open_step(AllPortsFree all_ports_free, int any) const {
    if (!enabled_) return any;
    return allows(current_, all_ports_free) ? current_ : std::max(current_ - 1, 0);
  }
  /// An operation of `step` has started.
  void started(int step) {
    if (!enabled_) return;
    started_ = std::max(step, 0);
    --left_[static_cast<std::size_t>(started_)];
    skip_done();
  }
  /// Lowest step with operations not started.
  int current() const { return current_; }

 private:
  void skip_done() {
    while (static_cast<std::size_t>(current_) < left_.size() &&
           left_[static_cast<std::size_t>(current_)] == 0) {
      ++current_;
    }
  }

  bool enabled_ = false;
  int started_ = -1;       // step of the last started operation
  int current_ = 0;        // lowest step with operations not started
  std::vector<int> left_;  // per step: operations not started yet
};

}  // namespace mt
