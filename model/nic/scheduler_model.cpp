#include "model/nic/scheduler_model.h"

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

namespace mt {

SchedulerModel::SchedulerModel(const SchedulerModelConfig& config) : config_(config) {
  if (config_.ports < 1) throw std::invalid_argument("SchedulerModel: ports must be >= 1");
  if (config_.decision_latency_cycles < 1) {
    throw std::invalid_argument("SchedulerModel: decision_latency_cycles must be >= 1");
  }
  if (config_.counters < 1) throw std::invalid_argument("SchedulerModel: counters must be >= 1");
  if (config_.depth < 0) throw std::invalid_argument("SchedulerModel: depth must be >= 0");
  load({});
}

void SchedulerModel::load(const std::vector<TableEntry>& table) {
  if (config_.depth > 0 && static_cast<int>(table.size()) > config_.depth) {
    throw std::invalid_argument("SchedulerModel: table of " + std::to_string(table.size()) +
                                " entries exceeds depth " + std::to_string(config_.depth));
  }
  for (std::size_t i = 0; i < table.size(); ++i) {
    const TableEntry& e = table[i];
    const std::string what = "SchedulerModel: entry " + std::to_string(i);
    if (e.port < 0 || e.port >= config_.ports) {
      throw std::invalid_argument(what + ": port " + std::to_string(e.port) + " of " +
                                  std::to_string(config_.ports));
    }
    if (e.wait_counter < 0 || e.wait_counter >= config_.counters || e.wait_count < 0) {
      throw std::invalid_argument(what + ": wait_counter " + std::to_string(e.wait_counter) +
                                  " of " + std::to_string(config_.counters) + " counters");
    }
    if (e.dst_counter < 0) throw std::invalid_argument(what + ": negative dst_counter");
  }
  table_ = table;
  issued_.assign(table_.size(), 0);
  issued_count_ = 0;
  cycle_ = 0;
  const auto counters = static_cast<std::size_t>(config_.counters);
  const auto ports = static_cast<std::size_t>(config_.ports);
  stages_.assign(static_cast<std::size_t>(config_.decision_latency_cycles),
                 Stage{{}, std::vector<char>(ports, 0)});
  head_ = 0;
  presented_ready_.assign(ports, 0);
  seen_counts_.assign(counters, 0);
  seen_ready_.assign(ports, 0);
  mask_.assign(ports, 0);
  port_entries_.assign(ports, {});
  first_pending_.assign(ports, 0);
  steps_.clear();
  sorted_by_step_ = true;
  for (std::size_t i = 0; i < table_.size(); ++i) {
    port_entries_[static_cast<std::size_t>(table_[i].port)].push_back(static_cast<int>(i));
    steps_.push_back(table_[i].step);
    if (i > 0 && table_[i].step < table_[i - 1].step) sorted_by_step_ = false;
  }
  std::sort(steps_.begin(), steps_.end());
  steps_.erase(std::unique(steps_.begin(), steps_.end()), steps_.end());
  pending_.assign(steps_.size(), 0);
  for (const TableEntry& e : table_) ++pending_[step_position(e.step)];
  min_step_pos_ = 0;
}

std::size_t SchedulerModel::step_position(int step) const {
  return static_cast<std::size_t>(std::lower_bound(steps_.begin(), steps_.end(), step) -
                                  steps_.begin());
}

void SchedulerModel::on_arrival(int counter) {
  if (counter < 0 || counter >= config_.counters) {
    throw std::invalid_argument("SchedulerModel::on_arrival: counter " + std::to_string(counter) +
                                " of " + std::to_string(config_.counters));
  }
  stages_[head_].arrivals.push_back(counter);
}

void SchedulerModel::set_port_ready(int port, bool ready) {
  if (port < 0 || port >= config_.ports) {
    throw std::invalid_argument("SchedulerModel::set_port_ready: port " + std::to_string(port) +
                                " of " + std::to_string(config_.ports));
  }
  presented_ready_[static_cast<std::size_t>(port)] = ready ? 1 : 0;
}

int SchedulerModel::min_pending_step() const {
  return min_step_pos_ < steps_.size() ? steps_[min_step_pos_] : INT_MAX;
}

std::vector<IssueCommand> SchedulerModel::tick() {
  // Decision of this cycle, from the registered state only.
  std::vector<IssueCommand> issues;
  const int min_step = config_.step_order ? min_pending_step() : INT_MAX;
  for (int p = 0; p < config_.ports; ++p) {
    const auto up = static_cast<std::size_t>(p);
    if (!seen_ready_[up] || mask_[up] > 0) continue;
    // Skip the issued prefix of this port (speed only; the rule is "lowest index").
    const std::vector<int>& mine = port_entries_[up];
    std::size_t& first = first_pending_[up];
    while (first < mine.size() && issued_[static_cast<std::size_t>(mine[first])]) ++first;
    for (std::size_t k = first; k < mine.size(); ++k) {
      const auto i = static_cast<std::size_t>(mine[k]);
      const TableEntry& e = table_[i];
      if (issued_[i]) continue;
      if (config_.step_order && e.step > min_step) {
        if (sorted_by_step_) break;  // every later entry has a later step too
        continue;
      }
      if (seen_counts_[static_cast<std::size_t>(e.wait_counter)] < e.wait_count) continue;
      issues.push_back(IssueCommand{p, static_cast<int>(i), e});
      break;
    }
  }
  // Clock edge: issue state, masks, and the input pipeline.
  for (int& m : mask_) m = std::max(0, m - 1);
  for (const IssueCommand& c : issues) {
    issued_[static_cast<std::size_t>(c.index)] = 1;
    ++issued_count_;
    mask_[static_cast<std::size_t>(c.port)] = config_.decision_latency_cycles;
    --pending_[step_position(c.entry.step)];
  }
  while (min_step_pos_ < pending_.size() && pending_[min_step_pos_] == 0) ++min_step_pos_;
  // The stage of this cycle closes with the ready levels presented so far; the oldest stage
  // (L cycles old; this one itself when L = 1) reaches the decision logic.
  stages_[head_].ready = presented_ready_;
  head_ = (head_ + 1) % stages_.size();
  Stage& oldest = stages_[head_];
  for (const int c : oldest.arrivals) ++seen_counts_[static_cast<std::size_t>(c)];
  seen_ready_ = oldest.ready;
  oldest.arrivals.clear();  // the slot takes the next cycle's inputs
  ++cycle_;
  return issues;
}

}  // namespace mt
