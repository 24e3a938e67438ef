#pragma once
// Network interface of one endpoint: a Scheduler decides which operation each port issues next, a
// DMA per port splits the message into packets (payload + head flit) and injects them under
// credit flow control, and the receive side reassembles packets and passes them through a
// reduction unit. The reduction unit works per packet (cut-through): each packet is summed as
// soon as its tail has arrived, at reduce_elems_per_cycle, in head-arrival order, so the timing
// is per packet; the data values themselves (the DataStore) are applied when the message is
// complete, which gives the same result; before that, the message's packet accounting is checked
// (MessageRecord: payload bytes and every packet index exactly once), so a packetisation error is
// a data error. Flow control: `packet` (every packet carries a head flit and is routed and
// credited on its own) or `message` (only the first packet carries the head flit that sets up the
// path and reserves the receiver; the body packets stream behind it with no head flit and no
// router pipeline, on the VC the head took: the head locks each (router output, VC) until the
// message's last packet has passed, so headless packets of two messages never interleave on a
// VC; see NicParams::message_flow_control; the receiver's buffer is the destination chunk itself,
// so the reservation costs no extra round trip; the in-network router buffers still account their
// space per packet, as the physical bound of a virtual cut-through network). Hardware issue: the
// Scheduler is a HardwareScheduler; the NIC presents every port's ready level and runs again
// when the scheduler's next decision can happen (Scheduler::next_event_cycle). Release times
// (Op::release_cycle): a software scheduler holds an operation until its release cycle and the
// NIC runs then (next_event_cycle); under hardware issue the NIC's host rings the table's release
// counter at each release cycle (NicParams::release_cycles). Event-driven: one SC_METHOD that
// runs only when something can happen.

#include <tlm_utils/passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/collective/schedule.h"
#include "model/core/ring_queue.h"
#include "model/data/data_store.h"
#include "model/data/message_record.h"
#include "model/noc/cycle_clock.h"
#include "model/noc/cycle_wakeup.h"
#include "model/noc/packet.h"
#include "model/noc/port_entry.h"
#include "model/noc/routing.h"
#include "model/sched/scheduler.h"

namespace mt {

/// Shared state the NICs of one System work on (all owned by the System).
struct NicEnvironment {
  const Schedule* schedule = nullptr;              ///< the schedule being run
  RoutingTable* routing = nullptr;                 ///< routes and VC classes
  DataStore* data = nullptr;                       ///< node buffers and message snapshots
  PacketPool* pool = nullptr;                      ///< packets, reused
  std::vector<MessageRecord>* messages = nullptr;  ///< indexed by message id
  std::vector<const std::vector<int>*> paths;      ///< per message: links from node to peer
  /// router.tie_break random: per message, its half-way dimensions (Topology::
  /// half_way_dimensions; each packet picks its ways there); empty = always paths.
  std::vector<unsigned> half_way;
  /// Per message: the receiver's NIC port it is ejected to; empty = any free ejection port.
  std::vector<int> rx_ports;
  /// Chunk boundaries in the node buffer, elements (num_chunks + 1 values, mt::chunk_bounds).
  std::vector<std::uint64_t> chunk_bounds;
  std::function<void(int node, std::uint64_t cycle)> on_finished;  ///< a NIC finished its work
  /// First packetisation error found when a message completed (see MessageRecord::
  /// check_complete); stays empty when every message arrived whole. Null: not recorded.
  std::string* data_error = nullptr;
};

/// Parameters of one NIC.
struct NicParams {
  int node = 0;                             ///< endpoint id
  int ports = 1;                            ///< NIC ports
  bool drives_links = false;                ///< ports drive topology links (switched topologies)
  int packet_bytes = 256;                   ///< payload bytes per packet
  int head_flit_bytes = 16;                 ///< header bytes per packet
  int flit_bytes = 16;                      ///< flit size, bytes
  int element_bytes = 4;                    ///< bytes per data element
  double reduce_elems_per_cycle = 32;       ///< reduction unit throughput, elements per cycle
  std::uint64_t software_issue_cycles = 0;  ///< host overhead per issued operation, cycles
  int tx_vcs = 1;                           ///< VCs of the buffer each port injects into
  int tx_credits_per_vc = 1;                ///< depth of that buffer per VC, flits
  int rx_buffer_flits = 1;                  ///< receive buffer per port, flits
  std::vector<int> program;                 ///< message ids this node sends, in program order
  std::vector<int> program_ports;           ///< port of each program entry
  std::vector<int> incoming;                ///< message ids destined to this node
  /// Per program entry: the receiver's arrival counter (packet header, hardware issue); empty =
  /// all 0.
  std::vector<int> program_counters;
  /// Hardware issue with release times: the scheduler counter the host rings once at each of
  /// release_cycles (-1: none; see PackedSchedule::release_counter).
  int release_counter = -1;
  /// Cycles at which release_counter is rung, ascending, cycles.
  std::vector<std::uint64_t> release_cycles;
  /// Message flow control: only a message's first packet carries a head flit and is routed; the
  /// others stream behind it (false: packet flow control, every packet has its head flit).
  bool message_flow_control = false;
  /// Store-and-forward reduction: packets of a reduce message land in memory as they arrive and
  /// the reduction unit sums the whole message once its last packet has arrived (messages in
  /// arrival order); the message counts as arrived (its dependents may issue) when that sum is
  /// done. False: each packet is reduced as soon as its tail has arrived (cut-through).
  bool reduce_whole_messages = false;
  /// Ports not bound to a direction: the scheduler sees one issue queue (every program entry on
  /// port 0) and each message leaves by the lowest-numbered free port, whatever its route (the
  /// router's crossbar takes it to its output). False: the program's port of each message.
  bool any_port = false;
  /// Transmit queue per port, packets: a port takes its next message once the DMA has handed the
  /// last one's packets over (one per cycle) and its packets not yet injected fit in the queue
  /// (0: no queue, only once the last packet has left the port).
  int tx_queue_packets = 0;
  /// Step barrier: once every operation of the step a node is sending has started, it starts no
  /// operation of a later step until all of its ports are free again.
  bool step_barrier = false;
};

/// One endpoint's NIC.
class Nic : public sc_core::sc_module {
 public:
  /// Per port: packets out to the router / switch link (credits come back on it).
  sc_core::sc_vector<tlm_utils::simple_initiator_socket_tagged<Nic>> tx_socket;
  /// Per port: packets in from the router / switch link (credits go back on it).
  sc_core::sc_vector<tlm_utils::passthrough_target_socket_tagged<Nic>> rx_socket;

