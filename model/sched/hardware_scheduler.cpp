#include "model/sched/hardware_scheduler.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace mt {

HardwareScheduler::HardwareScheduler(std::unique_ptr<CycleScheduler> engine,
                                     std::vector<TableEntry> table,
                                     const SchedulerModelConfig& config)
    : engine_(std::move(engine)),
      table_(std::move(table)),
      period_(config.network_cycles_per_tick),
      node_(config.node) {
  const int ports = config.ports;
  if (!engine_) throw SchedulerError("HardwareScheduler: no engine");
  if (ports < 1) throw SchedulerError("HardwareScheduler: ports must be >= 1");
  if (!(period_ >= 1.0))
    throw SchedulerError("HardwareScheduler: the scheduler's clock is faster than the network's (" +
                         std::to_string(period_) + " network cycles per scheduler cycle)");
  if (config.watchdog_limit > 0) {
    if (config.watchdog_tick_cycles < 1)
      throw SchedulerError("HardwareScheduler: watchdog_tick_cycles must be >= 1");
    watchdog_period_ = config.watchdog_tick_cycles;
  }
  for (std::size_t i = 0; i < table_.size(); ++i) {
    if (config.shared_window && table_[i].port != 0) {
      throw SchedulerError("HardwareScheduler: table entry " + std::to_string(i) + " uses port " +
                           std::to_string(table_[i].port) +
                           ", but a shared window (port binding any) holds every entry on port 0");
    }
    if (table_[i].port < 0 || table_[i].port >= ports) {
      throw SchedulerError("HardwareScheduler: table entry " + std::to_string(i) + " uses port " +
                           std::to_string(table_[i].port) + " of " + std::to_string(ports));
    }
  }
  issued_.assign(table_.size(), 0);
  port_level_.assign(static_cast<std::size_t>(ports), 0);
  pending_.assign(static_cast<std::size_t>(ports), -1);
  engine_->load(table_);
  if (engine_->fault()) throw_fault("while its table was loaded");
}

void HardwareScheduler::throw_fault(const std::string& when) const {
  const SchedulerFault fault = engine_->fault();
  throw SchedulerError((node_ >= 0 ? "node " + std::to_string(node_) + ": " : std::string()) +
                       "the NIC scheduler flagged an error " + when + ": " + describe(fault) +
                       "; it halted (rtl/README.md, Errors)");
}

std::uint64_t HardwareScheduler::tick_cycle(std::uint64_t k) const {
  if (period_ == 1.0) return k;
  return static_cast<std::uint64_t>(std::ceil(static_cast<double>(k) * period_));
}

void HardwareScheduler::skip_to(std::uint64_t now) {
  if (period_ == 1.0) {  // tick k at network cycle k: the search below lands on this
    next_index_ = std::max(next_index_, now);
    next_tick_ = next_index_;
    return;
  }
  std::uint64_t k = std::max(
      next_index_, static_cast<std::uint64_t>(std::floor(static_cast<double>(now) / period_)));
  while (k > next_index_ && tick_cycle(k - 1) >= now) --k;
  while (tick_cycle(k) < now) ++k;
  next_index_ = k;
  next_tick_ = tick_cycle(k);
}

std::uint64_t HardwareScheduler::next_watchdog_index() const {
  if (watchdog_period_ == 0 || engine_->done()) return kNoEvent;
  const auto period = static_cast<std::uint64_t>(watchdog_period_);
  return (next_index_ + period - 1) / period * period;
}

void HardwareScheduler::tick_once() {
  if (next_watchdog_index() == next_index_) engine_->on_watchdog_tick();
  next_tick_ = tick_cycle(++next_index_);
  ++ticks_;
  const std::vector<IssueCommand> issues = engine_->tick();
  // (The message is built only on an error: this runs every engine cycle.)
  if (engine_->fault())
    throw_fault("at network cycle " + std::to_string(tick_cycle(next_index_ - 1)));
  doorbell_presented_ = false;
  if (!doorbells_.empty()) {
    engine_->on_doorbell(doorbells_.front());
    doorbells_.pop_front();
    doorbell_presented_ = true;
  }
  for (const IssueCommand& c : issues) {
    if (pending_.at(static_cast<std::size_t>(c.port)) >= 0) {
      throw SchedulerError("HardwareScheduler: port " + std::to_string(c.port) +
                           " issued twice before the NIC took the first");
    }
    pending_[static_cast<std::size_t>(c.port)] = c.index;
  }
}

