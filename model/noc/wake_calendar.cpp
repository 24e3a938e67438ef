#include "model/noc/wake_calendar.h"

#include "model/noc/cycle_clock.h"

#include <algorithm>

#include "model/noc/process_fault.h"

namespace mt {

WakeCalendar::WakeCalendar(const sc_core::sc_module_name& name, const CycleClock& clock)
    : sc_core::sc_module(name), clock_(clock), ring_(kBuckets) {
  SC_METHOD(process);
  sensitive << event_;
  dont_initialize();
}

void WakeCalendar::set_order(const CalendarOrder& order) {
  order_ = order;
  shuffle_rng_.seed(order.seed);
}

void WakeCalendar::add(CalendarClient* client, std::uint64_t cycle) {
  const std::uint64_t now = clock_.now();
  if (cycle < now) cycle = now;
  if (cycle - base_ < kBuckets) {
    std::vector<CalendarClient*>& entries = bucket(cycle);
    if (entries.empty() && !(running_ && cycle == now)) cycles_.push(cycle);
    entries.push_back(client);
  } else {
    far_.emplace(cycle, far_asked_++, client);
  }
  // While process() runs, it runs an entry for now after the entries due now and notifies
  // itself for the next cycle when it ends.
  if (!running_ && cycle < notified_) notify_at(cycle, now);
}

void WakeCalendar::notify_at(std::uint64_t cycle, std::uint64_t now) {
  notified_ = cycle;
  if (cycle == now) {
    event_.notify(sc_core::SC_ZERO_TIME);
  } else {
    event_.notify(clock_.to_time(cycle - now));
  }
}

std::uint64_t WakeCalendar::next_cycle() const {
  std::uint64_t next = kNone;
  if (!cycles_.empty()) next = cycles_.top();
  if (!far_.empty() && std::get<0>(far_.top()) < next) next = std::get<0>(far_.top());
  return next;
}

void WakeCalendar::arrange(std::vector<CalendarClient*>& due, std::size_t begin, std::size_t end) {
  if (order_.kind == CalendarOrder::Kind::kReversed) {
    std::reverse(due.begin() + static_cast<std::ptrdiff_t>(begin),
                 due.begin() + static_cast<std::ptrdiff_t>(end));
  } else if (order_.kind == CalendarOrder::Kind::kShuffled) {
    std::shuffle(due.begin() + static_cast<std::ptrdiff_t>(begin),
                 due.begin() + static_cast<std::ptrdiff_t>(end), shuffle_rng_);
  }
}

void WakeCalendar::process() {
  guard_process([this] { run_cycle(); });
}

void WakeCalendar::run_cycle() {
  const std::uint64_t now = clock_.now();
  notified_ = kNone;
  base_ = now;
  while (!cycles_.empty() && cycles_.top() <= now) cycles_.pop();
  std::vector<CalendarClient*>& due = bucket(now);
  while (!far_.empty() && std::get<0>(far_.top()) <= now) {
    due.push_back(std::get<2>(far_.top()));
    far_.pop();
  }
  running_ = true;
  // Runs may add entries for now: they join the back, as the next batch.
  for (std::size_t begin = 0; begin < due.size();) {
    const std::size_t end = due.size();
    arrange(due, begin, end);
    for (std::size_t i = begin; i < end; ++i) {
      ++entries_run_;
      due[i]->run_due(now);
    }
    begin = end;
  }
  due.clear();
  running_ = false;
  const std::uint64_t next = next_cycle();
  if (next != kNone) notify_at(next, now);
}

}  // namespace mt
