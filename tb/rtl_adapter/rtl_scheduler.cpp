#include "tb/rtl_adapter/rtl_scheduler.h"

#include <Vnic_sched_cc.h>
#include <Vnic_sched_cc___024root.h>
#include <verilated.h>

#include <algorithm>
#include <deque>
#include <fstream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "model/sched/hardware_scheduler.h"
#include "tb/rtl_adapter/rtl_bits.h"
#include "tb/rtl_adapter/rtl_pin_trace.h"

namespace mt {

namespace {

// One evaluation per clock instead of two. A Verilated model sees a rising edge of clk_i when an
// eval() finds it high after an eval() that found it low, so a clock is normally two evaluations
// (clk_i low with the new inputs, then high), and each one settles all the logic the inputs reach
// (Verilator 5 evaluates that logic on every eval()). Nothing in nic_sched acts at the falling
// edge and the adapter reads only registered outputs between the two (tbl_ready_o), so the first
// evaluation computes nothing the second does not compute again. Where the Verilated model keeps
// the previous clk_i level in the member below (Verilator 5.006, the stack's version), the adapter
// sets it low instead and evaluates once; the co-simulation's equality tests (ctest -L rtl) check
// that the cycles are those of the C++ model either way. Returns false where the member does not
// exist (another Verilator): the adapter then evaluates clk_i low first.
template <typename Root>
auto arm_rising_edge(Root& root, int) -> decltype(root.__Vtrigrprev__TOP__clk_i = 0, bool()) {
  root.__Vtrigrprev__TOP__clk_i = 0;
  return true;
}
template <typename Root>
bool arm_rising_edge(Root& /*root*/, long) {
  return false;
}

// The idle flag's two flops (nic_sched.sv: idle_o = !busy2_q, busy1_q <= busy_now, busy2_q <=
// busy_now || busy1_q) and what they follow, where the Verilated model keeps them as members
// (Verilator 5.006). An edge with busy_now low, the inputs as at the last evaluation and the
// minimum step settled changes no register but these two and free window slots' data (which
// loads the fetch register's entry at every edge and is read only once a refill, a busy edge
// that loads it again, makes the slot valid): the RTL's own claim, which its idle flag rests on.
// So the adapter applies such an edge to the two flops alone instead of evaluating the whole
// design: the two clocks between the last busy edge and idle_o are most of those the
// co-simulation would otherwise evaluate with nothing to do. (The design's assertions skip such
// an edge; they see its state at the next evaluated one.) Returns false where the members do not
// exist (another Verilator): every edge is then evaluated.
template <typename Top>
auto quiet_edge(Top& top, int)
    -> decltype(top.rootp->nic_sched__DOT__busy_now + top.rootp->nic_sched__DOT__busy1_q +
                    top.rootp->nic_sched__DOT__busy2_q + top.rootp->nic_sched__DOT__min_step_d +
                    top.rootp->nic_sched__DOT__min_step_q,
                bool()) {
  auto& root = *top.rootp;
  if (root.nic_sched__DOT__busy_now ||
      root.nic_sched__DOT__min_step_d != root.nic_sched__DOT__min_step_q) {
    return false;
  }
  root.nic_sched__DOT__busy2_q = root.nic_sched__DOT__busy1_q;
  root.nic_sched__DOT__busy1_q = 0;
  top.idle_o = root.nic_sched__DOT__busy2_q ? 0 : 1;
  return true;
}
template <typename Top>
bool quiet_edge(Top& /*top*/, long) {
  return false;
}

// The ports whose windows hold an entry (nic_sched.sv's head_valid, settled by the last
// evaluation), where the Verilated model keeps the net as a member (Verilator 5.006); -1 where
// it does not. A stall names the oldest entry of the lowest of them.
template <typename Top>
auto window_heads(const Top& top, int)
    -> decltype(static_cast<std::int64_t>(top.rootp->nic_sched__DOT__head_valid)) {
  return static_cast<std::int64_t>(top.rootp->nic_sched__DOT__head_valid);
}
template <typename Top>
std::int64_t window_heads(const Top& /*top*/, long) {
  return -1;
}

}  // namespace

struct RtlCycleScheduler::Impl {
  SchedulerBuild build = scheduler_build();
  TableFormat format = build.format();
  SchedulerModelConfig config;
  // This model's context. Verilator 5.006 reports a failed assertion to the thread's current
  // context (Verilated::threadContextp(): the one constructed last, unless set) and removes a
  // model's scopes from that context when the model is destroyed; so with one scheduler per
  // node, an assertion of any node's RTL would raise gotError() on the last node's context alone
  // (the other nodes' ticks would not see it), and destroying a scheduler after the last one
  // constructed read that one's freed context (found by tests/rtl/test_cosim_quiet.cpp, the
  // first test with two at once). Each evaluation and the destructor make this context the
  // thread's.
  VerilatedContext context;
  std::unique_ptr<Vnic_sched_cc> top;
  std::vector<std::vector<std::uint64_t>> words;  // the table, encoded (host memory)
  std::size_t pushed = 0;                         // entries streamed into the RTL
  std::vector<int> entry_ports;                   // each table entry's port
  // Per port: the entries streamed in and not yet granted, in table order; the entry of a grant
  // shown and not accepted (-1: none).
  std::vector<std::deque<int>> waiting;
  std::vector<int> held;
  std::vector<int> arrivals;   // counters presented in the current cycle
  int doorbell = -1;           // doorbell counter this cycle, -1 none
  bool watchdog_tick = false;  // a watchdog tick this cycle
  bool inputs_changed = true;  // an input changed since the last clock
  std::uint64_t clocks = 0;
  std::uint64_t quiet_clocks = 0;       // of those, applied as quiet edges
  std::unique_ptr<std::ofstream> pins;  // the pin trace, when asked for
  std::string pins_path;                // its file
  // window_heads() before the edge that registered the first error (none: no error yet).
  std::optional<std::int64_t> heads_at_error;
  bool loading = false;  // load clocks (before cycle 0)

