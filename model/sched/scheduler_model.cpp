#include "model/sched/scheduler_model.h"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <utility>

namespace mt {

std::string describe(const SchedulerFault& fault) {
  using C = SchedulerFaultCause;
  switch (fault.cause) {
    case C::kNone:
      return "no error";
    case C::kArrivalCounter:
      return "an arrival names counter " + std::to_string(fault.info) + ", which does not exist";
    case C::kCounterOverflow:
      return "counter " + std::to_string(fault.info) + " counted more arrivals than MaxCount";
    case C::kStalled:
      return "stalled: no progress for the watchdog's limit of ticks while a port waited for a "
             "grant (table entry " +
             std::to_string(fault.info) + " is the oldest entry of the first port that holds one)";
    default:
      break;
  }
  static const char* const kEntry[] = {
      "",
      "its port is out of range (>= Ports)",
      "its peer is out of range (>= Nodes)",
      "its chunk is out of range (>= Chunks)",
      "its flow is out of range (>= Flows)",
      "its step is out of range (>= Steps)",
      "its wait_counter is out of range (>= Counters)",
      "its wait_count is above MaxCount",
      "its dst_counter is out of range (>= Counters)",
      "its step is below the previous entry's (the table is not sorted by step)"};
  return "table entry " + std::to_string(fault.info) + ": " + kEntry[static_cast<int>(fault.cause)];
}

SchedulerModel::SchedulerModel(const SchedulerModelConfig& config) : config_(config) {
  const auto at_least = [](int value, int min, const char* name) {
    if (value < min) {
      throw SchedulerError(std::string("SchedulerModel: ") + name +
                           " must be >= " + std::to_string(min) + ", got " + std::to_string(value));
    }
  };
  at_least(config_.ports, 1, "ports");
  at_least(config_.decision_latency_cycles, 2, "decision_latency_cycles");
  at_least(config_.counters, 1, "counters");
  at_least(config_.depth, 1, "depth");
  at_least(config_.window, 1, "window");
  at_least(config_.watchdog_tick_cycles, 1, "watchdog_tick_cycles");
  at_least(config_.watchdog_limit, 0, "watchdog_limit");
  if (config_.watchdog_limit > kSchedulerWatchdogMax) {
    throw SchedulerError(
        "SchedulerModel: watchdog_limit must be <= " + std::to_string(kSchedulerWatchdogMax) +
        ", got " + std::to_string(config_.watchdog_limit));
  }
  load({});
}

void SchedulerModel::load(const std::vector<TableEntry>& table) {
  const auto ports = static_cast<std::size_t>(config_.ports);
  const auto latency = config_.decision_latency_cycles;
  table_ = table;
  pushed_ = 0;
  ring_.clear();
  fetch_ = -1;
  windows_.assign(ports, {});
  counts_.assign(static_cast<std::size_t>(config_.counters), 0);
  presented_arrivals_.clear();
  arrival_stages_.assign(static_cast<std::size_t>(latency - 2), {});
  presented_ready_.assign(ports, 0);
  presented_ack_.assign(ports, 1);
  ready_stages_.assign(static_cast<std::size_t>(latency - 1), std::vector<char>(ports, 0));
  presented_open_ = kAnyStep;
  open_stages_.assign(static_cast<std::size_t>(latency - 1), kAnyStep);
  min_step_ = INT_MAX;
  mask_.assign(ports, 0);
  grants_.clear();
  doorbell_rung_ = false;
  moves_fresh_ = false;
  idle_known_ = false;
  fault_ = SchedulerFault{};
  last_step_ = -1;
  overflow_pending_.fill(-1);
  watchdog_count_ = 0;
  watchdog_tick_ = false;
  // Load cycles: the host fills the ring, the fetch register fills the windows.
  for (std::size_t guard = 0; !idle(); ++guard) {
    if (guard > table_.size() + 4 * ports * static_cast<std::size_t>(config_.window) + 16) {
      throw std::logic_error("SchedulerModel: load did not settle");
    }
    tick();
  }
  cycle_ = 0;
  issued_count_ = 0;
}

void SchedulerModel::on_arrival(int counter) {
  if (counter < 0) {
    throw SchedulerError("SchedulerModel::on_arrival: counter " + std::to_string(counter) + " of " +
                         std::to_string(config_.counters));
  }
  presented_arrivals_.push_back(counter);
  idle_known_ = false;
}

void SchedulerModel::on_doorbell(int counter) {
  if (doorbell_rung_) {
    throw SchedulerError("SchedulerModel::on_doorbell: second doorbell in one cycle");
  }
  on_arrival(counter);
  doorbell_rung_ = true;
}

void SchedulerModel::set_port_ready(int port, bool ready) {
  if (port < 0 || port >= config_.ports) {
    throw SchedulerError("SchedulerModel::set_port_ready: port " + std::to_string(port) + " of " +
                         std::to_string(config_.ports));
  }
  presented_ready_[static_cast<std::size_t>(port)] = ready ? 1 : 0;
  idle_known_ = false;
}

void SchedulerModel::set_grant_ack(int port, bool ack) {
  if (port < 0 || port >= config_.ports) {
    throw SchedulerError("SchedulerModel::set_grant_ack: port " + std::to_string(port) + " of " +
                         std::to_string(config_.ports));
  }
  presented_ack_[static_cast<std::size_t>(port)] = ack ? 1 : 0;
  idle_known_ = false;
}

void SchedulerModel::set_open_step(int step) {
  if (step < 0) {
    throw SchedulerError("SchedulerModel::set_open_step: step " + std::to_string(step) +
                         " is negative");
  }
  presented_open_ = step;
  idle_known_ = false;
}

const std::vector<int>& SchedulerModel::lanes_now() const {
  return arrival_stages_.empty() ? presented_arrivals_ : arrival_stages_.back();
}

int SchedulerModel::hits(const std::vector<int>& lanes, int counter) const {
  return static_cast<int>(std::count(lanes.begin(), lanes.end(), counter));
}

const SchedulerModel::Moves& SchedulerModel::decide() const {
  Moves& m = moves_;
  // The decision depends only on registered state, which only tick() and load() change: idle()
  // and the tick() after it share one evaluation.
  if (moves_fresh_) return m;
  moves_fresh_ = true;
  m.insert = false;
  // Smallest step over the window heads and the fetch register (next registered value).
  m.min_step = fetch_ >= 0 ? table_[static_cast<std::size_t>(fetch_)].step : INT_MAX;
  for (const std::vector<Slot>& w : windows_) {
    if (!w.empty())
      m.min_step = std::min(m.min_step, table_[static_cast<std::size_t>(w[0].index)].step);
  }
  const std::vector<char>& seen_ready = ready_stages_.back();
  m.take.assign(windows_.size(), -1);
  // Step order: the smallest pending step, and only while the step barrier has opened it.
  const bool step_open = min_step_ <= open_stages_.back();
  const auto ready = [&](const Slot& s) {
    return s.remaining == 0 &&
           (!config_.step_order ||
            (step_open && table_[static_cast<std::size_t>(s.index)].step <= min_step_));
  };
  std::size_t next = 0;  // shared window: the slot after the last one taken
  for (std::size_t p = 0; p < windows_.size(); ++p) {
    if (!seen_ready[p] || mask_[p] > 0 || fault_) continue;  // halted after an error
    const std::vector<Slot>& w = windows_[config_.shared_window ? 0 : p];
    std::size_t j = config_.shared_window ? next : 0;
    while (j < w.size() && !ready(w[j])) ++j;
    if (j == w.size()) {
      if (config_.shared_window) break;  // no ready entry left for the higher ports
      continue;
    }
    m.take[p] = static_cast<int>(j);
    next = j + 1;
  }
  if (fetch_ >= 0) {  // an entry on no port (an error) stays in the fetch register, as in the RTL
    const int port = table_[static_cast<std::size_t>(fetch_)].port;
    m.insert = port >= 0 && port < config_.ports &&
               static_cast<int>(windows_[static_cast<std::size_t>(port)].size()) < config_.window;
  }
  m.load = (fetch_ < 0 || m.insert) && !ring_.empty();
  m.push = pushed_ < table_.size() && static_cast<int>(ring_.size()) < config_.depth;
  return m;
}

bool SchedulerModel::idle() const {
  if (!idle_known_) {
    idle_ = evaluate_idle();
    idle_known_ = true;
  }
  return idle_;
}

bool SchedulerModel::evaluate_idle() const {
  // A watchdog tick, a stall to flag, or a count that done() resets change the state.
  if (watchdog_tick_ || (stalled() && !fault_) || (watchdog_count_ != 0 && done())) return false;
  if (!grants_.empty() || !presented_arrivals_.empty() ||
      std::any_of(overflow_pending_.begin(), overflow_pending_.end(),
                  [](int c) { return c >= 0; })) {
    return false;
  }
  for (const std::vector<int>& s : arrival_stages_) {
    if (!s.empty()) return false;
  }
  for (const std::vector<char>& s : ready_stages_) {
    if (s != presented_ready_) return false;
  }
  for (const int s : open_stages_) {
    if (s != presented_open_) return false;
  }
  for (const int m : mask_) {
    if (m > 0) return false;
  }
  const Moves& m = decide();
  for (const int t : m.take) {
    if (t >= 0) return false;
  }
  return !m.insert && !m.load && !m.push && m.min_step == min_step_;
}

bool SchedulerModel::done() const {
  if (!ring_.empty() || fetch_ >= 0 || !grants_.empty()) return false;
  for (const std::vector<Slot>& w : windows_) {
    if (!w.empty()) return false;
  }
  return true;
}

SchedulerFaultCause SchedulerModel::decode(const TableEntry& e) const {
  using C = SchedulerFaultCause;
  const auto out = [](int value, int limit) { return value < 0 || (limit > 0 && value >= limit); };
  const SchedulerModelConfig& c = config_;
  if (out(e.port, c.ports)) return C::kPort;
  if (out(e.peer, c.nodes)) return C::kPeer;
  if (out(e.chunk, c.chunks)) return C::kChunk;
  if (out(e.flow, c.flows)) return C::kFlow;
  if (out(e.step, c.steps)) return C::kStep;
  if (out(e.wait_counter, c.counters)) return C::kWaitCounter;
  if (e.wait_count < 0 || (c.max_count >= 0 && e.wait_count > c.max_count)) return C::kWaitCount;
  if (out(e.dst_counter, c.counters)) return C::kDstCounter;
  if (c.step_order && last_step_ >= 0 && e.step < last_step_) return C::kUnsorted;
  return C::kNone;
}

void SchedulerModel::count(const std::vector<int>& lanes) {
  using C = SchedulerFaultCause;
  // The overflow of the lanes counted three edges ago is flagged now (the RTL sums lane_q one
  // edge after counting, registers the overflowing counters, then the lowest of each group).
  const int overflowed = overflow_pending_.back();
  for (std::size_t k = overflow_pending_.size() - 1; k > 0; --k)
    overflow_pending_[k] = overflow_pending_[k - 1];
  overflow_pending_[0] = -1;
  int bad_lane = -1;
  for (const int c : lanes) {  // lane order: the lowest lane's bad id is reported
    if (c >= config_.counters) {
      if (bad_lane < 0) bad_lane = c;
      continue;
    }
    int& n = counts_[static_cast<std::size_t>(c)];
    if (config_.max_count >= 0 && n >= config_.max_count) {
      int& lowest = overflow_pending_[0];
      if (lowest < 0 || c < lowest) lowest = c;
    } else {
      ++n;
    }
  }
  if (new_fault_) return;
  if (bad_lane >= 0) {
    new_fault_ = {C::kArrivalCounter, bad_lane};
  } else if (overflowed >= 0) {
    new_fault_ = {C::kCounterOverflow, overflowed};
  }
}

int SchedulerModel::stalled_entry() const {
  for (const std::vector<Slot>& w : windows_) {
    if (!w.empty()) return w[0].index;
  }
  return 0;
}

std::vector<IssueCommand> SchedulerModel::tick() {
  // The watchdog at this edge, from the registered state: nothing left to issue, the stall.
  const bool nothing_left = done();
  const bool stall = stalled();
  const int stall_entry = stall ? stalled_entry() : 0;
  bool accepted = false;
  std::vector<IssueCommand> visible = std::move(grants_);  // registered: new or held
  grants_.clear();
  const Moves& m = decide();
  const std::vector<int>& lanes = lanes_now();

  moves_fresh_ = false;  // the state changes below; m stays valid until then
  idle_known_ = false;
  // Windows: arrivals drop remaining counts, the taken slot leaves, the refill joins the back;
  // a visible grant not accepted stays (its port's mask held full: no take beside it).
  std::size_t v = 0;  // visible grants are by ascending port
  for (std::size_t p = 0; p < windows_.size(); ++p) {
    const IssueCommand* shown = nullptr;
    if (v < visible.size() && static_cast<std::size_t>(visible[v].port) == p) shown = &visible[v++];
    const bool held = shown != nullptr && presented_ack_[p] == 0;
    if (shown != nullptr && !held) {
      ++issued_count_;
      accepted = true;
    }
    std::vector<Slot>& w = windows_[p];
    if (!lanes.empty()) {  // else no arrival is counted this cycle: no remaining count drops
      for (Slot& s : w) {
        const int wait_counter = table_[static_cast<std::size_t>(s.index)].wait_counter;
        s.remaining = std::max(0, s.remaining - hits(lanes, wait_counter));
      }
    }
    if (m.take[p] >= 0) {
      // Shared window: the slot is window 0's, which leaves after the loop (below).
      const std::vector<Slot>& from = config_.shared_window ? windows_[0] : w;
      const Slot s = from[static_cast<std::size_t>(m.take[p])];
      grants_.push_back(
          IssueCommand{static_cast<int>(p), s.index, table_[static_cast<std::size_t>(s.index)]});
      if (!config_.shared_window) w.erase(w.begin() + m.take[p]);
      mask_[p] = config_.decision_latency_cycles;
    } else if (held) {
      grants_.push_back(*shown);
    } else {
      mask_[p] = std::max(0, mask_[p] - 1);
    }
  }
  if (config_.shared_window) {  // the taken slots leave window 0, highest first
    std::vector<Slot>& w = windows_[0];
    for (std::size_t p = windows_.size(); p-- > 0;) {
      if (m.take[p] >= 0) w.erase(w.begin() + m.take[p]);
    }
  }
  if (m.insert) {
    const TableEntry& e = table_[static_cast<std::size_t>(fetch_)];
    const bool real = e.wait_counter >= 0 && e.wait_counter < config_.counters;  // else an error
    const int have = real ? counts_[static_cast<std::size_t>(e.wait_counter)] : 0;
    const int remaining =
        std::max(0, std::max(0, e.wait_count - have) - hits(lanes, e.wait_counter));
    windows_[static_cast<std::size_t>(e.port)].push_back(Slot{fetch_, remaining});
  }
  // Errors found at this edge, the lowest cause first (the RTL's priority): the entry written
  // now, then the lanes counted now, then last cycle's overflow.
  new_fault_ = SchedulerFault{};
  if (m.push) {
    const TableEntry& e = table_[pushed_];
    const SchedulerFaultCause cause = decode(e);
    if (cause != SchedulerFaultCause::kNone) new_fault_ = {cause, static_cast<int>(pushed_)};
    last_step_ = e.step;
  }
  count(lanes);
  if (!new_fault_ && stall) new_fault_ = {SchedulerFaultCause::kStalled, stall_entry};
  if (!fault_) fault_ = new_fault_;
  // Watchdog: progress resets the count; a tick while a port is seen ready counts one.
  const std::vector<char>& seen_ready = ready_stages_.back();
  if (m.push || !lanes.empty() || accepted || nothing_left) {
    watchdog_count_ = 0;
  } else if (watchdog_tick_ && watchdog_count_ < kSchedulerWatchdogMax &&
             std::any_of(seen_ready.begin(), seen_ready.end(), [](char r) { return r != 0; })) {
    ++watchdog_count_;
  }
  watchdog_tick_ = false;
  // Ring and fetch register.
  if (m.load) {
    fetch_ = ring_.front();
    ring_.pop_front();
  } else if (m.insert) {
    fetch_ = -1;
  }
  if (m.push) ring_.push_back(static_cast<int>(pushed_++));
  min_step_ = m.min_step;
  // Input stages.
  // Input stages shift by one; the oldest stage's storage is reused (no allocation per cycle).
  if (!arrival_stages_.empty()) {
    std::vector<int> stage = std::move(arrival_stages_.back());
    arrival_stages_.pop_back();
    stage.swap(presented_arrivals_);  // the presented counters enter; the old storage is reused
    arrival_stages_.push_front(std::move(stage));
  }
  std::vector<char> ready = std::move(ready_stages_.back());
  ready_stages_.pop_back();
  ready.assign(presented_ready_.begin(), presented_ready_.end());
  ready_stages_.push_front(std::move(ready));
  open_stages_.pop_back();
  open_stages_.push_front(presented_open_);
  presented_arrivals_.clear();
  doorbell_rung_ = false;
  ++cycle_;
  return visible;
}

}  // namespace mt
