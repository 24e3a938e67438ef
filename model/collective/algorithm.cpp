#include "model/collective/algorithm.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

#include "model/collective/auto_select.h"
#include "model/collective/dbtree.h"
#include "model/collective/disjoint_rings.h"
#include "model/collective/halving_doubling.h"
#include "model/collective/multitree.h"
#include "model/collective/multitree_opt.h"
#include "model/collective/ring.h"
#include "model/collective/ring2d.h"
#include "model/collective/swing.h"
#include "model/collective/tree_emitter.h"
#include "model/collective/tree_packing.h"

namespace mt {

namespace {

// Each algorithm's typed builder, by its struct.
struct Builders {
  const Topology& topology;
  const BuildContext& context;
  Schedule operator()(const RingParams& p) const { return build_ring(topology, p, context); }
  Schedule operator()(const RingBiParams& p) const { return build_ring_bi(topology, p, context); }
  Schedule operator()(const Ring2dParams& p) const { return build_ring2d(topology, p, context); }
  Schedule operator()(const DbtreeParams& p) const { return build_dbtree(topology, p, context); }
  Schedule operator()(const HalvingDoublingParams& p) const {
    return build_halving_doubling(topology, p, context);
  }
  Schedule operator()(const MultiTreeParams& p) const {
    return build_multitree(topology, p, context);
  }
  Schedule operator()(const MultiTreeOptParams& p) const {
    return build_multitree_opt(topology, p, context);
  }
  Schedule operator()(const DisjointRingsParams& p) const {
    return build_disjoint_rings(topology, p, context);
  }
  Schedule operator()(const TreePackingParams& p) const {
    return build_tree_packing(topology, p, context);
  }
  Schedule operator()(const SwingParams& p) const { return build_swing(topology, p, context); }
  Schedule operator()(const AutoParams& p) const { return build_auto(topology, p, context); }
};

}  // namespace

Schedule build_schedule(const AlgorithmConfig& config, const Topology& topology,
                        const BuildContext& context) {
  return std::visit(Builders{topology, context}, config);
}

Schedule build_schedule(const std::string& name, const Topology& topology,
                        const AlgorithmParams& params, const BuildContext& context) {
  return build_schedule(algorithm_config(name, params), topology, context);
}

std::string schedule_label(const std::string& name, const AlgorithmParams& params) {
  std::string out = name;
  if (params.empty()) return out;
  out += "(";
  bool first = true;
  for (const auto& kv : params) {
    if (!first) out += ",";
    out += kv.first + "=" + kv.second;
    first = false;
  }
  return out + ")";
}

bool parse_schedule_label(const std::string& text, std::string& name, AlgorithmParams& params) {
  const std::size_t open = text.find('(');
  if (open == std::string::npos || open == 0 || text.size() < open + 2 || text.back() != ')')
    return false;
  AlgorithmParams parsed;
  const std::string inside = text.substr(open + 1, text.size() - open - 2);
  std::size_t at = 0;
  while (at <= inside.size()) {
    const std::size_t comma = std::min(inside.find(',', at), inside.size());
    const std::string item = inside.substr(at, comma - at);
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size()) return false;
    if (!parsed.emplace(item.substr(0, eq), item.substr(eq + 1)).second) return false;
    at = comma + 1;
  }
  name = text.substr(0, open);
  params = std::move(parsed);
  return true;
}

void require_min_nodes(const std::string& algorithm, const Topology& topology, int min_nodes) {
  if (topology.nodes() < min_nodes) {
    throw AlgorithmError(algorithm + " needs at least " + std::to_string(min_nodes) +
                         " endpoints, topology " + topology.name() + " has " +
                         std::to_string(topology.nodes()));
  }
}

ArrivalTracker::ArrivalTracker(int nodes, int chunks)
    : chunks_(chunks), arrivals_(static_cast<size_t>(nodes) * static_cast<size_t>(chunks)) {}

