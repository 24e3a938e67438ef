#pragma once
// The NIC's receive side: packets accepted into a port's receive buffer, passed through the
// reduction unit in head-arrival order (per packet as each tail arrives, cut-through; or per
// whole message once it is complete, store-and-forward), their buffer space credited back as
// they leave, and a message applied to the node's buffer once every packet of it is in: then the
// `arrived` callback tells issue control. Receive staging: a message whose Op::apply_after the
// node has not issued yet lands unreduced and waits for that issue (own_issued). Packets carry
// no data: a completed message's packet accounting (MessageRecord) is checked before its
// snapshot is applied, so a packetisation error is a data error. No SystemC process of its own:
// the Nic calls it (tests/nic/test_rx_reassembly.cpp benches it alone).

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/collective/schedule.h"
#include "model/core/ring_queue.h"
#include "model/data/data_store.h"
#include "model/data/message_record.h"
#include "model/noc/packet.h"
#include "model/noc/port_entry.h"

namespace mt {

/// Parameters of one NIC's receive side.
struct RxParams {
  int node = 0;                        ///< endpoint id
  int ports = 1;                       ///< NIC ports
  int element_bytes = 4;               ///< bytes per data element
  double reduce_elems_per_cycle = 32;  ///< reduction unit throughput, elements per cycle
  /// Store-and-forward reduction: a reduce message's packets land in memory and the reduction
  /// unit sums the whole message once its last packet is in (messages in completion order).
  bool reduce_whole_messages = false;
  /// Its ports receive from topology links (a switched topology's NIC): freed buffer space is
  /// credited back over them. False: over local channels from the node's router.
  bool ports_on_links = false;
};

/// What a receive side has done that costs energy, counted where it happens. Local memory: a
/// packet reduced as it arrives reads the node's operand and writes the sum; any other packet
/// (a broadcast, or one waiting for a whole-message or staged reduction) is written as it lands,
/// and a whole-message reduction then reads both operands and writes the sum (a staged broadcast
/// is read and written once more).
struct RxActivity {
  std::uint64_t buffer_writes = 0;       ///< flits into the receive buffer
  std::uint64_t buffer_reads = 0;        ///< flits out of it
  std::uint64_t memory_read_bytes = 0;   ///< local memory read, bytes
  std::uint64_t memory_write_bytes = 0;  ///< local memory written, bytes
  std::uint64_t adds = 0;                ///< element adds of the reduction unit
  std::uint64_t link_credit_flits = 0;   ///< flits credited back over topology links
};

/// What the receive sides of one System share (owned by the System).
struct RxShared {
  const Schedule* schedule = nullptr;              ///< the schedule being run (message kinds)
  std::vector<MessageRecord>* messages = nullptr;  ///< indexed by message id
  DataStore* data = nullptr;                       ///< node buffers and message snapshots
  PacketPool* pool = nullptr;                      ///< where received packets go back
  /// First packetisation error found (see MessageRecord::check_complete); null: not recorded.
  std::string* data_error = nullptr;
};

/// One NIC's receive ports, reduction unit and staging buffer.
class RxReassembly {
 public:
  /// No event pending.
  static constexpr std::uint64_t kNever = ~std::uint64_t{0};
  /// A message is in the node's buffer (reduced): `counter` is its header's arrival counter.
  using Arrived = std::function<void(int message, int counter, std::uint64_t now)>;

  RxReassembly(const RxParams& params, const RxShared& shared, Arrived arrived);

