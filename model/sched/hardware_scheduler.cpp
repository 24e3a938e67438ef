#include "model/sched/hardware_scheduler.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mt {

HardwareScheduler::HardwareScheduler(std::unique_ptr<CycleScheduler> engine,
                                     std::vector<TableEntry> table, int ports)
    : engine_(std::move(engine)), table_(std::move(table)) {
  if (!engine_) throw SchedulerError("HardwareScheduler: no engine");
  if (ports < 1) throw SchedulerError("HardwareScheduler: ports must be >= 1");
  for (std::size_t i = 0; i < table_.size(); ++i) {
    if (table_[i].port < 0 || table_[i].port >= ports) {
      throw SchedulerError("HardwareScheduler: table entry " + std::to_string(i) + " uses port " +
                           std::to_string(table_[i].port) + " of " + std::to_string(ports));
    }
  }
  issued_.assign(table_.size(), 0);
  port_level_.assign(static_cast<std::size_t>(ports), 0);
  pending_.assign(static_cast<std::size_t>(ports), -1);
  engine_->load(table_);
}

void HardwareScheduler::tick_once() {
  ++next_tick_;
  ++ticks_;
  const std::vector<IssueCommand> issues = engine_->tick();
  for (const IssueCommand& c : issues) {
    if (pending_.at(static_cast<std::size_t>(c.port)) >= 0) {
      throw SchedulerError("HardwareScheduler: port " + std::to_string(c.port) +
                           " issued twice before the NIC took the first");
    }
    pending_[static_cast<std::size_t>(c.port)] = c.index;
  }
}

void HardwareScheduler::sync(std::uint64_t now) {
  while (next_tick_ < now) {
    if (engine_->idle()) {
      next_tick_ = now;  // idle cycles change nothing
      break;
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
  engine_->on_doorbell(counter);
}

void HardwareScheduler::set_port_ready(int port, bool ready, std::uint64_t now) {
  char& level = port_level_.at(static_cast<std::size_t>(port));
  if ((level != 0) == ready) return;
  sync(now);
  level = ready ? 1 : 0;
  engine_->set_port_ready(port, ready);
}

int HardwareScheduler::next_ready(int port, std::uint64_t now_cycles) {
  sync(now_cycles);
  if (next_tick_ == now_cycles) tick_once();  // the decision of this cycle
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
  for (const int p : pending_) {
    if (p >= 0) return now + 1;  // an issue waits for its port (should not happen)
  }
  if (issued_count_ == table_.size()) return kNoEvent;
  return engine_->idle() ? kNoEvent : std::max(now + 1, next_tick_);
}

std::unique_ptr<Scheduler> make_model_scheduler(const std::vector<TableEntry>& table,
                                                const SchedulerModelConfig& config) {
  return std::make_unique<HardwareScheduler>(std::make_unique<SchedulerModel>(config), table,
                                             config.ports);
}

}  // namespace mt
