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
  presented_.arrivals.assign(counters, 0);
  presented_.ready.assign(ports, 0);
  pipeline_.clear();
  for (int s = 0; s + 1 < config_.decision_latency_cycles; ++s) pipeline_.push_back(presented_);
  seen_counts_.assign(counters, 0);
  seen_ready_.assign(ports, 0);
  mask_.assign(ports, 0);
  first_pending_.assign(ports, 0);
}

void SchedulerModel::on_arrival(int counter) {
  if (counter < 0 || counter >= config_.counters) {
    throw std::invalid_argument("SchedulerModel::on_arrival: counter " + std::to_string(counter) +
                                " of " + std::to_string(config_.counters));
  }
  ++presented_.arrivals[static_cast<std::size_t>(counter)];
}

void SchedulerModel::set_port_ready(int port, bool ready) {
  if (port < 0 || port >= config_.ports) {
    throw std::invalid_argument("SchedulerModel::set_port_ready: port " + std::to_string(port) +
                                " of " + std::to_string(config_.ports));
  }
  presented_.ready[static_cast<std::size_t>(port)] = ready ? 1 : 0;
}

int SchedulerModel::min_pending_step() const {
  int step = INT_MAX;
  for (std::size_t i = 0; i < table_.size(); ++i) {
    if (!issued_[i]) step = std::min(step, table_[i].step);
  }
  return step;
}

std::vector<IssueCommand> SchedulerModel::tick() {
  // Decision of this cycle, from the registered state only.
  std::vector<IssueCommand> issues;
  const int min_step = config_.step_order ? min_pending_step() : INT_MAX;
  for (int p = 0; p < config_.ports; ++p) {
    const auto up = static_cast<std::size_t>(p);
    if (!seen_ready_[up] || mask_[up] > 0) continue;
    // Skip the issued prefix of this port (speed only; the rule is "lowest index").
    std::size_t& first = first_pending_[up];
    while (first < table_.size() && (issued_[first] || table_[first].port != p)) ++first;
    for (std::size_t i = first; i < table_.size(); ++i) {
      const TableEntry& e = table_[i];
      if (issued_[i] || e.port != p) continue;
      if (config_.step_order && e.step > min_step) continue;
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
  }
  pipeline_.push_back(presented_);
  const Stage oldest = pipeline_.front();
  pipeline_.pop_front();
  for (std::size_t c = 0; c < seen_counts_.size(); ++c) seen_counts_[c] += oldest.arrivals[c];
  seen_ready_ = oldest.ready;
  std::fill(presented_.arrivals.begin(), presented_.arrivals.end(), 0);  // ready levels hold
  ++cycle_;
  return issues;
}

}  // namespace mt
