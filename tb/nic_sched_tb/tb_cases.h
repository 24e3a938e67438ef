#pragma once
// nic_sched_tb's build parameters (the Verilated configuration, MT_RTL_* from its rtl/params
// file) and its tables: the real ones (every registered algorithm on several topologies, every
// node, packed for this build) and random legal ones. tb_cases.cpp makes them; nic_sched_tb.cpp
// drives them.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "model/sched/schedule_table.h"
#include "model/sched/scheduler_model.h"
#include "model/sched/table_packer.h"

namespace nic_sched_tb {

using mt::TableEntry;

// Parameters of the Verilated build (MT_RTL_* definitions from its rtl/params file).
constexpr int kNodes = MT_RTL_NODES;
constexpr int kPorts = MT_RTL_PORTS;
constexpr int kDepth = MT_RTL_DEPTH;
constexpr int kWindow = MT_RTL_WINDOW;
constexpr int kIndexBits = MT_RTL_INDEX_BITS;
constexpr int kChunks = MT_RTL_CHUNKS;
constexpr int kFlows = MT_RTL_FLOWS;
constexpr int kSteps = MT_RTL_STEPS;
constexpr int kCounters = MT_RTL_COUNTERS;
constexpr int kMaxCount = MT_RTL_MAX_COUNT;
constexpr int kLanes = MT_RTL_ARRIVAL_LANES;
constexpr int kLatency = MT_RTL_DECISION_LATENCY;

// One table to run.
struct Case {
  std::string name;
  std::vector<TableEntry> table;
  std::vector<int> arrivals;  // per counter: arrivals the driver presents in total
  int ports = 1;
  bool step_order = true;
  /// Port binding any (shared_window_i): every entry on port 0, granted to any of `ports`.
  bool shared = false;
  /// An error case: the error the RTL and the model must both flag (kNone: a legal table).
  mt::SchedulerFaultCause expect = mt::SchedulerFaultCause::kNone;
  /// The watchdog: its limit (wdog_limit_i; 0: chosen at random by the driver) and the percent
  /// of cycles with a tick.
  int watchdog_limit = 0;
  int tick_percent = 0;
};

/// One line describing a table entry, for mismatch reports.
std::string describe(const TableEntry& e);
/// Tables of every node of every algorithm x topology that packs and fits the build; counts the
/// schedules packed, those skipped (too large for the build) and the algorithm-topology pairs not
/// built (the algorithm refuses the topology), each of the last two named on stderr.
std::vector<Case> real_cases(const mt::TableFormat& format, int* schedules, int* skipped,
                             int* unsupported);
/// A random legal table: sorted by step, fields in range, thresholds reachable.
Case random_case(std::mt19937_64& rng, int index);
/// Port binding any: every entry of `c` on port 0, window 0 shared by its ports.
void share_window(Case& c);
/// Shuffles `c`'s steps over its entries: a table not sorted by step, legal without step order
/// (a planned table, nic.scheduler_table_order).
void unsort_steps(Case& c, std::mt19937_64& rng);
/// One case per error the build can be given (rtl/README.md, Errors), each a random legal table
/// with one fault injected: an entry field past its parameter (only where the field has room for
/// such a value: those without are named in `not_injectable`), an unsorted table, arrivals past
/// MaxCount on a counter, an arrival naming no counter, an arrival that never comes (the
/// watchdog's stall).
std::vector<Case> error_cases(const mt::TableFormat& format, std::mt19937_64& rng,
                              std::string* not_injectable);

}  // namespace nic_sched_tb
