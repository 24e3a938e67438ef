#include "model/noc/wake_calendar.h"

#include "model/noc/cycle_clock.h"

namespace mt {

WakeCalendar::WakeCalendar(const sc_core::sc_module_name& name, const CycleClock& clock)
    : sc_core::sc_module(name), clock_(clock), ring_(kBuckets) {
  SC_METHOD(process);
  sensitive << event_;
  dont_initialize();
}

void WakeCalendar::add(CalendarClient* client, std::uint64_t cycle) {
  const std::uint64_t now = clock_.now();
  if (cycle < now) cycle = now;
  if (cycle - base_ < kBuckets) {
    std::vector<CalendarClient*>& entries = bucket(cycle);
    if (entries.empty() && !(running_ && cycle == now)) cycles_.push(cycle);
    entries.push_back(client);
  } else {
    far_.emplace(cycle, client);
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
  if (!far_.empty() && far_.top().first < next) next = far_.top().first;
  return next;
}

void WakeCalendar::process() {
  const std::uint64_t now = clock_.now();
  notified_ = kNone;
  base_ = now;
  while (!cycles_.empty() && cycles_.top() <= now) cycles_.pop();
  std::vector<CalendarClient*>& due = bucket(now);
  while (!far_.empty() && far_.top().first <= now) {
    due.push_back(far_.top().second);
    far_.pop();
  }
  running_ = true;
  // (Runs may add entries for now: they join the back.)
  for (std::size_t i = 0; i < due.size(); ++i) {
    ++entries_run_;
    due[i]->run_due(now);
  }
  due.clear();
  running_ = false;
  const std::uint64_t next = next_cycle();
  if (next != kNone) notify_at(next, now);
}

}  // namespace mt
