#pragma once
// Input-buffered router (also the switch of switched topologies): per input port and VC a FIFO
// with credit backpressure, routing by the packet's source route, round-robin switch arbitration
// per output (over input ports, then over the VCs of a port; outputs take turns at the inputs they
// compete for, see SwitchAllocator; a packet for the NIC takes the first free ejection port after
// the rotating start), a fixed pipeline latency, and virtual
// cut-through at packet granularity (a packet moves only when the downstream VC can hold all of
// it; each input and each output passes one packet at a time). Credits are per flit: a packet
// leaving a network input frees its buffer space flit by flit during its serialisation, so one
// VC streams at the full link rate when its buffer covers the credit round trip. Message flow
// control: a message's head locks the (output, VC) it is granted until the message's last packet
// has passed; other messages' packets wait for another VC or for the unlock, and body packets take
// the locked VC (headless packets of two messages never interleave on one VC). Event-driven: one
// SC_METHOD that runs only when a packet becomes routable, an output frees up or a credit returns.

#include <tlm_utils/passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <cstdint>
#include <string>
#include <vector>

#include "model/core/bit_set_view.h"
#include "model/core/ring_queue.h"
#include "model/noc/cycle_clock.h"
#include "model/noc/cycle_wakeup.h"
#include "model/noc/packet.h"
#include "model/noc/port_entry.h"
#include "model/noc/routing.h"
#include "model/noc/switch_allocator.h"

namespace mt {

/// One output port of a router and the buffer it feeds.
struct RouterOutputConfig {
  int link = -1;           ///< topology link id it drives, -1 for a local ejection port to the NIC
  int vcs = 1;             ///< VCs of the downstream buffer
  int credits_per_vc = 1;  ///< downstream buffer depth per VC, flits
};

/// Structure of one router. Input ports are in_links(vertex) in order, then `local_ports` NIC
/// injection ports; outputs are out_links(vertex) in order, then `local_ports` ejection ports.
struct RouterParams {
  int vertex = 0;              ///< topology vertex it sits at
  int pipeline_cycles = 1;     ///< head arrival to earliest departure, cycles
  int vcs = 4;                 ///< VCs per input port
  int buffer_flits = 318;      ///< input buffer depth per VC, flits
  bool step_priority = false;  ///< grant the oldest schedule step first
  /// With step_priority: the step decides only among the VCs of one input port; input ports
  /// still take turns (a separable allocator whose output stage ignores priority).
  bool step_priority_per_input = false;
  /// Every packet keeps its turn at an output while its input port is busy (see
  /// RouterConfig::turn_reservation_all); false: only packets under message flow control.
  bool turn_reservation_all = false;
  /// Runs in every cycle while it holds a packet, every run through allocate() (elaboration_order
  /// every_cycle: the reference).
  bool every_cycle = false;
  int network_inputs = 0;                   ///< number of in_links(vertex)
  int local_ports = 0;                      ///< NIC ports (direct topologies), 0 on switches
  std::vector<RouterOutputConfig> outputs;  ///< out_links(vertex) then ejection ports
};

/// What a router has done that costs energy, counted where it happens.
struct RouterActivity {
  std::uint64_t buffer_writes = 0;  ///< flits written into its input buffers
  /// Flits read out of its input buffers, each through the crossbar and switch allocation.
  std::uint64_t buffer_reads = 0;
  std::uint64_t heads = 0;  ///< head packets granted (VC allocations)
  /// Flits whose buffer space it credited back over a topology link (network inputs).
  std::uint64_t link_credit_flits = 0;
};

/// A router. Sockets: in_socket[i] receives packets (and returns credits backwards), out_socket[o]
/// sends them (and receives credits backwards).
class Router : public sc_core::sc_module {
 public:
  /// Input ports: in_links(vertex) in order, then local injection ports from the NIC.
  sc_core::sc_vector<tlm_utils::passthrough_target_socket_tagged<Router>> in_socket;
  /// Output ports: out_links(vertex) in order, then local ejection ports to the NIC.
  sc_core::sc_vector<tlm_utils::simple_initiator_socket_tagged<Router>> out_socket;

