#include "model/collective/verify.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/collective/schedule_graph.h"
#include "model/collective/verify_errors.h"
#include "model/topology/route_memo.h"

namespace mt {

using verify_detail::check_races;
using verify_detail::ErrorList;
using verify_detail::replay;
using verify_detail::tree_all_reduce;

namespace {

// Validates ids, ranges and dependency targets. Returns false when replay would be meaningless.
bool check_structure(const Schedule& s, const Topology& t, ErrorList& errors) {
  if (s.nodes != t.nodes()) {
    errors.add("schedule is for " + std::to_string(s.nodes) + " nodes but topology " + t.name() +
               " has " + std::to_string(t.nodes()) + " endpoints");
    return false;
  }
  if (s.num_chunks < 1) {
    errors.add("schedule has num_chunks " + std::to_string(s.num_chunks) + "; it must be >= 1");
    return false;
  }
  const std::string offsets = check_chunk_offsets(s);
  if (!offsets.empty()) {
    errors.add("schedule " + offsets);
    return false;
  }
  OpChecks checks;
  checks.ports = std::max(1, t.ports_per_node());
  return check_ops(s, checks, [&errors](std::string message, std::vector<int> messages) {
    errors.add(std::move(message), std::move(messages));
  });
}

// Validates explicit paths and lists every (step, directed link) used by two or more messages.
bool check_paths(const Schedule& s, const Topology& t, ErrorList& errors,
                 std::vector<Contention>& contention) {
  bool ok = true;
  const int num_links = t.directed_links();
  // key = step * links + link -> first op id; second op id once contended (-1 before). A table
  // of every key where it is not much larger than the messages (a forest's few steps), else a
  // hash map of the keys used (a ring's thousands).
  const std::uint64_t keys =
      static_cast<std::uint64_t>(std::max(s.num_steps, 0)) * static_cast<std::uint64_t>(num_links);
  std::vector<std::pair<int, int>> table(keys <= 4 * s.ops.size() + 4096 ? keys : 0, {-1, -1});
  std::unordered_map<std::uint64_t, std::pair<int, int>> use;
  if (table.empty()) use.reserve(s.ops.size() * 4);
  const auto claim = [&](const Op& op, int l) {
    const std::uint64_t key =
        static_cast<std::uint64_t>(op.step) * static_cast<std::uint64_t>(num_links) +
        static_cast<std::uint64_t>(l);
    std::pair<int, int>* entry = nullptr;
    bool inserted = false;
    if (key < table.size()) {
      entry = &table[key];
      inserted = entry->first < 0;
      if (inserted) *entry = {op.id, -1};
    } else {
      const auto [it, added] = use.emplace(key, std::make_pair(op.id, -1));
      entry = &it->second;
      inserted = added;
    }
    // Ops of one step with the same sender, receiver and flow are the pieces (chunks) of one
    // logical message, serialised back to back: not contention.
    const Op& first = s.ops[static_cast<std::size_t>(entry->first)];
    const bool same_message =
        first.node == op.node && first.peer == op.peer && first.flow == op.flow;
    if (!inserted && entry->second < 0 && !same_message) {
      entry->second = op.id;
      contention.push_back({op.step, l, entry->first, op.id});
    }
  };
  RouteMemo routes(t);
  for (const Op& op : s.ops) {
    if (op.is_local()) continue;  // a local step uses no link
    if (!op.path.empty()) {
      int cur = op.node;
      bool good = true;
      std::vector<int> taken;  // a link taken twice: the packet would wait for its own channel
      for (int l : op.path) {
        if (l < 0 || l >= num_links) {
          errors.add("message " + std::to_string(op.id) + ": path link " + std::to_string(l) +
                         " does not exist (links are 0.." + std::to_string(num_links - 1) + ")",
                     {op.id});
          good = false;
          break;
        }
        if (t.link(l).src != cur) {
          errors.add("message " + std::to_string(op.id) + ": path from node " +
                         std::to_string(op.node) + " to node " + std::to_string(op.peer) +
                         " is not connected: link " + std::to_string(l) + " leaves vertex " +
                         std::to_string(t.link(l).src) + ", expected vertex " + std::to_string(cur),
                     {op.id});
          good = false;
          break;
        }
        if (std::find(taken.begin(), taken.end(), l) != taken.end()) {
          errors.add("message " + std::to_string(op.id) + ": path from node " +
                         std::to_string(op.node) + " to node " + std::to_string(op.peer) +
                         " takes link " + std::to_string(l) + " (" + std::to_string(t.link(l).src) +
                         "->" + std::to_string(t.link(l).dst) +
                         ") twice: the packet would wait for a channel it holds (a deadlock)",
                     {op.id});
          good = false;
          break;
        }
        taken.push_back(l);
        cur = t.link(l).dst;
      }
      if (good && cur != op.peer) {
        errors.add("message " + std::to_string(op.id) + ": path from node " +
                       std::to_string(op.node) + " ends at vertex " + std::to_string(cur) +
                       ", not at peer " + std::to_string(op.peer),
                   {op.id});
        good = false;
      }
      if (!good) {
        ok = false;
        continue;
      }
      for (const int l : op.path) claim(op, l);
    } else {
      for (const int l : routes.route(op.node, op.peer)) claim(op, l);
    }
  }
  std::sort(contention.begin(), contention.end(), [](const Contention& a, const Contention& b) {
    return std::make_pair(a.step, a.link) < std::make_pair(b.step, b.link);
  });
  return ok;
}

}  // namespace

VerifyReport verify(const Schedule& schedule, const Topology& topology,
                    const VerifyLimits& limits) {
  VerifyReport report;
  report.num_steps = schedule.num_steps;
  report.num_messages = static_cast<int>(schedule.ops.size());
  ErrorList errors;
  bool ok = check_structure(schedule, topology, errors);
  if (ok) {
    ok = check_paths(schedule, topology, errors, report.contention);
    const ScheduleGraph graph(schedule);
    const TopologicalOrder& topological = graph.topological();
    if (topological.acyclic()) {
      // A tree all-reduce is shown correct by its structure (verify_trees.cpp): the race check
      // and the replay would find nothing in it.
      if (!limits.tree_proof || !tree_all_reduce(schedule)) {
        // With a race the replay would show one arbitrary timing: report the races only.
        bool race_free = true;
        check_races(graph, limits, errors, race_free);
        if (race_free) {
          replay(schedule, topological.order, limits.replay_words, errors, ok);
        } else {
          ok = false;
        }
      }
    } else {
      errors.add(topological.cycle_text(), topological.cycle);
      if (topological.stuck > 0) errors.add(topological.stuck_text());
      ok = false;
    }
  }
  // An imported file's errors say where each message they name was written.
  const bool sourced = schedule.op_sources.size() == schedule.ops.size();
  report.errors = errors.take(sourced ? schedule.op_sources : std::vector<std::string>{});
  report.ok = ok && report.errors.empty();
  report.first_error = report.errors.empty() ? std::string() : report.errors.front();
  return report;
}

}  // namespace mt
