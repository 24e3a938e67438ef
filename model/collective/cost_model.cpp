#include "model/collective/cost_model.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/collective/issue_queue.h"
#include "model/collective/schedule_graph.h"
#include "model/core/flat_lists.h"
#include "model/topology/route_memo.h"

namespace mt {

namespace {

// Bytes a message of `payload` bytes puts on a link: its packets' payload plus one head each
// (one for the whole message under message flow control).
double wire_bytes(double payload, const CostParams& params) {
  if (params.head_per_message) return payload + params.head_flit_bytes;
  const double packet = std::max(1, params.packet_bytes);
  return payload + std::ceil(payload / packet) * params.head_flit_bytes;
}

/// Cheapest endpoint-to-endpoint path of the farthest pair: links weighted by wire latency plus
/// the pipeline of the router they enter (`per_hop`), the source's own pipeline included.
/// Dijkstra per source; when every link weighs the same (a direct topology with one wire
/// latency) a breadth-first search per source finds the same paths and adds the same weights in
/// the same order.
double farthest_pair_cycles(const Topology& topology, double per_hop) {
  const int n = topology.nodes();
  const auto router = [&topology](int v) { return topology.is_direct() || topology.is_switch(v); };
  bool uniform = topology.is_direct() && !topology.links().empty();
  for (const Link& link : topology.links())
    uniform = uniform && link.latency_cycles == topology.link(0).latency_cycles;
  constexpr double kUnreached = 1e300;
  std::vector<double> dist(static_cast<size_t>(topology.vertices()));
  std::vector<int> visit;
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  double farthest = 0;
  for (int src = 0; src < n; ++src) {
    std::fill(dist.begin(), dist.end(), kUnreached);
    dist[static_cast<size_t>(src)] = router(src) ? per_hop : 0.0;
    if (uniform) {
      visit.assign(1, src);
      for (size_t q = 0; q < visit.size(); ++q) {
        const int u = visit[q];
        for (int l : topology.out_links(u)) {
          const Link& link = topology.link(l);
          if (dist[static_cast<size_t>(link.dst)] != kUnreached) continue;
          dist[static_cast<size_t>(link.dst)] =
              dist[static_cast<size_t>(u)] + link.latency_cycles + per_hop;
          visit.push_back(link.dst);
        }
      }
    } else {
      queue.push({dist[static_cast<size_t>(src)], src});
      while (!queue.empty()) {
        const auto [d, u] = queue.top();
        queue.pop();
        if (d > dist[static_cast<size_t>(u)]) continue;
        if (u != src && !router(u)) continue;  // endpoints of switched topologies do not forward
        for (int l : topology.out_links(u)) {
          const Link& link = topology.link(l);
          const double next = d + link.latency_cycles + (router(link.dst) ? per_hop : 0);
          if (next < dist[static_cast<size_t>(link.dst)]) {
            dist[static_cast<size_t>(link.dst)] = next;
            queue.push({next, link.dst});
          }
        }
      }
    }
    for (int v = 0; v < n; ++v) {
      if (v != src) farthest = std::max(farthest, dist[static_cast<size_t>(v)]);
    }
  }
  return farthest;
}

// visit(op, path) for every message in order, its path Op::path or else the topology's route.
template <class Visit>
void for_each_message_path(const Schedule& schedule, const Topology& topology, const Visit& visit) {
  RouteMemo routes(topology);
  for (const Op& op : schedule.ops) {
    if (op.path.empty()) {
      visit(op, IntSpan(routes.route(op.node, op.peer)));
    } else {
      visit(op, IntSpan(op.path));
    }
  }
}

// Every message's path, held flat (a vector per message cost 1.9 GB at 4096 nodes, 33.5 M
// messages).
FlatLists message_paths(const Schedule& schedule, const Topology& topology) {
  FlatLists paths;
  for_each_message_path(schedule, topology, [&paths](const Op&, IntSpan path) {
    paths.append(path.begin(), path.end());
  });
  return paths;
}

// The NIC issue queues of a schedule's messages, bound as the simulator binds them
// (issue_queue()): `of` per message (node x per_node + queue, -1 for a message with no path),
// each served by `servers` ports.
struct IssueQueues {
  std::vector<int> of;
  int per_node = 1;
  int servers = 1;
};

IssueQueues issue_queues(const Schedule& schedule, const Topology& topology, const FlatLists& paths,
                         const CostParams& params) {
  IssueQueues q;
  const int ports = std::max(1, topology.ports_per_node());
  int widest = 1;  // switched topologies: a queue per endpoint link
  for (int u = 0; u < topology.nodes(); ++u)
    widest = std::max(widest, static_cast<int>(topology.out_links(u).size()));
  q.per_node = params.any_port ? 1 : topology.is_direct() ? ports : widest;
  q.servers = params.any_port ? ports : 1;
  q.of.assign(schedule.ops.size(), -1);
  for (const Op& op : schedule.ops) {
    const IntSpan path = paths[op.id];
    if (path.empty()) continue;
    const std::vector<int>& out = topology.out_links(op.node);
    const auto at = std::find(out.begin(), out.end(), path.front());
    const int first_out = at == out.end() ? 0 : static_cast<int>(at - out.begin());
    const int queue =
        issue_queue(op, first_out, topology.is_direct(), ports, params.any_port) % q.per_node;
    q.of[static_cast<size_t>(op.id)] = op.node * q.per_node + queue;
  }
  return q;
}

}  // namespace

namespace {

// Per-step synchronous estimate: step s starts when step s-1 has ended everywhere. Its cost is
// the slowest message's pipeline latency plus the time the most loaded directed link needs to
// serialise everything the step puts on it (headers included). A message's own serialisation is
// therefore counted once, through the load of its links, not again in its latency.
CostEstimate per_step_estimate(const Schedule& schedule, const Topology& topology,
                               std::uint64_t bytes, const CostParams& params,
                               const FlatLists& paths) {
  CostEstimate est;
  int steps = 0;
  for (const Op& op : schedule.ops) steps = std::max(steps, op.step + 1);
  // The messages step by step, each step's in id order (a counting sort): a step's loads are
  // summed in dense arrays, in the order of the messages, then reset where touched.
  std::vector<std::size_t> step_begin(static_cast<size_t>(steps) + 1, 0);
  for (const Op& op : schedule.ops) ++step_begin[static_cast<size_t>(op.step) + 1];
  for (int s = 0; s < steps; ++s)
    step_begin[static_cast<size_t>(s) + 1] += step_begin[static_cast<size_t>(s)];
  std::vector<int> by_step(schedule.ops.size());
  {
    std::vector<std::size_t> next(step_begin.begin(), step_begin.end() - 1);
    for (const Op& op : schedule.ops) by_step[next[static_cast<size_t>(op.step)]++] = op.id;
  }
  const std::vector<std::uint64_t> sizes = chunk_byte_sizes(schedule, bytes);
  const IssueQueues queues = issue_queues(schedule, topology, paths, params);
  std::vector<double> load(topology.links().size(), 0.0);
  std::vector<double> queue_cycles(
      static_cast<size_t>(topology.nodes()) * static_cast<size_t>(queues.per_node), 0.0);
  std::vector<int> loaded;  // links of the step with a load
  std::vector<int> queued;  // queues of the step with a message
  for (int s = 0; s < steps; ++s) {
    double latency = 0;
    for (std::size_t k = step_begin[static_cast<size_t>(s)];
         k < step_begin[static_cast<size_t>(s) + 1]; ++k) {
      const Op& op = schedule.ops[static_cast<size_t>(by_step[k])];
      const IntSpan path = paths[op.id];
      const auto payload = static_cast<double>(sizes[static_cast<std::size_t>(op.size_chunk())]);
      const double wire = wire_bytes(payload, params);
      double lat = 0;
      for (const int l : path) {
        lat += topology.link(l).latency_cycles + params.per_hop_cycles;
        double& on_link = load[static_cast<size_t>(l)];
        if (on_link == 0) loaded.push_back(l);
        on_link += wire;
      }
      if (!path.empty()) {
        const int q = queues.of[static_cast<size_t>(op.id)];
        double& on_queue = queue_cycles[static_cast<size_t>(q)];
        if (on_queue == 0) queued.push_back(q);
        on_queue += wire / topology.link(path.front()).bytes_per_cycle / queues.servers;
      }
      latency = std::max(latency, lat);
    }
    double worst = 0;
    for (const int l : loaded) {
      double& on_link = load[static_cast<size_t>(l)];
      worst = std::max(worst, on_link / topology.link(l).bytes_per_cycle);
      on_link = 0;
    }
    for (const int q : queued) {
      double& on_queue = queue_cycles[static_cast<size_t>(q)];
      worst = std::max(worst, on_queue);
      on_queue = 0;
    }
    loaded.clear();
    queued.clear();
    est.latency_cycles += latency;
    est.bandwidth_cycles += worst;
  }
  est.cycles = est.latency_cycles + est.bandwidth_cycles;
  return est;
}

// Refuses what the per-step estimate cannot time.
void check_estimable(const Schedule& schedule) {
  if (schedule.num_chunks <= 0) {
    throw ScheduleError("estimate_cost: schedule has " + std::to_string(schedule.num_chunks) +
                        " chunks");
  }
  for (const Op& op : schedule.ops) {
    if (op.step < 0 || op.size_chunk() < 0 || op.size_chunk() >= schedule.num_chunks) {
      throw ScheduleError("estimate_cost: message " + std::to_string(op.id) + " has step " +
                          std::to_string(op.step) + " and chunk " +
                          std::to_string(op.size_chunk()) + " (chunks 0.." +
                          std::to_string(schedule.num_chunks - 1) + ")");
    }
  }
}

double dataflow_with_paths(const Schedule& schedule, const Topology& topology, std::uint64_t bytes,
                           const CostParams& params, const FlatLists& paths);

}  // namespace

CostEstimate estimate_cost(const Schedule& schedule, const Topology& topology, std::uint64_t bytes,
                           const CostParams& params) {
  if (schedule.ops.empty()) return {};
  check_estimable(schedule);
  return per_step_estimate(schedule, topology, bytes, params, message_paths(schedule, topology));
}

bool steps_share_no_link(const Schedule& schedule, const Topology& topology) {
  // (step, directed link) of every hop as one number, sorted: a repeat is a shared link (a set
  // of pairs took 1.6 GB and 20 s at 4096 nodes).
  const auto links = static_cast<std::uint64_t>(topology.links().size());
  std::vector<std::uint64_t> used;
  used.reserve(schedule.ops.size());
  for_each_message_path(schedule, topology, [&used, links](const Op& op, IntSpan path) {
    for (const int l : path)
      used.push_back(static_cast<std::uint64_t>(op.step) * links + static_cast<std::uint64_t>(l));
  });
  std::sort(used.begin(), used.end());
  return std::adjacent_find(used.begin(), used.end()) == used.end();
}

bool flows_send_one_chunk(const Schedule& schedule) {
  std::vector<int> chunk_of(static_cast<std::size_t>(std::max(0, schedule.num_flows)), -1);
  for (const Op& op : schedule.ops) {
    if (op.is_local()) continue;
    if (op.flow < 0 || op.flow >= schedule.num_flows) return false;  // left to the verifier
    int& chunk = chunk_of[static_cast<std::size_t>(op.flow)];
    if (chunk >= 0 && chunk != op.chunk) return false;
    chunk = op.chunk;
  }
  return true;
}

double dataflow_estimate(const Schedule& schedule, const Topology& topology, std::uint64_t bytes,
                         const CostParams& params) {
  if (schedule.ops.empty() || schedule.num_chunks <= 0) return 0;
  return dataflow_with_paths(schedule, topology, bytes, params, message_paths(schedule, topology));
}

namespace {

double dataflow_with_paths(const Schedule& schedule, const Topology& topology, std::uint64_t bytes,
                           const CostParams& params, const FlatLists& paths) {
  const size_t m = schedule.ops.size();
  const std::vector<std::uint64_t> sizes = chunk_byte_sizes(schedule, bytes);
  const FlatLists dependents = dependent_lists(schedule);
  std::vector<int> missing(m, 0);
  std::vector<double> ready(m, 0.0);
  for (const Op& op : schedule.ops)
    missing[static_cast<size_t>(op.id)] = static_cast<int>(op.deps.size());
  // Each message waits in its NIC issue queue; a port sends one message at a time and, like the
  // simulator's software issue, its queue hands it the ready message listed first. A queue is
  // served by `servers` ports: port_free holds each one's next free time.
  const IssueQueues queues = issue_queues(schedule, topology, paths, params);
  const size_t links = topology.links().size();
  const size_t queue_count = static_cast<size_t>(topology.nodes() * queues.per_node);
  using MinIds = std::priority_queue<int, std::vector<int>, std::greater<int>>;
  std::vector<MinIds> port_queue(queue_count);
  std::vector<std::vector<double>> port_free(
      queue_count, std::vector<double>(static_cast<size_t>(queues.servers), 0.0));
  const auto next_free = [&port_free](size_t q) {
    return std::min_element(port_free[q].begin(), port_free[q].end());
  };
  std::vector<char> port_pending(queue_count, 0);  // a dispatch event is scheduled
  // Busy intervals per directed link, sorted; a message takes the first gap long enough at or
  // after its head's arrival (intervals ending before the current event time are dropped).
  std::vector<std::vector<std::pair<double, double>>> busy(links);
  auto reserve = [&busy](size_t l, double t, double len, double now) {
    auto& iv = busy[l];
    size_t drop = 0;
    while (drop < iv.size() && iv[drop].second <= now) ++drop;
    if (drop > 0) iv.erase(iv.begin(), iv.begin() + static_cast<std::ptrdiff_t>(drop));
    size_t i = 0;
    while (i < iv.size() && iv[i].second <= t) ++i;
    for (; i < iv.size(); ++i) {
      if (t + len <= iv[i].first) break;
      t = std::max(t, iv[i].second);
    }
    iv.insert(iv.begin() + static_cast<std::ptrdiff_t>(i), {t, t + len});
    return t;
  };
  // Events: (time, kind, index); kind 0 = message ready, 1 = port dispatch, 2 = message posted
  // by a host that costs something. Ready events of a time are handled before dispatches of
  // that time.
  using Event = std::tuple<double, int, int>;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
  for (const Op& op : schedule.ops) {
    if (op.deps.empty()) events.push({0.0, 0, op.id});
  }
  // A message's data is applied (its dependents may go) when it has arrived, and when staged
  // (Op::apply_after) once the receiver has issued its own message too.
  // Issue times are kept only when some message is staged (8 bytes a message: 268 MB at 4096
  // nodes, where MultiTree stages nothing).
  const bool staging = std::any_of(schedule.ops.begin(), schedule.ops.end(),
                                   [](const Op& op) { return op.apply_after >= 0; });
  std::vector<double> issued(staging ? m : 0, -1.0);
  std::unordered_map<int, std::vector<std::pair<int, double>>> held;
  // A host that costs something learns of each arrival late and posts ready messages one at a
  // time per issue context (in the order they become ready).
  const bool host = params.host_notify_cycles > 0 || params.host_message_cycles > 0;
  std::vector<std::vector<double>> host_free(
      host ? static_cast<size_t>(topology.nodes()) : 0,
      std::vector<double>(static_cast<size_t>(std::max(1, params.host_contexts)), 0.0));
  const auto release = [&](int id, double applied) {
    applied += params.host_notify_cycles;
    for (const int u : dependents[id]) {
      ready[static_cast<size_t>(u)] = std::max(ready[static_cast<size_t>(u)], applied);
      if (--missing[static_cast<size_t>(u)] == 0)
        events.push({ready[static_cast<size_t>(u)], 0, u});
    }
  };
  double end = 0;
  while (!events.empty()) {
    const auto [now, kind, index] = events.top();
    events.pop();
    if (kind == 0 && host) {
      // The host posts it first: kind 2 = posted, then it waits at its port.
      std::vector<double>& contexts =
          host_free[static_cast<size_t>(schedule.ops[static_cast<size_t>(index)].node)];
      double& context = *std::min_element(contexts.begin(), contexts.end());
      context = std::max(now, context) + params.host_message_cycles;
      events.push({context, 2, index});
      continue;
    }
    if (kind == 0 || kind == 2) {
      const int queue = queues.of[static_cast<size_t>(index)];
      if (queue < 0) {
        // A local step (no route): counted as done when ready; the estimate has no reduction
        // unit (the simulator times it, SCHEDULE_FORMAT.md).
        if (schedule.ops[static_cast<size_t>(index)].is_local()) release(index, now);
        continue;
      }
      const size_t port = static_cast<size_t>(queue);
      port_queue[port].push(index);
      if (!port_pending[port]) {
        port_pending[port] = 1;
        events.push({std::max(now, *next_free(port)), 1, queue});
      }
      continue;
    }
    const size_t port = static_cast<size_t>(index);
    port_pending[port] = 0;
    if (port_queue[port].empty()) continue;
    const int id = port_queue[port].top();
    port_queue[port].pop();
    double& server_free = *next_free(port);
    const Op& op = schedule.ops[static_cast<size_t>(id)];
    if (staging) issued[static_cast<size_t>(id)] = now;
    // Messages staged behind this one (receive staging) are applied now at the earliest.
    const auto held_here = held.find(id);
    if (held_here != held.end()) {
      for (const auto& [staged, arrived] : held_here->second)
        release(staged, std::max(arrived, now));
      held.erase(held_here);
    }
    const auto payload = static_cast<double>(sizes.at(static_cast<size_t>(op.size_chunk())));
    const double wire = wire_bytes(payload, params);
    double t = now;
    double ser = 0;
    bool first = true;
    for (const int l : paths[id]) {
      const Link& link = topology.link(l);
      ser = wire / link.bytes_per_cycle;
      const double start = reserve(static_cast<size_t>(l), t, ser, now);
      if (first) server_free = start + ser;
      first = false;
      t = start + link.latency_cycles + params.per_hop_cycles;
    }
    const double done = t + ser;
    end = std::max(end, done);
    const int own = op.apply_after;
    if (own < 0) {
      release(id, done);
    } else if (issued[static_cast<size_t>(own)] >= 0) {
      release(id, std::max(done, issued[static_cast<size_t>(own)]));
    } else {
      held[own].emplace_back(id, done);
    }
    if (!port_queue[port].empty()) {
      port_pending[port] = 1;
      events.push({std::max(now, *next_free(port)), 1, index});
    }
  }
  return end;
}

}  // namespace

ScheduleEstimate estimate_schedule(const Schedule& schedule, const Topology& topology,
                                   std::uint64_t bytes, const CostParams& params) {
  ScheduleEstimate estimate;
  if (schedule.ops.empty()) return estimate;
  check_estimable(schedule);
  const FlatLists paths = message_paths(schedule, topology);  // once for both
  estimate.per_step = per_step_estimate(schedule, topology, bytes, params, paths);
  estimate.dataflow_cycles = dataflow_with_paths(schedule, topology, bytes, params, paths);
  return estimate;
}

double bandwidth_bound_cycles(const Topology& topology, int ports, std::uint64_t bytes) {
  const int n = topology.nodes();
  if (n < 2) return 0;
  if (ports <= 0) ports = topology.ports_per_node();
  if (ports <= 0) ports = 1;
  const double total = static_cast<double>(bytes);
  // Every chunk needs at least 2(N-1) endpoint-to-endpoint transmissions (N-1 to combine N
  // contributions, N-1 to hand the result to the other nodes), and only endpoints send and
  // receive them: all nodes together send and receive 2(N-1) buffers' worth. Each node can use
  // at most `ports` of its links at once (the fastest). With equal nodes this is the familiar
  // 2(N-1)/N x bytes over one node's injection bandwidth; on a mesh, where corners have fewer
  // links, it is the aggregate that bounds (a single slow node does not: trees let corners send
  // less than 2(N-1)/N of their buffer).
  const auto usable_bandwidth = [&](const std::vector<int>& links) {
    std::vector<double> bw;
    for (int l : links) bw.push_back(topology.link(l).bytes_per_cycle);
    std::sort(bw.rbegin(), bw.rend());
    double sum = 0;
    for (size_t i = 0; i < bw.size() && static_cast<int>(i) < ports; ++i) sum += bw[i];
    return sum;
  };
  double leaving = 0, entering = 0;
  for (int u = 0; u < n; ++u) {
    leaving += usable_bandwidth(topology.out_links(u));
    entering += usable_bandwidth(topology.in_links(u));
  }
  const double per_node = leaving > 0 ? 2.0 * (n - 1) * total / leaving : 0;
  const double link_form = entering > 0 ? 2.0 * (n - 1) * total / entering : 0;
  return std::max(per_node, link_form);
}

double latency_bound_cycles(const Topology& topology, std::uint64_t bytes,
                            const CostParams& params) {
  const int n = topology.nodes();
  if (n < 2 || bytes == 0) return 0;
  const double farthest = farthest_pair_cycles(topology, params.per_hop_cycles);
  double fastest = 0;
  for (const Link& link : topology.links()) fastest = std::max(fastest, link.bytes_per_cycle);
  const int flit = std::max(1, params.flit_bytes);
  const int flits = (std::max(0, params.head_flit_bytes) + 4 + flit - 1) / flit;
  const double serialise =
      fastest > 0 ? std::max(1.0, std::ceil(flits * flit / fastest - 1e-9)) : 1.0;
  return farthest + serialise;
}

int step_lower_bound(const Topology& topology) {
  const long n = topology.nodes();
  if (n < 2) return 0;
  const int ports = std::max(1, topology.ports_per_node());
  long usable = 0;
  for (int u = 0; u < n; ++u) {
    usable += std::min<long>(ports, static_cast<long>(topology.out_links(u).size()));
  }
  if (usable <= 0) return 0;
  return static_cast<int>((n * (n - 1) + usable - 1) / usable);
}

}  // namespace mt