  // One clock with the inputs on the pins: the next table entry is offered; falling then rising
  // edge; the entry counts as written when tbl_ready_o was high before the edge.
  void clock() {
    const bool offer = pushed < words.size();
    top->tbl_valid_i = offer ? 1 : 0;
    if (offer) rtl_bits::put_words(top->tbl_wdata_i, 0, format.entry_bits(), words[pushed]);
    if (pins) {
      rtl_pins::write_inputs(*pins, loading ? 'L' : 'T', *top, widths());
    }
    const bool taken = offer && top->tbl_ready_o;  // a register: settled by the last edge
    Verilated::threadContextp(&context);           // see `context`
    context.time(clocks + 1);  // an assertion's message names the clock (from 1, loads included)
    const std::int64_t heads = heads_at_error ? 0 : window_heads(*top, 0);
    if (!arm_rising_edge(*top->rootp, 0)) {
      top->clk_i = 0;
      top->eval();
    }
    top->clk_i = 1;
    top->eval();
    if (!heads_at_error && top->err_cause_o != 0) heads_at_error = heads;
    // Flushed line by line: the design of a run is never torn down (model/sim/system.cpp), so
    // the stream would never be closed.
    if (pins) {
      *pins << ' ' << rtl_pins::hex(top->grant_o, build.ports) << '\n' << std::flush;
      // A trace cut short (a full disk) would replay, and be priced, as a shorter run.
      if (!*pins)
        throw SchedulerError("RTL scheduler: writing the pin trace " + pins_path + " failed");
    }
    if (taken) {
      const int port = entry_ports[pushed];
      if (port >= 0 && port < config.ports)
        waiting[static_cast<std::size_t>(port)].push_back(static_cast<int>(pushed));
      ++pushed;
    }
    ++clocks;
  }

