#include "model/sched/table_packer.h"

#include <algorithm>
#include <string>

#include "model/collective/issue_order.h"
#include "model/collective/schedule_graph.h"
#include "model/sched/counter_groups.h"

namespace mt {

namespace {

// The place of table entry `entry` (message `message`) of node `node`, for TableError.
ErrorLocation table_entry(long long node, long long entry, int message) {
  ErrorLocation at;
  at.node = static_cast<int>(node);
  at.entry = static_cast<int>(entry);
  at.message = message;
  return at;
}

// Refuses port counts, port lists and schedules the packer cannot take.
void check_inputs(const Schedule& schedule, const std::vector<int>& ports, int num_ports) {
  const std::size_t m = schedule.ops.size();
  if (num_ports < 1) throw TableError("pack_schedule: ports must be >= 1");
  if (ports.size() != m) {
    throw TableError("pack_schedule: " + std::to_string(ports.size()) + " ports for " +
                     std::to_string(m) + " messages");
  }
  OpChecks references;
  references.fields = false;
  check_ops(schedule, references,
            [](std::string message, std::vector<int>) { throw TableError(message); });
  for (const Op& op : schedule.ops) {
    const int p = ports[static_cast<std::size_t>(op.id)];
    if (p < 0 || p >= num_ports) {
      throw TableError("message " + std::to_string(op.id) + ": port " + std::to_string(p) +
                       " out of range (" + std::to_string(num_ports) + " ports)");
    }
  }
}

// The distinct release cycles of node u's entries, ascending; refuses an entry with both
// dependencies and a release cycle.
std::vector<std::uint64_t> release_cycles_of(int u, const packing::NodePack& p,
                                             const Schedule& schedule) {
  std::vector<std::uint64_t> releases;
  for (const int id : p.entries) {
    const Op& op = schedule.ops[static_cast<std::size_t>(id)];
    if (op.release_cycle == 0) continue;
    if (!op.deps.empty()) {
      ErrorLocation at;
      at.node = u;
      at.message = id;
      throw TableError("message " + std::to_string(id) + " at node " + std::to_string(u) +
                           " has both dependencies and a release_cycle: a table entry waits on "
                           "one counter, so only messages without dependencies may have a "
                           "release time",
                       at);
    }
    releases.push_back(op.release_cycle);
  }
  std::sort(releases.begin(), releases.end());
  releases.erase(std::unique(releases.begin(), releases.end()), releases.end());
  return releases;
}

// Node u's counters (from its settled groups and release cycles), table entries and thresholds,
// written into `packed`; returns the largest arrival count of its counters.
int write_node(int u, const packing::NodePack& p, const Schedule& schedule,
               const std::vector<int>& ports, const std::vector<int>& local,
               packing::NodeOrders& orders, PackedSchedule& packed) {
  const std::vector<std::vector<int>>& groups = p.groups;
  std::vector<int> gid(p.incoming.size(), -1);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    for (const int i : groups[g]) gid[static_cast<std::size_t>(i)] = static_cast<int>(g);
  }
  // Release times: one more counter, rung by the host at each distinct release cycle.
  std::vector<std::uint64_t>& releases = packed.release_cycles[static_cast<std::size_t>(u)];
  releases = release_cycles_of(u, p, schedule);
  const int release_counter = releases.empty() ? -1 : static_cast<int>(groups.size());
  packed.release_counter[static_cast<std::size_t>(u)] = release_counter;
  const int counters = std::max(1, static_cast<int>(groups.size()) + (releases.empty() ? 0 : 1));
  packed.counters = std::max(packed.counters, counters);
  std::vector<int>& arrivals = packed.counter_arrivals[static_cast<std::size_t>(u)];
  arrivals.assign(static_cast<std::size_t>(counters), 0);
  int max_count = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    arrivals[g] = static_cast<int>(groups[g].size());
    max_count = std::max(max_count, arrivals[g]);
  }
  if (release_counter >= 0) {
    arrivals[static_cast<std::size_t>(release_counter)] = static_cast<int>(releases.size());
    max_count = std::max(max_count, static_cast<int>(releases.size()));
  }
  for (std::size_t i = 0; i < p.incoming.size(); ++i) {
    packed.message_counter[static_cast<std::size_t>(p.incoming[i])] = gid[i];
  }
  // Thresholds.
  std::vector<TableEntry>& table = packed.tables[static_cast<std::size_t>(u)];
  table.resize(p.entries.size());
  packed.messages[static_cast<std::size_t>(u)] = p.entries;
  for (std::size_t e = 0; e < p.entries.size(); ++e) {
    const Op& op = schedule.ops[static_cast<std::size_t>(p.entries[e])];
    TableEntry& t = table[e];
    t.kind = op.kind;
    t.port = ports[static_cast<std::size_t>(op.id)];
    t.peer = op.peer;
    t.chunk = op.chunk;
    t.flow = op.flow;
    t.step = op.step;
    if (op.release_cycle > 0) {
      t.wait_counter = release_counter;
      t.wait_count =
          static_cast<int>(std::lower_bound(releases.begin(), releases.end(), op.release_cycle) -
                           releases.begin() + 1);
    } else if (!op.deps.empty()) {
      const int g = gid[static_cast<std::size_t>(local[static_cast<std::size_t>(op.deps[0])])];
      t.wait_counter = g;
      int count = 0;
      for (const int i : groups[static_cast<std::size_t>(g)]) {
        if (orders.before(i, e)) ++count;
      }
      t.wait_count = count;
    }
  }
  packed.depth = std::max(packed.depth, static_cast<int>(p.entries.size()));
  return max_count;
}

