#pragma once
// The nic_sched build this mtsim was configured with: the parameters of CMake's
// MT_RTL_PARAMS_FILE (rtl/params/cosim.params, the signed-off configuration, unless another file
// is named). It is the build that is Verilated for `nic.scheduler: rtl`, synthesized, placed and
// routed and priced; every hardware-issue run's tables are measured against it (results'
// `table_misfit`), and `nic.scheduler_table_order: auto` keeps a planned table only where it
// fits. Known with or without Verilator.

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/schedule.h"
#include "model/sched/schedule_table.h"
#include "model/sched/table_packer.h"

namespace mt {

/// The nic_sched parameters that size a table, in the RTL's order.
inline constexpr std::array<const char*, 7> kTableParams = {"Nodes", "Ports",    "Chunks",  "Flows",
                                                            "Steps", "Counters", "MaxCount"};

/// Per parameter of kTableParams (in its order), a count: what a build holds or a table needs.
using TableCounts = std::vector<std::pair<std::string, long long>>;

/// One nic_sched build's parameters (rtl/README.md, Parameters).
struct SchedulerBuild {
  int nodes = 0;             ///< Nodes: peer ids
  int ports = 0;             ///< Ports: issue slots per cycle
  int depth = 0;             ///< Depth: table ring buffer capacity, entries
  int window = 0;            ///< Window: issue window per port, entries
  int chunks = 0;            ///< Chunks: chunk ids
  int flows = 0;             ///< Flows: flow ids
  int steps = 0;             ///< Steps: schedule steps
  int counters = 0;          ///< Counters: arrival counters
  int max_count = 0;         ///< MaxCount: largest counter threshold
  int arrival_lanes = 0;     ///< ArrivalLanes: arrivals accepted per cycle
  int decision_latency = 0;  ///< DecisionLatency, cycles
  int index_bits = 0;        ///< IndexBits: width of grant_index_o (table index modulo 2^bits)
  std::string file;          ///< the parameter file's name (rtl/params/cosim.params: cosim.params)
  std::string path;          ///< the parameter file as CMake was given it (MT_RTL_PARAMS_FILE)
  /// Entry layout of the build (TableFormat::make of the parameters above).
  TableFormat format() const;
  /// What the build's tables can hold (kTableParams): the `capacity` of table_misfit.
  TableCounts table_capacity() const;
};

/// The build of MT_RTL_PARAMS_FILE, as CMake read it.
SchedulerBuild scheduler_build();

/// What `packed` (the tables of `schedule`) needs of a build (kTableParams).
TableCounts table_needs(const PackedSchedule& packed, const Schedule& schedule);

/// What every table of `schedule` on `ports` NIC ports needs, whatever its order: Nodes, Ports,
/// Chunks, Flows and Steps (Counters and MaxCount come from the packing: table_needs).
TableCounts schedule_needs(const Schedule& schedule, int ports);

/// Every parameter of `capacity` below its count in `needs`, as "Steps 512 < 519, Chunks 4096 <
/// 8192" (the build's value, then the need), or empty when they fit; a parameter `capacity`
/// does not name is not checked.
std::string misfit(const TableCounts& needs, const TableCounts& capacity);

/// misfit(table_needs(packed, schedule), capacity).
std::string table_misfit(const PackedSchedule& packed, const Schedule& schedule,
                         const TableCounts& capacity);

/// misfit(schedule_needs(schedule, ports), capacity): what no order of its tables can fit.
std::string schedule_misfit(const Schedule& schedule, int ports, const TableCounts& capacity);

}  // namespace mt