  // One clock when the edge changes only the idle flag's flops (quiet_edge; never while a pin
  // trace records every clock, nor with an input changed or an entry to write since the last
  // evaluation): applied to them, and idle_o follows. True when so applied.
  bool quiet_clock() {
    if (pins || inputs_changed || (pushed < words.size() && top->tbl_ready_o)) return false;
    if (!quiet_edge(*top, 0)) return false;
    ++clocks;
    ++quiet_clocks;
    return true;
  }

  // Throws when an RTL assertion failed in an evaluation since the last check (see `context`),
  // naming the clock (from 1, load clocks included: the time of Verilator's own message, which
  // names the assertion) and, with `name_node`, the node (construction and load errors get it
  // from the factory).
  void check_assertions(bool name_node) {
    if (!context.gotError()) return;
    throw SchedulerError(
        "RTL scheduler" +
        (name_node && config.node >= 0 ? " of node " + std::to_string(config.node) : "") +
        ": an RTL assertion failed at its clock " + std::to_string(clocks) +
        " (from 1, load clocks included; see the message above)");
  }

  // See `context`: the model's scopes are erased from the thread's context, which must not point
  // at this one once it is gone (Verilator falls back to its default context).
  ~Impl() {
    Verilated::threadContextp(&context);
    if (top) {
      top->final();
      top.reset();
    }
    Verilated::threadContextp(nullptr);
  }

  rtl_pins::PinWidths widths() const {
    return rtl_pins::PinWidths{format.entry_bits(), build.arrival_lanes, format.counter_bits,
                               build.ports, format.step_bits};
  }

  // Opens the pin trace `path` and writes its header (the build's parameters and pin widths).
  void open_pins(const std::string& path) {
    pins_path = path;
    pins = std::make_unique<std::ofstream>(path);
    if (!*pins) throw SchedulerError("RTL scheduler: cannot write the pin trace " + path);
    const SchedulerBuild& b = build;
    *pins << "nic_sched-pins " << rtl_pins::kVersion << " Nodes=" << b.nodes << " Ports=" << b.ports
          << " Depth=" << b.depth << " Window=" << b.window << " Chunks=" << b.chunks
          << " Flows=" << b.flows << " Steps=" << b.steps << " Counters=" << b.counters
          << " MaxCount=" << b.max_count << " ArrivalLanes=" << b.arrival_lanes
          << " DecisionLatency=" << b.decision_latency << " IndexBits=" << b.index_bits
          << " EntryBits=" << format.entry_bits() << " CounterBits=" << format.counter_bits << "\n";
  }

  // The NIC's DMAs accept every grant at once (grant_ack_i high) unless set_grant_ack says not.
  void accept_every_grant() {
    rtl_bits::put(top->grant_ack_i, 0, build.ports, rtl_bits::low_mask(build.ports));
  }

  // Presents the step barrier's open step on open_step_i: all ones for kAnyStep or a step the
  // pin cannot hold (above every entry's step, which the table's step field holds).
  void set_open_step(int step) {
    const int bits = format.step_bits;
    const std::uint64_t ones = (std::uint64_t{1} << bits) - 1;
    const std::uint64_t value = step < 0 || static_cast<std::uint64_t>(step) >= ones
                                    ? ones
                                    : static_cast<std::uint64_t>(step);
    if (rtl_bits::get(top->open_step_i, 0, bits) == value) return;
    rtl_bits::put(top->open_step_i, 0, bits, value);
    inputs_changed = true;
  }

  // Sets bit `port` of a per-port input pin (port_ready_i, grant_ack_i) to `level`.
  template <typename Pin>
  void set_port_pin(Pin& pin, int port, bool level) {
    if (port < 0 || port >= config.ports) {
      throw SchedulerError("RTL scheduler: port " + std::to_string(port) + " of " +
                           std::to_string(config.ports));
    }
    const std::uint64_t bit = level ? 1 : 0;
    if (rtl_bits::get(pin, port, 1) == bit) return;
    rtl_bits::put(pin, port, 1, bit);
    inputs_changed = true;
  }

  bool idle() const {
    return !inputs_changed && top->idle_o && !(pushed < words.size() && top->tbl_ready_o);
  }