  /// A router with `params`, routing packets by their source route with `routing`.
  Router(const sc_core::sc_module_name& name, const RouterParams& params, RoutingTable& routing,
         const CycleClock& clock);

  /// Structure the router was built with.
  const RouterParams& params() const { return params_; }
  /// Packets currently held in input buffers.
  std::uint64_t buffered_packets() const { return buffered_; }
  /// Packets forwarded so far.
  std::uint64_t forwarded_packets() const { return forwarded_; }
  /// Packets that waited for an output while it carried (or was granted to) a packet of another
  /// flow (tree / ring): inter-flow contention. Each packet counts at most once per router.
  std::uint64_t cross_flow_waits() const { return cross_flow_waits_; }
  /// What it has done that costs energy so far.
  const RouterActivity& activity() const { return activity_; }
  /// Last cycle a packet moved through this router, or the cycle a packet on its way in will be
  /// ready or a credit on its way back will arrive (progress to come).
  std::uint64_t last_progress_cycle() const { return last_progress_; }

 private:
  // A packet in an input FIFO, with the header fields allocation reads (so deciding reads no
  // payload: at scale each would be a cache miss), in one cache line.
  struct alignas(64) Entry {
    tlm::tlm_generic_payload* payload = nullptr;
    std::uint64_t ready = 0;        // cycle the head may leave (arrival + pipeline)
    std::uint64_t cross_cycle = 0;  // cycle it first lost (a grant in a later cycle is a wait)
    RouteState route;               // VC class state after the hop
    int out = 0;                    // output port (the first ejection port when `eject`)
    std::int16_t vc_first = 0;      // allowed downstream VCs [vc_first, vc_last)
    std::int16_t vc_last = 1;
    int flits = 1;  // the packet's flits, message and flow (PacketExtension)
    int message = 0;
    int flow = 0;
    bool eject = false;         // leaves by any ejection port to the NIC
    bool cross = false;         // lost an arbitration to a packet of another flow
    bool head = true;           // PacketExtension::head
    bool message_flow = false;  // PacketExtension::message_flow
  };
  static_assert(sizeof(Entry) == 64, "a FIFO entry is one cache line");
  /// Buffer space returned to an output: `flits` flits, all at `start` (span 0 or 1) or one by
  /// one as the downstream packet drains, evenly over `span` cycles from `start` on.
  struct Credit {
    std::uint64_t cycle;  // next cycle at which more of it lands
    std::uint64_t start;
    std::uint64_t span;
    int vc;
    int flits;
    int applied;  // flits already added to the output's credits
    /// Flits of it landed by cycle `t` (land() adds them, credit_reach() looks ahead).
    int landed_by(std::uint64_t t) const {
      if (t < start) return 0;
      if (span <= 1 || t >= start + span - 1) return flits;
      // A flit a cycle when the packet drains at the link's flit rate (span == flits): the
      // quotient without the division.
      const auto all = static_cast<std::uint64_t>(flits);
      return static_cast<int>(span == all ? t - start + 1 : all * (t - start + 1) / span);
    }
  };
  // The state allocation reads on every run sits together: what every run scans of the outputs
  // in one small array (OutputScan), the rest of them in another, their per-VC credits and
  // owners in one arena, their requester bits in another (see docs/speed.md).
  // Two to a cache line. The requester count and the flag have bytes of their own: a flag
  // written as a bit of the count's word stalled the count's read right after it (a narrow
  // store does not forward to a wider load), about a fifth of allocate()'s time.
  struct alignas(32) OutputScan {
    std::uint64_t busy_until = 0;
    std::uint64_t credit_cycle = ~std::uint64_t{0};  // next cycle one of its credits lands
    // Message FC: input FIFO whose turn it is, waiting for its port (-1: none).
    std::int32_t reserved_fifo = -1;
    // Input FIFOs whose head packet wants it (requesters_of): up to inputs x VCs, 65536 on the
    // largest switch.
    std::uint32_t requesters = 0;
    bool gained_requester = false;  // one was added since process() last visited it
    // Free at `now` with a packet wanting it: only such an output can grant.
    bool open(std::uint64_t now) const { return requesters != 0 && busy_until <= now; }
  };
  static_assert(sizeof(OutputScan) == 32, "two output scans to a cache line");
  // One cache line per output.
  struct alignas(64) Output {
    int* credits = nullptr;   // flits per downstream VC (vcs of them, in arena_)
    int* vc_owner = nullptr;  // per downstream VC: message holding it (-1: free)
    // Credits on their way back or landing, in the order their packets left the downstream
    // input port (one at a time, so by start cycle; out_bw checks it).
    RingQueue<Credit> returning;
    int vcs = 1;          // RouterOutputConfig::vcs
    int vc_next = 0;      // round-robin pointer over VCs
    int input_last = -1;  // round-robin pointer over input ports (last granted)
    int last_flow = -1;   // flow of the last packet granted (-1: none yet)
  };
  /// The input FIFOs whose head packet wants output `out`, a bit per FIFO.
  BitSetView requesters_of(int out) const {
    return BitSetView{requester_base_ + out * requester_words_per_output_,
                      requester_words_per_output_};
  }
  /// One input port's allocation state.
  struct Input {
    std::uint64_t busy_until = 0;  // its current packet has left
    int vc_last = 0;               // VC it last sent from
    int reserved_by = -1;          // output waiting for it (-1: none)
  };
  /// Adds to the outputs' credits what has landed by `now`.
  void apply_credits(std::uint64_t now);
  /// Adds to output `out`'s credits what its returning credits have landed by `now`, advancing
  /// each to its next landing, dropping those landed in full and updating its credit_cycle.
  void land(std::size_t out, std::uint64_t now);
  /// The next cycle at which a credit on its way lands one more flit (kNever: none on its way).
  /// The first cycle after `now` at which VC `vc` of `output` holds `needed` credits, with the
  /// credits on their way back landing as they do (kNever: not with those).
  std::uint64_t credit_reach(const Output& output, int vc, int needed, std::uint64_t now) const;
  /// The first cycle after `now` at which `head` could take a VC of `output` on credits alone.
  std::uint64_t vc_reach(const Output& output, const Entry& head, std::uint64_t now) const;

