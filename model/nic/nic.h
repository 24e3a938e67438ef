#pragma once
// Network interface of one endpoint, made of three parts with narrow interfaces, each benched
// alone (tests/nic/):
// - issue control (a Scheduler: the host's HostScheduler for software issue, the co-designed
//   HardwareScheduler for hardware issue) decides which operation each port issues next;
// - the transmit DMA (TxDma) splits a started message into packets and injects them under credit
//   flow control;
// - the receive side (RxReassembly) reassembles packets, runs them through the reduction unit and
//   applies a complete message to the node's buffer, then tells issue control.
// The Nic itself is the SystemC shell: its sockets, one event-driven SC_METHOD that runs only
// when something can happen (it moves every part in a fixed order each time), the step barrier
// (StepBarrier) and the stall report. Flow control: `packet` (every packet carries a head flit
// and is routed and credited on its own) or `message` (only the first packet carries the head
// flit that sets up the path and reserves the receiver; the body packets stream behind it on the
// VC the head took; see model/noc/router.h). Hardware issue: the NIC presents every port's ready
// level and runs again when the scheduler's next decision can happen; release times
// (Op::release_cycle) are held by the host for software issue and rung on the table's release
// counter under hardware issue (NicParams::release_cycles).

#include <tlm_utils/passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/schedule.h"
#include "model/nic/issue_control.h"
#include "model/nic/rx_reassembly.h"
#include "model/nic/step_barrier.h"
#include "model/nic/tx_dma.h"
#include "model/noc/cycle_clock.h"
#include "model/noc/cycle_wakeup.h"
#include "model/noc/routing.h"
#include "model/sched/scheduler.h"

namespace mt {

/// What the NICs of one System share (owned by the System): the receive sides' part, routes and
/// the per-message facts a started message needs.
struct NicShared {
  RxShared rx;                                 ///< schedule, message records, data, packet pool
  RoutingTable* routing = nullptr;             ///< routes and VC classes
  std::vector<const std::vector<int>*> paths;  ///< per message: links from node to peer
  /// router.tie_break random: per message, its half-way dimensions (Topology::
  /// half_way_dimensions; each packet picks its ways there); empty = always paths.
  std::vector<unsigned> half_way;
  /// Per message: the receiver's NIC port it is ejected to; empty = any free ejection port.
  std::vector<int> rx_ports;
  /// Chunk boundaries in the node buffer, elements (num_chunks + 1 values, mt::chunk_bounds).
  std::vector<std::uint64_t> chunk_bounds;
  std::function<void(int node, std::uint64_t cycle)> on_finished;  ///< a NIC finished its work
};

/// Parameters of one NIC.
struct NicParams {
  int node = 0;             ///< endpoint id
  int ports = 1;            ///< NIC ports
  TxDmaParams tx;           ///< transmit DMA (node and ports as above)
  RxParams rx;              ///< receive side (node and ports as above)
  int rx_buffer_flits = 1;  ///< receive buffer per port, flits
  /// Runs in every cycle until it has finished (elaboration_order every_cycle: the reference).
  bool every_cycle = false;
  std::vector<int> program;        ///< message ids this node sends, in program order
  std::vector<int> program_ports;  ///< issue queue of each program entry
  std::vector<int> incoming;       ///< message ids destined to this node
  /// Per program entry: the receiver's arrival counter (packet header, hardware issue); empty =
  /// all 0.
  std::vector<int> program_counters;
  /// Hardware issue with release times: the scheduler counter the host rings once at each of
  /// release_cycles (-1: none; see PackedSchedule::release_counter).
  int release_counter = -1;
  /// Cycles at which release_counter is rung, ascending, cycles.
  std::vector<std::uint64_t> release_cycles;
  /// Ports not bound to a direction: issue control sees one queue (every program entry on queue
  /// 0) and each message leaves by the lowest-numbered free port, whatever its route (the
  /// router's crossbar takes it to its output). False: the program's port of each message.
  bool any_port = false;
  /// Issue queue of the node's local steps (Op::is_local), served by no port: each starts on
  /// the reduction unit once ready; -1 = none.
  int local_queue = -1;
  /// Step barrier (see StepBarrier).
  bool step_barrier = false;
  /// Hardware issue: a port raises its request (ready level) this many cycles before it frees
  /// (TxDma::port_free_by) and its DMA holds the grant in a descriptor register until the port
  /// is free (HardwareScheduler keeps it pending); 0: a port requests once it is free.
  std::uint64_t request_lead_cycles = 0;
};

/// What a NIC has done that costs energy, counted where it happens.
struct NicActivity {
  RxActivity rx;                           ///< receive buffer, memory writes, reduction
  std::uint64_t tx_memory_read_bytes = 0;  ///< read by the transmit DMA, bytes
  std::uint64_t scheduler_cycles = 0;      ///< cycles its hardware scheduler worked
  bool hardware_scheduler = false;         ///< issue control is the NIC's scheduler
};

/// One endpoint's NIC.
class Nic : public sc_core::sc_module {
 public:
  /// Per port: packets out to the router / switch link (credits come back on it).
  sc_core::sc_vector<tlm_utils::simple_initiator_socket_tagged<Nic>> tx_socket;
  /// Per port: packets in from the router / switch link (credits go back on it).
  sc_core::sc_vector<tlm_utils::passthrough_target_socket_tagged<Nic>> rx_socket;

