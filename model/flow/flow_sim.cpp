#include "model/flow/flow_sim.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/collective/cost_model.h"
#include "model/collective/issue_queue.h"
#include "model/core/flat_lists.h"
#include "model/data/data_store.h"
#include "model/data/packet_sizes.h"
#include "model/flow/event_queue.h"
#include "model/flow/reservations.h"
#include "model/noc/routing.h"
#include "model/sched/host_scheduler.h"
#include "model/sim/system_checks.h"

namespace mt {

namespace {

// How a message of `payload` bytes is cut: packets, and flits on the wire (heads included).
struct WireShape {
  std::uint64_t packets = 0;
  std::uint64_t flits = 0;
};

WireShape wire_shape(std::uint64_t payload, const NicSettings& nic) {
  const auto pb = static_cast<std::uint64_t>(nic.packet_bytes);
  const int rest_head = nic.flow_control == FlowControl::kMessage ? 0 : nic.head_flit_bytes;
  WireShape s;
  s.packets = packets_in(payload, nic.packet_bytes);
  const std::uint64_t first = std::min(payload, pb);
  s.flits = static_cast<std::uint64_t>(
      flits_in(static_cast<int>(first), nic.head_flit_bytes, nic.flit_bytes));
  const std::uint64_t rest = payload - first;
  s.flits +=
      rest / pb * static_cast<std::uint64_t>(flits_in(nic.packet_bytes, rest_head, nic.flit_bytes));
  if (rest % pb != 0)
    s.flits += static_cast<std::uint64_t>(
        flits_in(static_cast<int>(rest % pb), rest_head, nic.flit_bytes));
  return s;
}

// Cycles to serialise `flits` flits of `flit_bytes` at `bytes_per_cycle` (at least 1).
Cycle serialise(std::uint64_t flits, int flit_bytes, double bytes_per_cycle) {
  const double c =
      static_cast<double>(flits * static_cast<std::uint64_t>(flit_bytes)) / bytes_per_cycle;
  return std::max<Cycle>(1, static_cast<Cycle>(std::ceil(c - 1e-9)));
}

// Cycles a hop holds a message of `flits` flits that it serialises in `ser` cycles, with the
// credit loop of message flow control: a message (a worm) holds one VC per hop, so at most
// `usable` flits of that VC's buffer are in flight on the hop, and a flit's credit returns `loop`
// cycles after the flit left (twice the wire latency plus a packet's serialisation: the sender
// needs a packet's credits before it sends the packet). Where the buffer is shorter than the
// loop, the first `usable` flits leave at the link's rate (`usable_ser` cycles) and each further
// `usable` one loop after the ones before them. `usable` is the VC's buffer where credits come
// back flit by flit (a router's output), rounded down to whole packets where the sender takes
// them back packet by packet (a NIC's transmit DMA). Under packet flow control a message's
// packets spread over every VC, whose buffers together cover the loop.
Cycle credit_limited(Cycle ser, std::uint64_t flits, Cycle loop, std::uint64_t usable,
                     Cycle usable_ser) {
  if (usable == 0 || flits <= usable || loop <= usable_ser) return ser;
  const double held = static_cast<double>(flits - usable) * static_cast<double>(loop) /
                          static_cast<double>(usable) +
                      static_cast<double>(usable_ser);
  return std::max(ser, static_cast<Cycle>(std::ceil(held - 1e-9)));
}

// A node's reduction unit as the message model runs it (the cycle model's: RxReassembly's
// reduce_free_): the work it holds ends at `free`, in a stretch of back-to-back work that began
// at `from`.
struct ReductionUnit {
  Cycle from = 0;
  Cycle free = 0;

  // Work of `cycles` that can start at `at` runs behind what the unit holds; returns its end. A
  // broadcast applied from staging takes no cycles but waits its turn.
  Cycle run(Cycle at, Cycle cycles) {
    if (at > free) from = at;
    free = std::max(free, at) + cycles;
    return free;
  }