  /// The NIC of endpoint params.node; `scheduler` decides its issue order.
  SC_HAS_PROCESS(Nic);
  Nic(const sc_core::sc_module_name& name, const NicParams& params, NicEnvironment& env,
      std::unique_ptr<Scheduler> scheduler, const CycleClock& clock);

  /// Parameters the NIC was built with (its program included).
  const NicParams& params() const { return params_; }
  /// All operations issued and all incoming messages arrived (packets may still be leaving).
  bool finished() const { return finished_; }
  /// Cycle finished() became true.
  std::uint64_t finish_cycle() const { return finish_cycle_; }
  /// Packets injected so far.
  std::uint64_t packets_sent() const { return packets_sent_; }
  /// Receive staging: the most bytes of staged messages held at once (a staged message counts
  /// whole from its first packet's landing until the reduction unit takes it), bytes.
  std::uint64_t max_staged_bytes() const { return max_staged_bytes_; }
  /// Last cycle this NIC issued an operation or moved a packet, or a later cycle at which an
  /// operation or a reduction already under way completes, a credit on its way back arrives or
  /// an operation is released (progress to come).
  std::uint64_t last_progress_cycle() const { return last_progress_; }
  /// What this NIC is stuck on (empty when finished), e.g. "node 3 waits for message 17 (chunk 2
  /// from node 5) to issue message 40".
  std::string describe_stall() const;

  /// packets_in() as the int the Nic counts in (the loader keeps sizes within it).
  static int packets_for(std::uint64_t bytes, int packet_bytes);
  /// Reduction unit cycles for `elements` elements at `elems_per_cycle` (ceil; 0 elements: 0).
  static std::uint64_t reduce_cycles(std::uint64_t elements, double elems_per_cycle);

 private:
  // A started message keeps what each of its packets' headers needs, so sending a packet reads
  // no schedule or routing record (they are out of cache by the next packet at scale).
  struct TxMessage {
    int index = -1;  // program index
    int message = -1;
    int next_packet = 0;
    int packets = 0;
    std::uint64_t address = 0;  // byte offset of the chunk in the node buffer
    std::uint64_t bytes = 0;
    std::uint64_t start = 0;  // cycle the host has issued it (software overhead done)
    int message_vc = -1;      // VC the message's head took (message flow control)
    int peer = 0;             // the operation's receiver, flow, chunk, step and kind
    int flow = 0;
    int chunk = 0;
    int step = 0;
    OpKind kind = OpKind::kReduce;
    int rx_port = -1;                        // receiver port it must be ejected to (-1: any)
    int dst_counter = 0;                     // receiver's arrival counter (hardware issue)
    unsigned half_way = 0;                   // dimensions where both ways are shortest
    const std::vector<int>* path = nullptr;  // its route (when half_way is 0)...
    int hops = 0;                            // ...its length...
    int first_link = -1;                     // ...and first link
  };
  /// The DMA hands a message's packets to a port's transmit queue at one per cycle.
  static constexpr std::uint64_t kDmaPacketsPerCycle = 1;
  // A port's queue and VC state, read when it starts a message or sends a packet.
  struct TxPort {
    RingQueue<TxMessage> queue;  // messages started on this port, sent in order
    int vc_next = 0;
    int vc_first = 0;
    int vc_last = 1;
    int* credits = nullptr;  // per VC of the downstream buffer, flits (in tx_credits_)
  };
  // What every process() run asks of every port (free to start a message? a packet to send? when
  // next?), 32 bytes per port side by side in timing_: a run reads a port's TxPort and queue
  // only when that port starts or sends something.
  struct PortTiming {
    std::uint64_t busy_until = 0;        // cycle the last packet's serialisation ends
    std::uint64_t dma_until = 0;         // cycle the DMA has handed the last message's packets over
    std::uint64_t front_start = kNever;  // the queue's first message issued (kNever: queue empty)
    int unsent_packets = 0;              // packets of the queued messages not yet injected
  };
  struct Timed {
    std::uint64_t cycle;
    std::uint64_t seq;
    tlm::tlm_generic_payload* payload;
    int port;
    int vc;
    int flits;
    bool operator>(const Timed& other) const {
      return cycle != other.cycle ? cycle > other.cycle : seq > other.seq;
    }
  };