std::vector<int> ArrivalTracker::deps(int node, int chunk) const {
  return arrivals_.at(static_cast<size_t>(node) * static_cast<size_t>(chunks_) +
                      static_cast<size_t>(chunk));
}

void ArrivalTracker::record(int node, int chunk, int id, OpKind kind) {
  pending_.push_back(
      {static_cast<size_t>(node) * static_cast<size_t>(chunks_) + static_cast<size_t>(chunk), id,
       kind});
}

void ArrivalTracker::commit() {
  for (const Pending& p : pending_) {
    auto& list = arrivals_.at(p.slot);
    if (p.kind == OpKind::kBroadcast) list.clear();  // overwrite: ordered after all earlier ones
    list.push_back(p.id);
  }
  pending_.clear();
}

int exchange_at_roots(Schedule& schedule) {
  const int n = schedule.nodes;
  std::vector<std::vector<int>> reduces(static_cast<size_t>(schedule.num_chunks));
  std::vector<std::vector<int>> broadcasts(static_cast<size_t>(schedule.num_chunks));
  for (const Op& op : schedule.ops) {
    if (op.chunk < 0 || op.chunk >= schedule.num_chunks) return 0;
    (op.kind == OpKind::kReduce ? reduces : broadcasts)[static_cast<size_t>(op.chunk)].push_back(
        op.id);
  }
  int changed = 0;
  std::vector<int> up(static_cast<size_t>(n));      // per node: its reduce of the chunk, -1 none
  std::vector<int> parent(static_cast<size_t>(n));  // per node: its reduce's peer, -1 the root
  for (int c = 0; c < schedule.num_chunks; ++c) {
    std::fill(up.begin(), up.end(), -1);
    bool tree = true;
    for (const int id : reduces[static_cast<size_t>(c)]) {
      int& slot = up[static_cast<size_t>(schedule.ops[static_cast<size_t>(id)].node)];
      tree = tree && slot < 0;
      slot = id;
    }
    int roots = 0;
    for (int v = 0; v < n; ++v) {
      const int id = up[static_cast<size_t>(v)];
      parent[static_cast<size_t>(v)] = id < 0 ? -1 : schedule.ops[static_cast<size_t>(id)].peer;
      roots += id < 0;
    }
    if (!tree || roots != 1) continue;
    const RootedTree rooted = rooted_tree(parent);
    if (rooted.preorder.size() != static_cast<size_t>(n)) continue;  // a cycle: not a tree
    int tallest = -1;  // the root's child reduce with the tallest subtree
    int best = -1;
    int second = -1;
    for (const int child : rooted.children[static_cast<size_t>(rooted.root)]) {
      const int h = rooted.height[static_cast<size_t>(child)];
      second = std::max(second, std::min(h, best));
      if (h > best) {
        best = h;
        tallest = up[static_cast<size_t>(child)];
      }
    }
    if (tallest < 0 || second >= best) continue;  // no strictly tallest subtree
    const int root = rooted.root;
    Op& child_reduce = schedule.ops[static_cast<size_t>(tallest)];
    int down = -1;
    for (const int id : broadcasts[static_cast<size_t>(c)]) {
      const Op& op = schedule.ops[static_cast<size_t>(id)];
      if (op.node == root && op.peer == child_reduce.node) down = down < 0 ? id : -2;
    }
    if (down < 0) continue;
    Op& exchange = schedule.ops[static_cast<size_t>(down)];
    exchange.kind = OpKind::kReduce;
    exchange.step = child_reduce.step;
    exchange.deps.erase(std::remove(exchange.deps.begin(), exchange.deps.end(), tallest),
                        exchange.deps.end());
    exchange.apply_after = tallest;
    child_reduce.apply_after = down;
    ++changed;
  }
  // A broadcast that became an exchange left its step, which may now be empty (on 2 nodes the
  // whole all-gather step is): the steps still used are renumbered densely, in order.
  if (changed > 0) {
    std::vector<int> used(static_cast<size_t>(std::max(schedule.num_steps, 0)), 0);
    for (const Op& op : schedule.ops)
      if (op.step >= 0 && op.step < schedule.num_steps) used[static_cast<size_t>(op.step)] = 1;
    std::vector<int> renumbered(used.size(), 0);
    int steps = 0;
    for (size_t k = 0; k < used.size(); ++k) {
      renumbered[k] = steps;
      steps += used[k];
    }
    if (steps < schedule.num_steps) {
      for (Op& op : schedule.ops) op.step = renumbered[static_cast<size_t>(op.step)];
      schedule.num_steps = steps;
    }
  }
  return changed;
}

