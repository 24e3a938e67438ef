#pragma once
// Software issue: the host issues a node's messages itself (a CPU proxy thread posting RDMA work
// requests, GPU threads ringing the NIC's doorbell, a command sequencer). The host learns of an
// arrival `notify_cycles` after the message has landed; a message whose dependencies are all
// known (and whose release cycle has come) is ready to post; a free issue context posts the
// lowest-numbered ready message in program order together with up to doorbell_batch - 1 more
// ready ones of the same port (one doorbell), which takes message_cycles per message plus
// doorbell_cycles (plus step_cycles when the batch starts a later step than the node has posted
// so far); the batch is posted when that time has passed, and the port sends its posted messages
// in program order as it frees. A host with every time 0 issues a message in the cycle its last
// dependency arrives: the "free" host. Plain C++, the golden model of host issue; times are in
// the network clock's cycles (docs/host.md has the presets and their sources).

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "model/core/min_bit_set.h"
#include "model/sched/scheduler.h"

namespace mt {

/// What issuing costs the host and how late it learns of arrivals, in network clock cycles.
struct HostTiming {
  std::uint64_t notify_cycles = 0;    ///< a message landed -> the host knows it, cycles
  std::uint64_t message_cycles = 0;   ///< host time to post one message (descriptor), cycles
  std::uint64_t doorbell_cycles = 0;  ///< host time to ring one doorbell (once per batch), cycles
  int doorbell_batch = 1;             ///< most messages posted under one doorbell (>= 1)
  int contexts = 1;                   ///< issue contexts posting in parallel (threads, queues)
  std::uint64_t step_cycles = 0;      ///< synchronisation before posting a later step, cycles
  /// True when every time is 0: the host issues in the cycle a message's dependencies arrive.
  bool free() const {
    return notify_cycles == 0 && message_cycles == 0 && doorbell_cycles == 0 && step_cycles == 0;
  }
  /// True when posting costs nothing and rings one doorbell per message: a ready message is
  /// posted in the cycle it becomes ready (its notification may still come late).
  bool posting_free() const {
    return message_cycles == 0 && doorbell_cycles == 0 && step_cycles == 0 && doorbell_batch == 1;
  }
};

/// Host (software) issue of one node's program, event-driven: state advances lazily to the
/// cycle of each call (cycles must not decrease between calls).
class HostScheduler final : public Scheduler {
 public:
  /// The host of a NIC with `ports` ports running `program` (program order). Throws
  /// SchedulerError for ports < 1, an operation on a port >= ports, or a timing with
  /// doorbell_batch or contexts < 1. The operations' dependency lists are not kept (they are
  /// indexed by message), so a caller done with `program` may move it in.
  HostScheduler(std::vector<SchedulerOp> program, int ports, const HostTiming& timing);

  /// The host learns of `message`'s arrival notify_cycles after `now` (repeated or unknown
  /// messages change nothing).
  void on_arrival(int message, int counter, std::uint64_t now) override;
  /// Lowest-numbered operation posted on `port` by `now_cycles`, -1 if none.
  int next_ready(int port, std::uint64_t now_cycles) override;
  /// Issues next_ready(port); throws SchedulerError when nothing is posted on it.
  void pop(int port) override;
  /// Next cycle after `now` at which a notification, release, post or free context changes
  /// what is posted, or kNoEvent.
  std::uint64_t next_event_cycle(std::uint64_t now) override;

  std::size_t size() const override { return program_.size(); }
  std::size_t issued() const override { return issued_count_; }
  bool is_issued(int index) const override {
    return issued_.at(static_cast<std::size_t>(index)) != 0;
  }

  /// Batches posted so far (doorbells rung).
  std::uint64_t doorbells() const { return doorbells_; }

  /// The messages this node waits for, ascending: a message's position here is its arrival
  /// slot (on_arrival_at), found once by the caller instead of a search per arrival.
  const std::vector<int>& waited() const { return waited_; }
  /// on_arrival of the message at position `slot` of waited() (-1: nobody waits for it, only
  /// the time advances).
  void on_arrival_at(int slot, std::uint64_t now);

