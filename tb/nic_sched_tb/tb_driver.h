#pragma once
// nic_sched_tb's driver: streams each case's table into the Verilated scheduler and the golden
// model mt::SchedulerModel, drives arrivals, doorbells, port levels and acknowledges with random
// delays, and compares every output cycle by cycle (nic_sched_tb.cpp binds it and runs it).

#include <Vnic_sched.h>
#include <verilated.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <systemc>
#include <type_traits>
#include <vector>

#include "model/sched/scheduler_model.h"
#include "model/sched/table_packer.h"
#include "tb/nic_sched_tb/tb_cases.h"
#include "tb/nic_sched_tb/tb_grants.h"
#include "tb/nic_sched_tb/tb_pins.h"
#include "tb/rtl_adapter/rtl_bits.h"

namespace nic_sched_tb {

// Drives the DUT and the model through every case on the falling clock edge.
SC_MODULE(Driver) {
  using WdataT = PinType<decltype(Vnic_sched::tbl_wdata_i)>;
  using ArrValidT = PinType<decltype(Vnic_sched::arr_valid_i)>;
  using ArrCounterT = PinType<decltype(Vnic_sched::arr_counter_i)>;
  using ReadyT = PinType<decltype(Vnic_sched::port_ready_i)>;
  using GrantT = PinType<decltype(Vnic_sched::grant_o)>;
  using GrantIndexT = PinType<decltype(Vnic_sched::grant_index_o)>;
  using GrantEntryT = PinType<decltype(Vnic_sched::grant_entry_o)>;
  using HostCounterT = PinType<decltype(Vnic_sched::host_counter_i)>;
  using ErrCauseT = PinType<decltype(Vnic_sched::err_cause_o)>;
  using ErrInfoT = PinType<decltype(Vnic_sched::err_info_o)>;
  using WdogLimitT = PinType<decltype(Vnic_sched::wdog_limit_i)>;
  using OpenStepT = PinType<decltype(Vnic_sched::open_step_i)>;

  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_signal<bool> rst_n{"rst_n"}, clear{"clear"}, step_order{"step_order"};
  sc_core::sc_signal<bool> shared_window{"shared_window"};
  sc_core::sc_signal<bool> tbl_valid{"tbl_valid"}, tbl_ready{"tbl_ready"};
  sc_core::sc_signal<WdataT> wdata{"wdata"};
  sc_core::sc_signal<bool> host_valid{"host_valid"};
  sc_core::sc_signal<HostCounterT> host_counter{"host_counter"};
  sc_core::sc_signal<ArrValidT> arr_valid{"arr_valid"};
  sc_core::sc_signal<ArrCounterT> arr_counter{"arr_counter"};
  sc_core::sc_signal<ReadyT> ready{"ready"}, ack{"ack"};
  sc_core::sc_signal<GrantT> grant{"grant"};
  sc_core::sc_signal<GrantIndexT> grant_index{"grant_index"};
  sc_core::sc_signal<GrantEntryT> grant_entry{"grant_entry"};
  sc_core::sc_signal<bool> done{"done"}, idle{"idle"}, err{"err"};
  sc_core::sc_signal<ErrCauseT> err_cause{"err_cause"};
  sc_core::sc_signal<ErrInfoT> err_info{"err_info"};
  sc_core::sc_signal<bool> wdog_tick{"wdog_tick"};
  sc_core::sc_signal<WdogLimitT> wdog_limit{"wdog_limit"};
  sc_core::sc_signal<OpenStepT> open_step{"open_step"};

  std::vector<Case> cases;
  mt::TableFormat format;
  std::uint64_t seed = 1;
  int model_latency = kLatency;
  long only_case = -1;  // --case K: run case K alone (-1: every case)
  std::size_t current_case = 0;
  bool failed = false;
  const char* failure_kind = "MISMATCH";  // what fail() reported
  std::uint64_t cycles_compared = 0;
  std::uint64_t issues_compared = 0;
  std::uint64_t held_grant_cycles = 0;  // cycles a visible grant waited for grant_ack_i
  std::uint64_t arrivals_driven = 0;
  std::uint64_t doorbells_driven = 0;
  std::uint64_t errors_flagged = 0;  // error cases whose error both flagged
  std::uint64_t stalls_flagged = 0;  // legal cases whose watchdog both flagged alike
  bool tbl_ready_seen_ = false;      // tbl_ready_o before the last edge
  static constexpr int kIndexMask = (1 << kIndexBits) - 1;

  SC_CTOR(Driver) {
    SC_THREAD(run);
  }

  // `kind`: "MISMATCH" (the RTL and the model differ) or "STALL" (both wait for ever).
  void fail(const std::string& what, const char* kind = "MISMATCH") {
    // Cycles in messages count from the end of the case's table load (the first cycle the
    // scheduler may grant); the VCD's time is the run's.
    failure_kind = kind;
    std::cerr << "nic_sched_tb: " << kind << " in case " << current_case << ": " << what << " (at "
              << sc_core::sc_time_stamp()
              << " of the run, the time in a --trace VCD; replay it alone with --case "
              << current_case << ")\n";
    failed = true;
    sc_core::sc_stop();
  }

  void run() {
    rst_n.write(false);
    wait(clk_i.negedge_event());
    rst_n.write(true);
    for (std::size_t k = 0; k < cases.size() && !failed; ++k) {
      if (only_case >= 0 && k != static_cast<std::size_t>(only_case)) continue;
      // The case's own generator: its stimulus does not depend on the cases run before it.
      std::seed_seq case_seed{seed, static_cast<std::uint64_t>(k)};
      std::mt19937_64 rng(case_seed);
      auto pick = [&rng](int lo, int hi) {
        return std::uniform_int_distribution<int>(lo, hi)(rng);
      };
      current_case = k;
      run_case(cases[k], rng, pick);
    }
    if (!failed) sc_core::sc_stop();  // fail() has stopped it already
  }

  // err_o, err_cause_o and err_info_o against the model's error (entry indices modulo
  // 2^IndexBits); false after reporting a mismatch.
  bool same_error(const Case& c, std::uint64_t cycle, const mt::SchedulerFault& want) {
    const int cause = static_cast<int>(pin_get(err_cause.read(), 0, 4));
    const auto info = static_cast<int>(pin_get(err_info.read(), 0, 31));
    const bool entry = want.cause < mt::SchedulerFaultCause::kArrivalCounter ||
                       want.cause == mt::SchedulerFaultCause::kStalled;
    const int want_info = want ? (entry ? want.info & kIndexMask : want.info) : 0;
    if (err.read() == static_cast<bool>(want) && cause == static_cast<int>(want.cause) &&
        info == want_info) {
      return true;
    }
    fail(c.name + " cycle " + std::to_string(cycle) + ": RTL err_o " + std::to_string(err.read()) +
         " cause " + std::to_string(cause) + " info " + std::to_string(info) + "; model " +
         (want ? mt::describe(want) : std::string("no error")) + " (cause " +
         std::to_string(static_cast<int>(want.cause)) + ")");
    return false;
  }

  template <typename Pick>
  void run_case(const Case& c, std::mt19937_64& rng, Pick& pick) {
    (void)rng;
    // The watchdog: the case's, else on in a quarter of the legal cases with a random limit and
    // timebase (a stall both flag alike then ends the case; an injected error's case keeps it
    // off, so that a stall cannot come first).
    int watchdog_limit = c.watchdog_limit;
    int tick_percent = c.tick_percent;
    if (watchdog_limit == 0 && c.expect == mt::SchedulerFaultCause::kNone && pick(0, 3) == 0) {
      watchdog_limit = pick(4, 40);
      tick_percent = pick(10, 100);
    }
    mt::SchedulerModelConfig config;
    config.ports = c.ports;
    config.decision_latency_cycles = model_latency;
    config.depth = kDepth;
    config.window = kWindow;
    config.step_order = c.step_order;
    config.shared_window = c.shared;
    config.counters = kCounters;  // the build's limits, which the RTL checks entries against
    config.nodes = kNodes;
    config.chunks = kChunks;
    config.flows = kFlows;
    config.steps = kSteps;
    config.max_count = kMaxCount;
    config.watchdog_limit = watchdog_limit;
    mt::SchedulerModel model(config);
    model.load(c.table);

    // Load: clear for one cycle, then stream the table until the RTL is idle (the model's load
    // cycles); the host keeps streaming while the case runs.
    wait(clk_i.negedge_event());
    step_order.write(c.step_order);
    shared_window.write(c.shared);
    ready.write(ReadyT());
    ReadyT all_ack{};
    for (int p = 0; p < kPorts; ++p) pin_put(all_ack, p, 1, 1);
    ack.write(all_ack);  // DMAs that accept at once, until the run's random levels
    arr_valid.write(ArrValidT());
    host_valid.write(false);
    tbl_valid.write(false);
    wdog_tick.write(false);
    wdog_limit.write(static_cast<WdogLimitT>(watchdog_limit));
    // No step barrier (open_step_i all ones) during the load and in most cases.
    const int open_ones = (1 << format.step_bits) - 1;
    OpenStepT open_pin{};
    pin_put(open_pin, 0, format.step_bits, static_cast<std::uint64_t>(open_ones));
    open_step.write(open_pin);
    clear.write(true);
    wait(clk_i.negedge_event());
    clear.write(false);
    std::size_t pushed = 0;
    // Offers the next entry for the coming edge; counts the one taken at the last edge.
    const auto stream = [&](bool offered) {
      if (offered && tbl_ready_seen_) ++pushed;
      const bool offer = pushed < c.table.size();
      if (offer) {
        WdataT w{};
        pin_put_words(w, 0, format.entry_bits(), mt::encode_entry(c.table[pushed], format));
        wdata.write(w);
      }
      tbl_valid.write(offer);
      return offer;
    };
    bool offered = stream(false);
    for (int guard = 0;; ++guard) {
      tbl_ready_seen_ = tbl_ready.read();
      wait(clk_i.negedge_event());
      offered = stream(offered);
      if (idle.read() && (pushed == c.table.size() || !tbl_ready.read())) break;
      if (guard > static_cast<int>(c.table.size()) + 4 * kPorts * kWindow + 16) {
        fail(c.name + ": load did not settle (idle_o low)", "STALL");
        return;
      }
    }

    // Run: random arrivals and ready levels; compare every cycle.
    std::vector<int> remaining = c.arrivals;
    std::vector<std::uint64_t> busy_until(static_cast<std::size_t>(c.ports), 0);
    for (auto& b : busy_until) b = static_cast<std::uint64_t>(pick(0, 8));
    const int arrival_percent = pick(3, 70);
    const int busy_max = pick(1, 20);
    const int drop_percent = pick(0, 15);
    const int doorbell_percent = pick(0, 3) == 0 ? pick(1, 30) : 0;
    // A third of the cases have DMAs that sometimes accept a grant late (grant_ack_i low).
    const int ack_drop_percent = pick(0, 2) == 0 ? pick(1, 60) : 0;
    // A third of the step-order cases have a step barrier: the open step starts at 0 and rises
    // by one in some cycles (as a NIC's barrier moves on), up to all ones.
    const int open_percent = c.step_order && pick(0, 2) == 0 ? pick(2, 40) : 0;
    int open = open_percent > 0 ? 0 : open_ones;
    std::uint64_t idle = 0;
    std::uint64_t halted_cycles = 0;    // cycles compared since both flagged the error
    std::uint64_t finished_cycles = 0;  // cycles run since every entry and arrival was done
    for (std::uint64_t cycle = 0;; ++cycle) {
      if (cycle > 0) {
        tbl_ready_seen_ = tbl_ready.read();
        wait(clk_i.negedge_event());
        offered = stream(offered);
      }
      // Inputs of this cycle, to both.
      ArrValidT av{};
      ArrCounterT ac = arr_counter.read();
      int lanes = 0;
      if (pick(1, 100) <= arrival_percent) {
        const int want = pick(1, kLanes);
        for (int l = 0; l < want; ++l) {
          std::vector<int> open;
          for (std::size_t x = 0; x < remaining.size(); ++x) {
            if (remaining[x] > 0) open.push_back(static_cast<int>(x));
          }
          if (open.empty()) break;
          const int counter =
              open[static_cast<std::size_t>(pick(0, static_cast<int>(open.size()) - 1))];
          --remaining[static_cast<std::size_t>(counter)];
          pin_put(av, lanes, 1, 1);
          pin_put(ac, lanes * format.counter_bits, format.counter_bits,
                  static_cast<std::uint64_t>(counter));
          model.on_arrival(counter);
          ++lanes;
          ++arrivals_driven;
        }
      }
      arr_valid.write(av);
      arr_counter.write(ac);
      // The host doorbell: one more count on a counter that still expects some.
      bool rung = false;
      if (pick(1, 100) <= doorbell_percent) {
        std::vector<int> open;
        for (std::size_t x = 0; x < remaining.size(); ++x) {
          if (remaining[x] > 0) open.push_back(static_cast<int>(x));
        }
        if (!open.empty()) {
          const int counter =
              open[static_cast<std::size_t>(pick(0, static_cast<int>(open.size()) - 1))];
          --remaining[static_cast<std::size_t>(counter)];
          HostCounterT hc{};
          pin_put(hc, 0, format.counter_bits, static_cast<std::uint64_t>(counter));
          host_counter.write(hc);
          model.on_doorbell(counter);
          rung = true;
          ++doorbells_driven;
        }
      }
      host_valid.write(rung);
      ReadyT rd{};
      for (int p = 0; p < c.ports; ++p) {
        const bool level =
            cycle >= busy_until[static_cast<std::size_t>(p)] && pick(1, 100) > drop_percent;
        pin_put(rd, p, 1, level ? 1 : 0);
        model.set_port_ready(p, level);
      }
      ready.write(rd);
      ReadyT ak{};
      std::vector<char> accepts(static_cast<std::size_t>(c.ports), 1);
      for (int p = 0; p < c.ports; ++p) {
        accepts[static_cast<std::size_t>(p)] = pick(1, 100) > ack_drop_percent ? 1 : 0;
        pin_put(ak, p, 1, accepts[static_cast<std::size_t>(p)]);
        model.set_grant_ack(p, accepts[static_cast<std::size_t>(p)] != 0);
      }
      ack.write(ak);
      if (open < open_ones && cycle > 0 && pick(1, 100) <= open_percent) ++open;
      OpenStepT op{};
      pin_put(op, 0, format.step_bits, static_cast<std::uint64_t>(open));
      open_step.write(op);
      model.set_open_step(open);
      const bool tick = watchdog_limit > 0 && pick(1, 100) <= tick_percent;
      wdog_tick.write(tick);
      if (tick) model.on_watchdog_tick();

      // Compare this cycle's decision (the DUT's outputs depend on registers only).
      if (!same_error(c, cycle, model.fault())) return;
      if (model.fault() && ++halted_cycles > static_cast<std::uint64_t>(8 * kLatency + 16)) {
        // A legal case may stall legitimately when its watchdog is on (arrivals slower than
        // its limit): flagged alike, it ends.
        const bool stall = c.expect == mt::SchedulerFaultCause::kNone && watchdog_limit > 0 &&
                           model.fault().cause == mt::SchedulerFaultCause::kStalled;
        if (model.fault().cause != c.expect && !stall) {
          fail(c.name + ": both flagged " + mt::describe(model.fault()) + ", expected cause " +
               std::to_string(static_cast<int>(c.expect)));
          return;
        }
        ++(stall ? stalls_flagged : errors_flagged);  // alike, and halted alike for 8L + 16
        return;
      }
      const bool model_done_before = model.done();
      const bool dut_done = done.read() && pushed == c.table.size();
      if (model_done_before != dut_done) {
        fail(c.name + " cycle " + std::to_string(cycle) + ": done_o " + std::to_string(dut_done) +
             ", model done " + std::to_string(model_done_before));
        return;
      }
      const std::vector<mt::IssueCommand> expected = model.tick();
      const std::vector<mt::IssueCommand> actual =
          granted(grant.read(), grant_index.read(), grant_entry.read(), format);
      ++cycles_compared;
      const std::string mismatch = grant_mismatch(expected, actual);
      if (!mismatch.empty()) {
        fail(c.name + " cycle " + std::to_string(cycle) + ": " + mismatch);
        return;
      }
      for (const mt::IssueCommand& x : expected) {  // accepted grants start their messages
        if (accepts[static_cast<std::size_t>(x.port)] == 0) {
          ++held_grant_cycles;
          continue;
        }
        ++issues_compared;
        busy_until[static_cast<std::size_t>(x.port)] =
            cycle + 2 + static_cast<std::uint64_t>(pick(0, busy_max));
      }
      idle = expected.empty() ? idle + 1 : 0;
      bool arrivals_left = false;
      for (const int r : remaining) arrivals_left = arrivals_left || r > 0;
      if (model.done() && !arrivals_left) {
        // An error case waits a while for the last arrivals' error (an overflow is flagged
        // one edge after it was counted).
        if (c.expect == mt::SchedulerFaultCause::kNone) break;
        if (!model.fault() && ++finished_cycles > static_cast<std::uint64_t>(4 * kLatency + 8)) {
          fail(c.name + ": the table finished without the error (cause " +
               std::to_string(static_cast<int>(c.expect)) + ") flagged by either");
          return;
        }
      }
      // A stall: nothing issued for 2000 cycles with every arrival delivered. (While arrivals
      // are left an entry may still be waiting for them: with counters reused over a table,
      // as tree_packing's window does, the next entry can need most of a node's arrivals,
      // which the random stimulus spreads over every counter.)
      if (idle > 2000 && !arrivals_left && !model.fault()) {
        fail(c.name + ": stalled at cycle " + std::to_string(cycle) + " with " +
                 std::to_string(c.table.size() - model.issued_count()) +
                 " entries not issued by either (the model and the RTL agree)",
             "STALL");
        return;
      }
    }
  }
};

}  // namespace nic_sched_tb
