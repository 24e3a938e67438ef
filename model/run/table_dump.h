#pragma once
// The co-designed NIC's schedule tables of one schedule, as files a hardware engineer can load:
// the packed tables exactly as a hardware-issue run holds them (same issue queues, same packer),
// as JSON (format widths, per node its counters and entries, decoded and packed) or one node's
// table for Verilog's $readmemh (`mtsim schedule --format table|memh`). Layout of an entry:
// model/sched/SCHEDULE_TABLE.md.

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "model/collective/schedule.h"
#include "model/sched/table_packer.h"
#include "model/topology/topology.h"

namespace mt {

/// Every node's table of `schedule` on `topology` as a run under hardware issue packs it, with
/// its NIC ports bound to their routes (nic.port_binding route, the default): in step order, or
/// with `planned_issue` (per message id, the cycle a free host issued it: planned_issue_cycles)
/// in that order, as nic.scheduler_table_order planned packs it. Throws TableError when the
/// schedule cannot be packed.
PackedSchedule pack_for_hardware(const Schedule& schedule, const Topology& topology,
                                 const std::vector<std::uint64_t>& planned_issue = {});

/// The plan of nic.scheduler_table_order planned for `schedule` at `bytes` on `topology` with
/// the scenario defaults (the topology's default network, message flow control, hardware
/// issue): per message id, the cycle a free host issues it in a message-granularity run. A
/// scenario with other network or NIC keys plans its own (run_point). Throws
/// SimulationConfigError when the planning run fails.
std::vector<std::uint64_t> planned_issue_cycles(const Schedule& schedule, const Topology& topology,
                                                std::uint64_t bytes);

/// `packed` with the field widths of an RTL build (rtl/nic_sched's parameters) instead of the
/// smallest ones: `params` maps parameter names (Nodes, Ports, Chunks, Flows, Steps, Counters,
/// MaxCount) to the build's values; a parameter not given keeps the table's own count. Throws
/// TableError for an unknown name or a value below what the schedule needs ("Chunks = 16, but
/// the schedule has 64 chunks").
PackedSchedule with_rtl_widths(PackedSchedule packed, const Schedule& schedule,
                               const std::map<std::string, long long>& params);

/// JSON of `packed`: "format" (every field's width, entry_bits, entry_words, the counts it was
/// made for), "depth", "counters", and "nodes": per node (all, or only `node` when >= 0) its
/// "node", "counter_arrivals" (messages that count each counter), "release_counter" and
/// "entries" in table order, each with its schedule "message" id, the decoded fields and "hex":
/// the packed entry as one hexadecimal number of entry_bits bits (bit 0 = kind).
nlohmann::json packed_tables_json(const PackedSchedule& packed, int node = -1);

/// Node `node`'s table for $readmemh: a comment header (format widths, field order, counters),
/// then one entry per line as a hexadecimal number of entry_bits bits, in table order.
std::string packed_table_memh(const PackedSchedule& packed, int node);

}  // namespace mt
