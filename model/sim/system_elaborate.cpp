// The elaboration steps of System::Impl, in the order the constructor calls them.

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <utility>

#include "model/collective/cost_model.h"
#include "model/noc/deadlock.h"
#include "model/sched/hardware_scheduler.h"
#include "model/sched/host_scheduler.h"
#include "model/sim/system_impl.h"

namespace mt {

namespace {

// The order in which `n` components of one kind are created (elaboration_order): 0..n-1,
// reversed, or a permutation drawn from the seed and `kind` (each kind its own draw).
std::vector<int> creation_order(int n, const ElaborationOrder& order, std::uint64_t kind) {
  std::vector<int> at(static_cast<std::size_t>(std::max(0, n)));
  std::iota(at.begin(), at.end(), 0);
  if (order.kind == ElaborationOrder::Kind::kReverse) {
    std::reverse(at.begin(), at.end());
  } else if (order.kind == ElaborationOrder::Kind::kShuffle) {
    std::mt19937_64 rng(order.seed * 4 + kind);
    std::shuffle(at.begin(), at.end(), rng);
  }
  return at;
}

}  // namespace

void System::Impl::setup_data() {
  const NicSettings& nc = config.nic;
  const int nodes = topology.nodes();
  const std::uint64_t elements = bytes / kElementBytes;
  const Dtype dtype = config.data.dtype;
  const DataMode mode = data_mode_of(config.data, nodes, bytes);
  shared.chunk_bounds = chunk_bounds(schedule, elements);
  data = std::make_unique<DataStore>(mode, dtype, nodes, shared.chunk_bounds, kDataSamplesPerChunk);

  // Per message: route and NIC port. Per node: program and incoming messages.
  messages.assign(schedule.ops.size(), MessageRecord{});
  for (std::size_t m = 0; m < messages.size(); ++m) {
    messages[m].apply_after = schedule.ops[m].apply_after;
  }
  shared.rx.schedule = &schedule;
  shared.rx.messages = &messages;
  shared.rx.data = data.get();
  shared.rx.pool = &pool;
  shared.rx.data_error = &data_error;
  shared.routing = &routing;
  shared.paths.resize(schedule.ops.size());
  if (nc.receive_port == ReceivePort::kPerMessage && topology.is_direct()) {
    // Each receiver hands its ports out in turn to the messages of one step (schedule order).
    std::map<std::pair<int, int>, int> next_port;  // (receiver, step) -> messages so far
    shared.rx_ports.resize(schedule.ops.size());
    for (const Op& op : schedule.ops) {
      shared.rx_ports[static_cast<std::size_t>(op.id)] = next_port[{op.peer, op.step}]++ % ports;
    }
  }
  shared.on_finished = [this](int, std::uint64_t) { ++finished; };
}

NicPlan System::Impl::plan_messages() {
  const RouterConfig& rc = config.router;
  const NicSettings& nc = config.nic;
  const int nodes = topology.nodes();
  NicPlan plan;
  plan.params.resize(static_cast<std::size_t>(nodes));
  plan.message_ports.assign(schedule.ops.size(), 0);
  std::vector<NicParams>& nic_params = plan.params;
  std::vector<int>& message_ports = plan.message_ports;
  // Ports not bound to a route: the scheduler has one issue queue for all of them.
  plan.any_port = nc.port_binding == PortBinding::kAny;
  plan.queues = plan.any_port ? 1 : ports;
  const bool any_port = plan.any_port;
  static const std::vector<int> kNoRoute;
  if (schedule.has_local_steps()) plan.local_queue = plan.queues;
  for (const Op& op : schedule.ops) {
    const std::vector<int>* path = nullptr;
    if (op.is_local()) {
      // A local step: no route; it waits in the local queue and runs on the reduction unit.
      shared.paths[static_cast<std::size_t>(op.id)] = &kNoRoute;
      NicParams& node = nic_params[static_cast<std::size_t>(op.node)];
      node.program.push_back(op.id);
      node.program_ports.push_back(plan.local_queue);
      node.incoming.push_back(op.id);
      continue;
    }
    try {
      path = &routing.message_route(op.path, op.node, op.peer);
    } catch (const RoutingError& e) {
      throw SimulationConfigError("schedule message " + std::to_string(op.id) + ": " + e.what());
    }
    shared.paths[static_cast<std::size_t>(op.id)] = path;
    const int port =
        issue_queue(op, routing.out_index(path->front()), topology.is_direct(), ports, any_port);
    message_ports[static_cast<std::size_t>(op.id)] = port;
    NicParams& sender = nic_params[static_cast<std::size_t>(op.node)];
    sender.program.push_back(op.id);
    sender.program_ports.push_back(port);
    nic_params[static_cast<std::size_t>(op.peer)].incoming.push_back(op.id);
  }
  // router.tie_break random: a message's packets may take either way where both are shortest.
  std::vector<const std::vector<int>*> routes = shared.paths;
  if (rc.tie_break == TieBreak::kRandom) {
    shared.half_way.assign(schedule.ops.size(), 0);
    for (const Op& op : schedule.ops) {
      if (!op.path.empty() || op.is_local()) continue;  // a source route, or no route
      const unsigned dims = topology.half_way_dimensions(op.node, op.peer);
      shared.half_way[static_cast<std::size_t>(op.id)] = dims;
      for (unsigned ways = dims; ways != 0; ways = (ways - 1) & dims) {
        routes.push_back(&routing.route(op.node, op.peer, ways));
      }
    }
  }
  // The routes this run uses (the routing's and the schedule's own source routes) must not be
  // able to deadlock: refuse a cycle of channel dependencies before simulating.
  const std::vector<Channel> cycle = find_channel_cycle(routing, routes, rc.vcs);
  sim_require(cycle.empty(), "the routes of this schedule can deadlock on " + topology.name() +
                                 " with router.vcs " + std::to_string(rc.vcs) +
                                 ": channel dependency cycle " + describe_cycle(topology, cycle));
  // Hardware issue: every NIC holds its packed table; its program is the table order.
  plan.hardware = config.issue.mode == IssueMode::kHardware;
  PackedSchedule& packed = plan.packed;
  if (plan.hardware) {
    try {
      const SchedulerSettings& sc = config.issue.scheduler;
      sim_require(!sc.planned_table_order || !sc.planned_issue.empty(),
                  "nic.scheduler_table_order planned: no plan was made for this point (the run "
                  "layer's run_point plans it)");
      packed =
          pack_schedule(schedule, message_ports, plan.queues,
                        sc.planned_table_order ? sc.planned_issue : std::vector<std::uint64_t>{});
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
  return plan;
}

void System::Impl::build_routers() {
  const RouterConfig& rc = config.router;
  const int nodes = topology.nodes();
  const int receive_vcs = config.nic.receive_vcs;
  const RouterOutputConfig receive_port{-1, receive_vcs, rc.vcs * rc.buffer_flits / receive_vcs};
  const int first_router = topology.is_direct() ? 0 : nodes;
  routers.resize(static_cast<std::size_t>(topology.vertices() - first_router));
  for (const int r :
       creation_order(topology.vertices() - first_router, config.elaboration_order, 0)) {
    const int v = first_router + r;
    RouterParams params;
    params.vertex = v;
    params.pipeline_cycles = rc.pipeline_cycles;
    params.vcs = rc.vcs;
    params.buffer_flits = rc.buffer_flits;
    params.step_priority = rc.step_priority;
    params.step_priority_per_input = rc.step_priority_scope == StepPriorityScope::kInput;
    params.turn_reservation_all = rc.turn_reservation == TurnReservation::kAll;
    params.every_cycle = config.elaboration_order.kind == ElaborationOrder::Kind::kEveryCycle;
    params.network_inputs = static_cast<int>(topology.in_links(v).size());
    params.local_ports = topology.is_direct() ? ports : 0;
    // An output feeds a router's input (`vcs` VCs of `buffer_flits`) or a NIC's receive port (an
    // ejection port, or a switch's link to a node): the same space in `nic.receive_vcs` VCs,
    // by default `vcs` as BookSim's ejection channel. Under message flow control a message holds
    // one, so that many messages share a receive port packet by packet; with one they queue whole.
    for (const int id : topology.out_links(v)) {
      if (!topology.is_direct() && !topology.is_switch(topology.link(id).dst)) {
        params.outputs.push_back(
            RouterOutputConfig{id, receive_port.vcs, receive_port.credits_per_vc});
      } else {
        params.outputs.push_back(RouterOutputConfig{id, rc.vcs, rc.buffer_flits});
      }
    }
    for (int p = 0; p < params.local_ports; ++p) params.outputs.push_back(receive_port);
    const std::string name = (topology.is_direct() ? "router_" : "switch_") + std::to_string(v);
    routers[static_cast<std::size_t>(r)] =
        std::make_unique<Router>(name.c_str(), params, routing, clock);
  }
}

void System::Impl::build_nics(NicPlan& plan, const SchedulerFactory& factory) {
  const RouterConfig& rc = config.router;
  const NicSettings& nc = config.nic;
  const SchedulerSettings& sc = config.issue.scheduler;
  const int nodes = topology.nodes();
  const bool hardware = plan.hardware;
  const PackedSchedule& packed = plan.packed;
  std::vector<NicParams>& nic_params = plan.params;
  nics.resize(static_cast<std::size_t>(nodes));
  for (const int u : creation_order(nodes, config.elaboration_order, 1)) {
    NicParams& params = nic_params[static_cast<std::size_t>(u)];
    params.node = u;
    params.ports = ports;
    params.tx.node = u;
    params.tx.ports = ports;
    params.tx.drives_links = !topology.is_direct();
    params.tx.packet_bytes = nc.packet_bytes;
    params.tx.head_flit_bytes = nc.head_flit_bytes;
    params.tx.flit_bytes = nc.flit_bytes;
    params.tx.element_bytes = kElementBytes;
    params.tx.tx_vcs = rc.vcs;
    params.tx.tx_credits_per_vc = rc.buffer_flits;
    params.tx.message_flow_control = nc.flow_control == FlowControl::kMessage;
    params.tx.tx_queue_packets = nc.tx_queue_packets;
    params.rx.node = u;
    params.rx.ports = ports;
    params.rx.element_bytes = kElementBytes;
    params.rx.reduce_elems_per_cycle = nc.reduce_elems_per_cycle;
    params.rx.reduce_whole_messages = nc.reduction == ReduceGranularity::kMessage;
    params.rx.ports_on_links = !topology.is_direct();
    params.rx_buffer_flits = rc.vcs * rc.buffer_flits;
    params.every_cycle = config.elaboration_order.kind == ElaborationOrder::Kind::kEveryCycle;
    // One grant per requesting port (nic.scheduler_any_port_grants per_port): the scheduler
    // hands each grant to a port itself, so issue control serves a queue per port (grant
    // register); the table keeps one queue (every entry on port 0, window 0 shared). Local
    // steps (a queue after the ports') come only with software issue (system_checks.cpp).
    const bool per_port_grants = hardware && plan.any_port && sc.per_port_grants;
    params.any_port = plan.any_port && !per_port_grants;
    params.local_queue = plan.local_queue;
    params.step_barrier = nc.step_barrier;
    // The request lead: the decision latency, in network cycles of the scheduler's clock.
    params.request_lead_cycles = hardware && sc.early_request
                                     ? static_cast<std::uint64_t>(std::ceil(
                                           sc.decision_latency_cycles * sc.network_cycles_per_tick))
                                     : 0;
    const std::string name = "nic_" + std::to_string(u);
    std::unique_ptr<Scheduler> scheduler;
    try {
      if (hardware) {
        SchedulerModelConfig engine;
        engine.ports = per_port_grants ? ports : plan.queues;
        engine.shared_window = per_port_grants;
        engine.decision_latency_cycles = sc.decision_latency_cycles;
        engine.step_order = sc.step_order;
        engine.counters = packed.counters;
        engine.depth = sc.depth;
        engine.window = sc.window;
        engine.node = static_cast<int>(u);
        engine.network_cycles_per_tick = sc.network_cycles_per_tick;
        engine.watchdog_limit = sc.watchdog_limit;
        engine.watchdog_tick_cycles = sc.watchdog_tick_cycles;
        const std::vector<TableEntry>& table = packed.tables[static_cast<std::size_t>(u)];
        sim_require(
            factory || sc.impl != SchedulerImpl::kRtl,
            "nic.scheduler rtl needs the RTL co-simulation: no scheduler factory was given");
        scheduler = factory ? factory(u, table, engine, packed.format)
                            : make_model_scheduler(table, engine);
        sim_require(scheduler != nullptr,
                    "scheduler factory returned no scheduler for node " + std::to_string(u));
      } else {
        // The host issues the node's program (in program order; issue queue per entry).
        std::vector<SchedulerOp> program;
        program.reserve(params.program.size());
        for (std::size_t i = 0; i < params.program.size(); ++i) {
          const Op& op = schedule.ops[static_cast<std::size_t>(params.program[i])];
          program.push_back(
              SchedulerOp{op.id, params.program_ports[i], op.step, op.deps, op.release_cycle});
        }
        scheduler = std::make_unique<HostScheduler>(
            std::move(program), plan.queues + (plan.local_queue >= 0 ? 1 : 0), config.issue.host);
      }
    } catch (const TableError& e) {  // e.g. a table too large for the Verilated scheduler
      throw TableError("node " + std::to_string(u) + ": " + e.what(), e.location());
    }
    nics[static_cast<std::size_t>(u)] =
        std::make_unique<Nic>(name.c_str(), params, shared, std::move(scheduler), clock);
  }
}

void System::Impl::connect_links() {
  const NicSettings& nc = config.nic;
  const int nodes = topology.nodes();
  // Topology links (indexed by link id).
  const std::vector<Link>& all_links = topology.links();
  links.resize(all_links.size());
  for (const int l :
       creation_order(static_cast<int>(all_links.size()), config.elaboration_order, 2)) {
    const Link& link = all_links[static_cast<std::size_t>(l)];
    LinkParams params{link.id, link.bytes_per_cycle, link.latency_cycles, nc.flit_bytes};
    const std::string name = "link_" + std::to_string(link.id) + "_" + std::to_string(link.src) +
                             "_" + std::to_string(link.dst);
    links[static_cast<std::size_t>(l)] =
        std::make_unique<mt::LinkChannel>(name.c_str(), params, clock);
    LinkChannel& channel = *links[static_cast<std::size_t>(l)];
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
    for (const int u : creation_order(nodes, config.elaboration_order, 3)) {
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
}

}  // namespace mt
