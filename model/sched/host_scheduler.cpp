#include "model/sched/host_scheduler.h"

#include <algorithm>
#include <string>
#include <utility>

namespace mt {

HostScheduler::HostScheduler(std::vector<SchedulerOp> program, int ports, const HostTiming& timing)
    : timing_(timing) {
  if (ports < 1) throw SchedulerError("host: ports must be >= 1");
  if (timing_.doorbell_batch < 1 || timing_.contexts < 1)
    throw SchedulerError("host: doorbell_batch and contexts must be >= 1");
  program_.reserve(program.size());
  issued_.assign(program.size(), 0);
  ports_ = ports;
  posted_top_.fill(-1);
  ready_.assign(static_cast<std::size_t>(ports), MinHeap());
  posted_.assign(static_cast<std::size_t>(ports), MinBitSet(program.size()));
  context_free_.assign(static_cast<std::size_t>(timing_.contexts), 0);
  std::vector<std::pair<int, int>> waits;  // (message waited for, program index)
  for (std::size_t i = 0; i < program.size(); ++i) {
    SchedulerOp& op = program[i];
    if (op.port < 0 || op.port >= ports) {
      throw SchedulerError("host: message " + std::to_string(op.message) + " uses port " +
                           std::to_string(op.port) + " of " + std::to_string(ports));
    }
    std::sort(op.deps.begin(), op.deps.end());
    op.deps.erase(std::unique(op.deps.begin(), op.deps.end()), op.deps.end());
    for (const int dep : op.deps) waits.emplace_back(dep, static_cast<int>(i));
    program_.push_back(Entry{op.release_cycle, op.port, op.step, static_cast<int>(op.deps.size())});
    if (op.deps.empty()) make_ready(static_cast<int>(i));
  }
  // By message, each message's waiters in program order.
  if (waits.size() >= kArrived)
    throw SchedulerError("host: " + std::to_string(waits.size()) +
                         " dependencies in one node's program (at most 2^31 - 1)");
  std::sort(waits.begin(), waits.end());
  for (const auto& [message, index] : waits) {
    if (waited_.empty() || waited_.back() != message) {
      waited_.push_back(message);
      waiters_of_.push_back({static_cast<std::uint32_t>(waiters_.size()), index});
    }
    waiters_.push_back(index);
  }
  waiters_of_.push_back({static_cast<std::uint32_t>(waiters_.size()), -1});
  advance(0);
}

void HostScheduler::make_ready(int index) {
  const Entry& op = program_[static_cast<std::size_t>(index)];
  if (op.release_cycle > time_) {
    releases_.emplace(op.release_cycle, index);
  } else {
    ready(index);
  }
}

void HostScheduler::ready(int index) {
  const auto port = static_cast<std::size_t>(program_[static_cast<std::size_t>(index)].port);
  if (timing_.posting_free()) {
    // What post() does at zero cost, without its two heaps: a message per doorbell, posted
    // now (4096-node programs spent a quarter of their run in the host's heaps).
    push_posted(index);
    ++doorbells_;
  } else {
    ready_[port].push(index);
  }
}

void HostScheduler::know_slot(std::size_t k) {
  Waited& slot = waiters_of_[k];
  if ((slot.from & kArrived) != 0) return;  // a repeat
  slot.from |= kArrived;
  const auto known = [this](int index) {
    if (--program_[static_cast<std::size_t>(index)].missing == 0) make_ready(index);
  };
  known(slot.first);
  const std::uint32_t end = waiters_of_[k + 1].from & ~kArrived;
  for (std::uint32_t w = (slot.from & ~kArrived) + 1; w < end; ++w) known(waiters_[w]);
}

void HostScheduler::push_posted(int index) {
  const int port = program_[static_cast<std::size_t>(index)].port;
  posted_[static_cast<std::size_t>(port)].insert(index);
  if (port < kTopPorts) {
    int& top = posted_top_[static_cast<std::size_t>(port)];
    if (top < 0 || index < top) top = index;
  }
}

bool HostScheduler::post() {
  bool posted = false;
  for (;;) {
    // The lowest-numbered ready message goes first, with the next ready ones of its port.
    int port = -1;
    for (std::size_t p = 0; p < ready_.size(); ++p) {
      if (ready_[p].empty()) continue;
      if (port < 0 || ready_[p].top() < ready_[static_cast<std::size_t>(port)].top())
        port = static_cast<int>(p);
    }
    if (port < 0) return posted;
    const auto context = std::find_if(context_free_.begin(), context_free_.end(),
                                      [this](std::uint64_t free) { return free <= time_; });
    if (context == context_free_.end()) return posted;
    MinHeap& ready = ready_[static_cast<std::size_t>(port)];
    std::uint64_t cost = timing_.doorbell_cycles;
    int highest_step = -1;
    batch_.clear();
    while (!ready.empty() && static_cast<int>(batch_.size()) < timing_.doorbell_batch) {
      batch_.push_back(ready.top());
      ready.pop();
      cost += timing_.message_cycles;
      highest_step = std::max(highest_step, program_[static_cast<std::size_t>(batch_.back())].step);
    }
    if (highest_step > last_step_) {
      if (last_step_ >= 0) cost += timing_.step_cycles;  // the first step needs no sync
      last_step_ = highest_step;
    }
    *context = time_ + cost;
    for (const int index : batch_) posting_.emplace(time_ + cost, index);
    ++doorbells_;
    posted = true;
  }
}

std::uint64_t HostScheduler::next_event() const {
  std::uint64_t next = kNoEvent;
  if (!notices_.empty()) next = std::min(next, notices_.front().first);
  if (!releases_.empty()) next = std::min(next, releases_.top().first);
  if (!posting_.empty()) next = std::min(next, posting_.top().first);
  const bool waiting =
      std::any_of(ready_.begin(), ready_.end(), [](const MinHeap& h) { return !h.empty(); });
  if (waiting) next = std::min(next, *std::min_element(context_free_.begin(), context_free_.end()));
  return next;
}

void HostScheduler::advance(std::uint64_t now) {
  for (;;) {
    // Everything due by time_, until nothing changes (a post of zero cost lands at once).
    for (bool changed = true; changed;) {
      changed = false;
      while (!notices_.empty() && notices_.front().first <= time_) {
        if (notices_.front().second != kNobody) know_slot(notices_.front().second);
        notices_.pop_front();
        changed = true;
      }
      while (!releases_.empty() && releases_.top().first <= time_) {
        const int index = releases_.top().second;
        releases_.pop();
        ready(index);
        changed = true;
      }
      while (!posting_.empty() && posting_.top().first <= time_) {
        const int index = posting_.top().second;
        posting_.pop();
        push_posted(index);
        changed = true;
      }
      changed = post() || changed;
    }
    due_ = next_event();
    if (due_ == kNoEvent || due_ > now) break;
    time_ = std::max(time_, due_);
  }
  time_ = std::max(time_, now);
}

void HostScheduler::catch_up(std::uint64_t now) {
  if (now >= due_) {
    advance(now);
  } else {
    time_ = std::max(time_, now);  // nothing is due before due_: only the time moves
  }
}

void HostScheduler::notice(int slot, std::uint64_t now) {
  catch_up(now);
  if (timing_.notify_cycles == 0 && timing_.posting_free()) {
    // Known at once and posted at no cost (the free host, the co-designed NIC's golden model
    // with no decision latency): what advance() would do, without its queue of notices and its
    // look at every pending queue. Nothing but releases is ever pending here.
    if (slot >= 0) know_slot(static_cast<std::size_t>(slot));
    if (!releases_.empty()) due_ = std::min(due_, releases_.top().first);
    return;
  }
  const std::uint64_t known = now + timing_.notify_cycles;
  notices_.emplace_back(known, slot < 0 ? kNobody : static_cast<std::size_t>(slot));
  due_ = std::min(due_, known);
  catch_up(now);
}

void HostScheduler::on_arrival(int message, int counter, std::uint64_t now) {
  (void)counter;  // the host knows messages by id, not by the table's arrival counters
  const auto it = std::lower_bound(waited_.begin(), waited_.end(), message);
  notice(it == waited_.end() || *it != message ? -1 : static_cast<int>(it - waited_.begin()), now);
}

void HostScheduler::on_arrival_at(int slot, std::uint64_t now) {
  if (slot >= static_cast<int>(waited_.size()))
    throw SchedulerError("host: arrival slot " + std::to_string(slot) + " of " +
                         std::to_string(waited_.size()));
  notice(slot, now);
}

void HostScheduler::require_port(const char* call, int port) const {
  if (port < 0 || port >= ports_)
    throw SchedulerError(std::string("host: ") + call + " on port " + std::to_string(port) +
                         " of " + std::to_string(ports_));
}

int HostScheduler::next_ready(int port, std::uint64_t now_cycles) {
  catch_up(now_cycles);
  require_port("next_ready", port);
  return first_posted(port);
}

int HostScheduler::first_posted(int port) const {
  if (port < kTopPorts) return posted_top_[static_cast<std::size_t>(port)];
  return posted_[static_cast<std::size_t>(port)].next(0);
}

void HostScheduler::pop(int port) {
  require_port("pop", port);
  MinBitSet& posted = posted_[static_cast<std::size_t>(port)];
  const int first = first_posted(port);
  if (first < 0)
    throw SchedulerError("host: pop with no message posted on port " + std::to_string(port));
  issued_[static_cast<std::size_t>(first)] = 1;
  ++issued_count_;
  posted.erase(first);
  if (port < kTopPorts) posted_top_[static_cast<std::size_t>(port)] = posted.next(first + 1);
}

std::uint64_t HostScheduler::next_event_cycle(std::uint64_t now) {
  catch_up(now);
  return due_;
}

}  // namespace mt
