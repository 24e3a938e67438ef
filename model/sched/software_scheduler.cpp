#include "model/sched/software_scheduler.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mt {

void SoftwareScheduler::load(const std::vector<SchedulerOp>& program, int ports) {
  if (ports < 1) throw SchedulerError("SoftwareScheduler: ports must be >= 1");
  program_ = program;
  missing_.assign(program_.size(), 0);
  issued_.assign(program_.size(), 0);
  issued_count_ = 0;
  deps_.clear();
  ready_.assign(static_cast<std::size_t>(ports), MinHeap());
  waiting_ = ReleaseHeap();
  for (std::size_t i = 0; i < program_.size(); ++i) {
    SchedulerOp& op = program_[i];
    if (op.port < 0 || op.port >= ports) {
      throw SchedulerError("SoftwareScheduler: message " + std::to_string(op.message) +
                           " uses port " + std::to_string(op.port) + " of " +
                           std::to_string(ports));
    }
    std::sort(op.deps.begin(), op.deps.end());
    op.deps.erase(std::unique(op.deps.begin(), op.deps.end()), op.deps.end());
    missing_[i] = static_cast<int>(op.deps.size());
    for (const int dep : op.deps) deps_[dep].ops.push_back(static_cast<int>(i));
    if (missing_[i] == 0) make_ready(static_cast<int>(i));
  }
}

void SoftwareScheduler::make_ready(int index) {
  const SchedulerOp& op = program_[static_cast<std::size_t>(index)];
  if (op.release_cycle > 0) {
    waiting_.emplace(op.release_cycle, index);  // next_ready releases it when its time comes
  } else {
    ready_[static_cast<std::size_t>(op.port)].push(index);
  }
}

void SoftwareScheduler::release_until(std::uint64_t now) const {
  while (!waiting_.empty() && waiting_.top().first <= now) {
    const int index = waiting_.top().second;
    waiting_.pop();
    ready_[static_cast<std::size_t>(program_[static_cast<std::size_t>(index)].port)].push(index);
  }
}

std::uint64_t SoftwareScheduler::next_event_cycle(std::uint64_t now) const {
  release_until(now);
  return waiting_.empty() ? kNoEvent : waiting_.top().first;
}

void SoftwareScheduler::on_arrival(int message) {
  const auto it = deps_.find(message);
  if (it == deps_.end() || it->second.arrived) return;  // nobody waits for it, or a repeat
  it->second.arrived = true;
  for (const int index : it->second.ops) {
    if (--missing_[static_cast<std::size_t>(index)] == 0) make_ready(index);
  }
}

int SoftwareScheduler::next_ready(int port, std::uint64_t now_cycles) const {
  release_until(now_cycles);
  const MinHeap& heap = ready_.at(static_cast<std::size_t>(port));
  return heap.empty() ? -1 : heap.top();
}

void SoftwareScheduler::pop(int port) {
  MinHeap& heap = ready_.at(static_cast<std::size_t>(port));
  if (heap.empty()) throw SchedulerError("SoftwareScheduler::pop: no ready operation");
  issued_[static_cast<std::size_t>(heap.top())] = 1;
  ++issued_count_;
  heap.pop();
}

std::vector<int> SoftwareScheduler::missing_deps(int index) const {
  std::vector<int> missing;
  for (const int dep : program_.at(static_cast<std::size_t>(index)).deps) {
    if (!deps_.at(dep).arrived) missing.push_back(dep);
  }
  return missing;
}

}  // namespace mt