// A planned order must be one a run could issue in: every message after what it waits for (its
// deps strictly: they must arrive first; a message of its own node a dependency is staged
// behind at the same cycle at the latest, the tie then going by step and rank as in step order,
// which issue_order() has checked). Then the scheduler, refilling each port's window in this
// order, always has the pending entry planned first (earliest cycle, first in its table among
// those) with everything before it in its table issued, so in its window or at the fetch with
// its window empty, and what it waits for issued: it never stalls for good.
void check_planned_order(const Schedule& schedule, const std::vector<std::uint64_t>& planned) {
  if (planned.size() != schedule.ops.size())
    throw TableError("planned table order: " + std::to_string(planned.size()) +
                     " issue cycles for " + std::to_string(schedule.ops.size()) + " messages");
  const auto at = [&planned](int id) { return planned[static_cast<std::size_t>(id)]; };
  const auto refuse = [&](const Op& op, int before, const char* how) {
    ErrorLocation where;
    where.node = op.node;
    where.message = op.id;
    throw TableError("planned table order: message " + std::to_string(op.id) + " (node " +
                         std::to_string(op.node) + ", cycle " + std::to_string(at(op.id)) +
                         ") is planned before message " + std::to_string(before) + " (cycle " +
                         std::to_string(at(before)) + "), " + how,
                     where);
  };
  for (const Op& op : schedule.ops) {
    for (std::size_t k = 0; k < op.deps.size(); ++k) {
      const int dep = op.deps[k];
      if (at(dep) >= at(op.id)) refuse(op, dep, "which it waits for");
      const int staged = schedule.ops[static_cast<std::size_t>(dep)].apply_after;
      if (staged >= 0 && at(staged) > at(op.id))
        refuse(op, staged, "which its node must issue first (a dependency is staged behind it)");
    }
  }
}

}  // namespace