  tlm::tlm_sync_enum in_fw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                           sc_core::sc_time& delay);
  tlm::tlm_sync_enum out_bw(int port, tlm::tlm_generic_payload& payload, tlm::tlm_phase& phase,
                            sc_core::sc_time& delay);
  /// Its run from the clock's calendar: step() under guard_process() (an exception stops the
  /// run, kept whole).
  void process();
  void step();
  /// Attaches to what the sockets are bound to (see out_fw_).
  void end_of_elaboration() override;
  /// Finds where the inputs' credits go (see in_bw_).
  void start_of_simulation() override;
  /// True when output `out` waits for the input port it reserved (arbitrate) and nothing can
  /// change that before the port frees: the port is busy and the reserved head can take a VC
  /// (credits only land, and VCs change owner only at this output's own grants), so arbitrate()
  /// returns at once at `out` until then.
  bool reservation_holds(std::size_t out, std::uint64_t now) const;
  /// True when some free output has a ready packet it could take now (downstream VC and
  /// credits) or a reservation to serve or drop: otherwise allocate() would change nothing at
  /// `now`.
  bool can_move(std::uint64_t now) const;
  /// The allocation passes of one cycle: every free output arbitrates until nothing moves.
  void allocate(std::uint64_t now);
  /// Computes blocked_ and the next cycle process() must run at.
  void schedule_wakeup(std::uint64_t now);
  bool arbitrate(int out, std::uint64_t now, const std::vector<int>* visit_rank);
  /// True when input FIFO `fifo` should leave its input port to another of that port's VCs this
  /// cycle: one nearer in the port's round robin, whose head is ready and could be granted by an
  /// output other than `out` that arbitrates later in this pass (`visit_rank`: output -> its
  /// position in the pass).
  bool input_prefers_other(int fifo, int out, std::uint64_t now,
                           const std::vector<int>& visit_rank) const;
  int pick_vc(const Output& output, const Entry& entry) const;
  /// The input port and the VC of input FIFO `fifo` (port * vcs + vc): a shift and a mask when
  /// vcs is a power of two (a division takes tens of cycles, and allocation asks for these
  /// several times per FIFO it considers).
  int port_of(int fifo) const { return vc_bits_ >= 0 ? fifo >> vc_bits_ : fifo / params_.vcs; }
  int vc_of(int fifo) const {
    return vc_bits_ >= 0 ? fifo & (params_.vcs - 1) : fifo % params_.vcs;
  }
  /// Places from the one after `last` to `at` in a round robin of `count` (at in [0, count), last
  /// in [-1, count)): ((at - last - 1) mod count) without a division.
  static int rotation_distance(int at, int last, int count) {
    const int d = at - last - 1;
    return d < 0 ? d + count : d;
  }
  /// True when `packet` keeps its turn at an output while its input port is busy: under message
  /// flow control, or for every packet with turn_reservation_all (never with step_priority).
  bool keeps_turn(bool message_flow) const {
    return (message_flow || params_.turn_reservation_all) && !params_.step_priority;
  }
  void add_requester(const Entry& entry, int fifo);
  /// Makes every output with a requester on input port `port` arbitrate again in this process().
  void revisit_requesters_of(int port);
  void remove_requester(int out, int fifo);
  void remove_requesters(const Entry& entry, int fifo);

