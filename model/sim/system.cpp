#include "model/sim/system.h"

#include <systemc>

#include <algorithm>
#include <chrono>
#include <map>
#include <sstream>

#include "model/collective/cost_model.h"
#include "model/nic/data_store.h"
#include "model/nic/hardware_scheduler.h"
#include "model/nic/nic.h"
#include "model/nic/software_scheduler.h"
#include "model/nic/table_packer.h"
#include "model/noc/cycle_clock.h"
#include "model/noc/deadlock.h"
#include "model/noc/link.h"
#include "model/noc/packet.h"
#include "model/noc/router.h"
#include "model/noc/routing.h"
#include "model/sim/watchdog.h"

namespace mt {

namespace {

constexpr int kElementBytes = 4;
constexpr int kSamplesPerChunk = 4;
/// Largest total of all nodes' buffers simulated with full data (nodes x size), bytes.
constexpr std::uint64_t kMaxFullDataTotalBytes = 2ull << 30;
constexpr int kStallNodesShown = 4;
constexpr std::size_t kStallRoutersShown = 4;

void require(bool condition, const std::string& message) {
  if (!condition) throw SimulationConfigError(message);
}

double checked_clock_ghz(double clock_ghz) {
  // Checked before the clock period is built from it (1 ps time resolution).
  require(clock_ghz > 0 && clock_ghz <= 1000,
          "clock_ghz must be in (0, 1000], got " + std::to_string(clock_ghz));
  return clock_ghz;
}

void validate(const ScenarioConfig& scenario, const Topology& topology, const Schedule& schedule,
              std::uint64_t bytes) {
  require(bytes % kElementBytes == 0, "all-reduce size " + std::to_string(bytes) +
                                          " bytes is not a whole number of 4-byte "
                                          "elements");
  const RouterConfig& router = scenario.router;
  const NicConfig& nic = scenario.nic;
  require(scenario.watchdog_cycles >= 1, "watchdog_cycles must be >= 1");
  require(router.pipeline_cycles >= 0, "router.pipeline_cycles must be >= 0");
  require(router.vcs >= 1, "router.vcs must be >= 1");
  require(nic.flit_bytes >= 1, "nic.flit_bytes must be >= 1");
  require(nic.head_flit_bytes >= 0, "nic.head_flit_bytes must be >= 0");
  require(
      nic.packet_bytes >= kElementBytes && nic.packet_bytes % kElementBytes == 0,
      "nic.packet_bytes must be a positive multiple of 4, got " + std::to_string(nic.packet_bytes));
  require(nic.reduce_elems_per_cycle > 0, "nic.reduce_elems_per_cycle must be > 0");
  require(nic.software_issue_cycles >= 0, "nic.software_issue_cycles must be >= 0");
  require(nic.port_binding == PortBinding::kRoute || topology.is_direct(),
          "nic.port_binding any needs a direct topology (on " + topology.name() +
              " each NIC port is its own link)");
  const int max_flits = Nic::flits_for(nic.packet_bytes, nic.head_flit_bytes, nic.flit_bytes);
  require(router.buffer_flits >= max_flits,
          "router.buffer_flits (" + std::to_string(router.buffer_flits) +
              ") must hold one whole packet (" + std::to_string(max_flits) + " flits)");
  for (const Link& link : topology.links()) {
    require(link.bytes_per_cycle > 0, "link " + std::to_string(link.id) + " has no bandwidth");
    require(link.latency_cycles >= 0, "link " + std::to_string(link.id) + " has negative latency");
  }
  require(topology.ports_per_node() >= 1, "ports per node must be >= 1");
  require(schedule.nodes == topology.nodes(), "schedule is for " + std::to_string(schedule.nodes) +
                                                  " nodes, topology " + topology.name() + " has " +
                                                  std::to_string(topology.nodes()));
  require(schedule.num_chunks >= 1, "schedule has no chunks");
  try {
    (void)chunk_bounds(schedule, bytes / kElementBytes);
  } catch (const ScheduleError& e) {
    throw SimulationConfigError(e.what());
  }
  for (std::size_t i = 0; i < schedule.ops.size(); ++i) {
    const Op& op = schedule.ops[i];
    const std::string what = "schedule message " + std::to_string(i);
    require(op.id == static_cast<int>(i), what + " has id " + std::to_string(op.id));
    require(op.node >= 0 && op.node < schedule.nodes, what + ": node out of range");
    require(op.peer >= 0 && op.peer < schedule.nodes, what + ": peer out of range");
    require(op.node != op.peer, what + ": node sends to itself");
    require(op.chunk >= 0 && op.chunk < schedule.num_chunks, what + ": chunk out of range");
    require(op.port < topology.ports_per_node(),
            what + ": port " + std::to_string(op.port) + " but nodes have " +
                std::to_string(topology.ports_per_node()) + " ports");
    for (const int dep : op.deps) {
      require(dep >= 0 && dep < static_cast<int>(schedule.ops.size()),
              what + ": dependency " + std::to_string(dep) + " out of range");
    }
  }
  if (!topology.is_direct()) {
    for (int u = 0; u < topology.nodes(); ++u) {
      require(static_cast<int>(topology.out_links(u).size()) == topology.ports_per_node() &&
                  static_cast<int>(topology.in_links(u).size()) == topology.ports_per_node(),
              "endpoint " + std::to_string(u) + " has " +
                  std::to_string(topology.out_links(u).size()) + " links but " +
                  std::to_string(topology.ports_per_node()) +
                  " NIC ports (switched topologies need one port per link)");
    }
  }
}

}  // namespace

struct System::Impl {
  const ScenarioConfig& scenario;
  const Topology& topology;
  const Schedule& schedule;
  std::uint64_t bytes;
  int ports;
  CycleClock clock;
  RoutingTable routing;
  std::unique_ptr<DataStore> data;
  PacketPool pool;
  std::vector<MessageRecord> messages;
  std::string data_error;  // first packetisation error (NicEnvironment::data_error)
  NicEnvironment env;
  std::vector<std::unique_ptr<Router>> routers;  // indexed by vertex (direct) or vertex - nodes
  std::vector<std::unique_ptr<Nic>> nics;
  std::vector<std::unique_ptr<LinkChannel>> links;  // topology links, indexed by link id
  std::vector<std::unique_ptr<LinkChannel>> local_links;
  std::unique_ptr<Watchdog> watchdog;
  int finished = 0;
  std::string stall;
  bool ran = false;

