#pragma once
// Simulating one prepared point (one algorithm x one size) in this process: the last stage of
// prepare -> verify -> simulate -> result.

#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "model/params/scenario_config.h"
#include "model/run/prepare.h"
#include "model/sim/run_result.h"

namespace mt {

/// What results call a prepared schedule: the builder's own name ("auto:disjoint_rings(
/// pipeline=2)", a schedule file's algorithm), else the entry's algorithm with the parameters it
/// was given ("multitree_opt(pipeline=4)"), so that a result names what was built.
std::string schedule_name(const PreparedAlgorithm& p);

/// `config` with its planned tables' order (SchedulerSettings::planned_issue) where it asks for
/// them (hardware issue, nic.scheduler_table_order planned, packet granularity), else unchanged:
/// the compile step that orders every node's table by the cycle a free host issues each message
/// of the same schedule, planned with the message-granularity model (plain C++: it runs before
/// the point's SystemC elaboration). Throws SimulationConfigError when the planning run fails.
PointConfig with_planned_tables(const PointConfig& config, const Topology& topology,
                                const Schedule& schedule, std::uint64_t bytes);

/// Simulates `p` at `bytes` with its NIC (PreparedAlgorithm::nic: the scenario's nic plus the
/// entry's `nic:` overrides, `auto` resolved; RunResult::nic_choice says what it chose). Elaborates
/// SystemC: call at most once per process. A failure (data mismatch, stall, a configuration the
/// simulator refuses) is a RunResult with `error` set, not an exception. `cycles`: whether the
/// per-message cycles are wanted (MessageCycles).
RunResult run_point(const ScenarioConfig& scenario, const PreparedAlgorithm& p, std::uint64_t bytes,
                    MessageCycles cycles = MessageCycles::kRecorded);

/// A result naming the point (scenario, topology, algorithm, size), carrying `error`.
RunResult failed_result(const ScenarioConfig& scenario, const PreparedAlgorithm& p,
                        std::uint64_t bytes, const std::string& error);

/// failed_result() for an exception that stopped the point: an mt::Error's message (the input
/// cannot run), "out of memory", or anything else as an internal error (a bug of mtsim:
/// RunResult::internal_error).
RunResult exception_result(const ScenarioConfig& scenario, const PreparedAlgorithm& p,
                           std::uint64_t bytes, const std::exception& e);

/// Simulates every point (each in its own process: SystemC elaborates once per process) and
/// returns the results in the points' order. `with_messages`: keep the per-message cycles.
/// Front ends provide it (a process pool); the run layer's multi-point functions take it.
using PointRunner =
    std::function<std::vector<RunResult>(const std::vector<Point>& points, bool with_messages)>;

}  // namespace mt