  RouterParams params_;
  int vc_bits_ = -1;  // log2(params_.vcs) when it is a power of two, else -1 (port_of, vc_of)
  RoutingTable& routing_;
  const CycleClock& clock_;
  std::vector<RingQueue<Entry>> fifos_;  // index: input port * vcs + vc
  std::vector<int> fifo_flits_;
  std::vector<Input> inputs_;
  std::vector<OutputScan> scan_;  // per output
  // Per output: the link it drives (link -1 for an ejection port): arriving packets find their
  // output here, and a packet granted onto a link has taken a hop of its route.
  std::vector<RoutingTable::LinkHop> out_hops_;
  std::vector<Output> outputs_;
  std::vector<int> arena_;                      // per output: its credits and VC owners
  std::vector<std::uint64_t> requester_words_;  // per output: its requester bits
  std::uint64_t* requester_base_ = nullptr;     // requester_words_.data()
  int requester_words_per_output_ = 0;
  // Where out_socket[o]'s packets and in_socket[i]'s credits go (see PortEntry).
  std::vector<PortEntry> out_fw_;
  std::vector<CreditPath> in_bw_;
  SwitchAllocator allocator_;    // rotating order in which outputs arbitrate
  std::vector<int> visit_rank_;  // per output: its position in a pass starting at...
  int visit_rank_start_ = -1;    // ...this output (-1: not computed yet)
  static constexpr std::uint64_t kNever = ~std::uint64_t{0};
  CycleWakeup wakeup_;    // the one pending wake-up of process()
  bool blocked_ = false;  // a ready packet waits for a credit
  std::uint64_t buffered_ = 0;
  std::uint64_t forwarded_ = 0;
  std::uint64_t last_progress_ = 0;
  std::uint64_t cross_flow_waits_ = 0;
  RouterActivity activity_;
};

}  // namespace mt