  Impl(const ScenarioConfig& scenario_in, const Topology& topology_in, const Schedule& schedule_in,
       std::uint64_t bytes_in, const SchedulerFactory& factory)
      : scenario(scenario_in),
        topology(topology_in),
        schedule(schedule_in),
        bytes(bytes_in),
        ports(topology_in.ports_per_node()),
        clock(checked_clock_ghz(scenario_in.clock_ghz)),
        routing(topology_in) {
    validate(scenario, topology, schedule, bytes);
    const RouterConfig& rc = scenario.router;
    const NicConfig& nc = scenario.nic;
    require(!routing.uses_vc_classes() || rc.vcs >= 2,
            "topology " + topology.name() + " has " + routing.vc_class_reason() +
                ": router.vcs must be >= 2 for deadlock freedom (two VC classes)");
    const int nodes = topology.nodes();
    const std::uint64_t elements = bytes / kElementBytes;
    const Dtype dtype = scenario.collective.dtype;
    DataMode mode = DataMode::kFull;
    if (!scenario.collective.verify_data) {
      mode = DataMode::kOff;
    } else if (bytes > scenario.collective.max_data_bytes ||
               bytes * static_cast<std::uint64_t>(nodes) > kMaxFullDataTotalBytes) {
      // Full data keeps every node's whole buffer (plus in-flight snapshots): past the total cap
      // the run is timing-only with sampled chunks, so memory stays bounded.
      mode = DataMode::kSampled;
    }
    env.chunk_bounds = chunk_bounds(schedule, elements);
    data = std::make_unique<DataStore>(mode, dtype, nodes, env.chunk_bounds, kSamplesPerChunk);

    // Per message: route and NIC port. Per node: program and incoming messages.
    messages.assign(schedule.ops.size(), MessageRecord{});
    env.schedule = &schedule;
    env.routing = &routing;
    env.data = data.get();
    env.pool = &pool;
    env.messages = &messages;
    env.data_error = &data_error;
    env.paths.resize(schedule.ops.size());
    if (nc.rx_port_per_message && topology.is_direct()) {
      // Each receiver hands its ports out in turn to the messages of one step (schedule order).
      std::map<std::pair<int, int>, int> next_port;  // (receiver, step) -> messages so far
      env.rx_ports.resize(schedule.ops.size());
      for (const Op& op : schedule.ops) {
        env.rx_ports[static_cast<std::size_t>(op.id)] = next_port[{op.peer, op.step}]++ % ports;
      }
    }
    env.on_finished = [this](int, std::uint64_t) { ++finished; };
    std::vector<NicParams> nic_params(static_cast<std::size_t>(nodes));
    std::vector<int> message_ports(schedule.ops.size(), 0);
    // Ports not bound to a route: the scheduler has one issue queue for all of them.
    const bool any_port = nc.port_binding == PortBinding::kAny;
    const int queues = any_port ? 1 : ports;
    for (const Op& op : schedule.ops) {
      const std::vector<int>* path = nullptr;
      if (op.path.empty()) {
        path = &routing.route(op.node, op.peer);
      } else {
        try {
          routing.check_path(op.path, op.node, op.peer);
        } catch (const RoutingError& e) {
          throw SimulationConfigError("schedule message " + std::to_string(op.id) + ": " +
                                      e.what());
        }
        path = &op.path;
      }
      require(!path->empty(), "schedule message " + std::to_string(op.id) + ": empty route");
      env.paths[static_cast<std::size_t>(op.id)] = path;
      const int first_port = routing.out_index(path->front());
      int port = 0;
      if (any_port) {
        port = 0;  // one issue queue: the NIC picks a free port when the message starts
      } else if (topology.is_direct()) {
        port = op.port >= 0 ? op.port : first_port % ports;
      } else {
        port = first_port;  // the port is the endpoint's link: the route decides
      }
      message_ports[static_cast<std::size_t>(op.id)] = port;
      NicParams& sender = nic_params[static_cast<std::size_t>(op.node)];
      sender.program.push_back(op.id);
      sender.program_ports.push_back(port);
      nic_params[static_cast<std::size_t>(op.peer)].incoming.push_back(op.id);
    }
    // The routes this run uses (the routing's and the schedule's own source routes) must not be
    // able to deadlock: refuse a cycle of channel dependencies before simulating.
    const std::vector<Channel> cycle = find_channel_cycle(routing, env.paths, rc.vcs);
    require(cycle.empty(), "the routes of this schedule can deadlock on " + topology.name() +
                               " with router.vcs " + std::to_string(rc.vcs) +
                               ": channel dependency cycle " + describe_cycle(topology, cycle));
    // Hardware issue: every NIC holds its packed table; its program is the table order.
    const bool hardware = nc.issue == IssueMode::kHardware;
    PackedSchedule packed;
    if (hardware) {
      try {
        packed = pack_schedule(schedule, message_ports, queues);
      } catch (const TableError& e) {
        throw SimulationConfigError(std::string("nic.issue hardware: ") + e.what(), e.location());
      }
      for (int u = 0; u < nodes; ++u) {
        NicParams& params = nic_params[static_cast<std::size_t>(u)];
        params.program = packed.messages[static_cast<std::size_t>(u)];
        params.program_ports.clear();
        params.program_counters.clear();
        for (const TableEntry& e : packed.tables[static_cast<std::size_t>(u)]) {
          params.program_ports.push_back(e.port);
          params.program_counters.push_back(e.dst_counter);
        }
        params.release_counter = packed.release_counter[static_cast<std::size_t>(u)];
        params.release_cycles = packed.release_cycles[static_cast<std::size_t>(u)];
      }
    }

    const int rx_buffer_flits = rc.vcs * rc.buffer_flits;
    // Routers.
    const int first_router = topology.is_direct() ? 0 : nodes;
    for (int v = first_router; v < topology.vertices(); ++v) {
      RouterParams params;
      params.vertex = v;
      params.pipeline_cycles = rc.pipeline_cycles;
      params.vcs = rc.vcs;
      params.buffer_flits = rc.buffer_flits;
      params.step_priority = rc.step_priority;
      params.step_priority_per_input = rc.step_priority_per_input;
      params.network_inputs = static_cast<int>(topology.in_links(v).size());
      params.local_ports = topology.is_direct() ? ports : 0;
      for (const int id : topology.out_links(v)) {
        const int dst = topology.link(id).dst;
        if (!topology.is_direct() && !topology.is_switch(dst)) {
          params.outputs.push_back(RouterOutputConfig{id, 1, rx_buffer_flits});
        } else {
          params.outputs.push_back(RouterOutputConfig{id, rc.vcs, rc.buffer_flits});
        }
      }
      for (int p = 0; p < params.local_ports; ++p) {
        params.outputs.push_back(RouterOutputConfig{-1, 1, rx_buffer_flits});
      }
      const std::string name = (topology.is_direct() ? "router_" : "switch_") + std::to_string(v);
      routers.push_back(std::make_unique<Router>(name.c_str(), params, routing, clock));
    }
    // NICs.
    for (int u = 0; u < nodes; ++u) {
      NicParams& params = nic_params[static_cast<std::size_t>(u)];
      params.node = u;
      params.ports = ports;
      params.drives_links = !topology.is_direct();
      params.packet_bytes = nc.packet_bytes;
      params.head_flit_bytes = nc.head_flit_bytes;
      params.flit_bytes = nc.flit_bytes;
      params.element_bytes = kElementBytes;
      params.reduce_elems_per_cycle = nc.reduce_elems_per_cycle;
      // The co-designed NIC issues by itself: no host overhead per operation.
      params.software_issue_cycles =
          hardware ? 0 : static_cast<std::uint64_t>(nc.software_issue_cycles);
      params.message_flow_control = nc.flow_control == FlowControl::kMessage;
      params.reduce_whole_messages = nc.reduction == ReduceGranularity::kMessage;
      params.any_port = any_port;
      params.tx_queue_packets = nc.tx_queue_packets;
      params.step_barrier = nc.step_barrier;
      params.tx_vcs = rc.vcs;
      params.tx_credits_per_vc = rc.buffer_flits;
      params.rx_buffer_flits = rx_buffer_flits;
      const std::string name = "nic_" + std::to_string(u);
      std::unique_ptr<Scheduler> scheduler;
      if (hardware) {
        SchedulerModelConfig config;
        config.ports = queues;
        config.decision_latency_cycles = nc.decision_latency_cycles;
        config.step_order = nc.step_order;
        config.counters = packed.counters;
        config.depth = nc.scheduler_depth;
        config.window = nc.scheduler_window;
        const std::vector<TableEntry>& table = packed.tables[static_cast<std::size_t>(u)];
        require(factory || nc.scheduler != SchedulerImpl::kRtl,
                "nic.scheduler rtl needs the RTL co-simulation: no scheduler factory was given");
        scheduler = factory ? factory(u, table, config, packed.format)
                            : make_model_scheduler(table, config);
        require(scheduler != nullptr,
                "scheduler factory returned no scheduler for node " + std::to_string(u));
      } else {
        scheduler = std::make_unique<SoftwareScheduler>();
      }
      nics.push_back(std::make_unique<Nic>(name.c_str(), params, env, std::move(scheduler), clock));
    }
    // Topology links.
    for (const Link& link : topology.links()) {
      LinkParams params{link.id, link.bytes_per_cycle, link.latency_cycles, nc.flit_bytes};
      const std::string name = "link_" + std::to_string(link.id) + "_" + std::to_string(link.src) +
                               "_" + std::to_string(link.dst);
      links.push_back(std::make_unique<mt::LinkChannel>(name.c_str(), params, clock));
      LinkChannel& channel = *links.back();
      const auto out = static_cast<std::size_t>(routing.out_index(link.id));
      const auto in = static_cast<std::size_t>(routing.in_index(link.id));
      if (!topology.is_direct() && !topology.is_switch(link.src)) {
        nics[static_cast<std::size_t>(link.src)]->tx_socket[out].bind(channel.in_socket);
      } else {
        router_at(link.src).out_socket[out].bind(channel.in_socket);
      }
      if (!topology.is_direct() && !topology.is_switch(link.dst)) {
        channel.out_socket.bind(nics[static_cast<std::size_t>(link.dst)]->rx_socket[in]);
      } else {
        channel.out_socket.bind(router_at(link.dst).in_socket[in]);
      }
    }
    // Local channels between each NIC port and its router (direct topologies).
    if (topology.is_direct()) {
      const double local_bytes_per_cycle = topology.config().link_bytes_per_cycle;
      for (int u = 0; u < nodes; ++u) {
        Router& router = router_at(u);
        Nic& nic = *nics[static_cast<std::size_t>(u)];
        const auto network_inputs = topology.in_links(u).size();
        const auto network_outputs = topology.out_links(u).size();
        for (int p = 0; p < ports; ++p) {
          const LinkParams params{-1, local_bytes_per_cycle, 0, nc.flit_bytes};
          const std::string inject = "inject_" + std::to_string(u) + "_" + std::to_string(p);
          local_links.push_back(std::make_unique<mt::LinkChannel>(inject.c_str(), params, clock));
          nic.tx_socket[static_cast<std::size_t>(p)].bind(local_links.back()->in_socket);
          local_links.back()->out_socket.bind(
              router.in_socket[network_inputs + static_cast<std::size_t>(p)]);
          const std::string eject = "eject_" + std::to_string(u) + "_" + std::to_string(p);
          local_links.push_back(std::make_unique<mt::LinkChannel>(eject.c_str(), params, clock));
          router.out_socket[network_outputs + static_cast<std::size_t>(p)].bind(
              local_links.back()->in_socket);
          local_links.back()->out_socket.bind(nic.rx_socket[static_cast<std::size_t>(p)]);
        }
      }
    }
    watchdog = std::make_unique<Watchdog>(
        "watchdog", scenario.watchdog_cycles, clock,
        [this]() {
          std::uint64_t last = 0;
          for (const auto& nic : nics) last = std::max(last, nic->last_progress_cycle());
          for (const auto& router : routers) last = std::max(last, router->last_progress_cycle());
          return last;
        },
        [this]() { return finished == static_cast<int>(nics.size()); },
        [this](std::uint64_t cycle) { stall = describe_stall(cycle); });
  }