  // A message of `packets` packets summed per packet as each lands (RxReassembly::accept: a
  // packet waits for the one before and for the unit, then takes `per_packet` cycles, the last
  // one `last`), its tails evenly spaced over the last hop's `wire` cycles up to `tail`. Packets
  // in before the unit's current stretch began were summed before it; the later ones wait for
  // its end. Returns the cycle the last packet is summed.
  Cycle run_packets(Cycle tail, Cycle wire, std::uint64_t packets, Cycle per_packet, Cycle last) {
    packets = std::max<std::uint64_t>(1, packets);
    const Cycle first_tail = tail - std::min(tail, (packets - 1) * wire / packets);
    const Cycle own = (packets - 1) * per_packet + last;  // all its packets back to back
    // Packets whose tail comes at or after `from` (tail_k = tail - (packets - k) x wire / packets).
    std::uint64_t waiting = packets;
    if (from > first_tail)
      waiting = from > tail
                    ? 0
                    : std::min(packets, (tail - from) * packets / std::max<Cycle>(1, wire) + 1);
    const Cycle behind = waiting == 0 ? 0 : free + (waiting - 1) * per_packet + last;
    const Cycle end = std::max({tail + last, first_tail + own, behind});
    if (end == behind) {
      // the stretch under way runs on into this message's packets
    } else if (end == first_tail + own && end > tail + last) {
      if (first_tail > free) from = first_tail;  // its own packets keep the unit busy
    } else if (tail > free) {
      from = tail;  // only its last packet's sum follows its tail
    }
    free = std::max(free, end);
    return end;
  }
};

// The engine of one run.
class FlowSim {
 public:
  FlowSim(const PointConfig& config, const Topology& topology, const Schedule& schedule,
          std::uint64_t bytes, MessageCycles cycles)
      : config_(config),
        topology_(topology),
        schedule_(schedule),
        routing_(topology),
        nodes_(topology.nodes()),
        ports_(std::max(1, topology.ports_per_node())),
        links_(static_cast<int>(topology.links().size())),
        bytes_(bytes),
        recorded_(cycles == MessageCycles::kRecorded) {
    const std::uint64_t elements = bytes / kElementBytes;
    bounds_ = chunk_bounds(schedule, elements);
    data_ = std::make_unique<DataStore>(data_mode_of(config.data, nodes_, bytes), config.data.dtype,
                                        nodes_, bounds_, kDataSamplesPerChunk);
    plan();
  }

  /// Runs to the end once; the result takes the per-message cycle arrays with it.
  RunResult run();

 private:
  RunResult result();
  void plan();
  void find_arrival_slots();
  void wake(int node, Cycle at);
  void run_node(int node, Cycle now);
  void issue(int node, int message, int queue, Cycle now);
  void arrive(int message, Cycle now);
  void reduce(int message, Cycle now, bool staged);
  void apply(int message, Cycle now);
  // Applies the messages received into staging until `message` (the node's own) issued.
  void release_staged(int message, Cycle now);
  // Local step `message` on its node's reduction unit from `now` (its apply_after issued).
  void run_local(int message, Cycle now);
  // Elements of the chunk-sized slots message `op` moves.
  std::uint64_t elements_of(const Op& op) const {
    const auto chunk = static_cast<std::size_t>(op.size_chunk());
    return bounds_[chunk + 1] - bounds_[chunk];
  }
  // The resource holding NIC port `port` of `node`: its injection port on direct topologies; on
  // switched ones the port is the endpoint's link (issue_queue()), so that link's reservations.
  std::size_t port_resource(int node, int port) const {
    if (!topology_.is_direct())
      return static_cast<std::size_t>(topology_.out_links(node)[static_cast<std::size_t>(port)]);
    return static_cast<std::size_t>(links_ + node * ports_ + port);
  }