PackedSchedule pack_schedule(const Schedule& schedule, const std::vector<int>& ports, int num_ports,
                             const std::vector<std::uint64_t>& planned_issue) {
  check_inputs(schedule, ports, num_ports);
  const std::size_t m = schedule.ops.size();
  const int nodes = schedule.nodes;
  const ScheduleGraph graph(schedule);
  if (!graph.acyclic()) {
    throw TableError("schedule has a dependency cycle: it cannot be packed (" +
                     graph.topological().cycle_text() + ")");
  }
  HappensBefore ordering = graph.happens_before();
  if (!planned_issue.empty()) check_planned_order(schedule, planned_issue);
  // A table is issued in step order: a message waiting for a later step's would stall it.
  const IssueOrder issue = issue_order(schedule);
  if (!issue.ok()) {
    ErrorLocation at;
    at.node = schedule.ops[static_cast<std::size_t>(issue.violation.waiting)].node;
    at.message = issue.violation.waiting;
    throw TableError(issue.violation.text, at);
  }

  std::vector<packing::NodePack> packs(static_cast<std::size_t>(nodes));
  std::vector<int> local(m, -1);  // message id -> local index at its peer
  for (const Op& op : schedule.ops) {
    packing::NodePack& p = packs[static_cast<std::size_t>(op.peer)];
    local[static_cast<std::size_t>(op.id)] = static_cast<int>(p.incoming.size());
    p.incoming.push_back(op.id);
    packs[static_cast<std::size_t>(op.node)].entries.push_back(op.id);
  }
  // Table order: step, then messages that wait for others of their step after those, then
  // program order; or, planned, the cycle a free host issues each message first.
  for (packing::NodePack& p : packs)
    std::stable_sort(p.entries.begin(), p.entries.end(), [&](int a, int b) {
      const auto i = static_cast<std::size_t>(a);
      const auto j = static_cast<std::size_t>(b);
      if (!planned_issue.empty() && planned_issue[i] != planned_issue[j])
        return planned_issue[i] < planned_issue[j];
      const Op& x = schedule.ops[i];
      const Op& y = schedule.ops[j];
      return x.step != y.step ? x.step < y.step : issue.rank[i] < issue.rank[j];
    });
  // 1. Per node: groups from the deps sets, and one batch of happens-before queries for all.
  for (packing::NodePack& p : packs) packing::group_by_deps(p, schedule, local, ordering);
  const std::vector<char>& answers = ordering.solve();

  PackedSchedule packed;
  packed.ports = num_ports;
  packed.tables.resize(static_cast<std::size_t>(nodes));
  packed.messages.resize(static_cast<std::size_t>(nodes));
  packed.message_counter.assign(m, 0);
  packed.counter_arrivals.resize(static_cast<std::size_t>(nodes));
  packed.release_counter.assign(static_cast<std::size_t>(nodes), -1);
  packed.release_cycles.resize(static_cast<std::size_t>(nodes));
  int max_count = 0;
  // 2. Per node: counters and thresholds from the answers.
  for (int u = 0; u < nodes; ++u) {
    packing::NodePack& p = packs[static_cast<std::size_t>(u)];
    packing::NodeOrders orders(p, answers, ordering);
    packing::settle_groups(u, p, orders);
    max_count = std::max(max_count, write_node(u, p, schedule, ports, local, orders, packed));
    p = packing::NodePack();  // this node is done: free its queries early
  }
  packed.counters = std::max(1, packed.counters);
  for (int u = 0; u < nodes; ++u) {
    std::vector<TableEntry>& table = packed.tables[static_cast<std::size_t>(u)];
    for (std::size_t e = 0; e < table.size(); ++e) {
      table[e].dst_counter = packed.message_counter[static_cast<std::size_t>(
          packed.messages[static_cast<std::size_t>(u)][e])];
    }
  }
  packed.max_count = max_count;
  packed.format = TableFormat::make(nodes, num_ports, std::max(1, schedule.num_chunks),
                                    std::max(1, schedule.num_flows),
                                    std::max(1, schedule.num_steps), packed.counters, max_count);
  return packed;
}

void check_fits(const PackedSchedule& packed, const TableFormat& format) {
  for (std::size_t u = 0; u < packed.tables.size(); ++u) {
    for (std::size_t e = 0; e < packed.tables[u].size(); ++e) {
      try {
        (void)encode_entry(packed.tables[u][e], format);
      } catch (const TableError& err) {
        throw TableError("node " + std::to_string(u) + " entry " + std::to_string(e) +
                             " (message " + std::to_string(packed.messages[u][e]) +
                             "): " + err.what(),
                         table_entry(static_cast<long long>(u), static_cast<long long>(e),
                                     packed.messages[u][e]));
      }
    }
  }
}

}  // namespace mt