  // The table entry of the grant shown on `port` with index `low` (its table index modulo
  // 2^index_bits) and packed entry `bits`: the one it showed last cycle while not accepted, else
  // the oldest entry of the port still waiting in the RTL with that index and those bits. (Not
  // the entry with that index nearest the last one streamed: an entry may wait in its window
  // while far more than 2^index_bits later entries of other ports pass it.)
  int granted_entry(int port, std::uint64_t low, const std::vector<std::uint64_t>& bits) {
    const auto p = static_cast<std::size_t>(port);
    if (held[p] >= 0) return held[p];
    const std::uint64_t mask = rtl_bits::low_mask(build.index_bits);
    std::deque<int>& q = waiting[config.shared_window ? 0 : p];  // shared: every port's is 0's
    for (auto it = q.begin(); it != q.end(); ++it) {
      const auto i = static_cast<std::size_t>(*it);
      if ((i & mask) != low || words[i] != bits) continue;
      q.erase(it);
      return static_cast<int>(i);
    }
    throw SchedulerError("RTL scheduler: port " + std::to_string(port) + " granted table index " +
                         std::to_string(low) + " (mod 2^" + std::to_string(build.index_bits) +
                         "), which no entry of the port waiting in the RTL has");
  }

  // Full table index of an entry an error at a table write names, from its low index_bits: the
  // entry streamed last with those bits (the one written at that edge).
  int full_index(std::uint64_t low) const {
    const std::uint64_t modulus = std::uint64_t{1} << build.index_bits;
    const std::uint64_t last = pushed - 1;
    return static_cast<int>(last - ((last - low) & (modulus - 1)));
  }

