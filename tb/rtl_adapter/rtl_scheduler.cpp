#include "tb/rtl_adapter/rtl_scheduler.h"

#include <Vnic_sched_cc.h>
#include <verilated.h>

#include <stdexcept>
#include <string>

#include "model/nic/hardware_scheduler.h"
#include "tb/rtl_adapter/rtl_bits.h"

namespace mt {

TableFormat RtlBuildParams::format() const {
  return TableFormat::make(nodes, ports, chunks, flows, steps, counters, max_count);
}

RtlBuildParams rtl_build_params() {
  RtlBuildParams p;
  p.nodes = MT_RTL_NODES;
  p.ports = MT_RTL_PORTS;
  p.depth = MT_RTL_DEPTH;
  p.chunks = MT_RTL_CHUNKS;
  p.flows = MT_RTL_FLOWS;
  p.steps = MT_RTL_STEPS;
  p.counters = MT_RTL_COUNTERS;
  p.max_count = MT_RTL_MAX_COUNT;
  p.arrival_lanes = MT_RTL_ARRIVAL_LANES;
  p.decision_latency = MT_RTL_DECISION_LATENCY;
  return p;
}

struct RtlCycleScheduler::Impl {
  RtlBuildParams build = rtl_build_params();
  TableFormat format = build.format();
  int index_bits = build.depth > 1 ? clog2(static_cast<std::uint64_t>(build.depth)) : 1;
  SchedulerModelConfig config;
  VerilatedContext context;
  std::unique_ptr<Vnic_sched_cc> top;
  std::vector<int> arrivals;  // counters presented in the current cycle
  std::uint64_t clocks = 0;
  // Ticks since the last input change or grant. Once it exceeds the decision latency every
  // register of the RTL holds its next value (input stages equal the inputs, masks are zero,
  // counters and issue state are stable) and the grants are none: ticking changes nothing, so
  // the Verilated model is not evaluated until an input changes.
  int quiet_ticks = 0;

  // One clock: inputs are already on the pins; falling then rising edge.
  void clock() {
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
    ++clocks;
  }
};

RtlCycleScheduler::RtlCycleScheduler(const SchedulerModelConfig& config)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  const RtlBuildParams& b = m.build;
  const auto too_big = [](const std::string& what, int want, int have, const char* var) {
    return std::invalid_argument("RTL scheduler: " + what + " " + std::to_string(want) +
                                 " exceeds the Verilated nic_sched's " + std::to_string(have) +
                                 " (reconfigure with -D" + var + "=" + std::to_string(want) + ")");
  };
  if (config.ports > b.ports) throw too_big("ports", config.ports, b.ports, "MT_RTL_PORTS");
  if (config.counters > b.counters) {
    throw too_big("counters", config.counters, b.counters, "MT_RTL_COUNTERS");
  }
  if (config.depth > b.depth) throw too_big("table depth", config.depth, b.depth, "MT_RTL_DEPTH");
  if (config.decision_latency_cycles != b.decision_latency) {
    throw std::invalid_argument("RTL scheduler: nic.decision_latency_cycles " +
                                std::to_string(config.decision_latency_cycles) +
                                " but the Verilated nic_sched has " + "DecisionLatency " +
                                std::to_string(b.decision_latency) +
                                " (reconfigure with -DMT_RTL_DECISION_LATENCY=" +
                                std::to_string(config.decision_latency_cycles) + ")");
  }
  m.config = config;
  m.context.fatalOnError(false);  // a failed assertion throws below instead of exiting
  m.top = std::make_unique<Vnic_sched_cc>(&m.context, "nic_sched");
  m.top->clk_i = 0;
  m.top->rst_ni = 0;
  m.top->eval();
  m.top->rst_ni = 1;
  m.top->eval();
}

RtlCycleScheduler::~RtlCycleScheduler() {
  if (impl_ && impl_->top) impl_->top->final();
}