  /// Port `port`'s freed buffer space goes back along `path`.
  void attach_credit_path(int port, const CreditPath& path);
  /// A packet is delivered to port `port` (by the router's process), its head arriving at cycle
  /// `head` and its tail at `tail`: it takes buffer space at once and waits in an inbox until
  /// the cycle after its head's, when advance() accepts it with the node's state at the end of
  /// that cycle, whichever process ran first in it. Only the node's own runs change that state
  /// and each accepts first, so the first run after `head` accepts it as at head + 1. Returns
  /// the cycle by which to run advance: max(head + 1, tail) (the packet lands no earlier).
  std::uint64_t deliver(int port, tlm::tlm_generic_payload& payload, std::uint64_t head,
                        std::uint64_t tail);
  /// Packets delivered in earlier cycles accepted (by head cycle, then port, then delivery), then
  /// packets that left the buffer and whole-message sums done by `now`: credits returned,
  /// messages completed and applied, `arrived` called.
  void advance(std::uint64_t now);
  /// The node has issued `message` at `now`: staged messages waiting for it go to the
  /// reduction unit.
  void own_issued(int message, std::uint64_t now);
  /// The node has issued local step `message` (Op::is_local, its snapshot taken) at `now`: the
  /// reduction unit copies or reduces it, ceil(elements / reduce_elems_per_cycle) cycles once
  /// free (and once the node has issued its Op::apply_after, a message reading the slot the
  /// step writes), then it is applied and `arrived` called as for a message.
  void run_local(int message, std::uint64_t now);
  /// Cycle of the next packet to accept (deliver's cycle), leaving or sum finishing, kNever
  /// when none.
  std::uint64_t next_event() const;

  /// Cycle the last packet accepted leaves the buffer (after the reduction unit), cycles.
  std::uint64_t last_leaving() const { return land_free_; }
  /// Flits port `port`'s buffer holds now.
  int occupancy(int port) const { return occupancy_[static_cast<std::size_t>(port)]; }
  /// Messages arrived (applied) so far.
  std::size_t arrivals() const { return arrivals_; }
  /// Last cycle a packet moved here, or a later one at which a packet or sum under way finishes
  /// (progress to come), cycles.
  std::uint64_t last_progress() const { return last_progress_; }
  /// The most bytes of staged messages held at once, bytes.
  std::uint64_t max_staged_bytes() const { return max_staged_bytes_; }
  /// What it has done that costs energy so far.
  const RxActivity& activity() const { return activity_; }

 private:
  struct Landing {
    std::uint64_t cycle;  // the packet leaves the buffer
    tlm::tlm_generic_payload* payload;
    int port;
    int vc;
  };
  struct Delivered {
    std::uint64_t head;  // cycle its head arrived
    std::uint64_t tail;  // cycle its tail arrives
    tlm::tlm_generic_payload* payload;
    int port;
    /// The cycle by which the NIC must run to take it in (deliver's cycle).
    std::uint64_t intake() const { return std::max(head + 1, tail); }
  };
  struct Aggregation {
    std::uint64_t cycle;  // the whole-message sum is done
    int message;
    int counter;
  };
  // A delivered packet passes the reduction unit in arrival order once its tail is in (reduced,
  // landed or staged); last_leaving() is then the cycle it leaves the buffer.
  void accept(int port, tlm::tlm_generic_payload& payload, std::uint64_t tail);
  void complete_packet(const Landing& item, std::uint64_t now);
  void aggregate(int message, int counter, std::uint64_t now);
  void message_arrived(int message, int counter, std::uint64_t now);
  bool awaits_own_issue(int message) const;

  RxParams params_;
  RxShared shared_;
  Arrived arrived_;
  std::vector<CreditPath> credit_paths_;
  std::vector<int> occupancy_;          // flits per port
  std::deque<Delivered> inbox_;         // delivered, not yet accepted: by head cycle, port
  RingQueue<Landing> landing_;          // packets received, by leaving cycle
  RingQueue<Aggregation> aggregating_;  // whole-message sums under way, in order
  // Receive staging: complete messages held until this node issues their Op::apply_after (key).
  std::unordered_map<int, std::vector<Aggregation>> held_;
  std::uint64_t land_free_ = 0;    // cycle the last received packet left the buffer
  std::uint64_t reduce_free_ = 0;  // cycle the reduction unit is free
  std::size_t arrivals_ = 0;
  std::uint64_t staged_bytes_ = 0;
  std::uint64_t max_staged_bytes_ = 0;
  std::uint64_t last_progress_ = 0;
  RxActivity activity_;
};

}  // namespace mt