  // Full table index of the entry a stall names, from its low index_bits: the oldest entry of
  // the lowest port whose window held one at the edge that flagged it (0 when none did), i.e.
  // that port's oldest waiting entry. Not full_index: the entry may have waited in its window
  // while more than 2^index_bits later entries of other ports were streamed past it; and not
  // the lowest port with a waiting entry: that one's may still be in the ring, behind a full
  // window, with the same low bits. Without the window flags (another Verilator): the first
  // port whose oldest waiting entry has those bits.
  int stalled_entry(std::uint64_t low) const {
    const std::uint64_t mask = rtl_bits::low_mask(build.index_bits);
    // Port p's oldest waiting entry when it has those low bits, else -1.
    const auto oldest_if = [&](int p) {
      const std::deque<int>& q = waiting[config.shared_window ? 0 : static_cast<std::size_t>(p)];
      return !q.empty() && (static_cast<std::uint64_t>(q.front()) & mask) == low ? q.front() : -1;
    };
    const std::int64_t heads = heads_at_error.value_or(-1);
    if (heads == 0) return static_cast<int>(low);
    if (heads > 0) {
      const int entry = oldest_if(__builtin_ctzll(static_cast<std::uint64_t>(heads)));
      return entry >= 0 ? entry : full_index(low);
    }
    for (int p = 0; p < static_cast<int>(waiting.size()); ++p) {
      const int entry = oldest_if(p);
      if (entry >= 0) return entry;
    }
    return full_index(low);
  }
};

namespace {

// How to build nic_sched with `setting` (Name=value): another parameter file.
std::string rebuild_with(const std::string& setting) {
  return "build with " + setting +
         " in a copy of " MT_RTL_PARAMS_PATH " given as -DMT_RTL_PARAMS_FILE=FILE";
}

// The nic_sched parameter that widens a table field to hold `value`, as Name=value.
std::string parameter_for(const std::string& field, std::int64_t value) {
  const std::string at_least = std::to_string(value + 1);
  if (field == "port") return "Ports=" + at_least;
  if (field == "peer") return "Nodes=" + at_least;
  if (field == "chunk") return "Chunks=" + at_least + " or more";
  if (field == "flow") return "Flows=" + at_least + " or more";
  if (field == "step") return "Steps=" + at_least + " or more";
  if (field == "wait_count") return "MaxCount=" + std::to_string(value);
  if (field == "wait_counter" || field == "dst_counter") return "Counters=" + at_least;
  return "larger parameters";
}

}  // namespace

std::string rtl_build_mismatch(int depth, int window, int decision_latency) {
  const SchedulerBuild b = scheduler_build();
  const auto differs = [](const char* key, int want, const std::string& parameter, int have) {
    return std::string(key) + " " + std::to_string(want) + " but the Verilated nic_sched has " +
           parameter + " " + std::to_string(have) + " (set " + key + ": " + std::to_string(have) +
           ", or " + rebuild_with(parameter + "=" + std::to_string(want)) + ")";
  };
  if (depth != b.depth) return differs("nic.scheduler_depth", depth, "Depth", b.depth);
  if (window != b.window) return differs("nic.scheduler_window", window, "Window", b.window);
  if (decision_latency != b.decision_latency) {
    return differs("nic.decision_latency_cycles", decision_latency, "DecisionLatency",
                   b.decision_latency);
  }
  return "";
}

RtlCycleScheduler::RtlCycleScheduler(const SchedulerModelConfig& config,
                                     const std::string& pin_trace)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  const SchedulerBuild& b = m.build;
  const auto too_big = [](const std::string& what, int want, int have, const char* parameter) {
    return SchedulerError("RTL scheduler: " + what + " " + std::to_string(want) +
                          " exceeds the Verilated nic_sched's " + std::to_string(have) + " (" +
                          rebuild_with(parameter + ("=" + std::to_string(want))) + ")");
  };
  if (config.ports > b.ports) throw too_big("ports", config.ports, b.ports, "Ports");
  if (config.counters > b.counters) {
    throw too_big("counters", config.counters, b.counters, "Counters");
  }
  const std::string mismatch =
      rtl_build_mismatch(config.depth, config.window, config.decision_latency_cycles);
  if (!mismatch.empty()) throw SchedulerError("RTL scheduler: " + mismatch);
  m.config = config;
  if (config.watchdog_limit < 0 || config.watchdog_limit > kSchedulerWatchdogMax) {
    throw SchedulerError("RTL scheduler: watchdog limit " + std::to_string(config.watchdog_limit) +
                         " does not fit wdog_limit_i (0.." + std::to_string(kSchedulerWatchdogMax) +
                         ")");
  }
  if (!pin_trace.empty()) m.open_pins(pin_trace);
  m.context.fatalOnError(false);  // a failed assertion throws below instead of exiting
  // Named after its node: an assertion's message names the instance.
  const std::string name =
      config.node >= 0 ? "node" + std::to_string(config.node) + ".nic_sched" : "nic_sched";
  m.top = std::make_unique<Vnic_sched_cc>(&m.context, name.c_str());
  // Asynchronous reset: a real falling edge of rst_ni (a net that starts low has none).
  m.top->clk_i = 0;
  m.accept_every_grant();
  m.top->wdog_tick_i = 0;
  m.top->wdog_limit_i = static_cast<std::uint16_t>(config.watchdog_limit);  // checked: <= 65535
  m.top->rst_ni = 1;
  m.top->eval();
  m.top->rst_ni = 0;
  m.top->eval();
  m.top->rst_ni = 1;
  m.top->eval();
  m.check_assertions(false);
}

RtlCycleScheduler::~RtlCycleScheduler() = default;