 private:
  using MinHeap = std::priority_queue<int, std::vector<int>, std::greater<int>>;
  using Timed = std::pair<std::uint64_t, int>;  // (cycle, program index or message id)
  using TimedHeap = std::priority_queue<Timed, std::vector<Timed>, std::greater<Timed>>;

  /// Applies every event up to and including `now`, in time order.
  void advance(std::uint64_t now);
  /// advance(now), or only the time when nothing is due by `now` (due_).
  void catch_up(std::uint64_t now);
  /// Earliest pending event, or kNoEvent.
  std::uint64_t next_event() const;
  void know_slot(std::size_t k);  // the host learns waited_[k] arrived (at time_)
  /// A notification of waited_[slot] (-1: none) `notify_cycles` after `now`.
  void notice(int slot, std::uint64_t now);
  void push_posted(int index);
  /// Throws SchedulerError naming `call` for a port outside 0 .. ports - 1.
  void require_port(const char* call, int port) const;
  /// The lowest program index posted on `port` and not issued (-1: none).
  int first_posted(int port) const;
  void make_ready(int index);  // dependencies known (at time_)
  /// `index` is ready at time_ (its release cycle has come): posted at once when posting is
  /// free (one doorbell, no context held, as post() would), else queued for post().
  void ready(int index);
  /// Free contexts post ready batches at time_; true when one did.
  bool post();

  // What the host needs of an operation once its dependencies are indexed, and how many of
  // them are not known yet (24 bytes, read together when one becomes known: a 4096-node
  // MultiTree has 33.5 M of them).
  struct Entry {
    std::uint64_t release_cycle;
    int port;
    int step;
    int missing;
  };
  // Read on every call (at the object's start, apart from the per-port sets and heaps): the cycle
  // the state has advanced to, the next pending event (next_event(), kept by advance(): a call
  // before it changes nothing) and the first posted message of each of the first kTopPorts ports
  // (-1: none; posted_[p].next(0), whose own memory a 4096-node run missed in the cache at every
  // call).
  static constexpr int kTopPorts = 8;
  std::uint64_t time_ = 0;
  std::uint64_t due_ = 0;
  int ports_ = 0;
  std::array<int, kTopPorts> posted_top_{};
  std::vector<Entry> program_;
  HostTiming timing_;
  std::vector<char> issued_;
  std::size_t issued_count_ = 0;
  // Who waits for which message: the messages waited for, ascending; per message whether it has
  // arrived, where its waiters (program indices, in program order) start in waiters_ (they
  // end where the next message's start; one entry more than waited_) and its first waiter,
  // which most messages have alone: an arrival then reads no list. Flat arrays, not a map of
  // lists: 4096-node programs.
  static constexpr std::uint32_t kArrived = std::uint32_t{1} << 31;  // in Waited::from
  struct Waited {
    std::uint32_t from;  // index in waiters_, kArrived set once the message arrived
    int first;           // waiters_[from]
  };
  std::vector<int> waited_;
  std::vector<Waited> waiters_of_;
  std::vector<int> waiters_;
  static constexpr std::size_t kNobody = ~std::size_t{0};  // a notice of a message not waited for
  std::deque<std::pair<std::uint64_t, std::size_t>> notices_;  // (cycle known, waited_ slot)
  TimedHeap releases_;          // (release cycle, index): dependencies known
  std::vector<MinHeap> ready_;  // per port: ready to post
  TimedHeap posting_;           // (cycle posted, index): batches under way
  // Per port: posted, not issued, as program indices (a bit per message of the program and
  // port: at most nic.ports bits a message, 6 at 4096 nodes on a 3D torus; a heap per port read
  // about log2(size) cache lines at each issue).
  std::vector<MinBitSet> posted_;
  std::vector<std::uint64_t> context_free_;  // per context: cycle it is free
  int last_step_ = -1;                       // highest step posted so far
  std::uint64_t doorbells_ = 0;
  std::vector<int> batch_;  // the batch being posted (kept to reuse its storage)
};

}  // namespace mt