void RtlCycleScheduler::load(const std::vector<TableEntry>& table) {
  Impl& m = *impl_;
  if (static_cast<int>(table.size()) > m.build.depth) {
    throw std::invalid_argument("RTL scheduler: table of " + std::to_string(table.size()) +
                                " entries exceeds the Verilated nic_sched's Depth " +
                                std::to_string(m.build.depth) +
                                " (reconfigure with -DMT_RTL_DEPTH)");
  }
  // Encode first: a field that does not fit throws before the RTL is touched.
  std::vector<std::vector<std::uint64_t>> words;
  words.reserve(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    try {
      words.push_back(encode_entry(table[i], m.format));
    } catch (const TableError& e) {
      throw TableError("RTL scheduler: entry " + std::to_string(i) + ": " + e.what() +
                       " of the Verilated nic_sched (reconfigure with the MT_RTL_* variables)");
    }
  }
  Vnic_sched_cc& top = *m.top;
  top.step_order_i = m.config.step_order ? 1 : 0;
  top.port_ready_i = 0;
  top.arr_valid_i = 0;
  top.tbl_we_i = 0;
  top.clear_i = 1;
  m.clock();
  top.clear_i = 0;
  top.tbl_we_i = 1;
  for (const auto& w : words) {
    rtl_bits::put_words(top.tbl_wdata_i, 0, m.format.entry_bits(), w);
    m.clock();
  }
  top.tbl_we_i = 0;
  top.clk_i = 0;
  top.eval();
  m.arrivals.clear();
  m.quiet_ticks = 0;
  if (static_cast<std::size_t>(top.tbl_size_o) != table.size()) {
    throw std::logic_error("RTL scheduler: table size " + std::to_string(top.tbl_size_o) +
                           " after writing " + std::to_string(table.size()) + " entries");
  }
}

void RtlCycleScheduler::on_arrival(int counter) {
  Impl& m = *impl_;
  if (counter < 0 || counter >= m.config.counters) {
    throw std::invalid_argument("RTL scheduler: arrival for counter " + std::to_string(counter) +
                                " of " + std::to_string(m.config.counters));
  }
  m.arrivals.push_back(counter);
  m.quiet_ticks = 0;
}

void RtlCycleScheduler::set_port_ready(int port, bool ready) {
  Impl& m = *impl_;
  if (port < 0 || port >= m.config.ports) {
    throw std::invalid_argument("RTL scheduler: port " + std::to_string(port) + " of " +
                                std::to_string(m.config.ports));
  }
  const std::uint64_t level = ready ? 1 : 0;
  if (rtl_bits::get(m.top->port_ready_i, port, 1) == level) return;
  rtl_bits::put(m.top->port_ready_i, port, 1, level);
  m.quiet_ticks = 0;
}

std::vector<IssueCommand> RtlCycleScheduler::tick() {
  Impl& m = *impl_;
  Vnic_sched_cc& top = *m.top;
  if (m.quiet_ticks > m.build.decision_latency) return {};  // settled: nothing can change
  if (static_cast<int>(m.arrivals.size()) > m.build.arrival_lanes) {
    throw std::runtime_error("RTL scheduler: " + std::to_string(m.arrivals.size()) +
                             " arrivals in one cycle, the Verilated nic_sched takes " +
                             std::to_string(m.build.arrival_lanes) +
                             " (reconfigure with -DMT_RTL_ARRIVAL_LANES)");
  }
  const int counter_bits = m.format.counter_bits;
  std::uint64_t valid = 0;
  for (std::size_t l = 0; l < m.arrivals.size(); ++l) {
    valid |= std::uint64_t{1} << l;
    rtl_bits::put(top.arr_counter_i, static_cast<int>(l) * counter_bits, counter_bits,
                  static_cast<std::uint64_t>(m.arrivals[l]));
  }
  rtl_bits::put(top.arr_valid_i, 0, m.build.arrival_lanes, valid);
  m.arrivals.clear();

  // The grants of this cycle were settled by the last edge (registered state only).
  std::vector<IssueCommand> issues;
  const int entry_bits = m.format.entry_bits();
  for (int p = 0; p < m.config.ports; ++p) {
    if (rtl_bits::get(top.grant_o, p, 1) == 0) continue;
    IssueCommand c;
    c.port = p;
    c.index = static_cast<int>(rtl_bits::get(top.grant_index_o, p * m.index_bits, m.index_bits));
    c.entry =
        decode_entry(rtl_bits::get_words(top.grant_entry_o, p * entry_bits, entry_bits), m.format);
    issues.push_back(c);
  }
  m.clock();
  top.arr_valid_i = 0;
  m.quiet_ticks = issues.empty() ? m.quiet_ticks + 1 : 0;
  if (m.context.gotError()) {
    throw std::runtime_error("RTL scheduler: an RTL assertion failed (see the message above)");
  }
  return issues;
}

bool RtlCycleScheduler::done() const {
  return impl_->top->done_o != 0;
}

int RtlCycleScheduler::decision_latency_cycles() const {
  return impl_->build.decision_latency;
}

std::uint64_t RtlCycleScheduler::clocks() const {
  return impl_->clocks;
}

SchedulerFactory make_rtl_scheduler_factory() {
  return [](int /*node*/, const std::vector<TableEntry>& table, const SchedulerModelConfig& config,
            const TableFormat& /*format*/) -> std::unique_ptr<Scheduler> {
    return std::make_unique<HardwareScheduler>(std::make_unique<RtlCycleScheduler>(config), table);
  };
}

}  // namespace mt