  tlm::tlm_sync_enum tx_bw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                           sc_core::sc_time& delay);
  tlm::tlm_sync_enum rx_fw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                           sc_core::sc_time& delay);
  /// The SC_METHOD: step() under guard_process() (an exception stops the run, kept whole).
  void process();
  void step();
  /// Attaches to what the sockets are bound to (see tx_fw_).
  void end_of_elaboration() override;
  /// Finds where the receive ports' credits go (see rx_bw_).
  void start_of_simulation() override;
  void complete_packet(const Timed& item, std::uint64_t now);
  /// Message `message` is in the node's buffer (and reduced): dependents may issue; `counter` is
  /// the arrival counter it increments (hardware issue).
  void message_arrived(int message, int counter, std::uint64_t now);
  void start_message(int port, int index, std::uint64_t now);
  /// The scheduler's port for physical port `port` (0 for every port when params_.any_port).
  int queue_of(int port) const { return params_.any_port ? 0 : port; }
  /// True when port `p` can start a message at `now`.
  bool port_free(int p, std::uint64_t now) const;
  bool send_packet(int port, std::uint64_t now);

  NicParams params_;
  NicEnvironment& env_;
  std::unique_ptr<Scheduler> scheduler_;
  const CycleClock& clock_;
  std::vector<TxPort> tx_;
  std::vector<PortTiming> timing_;  // per port, as tx_
  std::vector<int> tx_credits_;     // every port's credits, port by port
  // Where tx_socket[p]'s packets and rx_socket[p]'s credits go (see PortEntry).
  std::vector<PortEntry> tx_fw_;
  std::vector<CreditPath> rx_bw_;
  std::vector<Timed> credits_;  // min-heap: credits coming back to tx ports
  RingQueue<Timed> reducing_;   // packets received, by reduction completion cycle
  struct Aggregation {
    std::uint64_t cycle;  // the whole-message sum is done
    int message;
    int counter;
  };
  RingQueue<Aggregation> aggregating_;  // whole-message sums under way, in order
  // Receive staging: complete messages held until this node issues their Op::apply_after (key).
  std::unordered_map<int, std::vector<Aggregation>> held_;
  /// Starts the whole-message sum of `message` (or its copy, for a broadcast) at `now` or when
  /// the reduction unit frees; message_arrived() follows when it is done.
  void aggregate(int message, int counter, std::uint64_t now);
  /// Receive staging: `message` names (Op::apply_after) a message this node has not issued yet.
  bool awaits_own_issue(int message) const;
  std::uint64_t land_free_ = 0;                   // cycle the last received packet left the buffer
  std::vector<int> rx_flits_;                     // receive buffer occupancy per port
  std::uint64_t reduce_free_ = 0;                 // cycle the reduction unit is free
  std::uint64_t host_free_ = 0;                   // cycle the host can issue the next operation
  std::vector<std::pair<int, int>> issue_order_;  // (program index, port) to issue now
  std::uint64_t seq_ = 0;
  std::size_t arrivals_ = 0;
  bool finished_ = false;
  std::uint64_t finish_cycle_ = 0;
  std::uint64_t packets_sent_ = 0;
  std::uint64_t staged_bytes_ = 0;  // staged messages held now (see max_staged_bytes())
  std::uint64_t max_staged_bytes_ = 0;
  std::uint64_t last_progress_ = 0;
  static constexpr std::uint64_t kNever = ~std::uint64_t{0};
  // Step barrier (params_.step_barrier): step of the last started operation, and per step the
  // operations not started yet.
  int barrier_step_ = -1;
  int current_step_ = 0;  // lowest step with operations not started
  std::vector<int> left_in_step_;
  std::vector<int> sending_in_step_;  // per step: operations started and not yet fully sent
  /// Step barrier: true when an operation of step `step` may start at `now`.
  bool barrier_allows(int step, std::uint64_t now) const;
  /// Schedule step of program entry `index`.
  int step_of(int index) const {
    return std::max(
        0, env_.schedule
               ->ops[static_cast<std::size_t>(params_.program[static_cast<std::size_t>(index)])]
               .step);
  }
  CycleWakeup wakeup_;             // the one pending wake-up of process()
  bool blocked_ = false;           // a port waits for a credit
  std::size_t releases_rung_ = 0;  // release_cycles already rung (hardware issue)
};

}  // namespace mt