void RtlCycleScheduler::load(const std::vector<TableEntry>& table) {
  Impl& m = *impl_;
  // Encode first: a field that does not fit throws before the RTL is touched.
  std::vector<std::vector<std::uint64_t>> words;
  words.reserve(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    try {
      words.push_back(encode_entry(table[i], m.format));
    } catch (const TableFieldError& e) {
      throw TableError("RTL scheduler: table entry " + std::to_string(i) + ": " + e.what() +
                       " of the Verilated nic_sched (" +
                       rebuild_with(parameter_for(e.field(), e.value())) + ")");
    }
  }
  Vnic_sched_cc& top = *m.top;
  top.step_order_i = m.config.step_order ? 1 : 0;
  top.shared_window_i = m.config.shared_window ? 1 : 0;
  m.set_open_step(kAnyStep);  // no step limit until the NIC presents one
  top.port_ready_i = 0;
  m.accept_every_grant();
  top.arr_valid_i = 0;
  top.host_valid_i = 0;
  m.words.clear();
  m.pushed = 0;
  m.heads_at_error.reset();  // clear_i below clears the error register
  m.entry_ports.clear();
  for (const TableEntry& e : table) m.entry_ports.push_back(e.port);
  m.waiting.assign(static_cast<std::size_t>(m.config.ports), {});
  m.held.assign(static_cast<std::size_t>(m.config.ports), -1);
  m.loading = true;
  top.clear_i = 1;
  m.clock();
  top.clear_i = 0;
  m.words = std::move(words);
  m.inputs_changed = true;
  // Load cycles: stream until the ring and the windows are as full as they get.
  for (std::size_t guard = 0; !m.idle(); ++guard) {
    if (guard >
        m.words.size() + 4 * static_cast<std::size_t>(m.build.ports * m.build.window) + 16) {
      throw std::logic_error("RTL scheduler: load did not settle");
    }
    m.clock();
    m.inputs_changed = false;
  }
  m.arrivals.clear();
  m.doorbell = -1;
  m.watchdog_tick = false;
  m.loading = false;
  m.check_assertions(false);  // (tick() evaluates nothing while the loaded RTL is idle)
}

void RtlCycleScheduler::on_arrival(int counter) {
  Impl& m = *impl_;
  if (counter < 0 || counter >= m.config.counters) {
    throw SchedulerError("RTL scheduler: arrival for counter " + std::to_string(counter) + " of " +
                         std::to_string(m.config.counters));
  }
  m.arrivals.push_back(counter);
  m.inputs_changed = true;
}

void RtlCycleScheduler::on_doorbell(int counter) {
  Impl& m = *impl_;
  if (counter < 0 || counter >= m.config.counters || m.doorbell >= 0) {
    throw SchedulerError("RTL scheduler: doorbell for counter " + std::to_string(counter) + " of " +
                         std::to_string(m.config.counters) +
                         (m.doorbell >= 0 ? " (second doorbell in one cycle)" : ""));
  }
  m.doorbell = counter;
  m.inputs_changed = true;
}

void RtlCycleScheduler::set_port_ready(int port, bool ready) {
  impl_->set_port_pin(impl_->top->port_ready_i, port, ready);
}

void RtlCycleScheduler::set_open_step(int step) {
  if (step < 0) throw SchedulerError("RTL scheduler: open step " + std::to_string(step));
  impl_->set_open_step(step);
}

void RtlCycleScheduler::set_grant_ack(int port, bool ack) {
  impl_->set_port_pin(impl_->top->grant_ack_i, port, ack);
}

void RtlCycleScheduler::on_watchdog_tick() {
  impl_->watchdog_tick = true;
  impl_->inputs_changed = true;
}