  /// The NIC of endpoint params.node; `issue` (built with this node's program) decides its issue
  /// order.
  Nic(const sc_core::sc_module_name& name, const NicParams& params, NicShared& shared,
      std::unique_ptr<Scheduler> issue, const CycleClock& clock);

  /// Parameters the NIC was built with (its program included).
  const NicParams& params() const { return params_; }
  /// All operations issued and all incoming messages arrived (packets may still be leaving).
  bool finished() const { return finished_; }
  /// Cycle finished() became true.
  std::uint64_t finish_cycle() const { return finish_cycle_; }
  /// Packets injected so far.
  std::uint64_t packets_sent() const { return tx_.packets_sent(); }
  /// Receive staging: the most bytes of staged messages held at once, bytes.
  std::uint64_t max_staged_bytes() const { return rx_.max_staged_bytes(); }
  /// What it has done that costs energy so far.
  NicActivity activity() const {
    return NicActivity{rx_.activity(), tx_.memory_read_bytes(), issue_->clocked_cycles(),
                       issue_->cycle_level()};
  }
  /// Last cycle this NIC issued an operation or moved a packet, or a later cycle at which an
  /// operation or a reduction already under way completes, a credit on its way back arrives or
  /// an operation is released (progress to come).
  std::uint64_t last_progress_cycle() const {
    return std::max(last_progress_, rx_.last_progress());
  }
  /// What this NIC is stuck on (empty when finished), e.g. "node 3 waits for message 17 (chunk 2
  /// from node 5) to issue message 40".
  std::string describe_stall() const;

  /// packets_in() as the int the Nic counts in (the loader keeps sizes within it).
  static int packets_for(std::uint64_t bytes, int packet_bytes);

 private:
  tlm::tlm_sync_enum tx_bw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                           sc_core::sc_time& delay);
  tlm::tlm_sync_enum rx_fw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                           sc_core::sc_time& delay);
  /// Its run from the clock's calendar: step() under guard_process() (an exception stops the
  /// run, kept whole).
  void process();
  void step();
  /// Attaches the parts to what the sockets are bound to.
  void end_of_elaboration() override;
  /// Finds where the receive ports' credits go.
  void start_of_simulation() override;
  /// A message has arrived and been applied: issue control learns of it.
  void message_arrived(int message, int counter, std::uint64_t now);
  /// Starts program entry `index` (popped from its issue queue) on port `port` at `now` (a
  /// local step: on the reduction unit, `port` unused).
  void start_message(int port, int index, std::uint64_t now);
  /// The cycle of the next run (kNever: none); sets blocked_.
  std::uint64_t next_run(std::uint64_t now);

  static constexpr std::uint64_t kNever = ~std::uint64_t{0};
  NicParams params_;
  NicShared& shared_;
  std::unique_ptr<Scheduler> issue_;
  const CycleClock& clock_;
  TxDma tx_;
  RxReassembly rx_;
  StepBarrier barrier_;
  IssueControl control_;  // requests and starts: between tx_, issue_ and barrier_
  bool finished_ = false;
  std::uint64_t finish_cycle_ = 0;
  std::uint64_t last_progress_ = 0;
  CycleWakeup wakeup_;             // the one pending wake-up of process()
  bool blocked_ = false;           // a port waits for a credit
  bool freed_by_send_ = false;     // a send freed a port for issue after this run's issue
  std::size_t releases_rung_ = 0;  // release_cycles already rung (hardware issue)
};

}  // namespace mt
