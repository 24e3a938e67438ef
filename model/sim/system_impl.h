#pragma once
// Inside System (model/sim/): the elaborated design's state and the steps that build it, one
// concept per file. system_checks.cpp: the inputs the simulator refuses; system_elaborate.cpp:
// data, per-message routes and NIC programs, routers, NICs, links; system.cpp: the order of the
// steps, the stall report and the run.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/data/data_store.h"
#include "model/data/packet_sizes.h"
#include "model/nic/nic.h"
#include "model/noc/cycle_clock.h"
#include "model/noc/link.h"
#include "model/noc/packet.h"
#include "model/noc/router.h"
#include "model/noc/routing.h"
#include "model/sched/table_packer.h"
#include "model/sim/energy.h"
#include "model/sim/system.h"
#include "model/sim/system_checks.h"
#include "model/sim/watchdog.h"

namespace mt {

/// What every NIC is given: its program (and, with hardware issue, its packed table).
struct NicPlan {
  std::vector<NicParams> params;   ///< per node: program, ports, incoming messages
  std::vector<int> message_ports;  ///< per message: the sender's issue queue
  bool any_port = false;           ///< nic.port_binding any: one issue queue for all ports
  int queues = 1;                  ///< issue queues per NIC (the ports' queues)
  /// The issue queue of local steps (after the ports' queues; no port serves it), -1 = none.
  int local_queue = -1;
  bool hardware = false;  ///< nic.issue hardware
  PackedSchedule packed;  ///< hardware issue: every node's table
};

struct System::Impl {
  const PointConfig& config;
  const Topology& topology;
  const Schedule& schedule;
  std::uint64_t bytes;
  int ports;
  CycleClock clock;
  RoutingTable routing;
  std::unique_ptr<DataStore> data;
  PacketPool pool;
  std::vector<MessageRecord> messages;
  std::string data_error;  // first packetisation error (RxShared::data_error)
  NicShared shared;
  std::vector<std::unique_ptr<Router>> routers;  // indexed by vertex (direct) or vertex - nodes
  std::vector<std::unique_ptr<Nic>> nics;
  std::vector<std::unique_ptr<LinkChannel>> links;  // topology links, indexed by link id
  std::vector<std::unique_ptr<LinkChannel>> local_links;
  std::unique_ptr<Watchdog> watchdog;
  int finished = 0;
  int table_counters = 0;    // hardware issue: PackedSchedule::counters, else 0
  int table_entries = 0;     // hardware issue: PackedSchedule::depth, else 0
  std::string table_misfit;  // hardware issue: table_misfit against the build, else empty
  std::string stall;
  bool ran = false;

  Impl(const PointConfig& config_in, const Topology& topology_in, const Schedule& schedule_in,
       std::uint64_t bytes_in, const SchedulerFactory& factory);

  // Elaboration steps, in order (system_elaborate.cpp).
  /// The data store (full, sampled or off) and the NICs' shared environment.
  void setup_data();
  /// Every message's route and NIC port, every node's program; refuses routes that can deadlock
  /// and packs the tables for hardware issue.
  NicPlan plan_messages();
  /// A Router per vertex that forwards (every endpoint of a direct topology, every switch).
  void build_routers();
  /// A Nic per endpoint with its program and scheduler (`factory` for hardware issue).
  void build_nics(NicPlan& plan, const SchedulerFactory& factory);
  /// A LinkChannel per topology link, and the local channels between NIC ports and routers.
  void connect_links();

  /// What the run did that costs energy, for a run of `completion` cycles
  /// (system_energy.cpp).
  EnergyCounts energy_counts(std::uint64_t completion) const;

  Router& router_at(int vertex);
  std::string describe_stall(std::uint64_t cycle) const;
  RunResult run();
};

}  // namespace mt
