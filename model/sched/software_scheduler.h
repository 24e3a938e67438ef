#pragma once
// Host-library issue: every operation is issued as soon as all its dependencies have arrived and
// its release cycle has come; among ready operations of one port the earliest in program order
// goes first. Ports are independent, so several ports may send at once.

#include <functional>
#include <queue>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/sched/scheduler.h"

namespace mt {

/// Software (host-driven) issue policy. Plain C++: the golden model of the issue order.
class SoftwareScheduler : public Scheduler {
 public:
  /// See Scheduler::load. Throws SchedulerError for ports < 1 or an op on a port >= ports.
  void load(const std::vector<SchedulerOp>& program, int ports) override;
  /// See Scheduler::on_arrival (repeated or unknown messages change nothing).
  void on_arrival(int message) override;
  /// Earliest ready operation of `port` in program order, -1 if none. Ready: every dependency
  /// arrived and release_cycle <= now_cycles (now_cycles must not decrease between calls).
  int next_ready(int port, std::uint64_t now_cycles) const override;
  /// Smallest release_cycle > now of an operation whose dependencies have arrived, or kNoEvent.
  std::uint64_t next_event_cycle(std::uint64_t now) const override;
  /// Issues next_ready(port); throws SchedulerError when nothing is ready on it.
  void pop(int port) override;

  /// Operations in the program.
  std::size_t size() const override { return program_.size(); }
  /// Operations issued so far.
  std::size_t issued() const override { return issued_count_; }
  /// True once program entry `index` has been issued.
  bool is_issued(int index) const override {
    return issued_.at(static_cast<std::size_t>(index)) != 0;
  }
  /// Dependencies of program entry `index` that have not arrived yet (message ids).
  std::vector<int> missing_deps(int index) const override;

 private:
  using MinHeap = std::priority_queue<int, std::vector<int>, std::greater<int>>;
  using Release = std::pair<std::uint64_t, int>;  // (release cycle, program index)
  using ReleaseHeap = std::priority_queue<Release, std::vector<Release>, std::greater<Release>>;

  void make_ready(int index);
  void release_until(std::uint64_t now) const;  // moves released operations to ready_

  std::vector<SchedulerOp> program_;
  std::vector<int> missing_;  // deps not yet arrived, per op
  std::vector<char> issued_;
  std::size_t issued_count_ = 0;
  struct Dependency {
    bool arrived = false;
    std::vector<int> ops;  // program indices waiting for this message
  };
  std::unordered_map<int, Dependency> deps_;  // message id -> who waits for it
  // Per port: ready op indices. Mutable: next_ready (const) releases operations whose time has
  // come from waiting_ (deps met, release cycle not reached yet).
  mutable std::vector<MinHeap> ready_;
  mutable ReleaseHeap waiting_;
};

}  // namespace mt
