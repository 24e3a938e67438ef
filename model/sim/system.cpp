#include "model/sim/system.h"

#include <systemc>

#include <algorithm>
#include <chrono>
#include <memory>
#include <sstream>
#include <vector>

#include "model/collective/cost_model.h"
#include "model/noc/process_fault.h"
#include "model/sched/scheduler_build.h"
#include "model/sim/system_impl.h"

namespace mt {

namespace {

constexpr int kStallNodesShown = 4;
constexpr std::size_t kStallRoutersShown = 4;

// The calendar's order of same-cycle runs under `order`: as asked (forward, every_cycle), reversed,
// or shuffled from the seed.
CalendarOrder calendar_order(const ElaborationOrder& order) {
  CalendarOrder calendar;
  if (order.kind == ElaborationOrder::Kind::kReverse) {
    calendar.kind = CalendarOrder::Kind::kReversed;
  } else if (order.kind == ElaborationOrder::Kind::kShuffle) {
    calendar.kind = CalendarOrder::Kind::kShuffled;
    calendar.seed = order.seed;
  }
  return calendar;
}

}  // namespace

System::Impl::Impl(const PointConfig& config_in, const Topology& topology_in,
                   const Schedule& schedule_in, std::uint64_t bytes_in,
                   const SchedulerFactory& factory)
    : config(config_in),
      topology(topology_in),
      schedule(schedule_in),
      bytes(bytes_in),
      ports(topology_in.ports_per_node()),
      clock(checked_clock_ghz(config_in.clock_ghz)),
      routing(topology_in) {
  validate_system_inputs(config, topology, schedule, bytes);
  sim_require(!routing.uses_vc_classes() || config.router.vcs >= 2,
              "topology " + topology.name() + " has " + routing.vc_class_reason() +
                  ": router.vcs must be >= 2 for deadlock freedom (two VC classes)");
  setup_data();
  NicPlan plan = plan_messages();
  if (plan.hardware) {
    table_counters = plan.packed.counters;
    table_entries = plan.packed.depth;
    const SchedulerSettings& scheduler = config.issue.scheduler;
    table_misfit = mt::table_misfit(plan.packed, schedule, scheduler.table_capacity);
    if (scheduler.planned_trial && !table_misfit.empty())
      throw PlannedTableRefused(kPlannedMisfit + table_misfit);
  }
  // Routers before NICs, or (reverse, odd shuffle seeds) NICs first, and the calendar runs each
  // cycle's components in the order asked, reversed or shuffled: no order may matter.
  const ElaborationOrder& order = config.elaboration_order;
  clock.calendar().set_order(calendar_order(order));
  const bool nics_first = order.kind == ElaborationOrder::Kind::kReverse ||
                          (order.kind == ElaborationOrder::Kind::kShuffle && order.seed % 2 == 1);
  if (!nics_first) build_routers();
  build_nics(plan, factory);
  if (nics_first) build_routers();
  connect_links();
  watchdog = std::make_unique<Watchdog>(
      "watchdog", config.watchdog_cycles, clock,
      [this]() {
        std::uint64_t last = 0;
        for (const auto& nic : nics) last = std::max(last, nic->last_progress_cycle());
        for (const auto& router : routers) last = std::max(last, router->last_progress_cycle());
        return last;
      },
      [this]() { return finished == static_cast<int>(nics.size()); },
      [this](std::uint64_t cycle) { stall = describe_stall(cycle); });
}

Router& System::Impl::router_at(int vertex) {
  const int index = topology.is_direct() ? vertex : vertex - topology.nodes();
  return *routers.at(static_cast<std::size_t>(index));
}

std::string System::Impl::describe_stall(std::uint64_t cycle) const {
  std::ostringstream out;
  out << "stall at cycle " << cycle << ":";
  int shown = 0;
  int unfinished = 0;
  for (const auto& nic : nics) {
    if (nic->finished()) continue;
    ++unfinished;
    if (shown < kStallNodesShown) {
      out << (shown == 0 ? " " : "; ") << nic->describe_stall();
      ++shown;
    }
  }
  if (unfinished > shown) out << "; and " << unfinished - shown << " more unfinished nodes";
  // Routers still holding packets (a deadlock shows up here), fullest first.
  std::vector<std::pair<std::uint64_t, int>> holding;
  for (const auto& router : routers) {
    if (router->buffered_packets() > 0) {
      holding.emplace_back(router->buffered_packets(), router->params().vertex);
    }
  }
  std::sort(holding.begin(), holding.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (std::size_t i = 0; i < holding.size() && i < kStallRoutersShown; ++i) {
    out << (i == 0 ? "; packets held in " : ", ")
        << (topology.is_switch(holding[i].second) ? "switch " : "router ") << holding[i].second
        << " (" << holding[i].first << ")";
  }
  if (holding.size() > kStallRoutersShown) {
    out << " and " << holding.size() - kStallRoutersShown << " more routers";
  }
  return out.str();
}

RunResult System::Impl::run() {
  if (ran) throw SimulationConfigError("System::run() called twice");
  ran = true;
  const auto wall_start = std::chrono::steady_clock::now();
  // Never past the horizon: later times would wrap SystemC's 64-bit time (time_limits.h).
  try {
    sc_core::sc_start(clock.to_time(clock.max_cycles()), sc_core::SC_EXIT_ON_STARVATION);
  } catch (...) {
    rethrow_process_fault();  // the first fault, if a later one made the kernel throw
    throw;
  }
  rethrow_process_fault();  // a router's or NIC's exception, as thrown (a livelock: logic_error)
  const auto wall_end = std::chrono::steady_clock::now();

  RunResult result;
  result.scenario = config.scenario;
  result.topology = topology.name();
  result.algorithm = schedule.algorithm;
  result.nodes = topology.nodes();
  result.ports = ports;
  result.bytes = bytes;
  result.clock_ghz = config.clock_ghz;
  result.steps = schedule.num_steps;
  result.messages = schedule.ops.size();
  result.data_mode = data->mode();
  std::uint64_t completion = 0;
  for (const auto& nic : nics) {
    result.node_finish_cycles.push_back(nic->finish_cycle());
    completion = std::max(completion, nic->finish_cycle());
    result.packets += nic->packets_sent();
    result.max_staged_bytes = std::max(result.max_staged_bytes, nic->max_staged_bytes());
  }
  for (const auto& router : routers) result.cross_flow_waits += router->cross_flow_waits();
  result.table_counters = table_counters;
  result.table_entries = table_entries;
  result.table_misfit = table_misfit;
  const bool complete = finished == static_cast<int>(nics.size());
  if (!complete) {
    completion = watchdog->fired() ? watchdog->fired_cycle() : clock.now();
    result.error = !stall.empty() ? stall : describe_stall(clock.now());
    // The run was too slow to finish before the horizon (a very slow link), not stuck: it ran
    // to the horizon, or stopped within a few packet hops of it, where the next hop could not be
    // scheduled. A stall well before it is a stall, whatever watchdog_cycles is.
    const double hop = topology.config().link_latency_cycles +
                       (config.nic.packet_bytes + config.nic.head_flit_bytes) /
                           topology.config().link_bytes_per_cycle;
    const double left =
        static_cast<double>(clock.max_cycles() - std::min(completion, clock.max_cycles()));
    const bool at_horizon = stall.empty() ? clock.now() >= clock.max_cycles() : left < 4 * hop;
    if (at_horizon)
      result.error = "the run reached the simulated-time horizon of " +
                     std::to_string(clock.max_cycles()) +
                     " cycles at this clock (SystemC's 64-bit time) unfinished: " + result.error;
  }
  result.completion_cycles = completion;
  result.completion_ns = static_cast<double>(completion) / config.clock_ghz;
  const CostParams cost = cost_params_of(config);
  result.bound_cycles = bandwidth_bound_cycles(topology, ports, bytes);
  result.latency_bound_cycles = latency_bound_cycles(topology, bytes, cost);
  const double bound = std::max(result.bound_cycles, result.latency_bound_cycles);
  result.efficiency = complete && completion > 0 ? bound / static_cast<double>(completion) : 0.0;
  result.estimate_cycles = estimate_schedule(schedule, topology, bytes, cost).cycles();
  if (complete) {
    // A message that completed without all of its bytes or packet indices is a data error
    // even when the chunk values (applied per message) happen to check out.
    const std::string mismatch = !data_error.empty() ? data_error : data->check();
    if (!mismatch.empty()) result.error = mismatch;
    result.data_verified = mismatch.empty() && data->mode() != DataMode::kOff;
  }
  for (const auto& link : links) {
    LinkStat stat;
    stat.link = link->params().id;
    stat.src = topology.link(stat.link).src;
    stat.dst = topology.link(stat.link).dst;
    stat.bytes = link->bytes();
    stat.utilization =
        completion > 0 ? static_cast<double>(link->busy_cycles()) / static_cast<double>(completion)
                       : 0.0;
    result.links.push_back(stat);
  }
  result.energy_counts = energy_counts(completion);
  result.energy = price_energy(result.energy_counts, config.energy);
  result.energy_preset = config.energy.preset;
  result.host_preset = config.issue.host_preset;
  result.host = config.issue.host;
  if (config.issue.mode == IssueMode::kHardware) {
    result.scheduler_clock_ghz = config.clock_ghz / config.issue.scheduler.network_cycles_per_tick;
    result.scheduler_step_order = config.issue.scheduler.step_order;
    result.scheduler_planned_table = config.issue.scheduler.planned_table_order;
  }
  result.message_arrival_cycles.reserve(messages.size());
  result.message_issue_cycles.reserve(messages.size());
  for (const MessageRecord& record : messages) {
    result.message_arrival_cycles.push_back(record.arrived ? record.arrival_cycle : 0);
    result.message_issue_cycles.push_back(record.issued ? record.issue_cycle : 0);
  }
  result.wall_seconds = std::chrono::duration<double>(wall_end - wall_start).count();
  return result;
}

System::System(const PointConfig& config, const Topology& topology, const Schedule& schedule,
               std::uint64_t bytes, const SchedulerFactory& factory)
    : impl_(std::make_unique<Impl>(config, topology, schedule, bytes, factory)) {}

System::~System() = default;

RunResult System::run() {
  return impl_->run();
}

RunResult simulate(const PointConfig& config, const Topology& topology, const Schedule& schedule,
                   std::uint64_t bytes, const SchedulerFactory& factory) {
  const auto wall_start = std::chrono::steady_clock::now();
  auto system = std::make_unique<System>(config, topology, schedule, bytes, factory);
  RunResult result = system->run();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  // SystemC elaborates once per process, so no other design can follow this one: it stays to the
  // end of the process (reachable from here) instead of being torn down. Tearing it down would
  // unregister every module, port and export from the kernel, which searches its registries
  // linearly: quadratic in the components, about 1% of a 512-node run and growing with N^2.
  static auto* const finished_designs = new std::vector<std::unique_ptr<System>>();
  finished_designs->push_back(std::move(system));
  return result;
}

}  // namespace mt