bool HardwareScheduler::quiet() const {
  return engine_->idle() && doorbells_.empty() && next_watchdog_index() != next_index_;
}

void HardwareScheduler::sync(std::uint64_t now) {
  while (next_tick_ < now) {
    if (quiet()) {
      // Idle cycles change nothing: skip them, up to a watchdog tick's cycle.
      const std::uint64_t k = next_watchdog_index();
      if (k == kNoEvent || tick_cycle(k) >= now) {
        skip_to(now);
        break;
      }
      skip_to(tick_cycle(k));
      continue;
    }
    tick_once();
  }
}

void HardwareScheduler::on_arrival(int message, int counter, std::uint64_t now) {
  (void)message;  // the hardware counts arrivals by the header's counter
  sync(now);
  engine_->on_arrival(counter);
}

void HardwareScheduler::on_doorbell(int counter, std::uint64_t now) {
  sync(now);
  if (doorbell_presented_) {
    doorbells_.push_back(counter);
    return;
  }
  engine_->on_doorbell(counter);
  doorbell_presented_ = true;
}

void HardwareScheduler::set_port_ready(int port, bool ready, std::uint64_t now) {
  char& level = port_level_.at(static_cast<std::size_t>(port));
  // A grant the NIC has not taken yet (its DMA holds it until the port frees) keeps the port's
  // request low: the engine needs ready low from the cycle after an accepted grant.
  ready = ready && pending_.at(static_cast<std::size_t>(port)) < 0;
  if ((level != 0) == ready) return;
  sync(now);
  level = ready ? 1 : 0;
  engine_->set_port_ready(port, ready);
}

void HardwareScheduler::set_open_step(int step, std::uint64_t now) {
  if (step == open_step_) return;
  sync(now);
  open_step_ = step;
  engine_->set_open_step(step);
}

int HardwareScheduler::next_ready(int port, std::uint64_t now_cycles) {
  sync(now_cycles);
  // The decision of this cycle; an idle engine's changes nothing and is skipped as in sync(),
  // so the cycles it works (its energy) do not depend on which cycles the NIC runs in.
  if (next_tick_ == now_cycles) {
    if (quiet()) {
      skip_to(now_cycles + 1);
    } else {
      tick_once();
    }
  }
  return pending_.at(static_cast<std::size_t>(port));
}

void HardwareScheduler::pop(int port) {
  int& index = pending_.at(static_cast<std::size_t>(port));
  if (index < 0) throw SchedulerError("HardwareScheduler::pop: no issue pending on this port");
  issued_[static_cast<std::size_t>(index)] = 1;
  ++issued_count_;
  index = -1;
}

std::uint64_t HardwareScheduler::next_event_cycle(std::uint64_t now) {
  // The engine's cycles before `now` (their inputs are all in) run here, so that a watchdog tick
  // due in one of them is not waited for cycle after cycle by a NIC whose ports are all busy
  // (nothing else would run them). Cycle-neutral: results do not depend on which cycles the NIC
  // runs in (docs/timing_contract.md).
  sync(now);
  for (const int p : pending_) {
    if (p >= 0) return now + 1;  // a grant waits for its port (an early request's)
  }
  if (issued_count_ == table_.size()) return kNoEvent;
  if (!quiet()) return std::max(now + 1, next_tick_);
  const std::uint64_t k = next_watchdog_index();  // an idle engine still counts watchdog ticks
  return k == kNoEvent ? kNoEvent : std::max(now + 1, tick_cycle(k));
}

std::unique_ptr<Scheduler> make_model_scheduler(const std::vector<TableEntry>& table,
                                                const SchedulerModelConfig& config) {
  return std::make_unique<HardwareScheduler>(std::make_unique<SchedulerModel>(config), table,
                                             config);
}

}  // namespace mt