  Router& router_at(int vertex) {
    const int index = topology.is_direct() ? vertex : vertex - topology.nodes();
    return *routers.at(static_cast<std::size_t>(index));
  }

  std::string describe_stall(std::uint64_t cycle) const {
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

  RunResult run() {
    if (ran) throw SimulationConfigError("System::run() called twice");
    ran = true;
    const auto wall_start = std::chrono::steady_clock::now();
    // Never past the horizon: later times would wrap SystemC's 64-bit time (time_limits.h).
    sc_core::sc_start(clock.to_time(clock.max_cycles()), sc_core::SC_EXIT_ON_STARVATION);
    const auto wall_end = std::chrono::steady_clock::now();

    RunResult result;
    result.scenario = scenario.name;
    result.topology = topology.name();
    result.algorithm = schedule.algorithm;
    result.nodes = topology.nodes();
    result.ports = ports;
    result.bytes = bytes;
    result.clock_ghz = scenario.clock_ghz;
    result.steps = schedule.num_steps;
    result.messages = schedule.ops.size();
    result.data_mode = to_string(data->mode());
    std::uint64_t completion = 0;
    for (const auto& nic : nics) {
      result.node_finish_cycles.push_back(nic->finish_cycle());
      completion = std::max(completion, nic->finish_cycle());
      result.packets += nic->packets_sent();
    }
    for (const auto& router : routers) result.cross_flow_waits += router->cross_flow_waits();
    const bool complete = finished == static_cast<int>(nics.size());
    if (!complete) {
      completion = watchdog->fired() ? watchdog->fired_cycle() : clock.now();
      result.error = !stall.empty() ? stall : describe_stall(clock.now());
      if (stall.empty() && clock.now() >= clock.max_cycles())
        result.error = "the run reached the simulated-time horizon of " +
                       std::to_string(clock.max_cycles()) +
                       " cycles at this clock (SystemC's 64-bit time) unfinished: " + result.error;
    }
    result.completion_cycles = completion;
    result.completion_ns = static_cast<double>(completion) / scenario.clock_ghz;
    CostParams cost;
    cost.per_hop_cycles = scenario.router.pipeline_cycles;
    cost.packet_bytes = scenario.nic.packet_bytes;
    cost.head_flit_bytes = scenario.nic.head_flit_bytes;
    cost.flit_bytes = scenario.nic.flit_bytes;
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
      stat.utilization = completion > 0 ? static_cast<double>(link->busy_cycles()) /
                                              static_cast<double>(completion)
                                        : 0.0;
      result.links.push_back(stat);
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
};

System::System(const ScenarioConfig& scenario, const Topology& topology, const Schedule& schedule,
               std::uint64_t bytes, const SchedulerFactory& factory)
    : impl_(std::make_unique<Impl>(scenario, topology, schedule, bytes, factory)) {}

System::~System() = default;

RunResult System::run() {
  return impl_->run();
}

RunResult simulate(const ScenarioConfig& scenario, const Topology& topology,
                   const Schedule& schedule, std::uint64_t bytes) {
  return simulate(scenario, topology, schedule, bytes, SchedulerFactory());
}

RunResult simulate(const ScenarioConfig& scenario, const Topology& topology,
                   const Schedule& schedule, std::uint64_t bytes, const SchedulerFactory& factory) {
  const auto wall_start = std::chrono::steady_clock::now();
  System system(scenario, topology, schedule, bytes, factory);
  RunResult result = system.run();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

}  // namespace mt