  const PointConfig& config_;
  const Topology& topology_;
  const Schedule& schedule_;
  RoutingTable routing_;
  int nodes_;
  int ports_;
  int links_;
  std::uint64_t bytes_;
  bool recorded_;  // issue_cycle_ and arrival_cycle_ kept (MessageCycles)
  std::vector<std::uint64_t> bounds_;
  std::unique_ptr<DataStore> data_;
  // What the engine keeps of a message, together: one cache line's half where five arrays
  // indexed by message were five misses each time a 4096-node run issued or applied one.
  struct MessageState {
    const std::vector<int>* path = nullptr;  // its route
    Cycle last_wire = 0;                     // its wire time on its last hop
    int handle = -1;                         // data snapshot taken at issue
    int arrival_slot = -1;                   // its place in its receiver's waited() (-1: none)
    std::uint16_t queue = 0;                 // its NIC issue queue (nic.ports <= 64, + local)
    bool issued = false;
  };
  static_assert(sizeof(MessageState) == 32, "two message records to a cache line");
  std::vector<MessageState> messages_;  // per message
  int local_queue_ = -1;  // the issue queue of local steps (after the ports'), -1: none
  std::vector<std::vector<int>> program_;              // per node: program index -> message
  std::vector<std::unique_ptr<HostScheduler>> sched_;  // per node
  std::vector<Reservations> res_;  // links, then injection ports, then ejection ports
  std::vector<Cycle> wake_at_;     // per node: the wake-up pending (kNoEvent: none)
  std::vector<Cycle> issue_cycle_, arrival_cycle_;
  std::multimap<int, int> held_;  // staging: message waited for -> staged message
  std::vector<std::uint64_t> link_bytes_;
  std::vector<Cycle> finish_;
  std::vector<int> left_;             // per node: messages still to arrive at it
  std::vector<ReductionUnit> units_;  // per node: its reduction unit
  std::uint64_t packets_ = 0;
  std::uint64_t cross_flow_waits_ = 0;  // waits for a link held by another node pair's message
  // Events: (cycle, kind, index); kind 0: a message's tail lands, 1: a node runs, 2: a message
  // is applied (reduced or copied into the receiver's buffer).
  EventQueue events_;
};

void FlowSim::plan() {
  const std::size_t m = schedule_.ops.size();
  const bool any_port = config_.nic.port_binding == PortBinding::kAny;
  const int queues = any_port ? 1 : ports_;
  messages_.resize(m);
  // Local steps (copies and sums between a node's own slots) take no port: a queue of their own,
  // run on the node's reduction unit, as the cycle model's NIC runs them.
  // (Found in the pass over the messages below, not by Schedule::has_local_steps(), another
  // pass over them all.)
  static const std::vector<int> kNoRoute;
  program_.resize(static_cast<std::size_t>(nodes_));
  left_.assign(static_cast<std::size_t>(nodes_), 0);
  for (const Op& op : schedule_.ops) {
    if (op.is_local()) {
      local_queue_ = queues;
      MessageState& message = messages_[static_cast<std::size_t>(op.id)];
      message.path = &kNoRoute;
      message.queue = static_cast<std::uint16_t>(local_queue_);
      program_[static_cast<std::size_t>(op.node)].push_back(op.id);
      ++left_[static_cast<std::size_t>(op.peer)];
      continue;
    }
    const std::vector<int>* path = nullptr;
    try {
      path = &routing_.message_route(op.path, op.node, op.peer);
    } catch (const RoutingError& e) {
      throw FlowConfigError("schedule message " + std::to_string(op.id) + ": " + e.what());
    }
    MessageState& message = messages_[static_cast<std::size_t>(op.id)];
    message.path = path;
    message.queue = static_cast<std::uint16_t>(issue_queue(
        op, routing_.out_index(path->front()), topology_.is_direct(), queues, any_port));
    program_[static_cast<std::size_t>(op.node)].push_back(op.id);
    ++left_[static_cast<std::size_t>(op.peer)];
  }
  HostTiming timing = config_.issue.host;
  if (config_.issue.mode == IssueMode::kHardware) {
    timing = HostTiming{};
    timing.notify_cycles = static_cast<Cycle>(config_.issue.scheduler.decision_latency_cycles);
  }
  // One node's program at a time (its dependency lists are copied, then indexed and dropped by
  // the scheduler: all nodes' at once were gigabytes at 4096 nodes).
  for (int u = 0; u < nodes_; ++u) {
    std::vector<SchedulerOp> program;
    program.reserve(program_[static_cast<std::size_t>(u)].size());
    for (const int id : program_[static_cast<std::size_t>(u)]) {
      const Op& op = schedule_.ops[static_cast<std::size_t>(id)];
      program.push_back(SchedulerOp{op.id, messages_[static_cast<std::size_t>(id)].queue, op.step,
                                    op.deps, op.release_cycle});
    }
    sched_.push_back(std::make_unique<HostScheduler>(std::move(program),
                                                     queues + (local_queue_ >= 0 ? 1 : 0), timing));
  }
  find_arrival_slots();
  res_.resize(static_cast<std::size_t>(links_ + 2 * nodes_ * ports_));
  wake_at_.assign(static_cast<std::size_t>(nodes_), Scheduler::kNoEvent);
  if (recorded_) {
    issue_cycle_.assign(m, 0);
    arrival_cycle_.assign(m, 0);
  }
  link_bytes_.assign(static_cast<std::size_t>(links_), 0);
  finish_.assign(static_cast<std::size_t>(nodes_), 0);
  units_.assign(static_cast<std::size_t>(nodes_), ReductionUnit{});
}

void FlowSim::find_arrival_slots() {
  // Each node's arriving messages ascending, merged with the ascending messages its host waits
  // for: one pass, where a search per arrival missed the cache at every step (4096-node
  // programs).
  const FlatLists arriving =
      FlatLists::gather(static_cast<std::size_t>(nodes_), [this](const auto& emit) {
        for (const Op& op : schedule_.ops) emit(op.peer, op.id);
      });
  for (int u = 0; u < nodes_; ++u) {
    const std::vector<int>& waited = sched_[static_cast<std::size_t>(u)]->waited();
    std::size_t k = 0;
    for (const int message : arriving[u]) {
      while (k < waited.size() && waited[k] < message) ++k;
      if (k < waited.size() && waited[k] == message)
        messages_[static_cast<std::size_t>(message)].arrival_slot = static_cast<int>(k);
    }
  }
}

void FlowSim::wake(int node, Cycle at) {
  Cycle& pending = wake_at_[static_cast<std::size_t>(node)];
  if (at >= pending) return;
  pending = at;
  events_.push({at, 1, node});
}

void FlowSim::run_node(int node, Cycle now) {
  HostScheduler& sched = *sched_[static_cast<std::size_t>(node)];
  const bool any_port = config_.nic.port_binding == PortBinding::kAny;
  const int queues = any_port ? 1 : ports_;
  Cycle next = Scheduler::kNoEvent;
  for (int q = 0; q < queues + (local_queue_ >= 0 ? 1 : 0); ++q) {
    while (true) {
      const int index = sched.next_ready(q, now);
      if (index < 0) break;
      if (q == local_queue_) {  // no port: every ready local step starts now
        sched.pop(q);
        issue(node, program_[static_cast<std::size_t>(node)][static_cast<std::size_t>(index)], q,
              now);
        continue;
      }
      // The port (any: the first free one) must be free now, else wake when it frees: as the
      // cycle model's transmit DMA, a port takes a message once its last one is on the wire.
      Cycle free = Scheduler::kNoEvent;
      for (int p = any_port ? 0 : q; p < (any_port ? ports_ : q + 1); ++p)
        free = std::min(free, res_[port_resource(node, p)].free_from(now));
      if (free > now) {
        next = std::min(next, free);
        break;
      }
      sched.pop(q);
      issue(node, program_[static_cast<std::size_t>(node)][static_cast<std::size_t>(index)], q,
            now);
    }
  }
  next = std::min(next, sched.next_event_cycle(now));
  if (next != Scheduler::kNoEvent) wake(node, next);
}

void FlowSim::issue(int node, int message, int queue, Cycle now) {
  const auto id = static_cast<std::size_t>(message);
  const Op& op = schedule_.ops[id];
  const NicSettings& nic = config_.nic;
  const RouterConfig& router = config_.router;
  const TopologyConfig& tc = topology_.config();
  MessageState& state = messages_[id];
  state.issued = true;
  if (recorded_) issue_cycle_[id] = now;
  state.handle = data_->snapshot(node, op.chunk, op.src_buf);
  if (op.is_local()) {
    // As the cycle model: what waited for this step's issue first, then the step itself,
    // once the node has issued the message reading the slot it writes (Op::apply_after).
    release_staged(message, now);
    if (op.apply_after >= 0 && !messages_[static_cast<std::size_t>(op.apply_after)].issued) {
      held_.emplace(op.apply_after, message);
      return;
    }
    run_local(message, now);
    return;
  }
  const WireShape shape = wire_shape(elements_of(op) * kElementBytes, nic);
  packets_ += shape.packets;
  const auto pipeline = static_cast<Cycle>(router.pipeline_cycles);
  // The chain of resources: on direct topologies the NIC's injection port, the route's links and
  // the receiver's ejection port (a router between each two, its pipeline on the head); on
  // switched ones the route's links alone (the first leaves the NIC, the last enters it).
  const bool direct = topology_.is_direct();
  const bool any_port = nic.port_binding == PortBinding::kAny;
  Cycle head = now;
  Cycle prev_end = 0;
  Cycle ser = 0;
  const auto take = [&](std::size_t resource, Cycle length, Cycle latency, Cycle after) {
    // A downstream resource cannot finish before the upstream one has delivered the tail.
    const Cycle at = std::max(head, prev_end > length ? prev_end - length : 0);
    bool other_flow = false;
    const std::int64_t pair = static_cast<std::int64_t>(op.node) * nodes_ + op.peer;
    const Cycle start = res_[resource].reserve(at, length, now, pair, other_flow);
    cross_flow_waits_ += other_flow ? 1 : 0;
    prev_end = start + length + latency;
    head = start + latency + after;
  };
  const double nic_bw = tc.link_bytes_per_cycle;
  if (direct) {
    int port = queue;
    if (any_port) {  // the first free port
      Cycle best = Scheduler::kNoEvent;
      for (int p = 0; p < ports_; ++p) {
        const Cycle f = res_[port_resource(node, p)].free_from(now);
        if (f < best) best = f, port = p;
      }
    }
    ser = serialise(shape.flits, nic.flit_bytes, nic_bw);
    take(port_resource(node, port), ser, 0, pipeline);
  }
  const std::vector<int>& path = *state.path;
  const bool worm = nic.flow_control == FlowControl::kMessage;
  const auto packet_flits = static_cast<std::uint64_t>(
      flits_in(nic.packet_bytes, 0, nic.flit_bytes));  // a full packet after the first
  const auto buffer = static_cast<std::uint64_t>(router.buffer_flits);
  Cycle pace = 0;  // the slowest hop's time: the pace at which the packets land
  for (std::size_t h = 0; h < path.size(); ++h) {
    const Link& link = topology_.link(path[h]);
    ser = serialise(shape.flits, nic.flit_bytes, link.bytes_per_cycle);
    const bool last = h + 1 == path.size();
    // The credit loop of a hop into a router's VC buffer (not the receiving NIC's): from a
    // NIC (a switched topology's first hop) credits come back to its DMA packet by packet.
    Cycle held = ser;
    if (worm && !(last && !direct)) {
      const bool from_nic = h == 0 && !direct;
      const Cycle loop = 2 * static_cast<Cycle>(link.latency_cycles) +
                         serialise(packet_flits, nic.flit_bytes, link.bytes_per_cycle);
      const std::uint64_t usable =
          from_nic ? buffer / std::max<std::uint64_t>(packet_flits, 1) * packet_flits : buffer;
      held = credit_limited(ser, shape.flits, loop, usable,
                            serialise(usable, nic.flit_bytes, link.bytes_per_cycle));
    }
    pace = std::max(pace, held);
    take(static_cast<std::size_t>(link.id), held, static_cast<Cycle>(link.latency_cycles),
         last && !direct ? 0 : pipeline);
    link_bytes_[static_cast<std::size_t>(link.id)] +=
        shape.flits * static_cast<std::uint64_t>(nic.flit_bytes);
  }
  if (direct) {  // the receiver's first free ejection port
    const std::size_t base = static_cast<std::size_t>(links_ + nodes_ * ports_ + op.peer * ports_);
    std::size_t best = base;
    for (int p = 1; p < ports_; ++p)
      if (res_[base + static_cast<std::size_t>(p)].free_from(head) < res_[best].free_from(head))
        best = base + static_cast<std::size_t>(p);
    ser = serialise(shape.flits, nic.flit_bytes, nic_bw);
    take(best, ser, 0, 0);
  }
  state.last_wire = std::max(ser, pace);
  events_.push({prev_end, 0, message});
  release_staged(message, now);
}

void FlowSim::release_staged(int message, Cycle now) {
  // Messages staged behind this one (receive staging) are applied now.
  const auto [first, end] = held_.equal_range(message);
  std::vector<int> staged;
  for (auto it = first; it != end; ++it) staged.push_back(it->second);
  held_.erase(first, end);
  for (const int s : staged) {
    if (schedule_.ops[static_cast<std::size_t>(s)].is_local())
      run_local(s, now);
    else
      reduce(s, now, true);
  }
}

void FlowSim::run_local(int message, Cycle now) {
  // On the node's reduction unit at its rate (a copy too), behind its other work.
  const Op& op = schedule_.ops[static_cast<std::size_t>(message)];
  const Cycle done = units_[static_cast<std::size_t>(op.node)].run(
      now, reduce_cycles(elements_of(op), config_.nic.reduce_elems_per_cycle));
  events_.push({done, 2, message});
}

void FlowSim::arrive(int message, Cycle now) {
  const Op& op = schedule_.ops[static_cast<std::size_t>(message)];
  // Receive staging: applied once the receiver has issued its own message of the chunk.
  if (op.apply_after >= 0 && !messages_[static_cast<std::size_t>(op.apply_after)].issued) {
    held_.emplace(op.apply_after, message);
    return;
  }
  reduce(message, now, false);
}

void FlowSim::reduce(int message, Cycle now, bool staged) {
  // The reduction unit as the receive side runs it (RxReassembly): a reduce message per packet
  // as its packets land (only the last packet's sum follows the tail, unless the unit is busy);
  // a whole message (reduction granularity message, or a staged message once released) on the
  // node's one unit, and a staged broadcast in its turn there, taking no cycles.
  const Op& op = schedule_.ops[static_cast<std::size_t>(message)];
  ReductionUnit& unit = units_[static_cast<std::size_t>(op.peer)];
  Cycle applied = now;
  if (op.kind == OpKind::kReduce) {
    const std::uint64_t elements = elements_of(op);
    const double rate = config_.nic.reduce_elems_per_cycle;
    if (staged || config_.nic.reduction == ReduceGranularity::kMessage) {
      applied = unit.run(now, reduce_cycles(elements, rate));
    } else {
      const int packet_bytes = config_.nic.packet_bytes;
      const auto per_packet = static_cast<std::uint64_t>(packet_bytes / kElementBytes);
      const std::uint64_t last = elements % per_packet == 0 ? per_packet : elements % per_packet;
      applied = unit.run_packets(now, messages_[static_cast<std::size_t>(message)].last_wire,
                                 packets_in(elements * kElementBytes, packet_bytes),
                                 reduce_cycles(per_packet, rate),
                                 reduce_cycles(std::min(elements, last), rate));
    }
  } else if (staged) {
    applied = unit.run(now, 0);
  }
  events_.push({applied, 2, message});
}

void FlowSim::apply(int message, Cycle now) {
  const Op& op = schedule_.ops[static_cast<std::size_t>(message)];
  if (recorded_)
    arrival_cycle_[static_cast<std::size_t>(message)] = now;  // applied (RunResult's arrival)
  data_->apply(op.peer, op.dst_slot(), op.kind, messages_[static_cast<std::size_t>(message)].handle,
               op.dst_buf);
  Cycle& finish = finish_[static_cast<std::size_t>(op.peer)];
  finish = std::max(finish, now);
  --left_[static_cast<std::size_t>(op.peer)];
  sched_[static_cast<std::size_t>(op.peer)]->on_arrival_at(
      messages_[static_cast<std::size_t>(message)].arrival_slot, now);
  wake(op.peer, now);
}

RunResult FlowSim::run() {
  for (int u = 0; u < nodes_; ++u) wake(u, 0);
  while (!events_.empty()) {
    const auto [now, kind, index] = events_.top();
    events_.pop();
    if (kind == 0) {
      arrive(index, now);
      continue;
    }
    if (kind == 2) {
      apply(index, now);
      continue;
    }
    if (wake_at_[static_cast<std::size_t>(index)] != now) continue;  // superseded
    wake_at_[static_cast<std::size_t>(index)] = Scheduler::kNoEvent;
    run_node(index, now);
  }
  return result();
}

RunResult FlowSim::result() {
  RunResult r;
  r.scenario = config_.scenario;
  r.topology = topology_.name();
  r.algorithm = schedule_.algorithm;
  r.granularity = Granularity::kMessage;
  r.nodes = nodes_;
  r.ports = ports_;
  r.bytes = bytes_;
  r.clock_ghz = config_.clock_ghz;
  r.steps = schedule_.num_steps;
  r.messages = schedule_.ops.size();
  r.packets = packets_;
  r.cross_flow_waits = cross_flow_waits_;
  r.data_mode = data_->mode();
  Cycle completion = 0;
  for (const Cycle f : finish_) completion = std::max(completion, f);
  r.node_finish_cycles = finish_;
  r.completion_cycles = completion;
  r.completion_ns = static_cast<double>(completion) / config_.clock_ghz;
  const CostParams cost = cost_params_of(config_);
  r.bound_cycles = bandwidth_bound_cycles(topology_, ports_, bytes_);
  r.latency_bound_cycles = latency_bound_cycles(topology_, bytes_, cost);
  const bool complete = std::all_of(left_.begin(), left_.end(), [](int n) { return n == 0; });
  const double bound = std::max(r.bound_cycles, r.latency_bound_cycles);
  r.efficiency = complete && completion > 0 ? bound / static_cast<double>(completion) : 0.0;
  if (!complete) {
    int stuck = 0;
    while (left_[static_cast<std::size_t>(stuck)] == 0) ++stuck;
    r.error = "message granularity: node " + std::to_string(stuck) + " still waits for " +
              std::to_string(left_[static_cast<std::size_t>(stuck)]) +
              " messages when no event is left (a dependency that never arrives)";
  } else {
    const std::string mismatch = data_->check();
    if (!mismatch.empty()) r.error = mismatch;
    r.data_verified = mismatch.empty() && data_->mode() != DataMode::kOff;
  }
  for (int l = 0; l < links_; ++l) {
    LinkStat stat;
    stat.link = l;
    stat.src = topology_.link(l).src;
    stat.dst = topology_.link(l).dst;
    stat.bytes = link_bytes_[static_cast<std::size_t>(l)];
    stat.utilization = completion > 0
                           ? static_cast<double>(res_[static_cast<std::size_t>(l)].busy_cycles()) /
                                 static_cast<double>(completion)
                           : 0.0;
    r.links.push_back(stat);
  }
  r.host_preset = config_.issue.host_preset;
  r.host = config_.issue.host;
  if (config_.issue.mode == IssueMode::kHardware)
    r.scheduler_clock_ghz = config_.clock_ghz / config_.issue.scheduler.network_cycles_per_tick;
  // Moved, not copied: two arrays of 8 bytes a message (0.5 GB at 33.5 M messages).
  r.message_arrival_cycles = std::move(arrival_cycle_);
  r.message_issue_cycles = std::move(issue_cycle_);
  return r;
}

}  // namespace

RunResult simulate_messages(const PointConfig& config, const Topology& topology,
                            const Schedule& schedule, std::uint64_t bytes, MessageCycles cycles) {
  const auto wall_start = std::chrono::steady_clock::now();
  // The packet model's refusals (parameters, slots, local steps under hardware issue, ...), and
  // what this model leaves out and would otherwise ignore silently.
  validate_system_inputs(config, topology, schedule, bytes);
  const auto not_modelled = [](const std::string& key) {
    return FlowConfigError(key +
                           ": not modelled at message granularity (docs/granularity.md); "
                           "run it with granularity: packet");
  };
  if (config.nic.step_barrier) throw not_modelled("nic.step_barrier");
  if (config.issue.mode == IssueMode::kHardware && config.issue.scheduler.per_port_grants &&
      config.nic.port_binding == PortBinding::kAny)
    throw not_modelled("nic.scheduler_any_port_grants per_port");
  FlowSim sim(config, topology, schedule, bytes, cycles);
  // The analytical estimate (RunResult::estimate_cycles) reads the schedule and topology only:
  // it is worked out on another thread while the messages move (a tenth of a 4096-node
  // MultiTree run's time when it followed them).
  std::future<double> estimate = std::async(std::launch::async, [&] {
    return estimate_schedule(schedule, topology, bytes, cost_params_of(config)).cycles();
  });
  RunResult r = sim.run();
  r.estimate_cycles = estimate.get();
  r.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return r;
}

}  // namespace mt