std::vector<IssueCommand> RtlCycleScheduler::tick() {
  Impl& m = *impl_;
  Vnic_sched_cc& top = *m.top;
  if (m.idle()) return {};  // nothing can change: the Verilated model is not evaluated
  if (static_cast<int>(m.arrivals.size()) > m.build.arrival_lanes) {
    throw SchedulerError("RTL scheduler: " + std::to_string(m.arrivals.size()) +
                         " arrivals in one cycle, the Verilated nic_sched takes " +
                         std::to_string(m.build.arrival_lanes) + " (" +
                         rebuild_with("ArrivalLanes=" + std::to_string(m.arrivals.size())) + ")");
  }
  const int counter_bits = m.format.counter_bits;
  std::uint64_t valid = 0;
  for (std::size_t l = 0; l < m.arrivals.size(); ++l) {
    valid |= std::uint64_t{1} << l;
    rtl_bits::put(top.arr_counter_i, static_cast<int>(l) * counter_bits, counter_bits,
                  static_cast<std::uint64_t>(m.arrivals[l]));
  }
  rtl_bits::put(top.arr_valid_i, 0, m.build.arrival_lanes, valid);
  top.host_valid_i = m.doorbell >= 0 ? 1 : 0;
  top.host_counter_i = static_cast<std::uint32_t>(m.doorbell >= 0 ? m.doorbell : 0);
  top.wdog_tick_i = m.watchdog_tick ? 1 : 0;
  m.arrivals.clear();
  m.doorbell = -1;
  m.watchdog_tick = false;

  // The grants of this cycle are registers, settled by the last edge.
  std::vector<IssueCommand> issues;
  const int entry_bits = m.format.entry_bits();
  const int index_bits = m.build.index_bits;
  for (int p = 0; p < m.config.ports; ++p) {
    if (rtl_bits::get(top.grant_o, p, 1) == 0) continue;
    IssueCommand c;
    c.port = p;
    const std::vector<std::uint64_t> bits =
        rtl_bits::get_words(top.grant_entry_o, p * entry_bits, entry_bits);
    c.index =
        m.granted_entry(p, rtl_bits::get(top.grant_index_o, p * index_bits, index_bits), bits);
    c.entry = decode_entry(bits, m.format);
    issues.push_back(c);
  }
  // A grant shown and not accepted at this edge shows again, the same entry.
  std::fill(m.held.begin(), m.held.end(), -1);
  for (const IssueCommand& c : issues) {
    if (rtl_bits::get(top.grant_ack_i, c.port, 1) == 0)
      m.held[static_cast<std::size_t>(c.port)] = c.index;
  }
  if (!m.quiet_clock()) m.clock();
  top.arr_valid_i = 0;
  top.host_valid_i = 0;
  top.wdog_tick_i = 0;
  m.inputs_changed = false;
  m.check_assertions(true);
  return issues;
}

bool RtlCycleScheduler::idle() const {
  return impl_->idle();
}

bool RtlCycleScheduler::done() const {
  return impl_->pushed == impl_->words.size() && impl_->top->done_o != 0;
}

SchedulerFault RtlCycleScheduler::fault() const {
  const Vnic_sched_cc& top = *impl_->top;
  SchedulerFault f;
  f.cause = static_cast<SchedulerFaultCause>(top.err_cause_o);
  if (!f) return f;
  // An entry's index modulo 2^IndexBits, made whole: a field error's entry is the one written
  // at that edge, a stall's the oldest waiting entry of the port it names (stalled_entry: the
  // RTL may hold entries 2^IndexBits apart, so the low bits alone do not say which). Other
  // causes name a counter.
  if (f.cause == SchedulerFaultCause::kStalled) {
    f.info = impl_->stalled_entry(top.err_info_o);
  } else if (f.cause < SchedulerFaultCause::kArrivalCounter) {
    f.info = impl_->full_index(top.err_info_o);
  } else {
    f.info = static_cast<int>(top.err_info_o);
  }
  return f;
}

std::uint64_t RtlCycleScheduler::clocks() const {
  return impl_->clocks;
}

std::uint64_t RtlCycleScheduler::quiet_clocks() const {
  return impl_->quiet_clocks;
}

SchedulerFactory make_rtl_scheduler_factory(const std::string& pin_trace_dir) {
  return [pin_trace_dir](int node, const std::vector<TableEntry>& table,
                         const SchedulerModelConfig& config,
                         const TableFormat& /*format*/) -> std::unique_ptr<Scheduler> {
    const std::string pins =
        pin_trace_dir.empty() ? "" : pin_trace_dir + "/node" + std::to_string(node) + ".pins";
    try {
      return std::make_unique<HardwareScheduler>(std::make_unique<RtlCycleScheduler>(config, pins),
                                                 table, config);
    } catch (const SchedulerError& e) {  // a configuration this build does not have: say whose
      throw SchedulerError("node " + std::to_string(node) + ": " + e.what());
    }
  };
}

}  // namespace mt