Schedule new_schedule(const std::string& algorithm, const Topology& topology, std::int64_t chunks) {
  // Builders multiply at most a few int factors (rings x nodes x pipeline < 2^50), so the
  // product with the node count (< 2^13) stays far inside 64 bits.
  const auto limit = static_cast<std::int64_t>(default_message_limit());
  const std::int64_t states = chunks * topology.nodes();
  if (states > limit) {
    refuse_too_large(std::to_string(chunks) + " chunks on " + std::to_string(topology.nodes()) +
                         " nodes are " + std::to_string(states) + " node-chunk states",
                     static_cast<std::size_t>(limit));
  }
  Schedule schedule;
  schedule.algorithm = algorithm;
  schedule.topology = topology.name();
  schedule.nodes = topology.nodes();
  schedule.num_chunks = static_cast<int>(chunks);
  return schedule;
}

int ArrivalTracker::send(Schedule& schedule, Op op) {
  for (int d : deps(op.node, op.chunk)) op.deps.push_back(d);
  const int peer = op.peer;
  const int chunk = op.chunk;
  const OpKind kind = op.kind;
  const int id = schedule.add(std::move(op));
  record(peer, chunk, id, kind);
  return id;
}

Schedule sort_by_step(const Schedule& schedule, StepListing within_step) {
  const std::vector<Op>& ops = schedule.ops;
  // turn[i]: how many messages of op i's (node, step, flow) come before it (kFlowsInTurn).
  std::vector<int> turn(ops.size(), 0);
  if (within_step == StepListing::kFlowsInTurn) {
    std::map<std::tuple<int, int, int>, int> seen;
    for (size_t i = 0; i < ops.size(); ++i)
      turn[i] = seen[{ops[i].node, ops[i].step, ops[i].flow}]++;
  }
  std::vector<int> order(ops.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const Op& x = ops[static_cast<size_t>(a)];
    const Op& y = ops[static_cast<size_t>(b)];
    if (x.step != y.step) return x.step < y.step;
    return turn[static_cast<size_t>(a)] < turn[static_cast<size_t>(b)];
  });
  std::vector<int> new_id(schedule.ops.size());
  for (size_t i = 0; i < order.size(); ++i)
    new_id[static_cast<size_t>(order[i])] = static_cast<int>(i);
  Schedule out;
  out.algorithm = schedule.algorithm;
  out.topology = schedule.topology;
  out.nodes = schedule.nodes;
  out.num_chunks = schedule.num_chunks;
  out.chunk_offsets = schedule.chunk_offsets;
  out.message_limit = schedule.message_limit;
  out.reserve(schedule.ops.size());
  const bool sourced = schedule.op_sources.size() == schedule.ops.size();
  for (int old : order) {
    Op op = schedule.ops[static_cast<size_t>(old)];
    for (int& d : op.deps) d = new_id[static_cast<size_t>(d)];
    if (op.apply_after >= 0) op.apply_after = new_id[static_cast<size_t>(op.apply_after)];
    out.add(std::move(op));
    if (sourced) out.op_sources.push_back(schedule.op_sources[static_cast<size_t>(old)]);
  }
  out.num_flows = std::max(out.num_flows, schedule.num_flows);
  out.num_steps = std::max(out.num_steps, schedule.num_steps);
  return out;
}

}  // namespace mt
