#include "model/nic/table_packer.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_map>
#include <utility>

#include "model/collective/schedule_graph.h"

namespace mt {

namespace {

std::string str(long long v) {
  return std::to_string(v);
}

// The place of table entry `entry` (message `message`) of node `node`, for TableError.
ErrorLocation table_entry(long long node, long long entry, int message) {
  ErrorLocation at;
  at.node = static_cast<int>(node);
  at.entry = static_cast<int>(entry);
  at.message = message;
  return at;
}

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(static_cast<std::size_t>(n)) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  int find(int x) {
    while (parent[static_cast<std::size_t>(x)] != x) {
      parent[static_cast<std::size_t>(x)] =
          parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
      x = parent[static_cast<std::size_t>(x)];
    }
    return x;
  }
  void unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
  }
};

// Per-node packing state.
struct NodePack {
  std::vector<int> incoming;                      // message ids received (local index order)
  std::vector<int> entries;                       // message ids sent, in issue order
  std::vector<std::vector<int>> groups;           // counter groups (local incoming indices)
  std::vector<char> free_group;                   // per group: nobody waits on it
  std::vector<std::vector<std::size_t>> waiters;  // per group: entries waiting on it
  // (local incoming index, entry) -> index of the query "incoming before entry"; the query
  // "entry before incoming" follows it.
  std::unordered_map<std::uint64_t, std::size_t> pair_query;
};

std::uint64_t pair_key(int incoming, std::size_t entry) {
  return (static_cast<std::uint64_t>(incoming) << 32) | static_cast<std::uint64_t>(entry);
}

// What is known of the order of incoming message i (local index) and the issue of entry e, per
// pair of one node: kUnknown until found, then kBefore (i happens before e), kAfter or
// kUnordered. A dense array of two bits per pair while it fits kDenseBytes, else a hash map of
// the pairs looked at (nodes with huge tables).
class PairOrders {
 public:
  static constexpr int kUnknown = 0, kBefore = 1, kAfter = 2, kUnordered = 3;
  static constexpr std::size_t kDenseBytes = std::size_t{64} << 20;

  PairOrders(std::size_t incoming, std::size_t entries) : entries_(entries) {
    if (entries == 0 || incoming <= 4 * kDenseBytes / entries) {
      dense_.assign((incoming * entries + 3) / 4, 0);
    } else {
      sparse_ = true;
    }
  }
  int get(int incoming, std::size_t entry) const {
    if (sparse_) {
      const auto it = map_.find(pair_key(incoming, entry));
      return it == map_.end() ? kUnknown : it->second;
    }
    const std::size_t at = static_cast<std::size_t>(incoming) * entries_ + entry;
    return (dense_[at / 4] >> (2 * (at % 4))) & 3;
  }
  void set(int incoming, std::size_t entry, int order) {
    if (sparse_) {
      map_[pair_key(incoming, entry)] = static_cast<std::uint8_t>(order);
      return;
    }
    const std::size_t at = static_cast<std::size_t>(incoming) * entries_ + entry;
    dense_[at / 4] = static_cast<std::uint8_t>(dense_[at / 4] | (order << (2 * (at % 4))));
  }

 private:
  std::size_t entries_;
  bool sparse_ = false;
  std::vector<std::uint8_t> dense_;
  std::unordered_map<std::uint64_t, std::uint8_t> map_;
};

}  // namespace

PackedSchedule pack_schedule(const Schedule& schedule, const std::vector<int>& ports,
                             int num_ports) {
  const std::size_t m = schedule.ops.size();
  if (num_ports < 1) throw TableError("pack_schedule: ports must be >= 1");
  if (ports.size() != m) {
    throw TableError("pack_schedule: " + str(static_cast<long long>(ports.size())) + " ports for " +
                     str(static_cast<long long>(m)) + " messages");
  }
  const int nodes = schedule.nodes;
  OpChecks references;
  references.fields = false;
  check_ops(schedule, references, [](std::string message) { throw TableError(message); });
  for (const Op& op : schedule.ops) {
    const int p = ports[static_cast<std::size_t>(op.id)];
    if (p < 0 || p >= num_ports) {
      throw TableError("message " + str(op.id) + ": port " + str(p) + " out of range (" +
                       str(num_ports) + " ports)");
    }
  }
  const ScheduleGraph graph(schedule);
  if (!graph.acyclic()) {
    throw TableError("schedule has a dependency cycle: it cannot be packed (" +
                     graph.topological().cycle_text() + ")");
  }
  HappensBefore ordering = graph.happens_before();

  std::vector<NodePack> packs(static_cast<std::size_t>(nodes));
  std::vector<int> local(m, -1);  // message id -> local index at its peer
  for (const Op& op : schedule.ops) {
    NodePack& p = packs[static_cast<std::size_t>(op.peer)];
    local[static_cast<std::size_t>(op.id)] = static_cast<int>(p.incoming.size());
    p.incoming.push_back(op.id);
    packs[static_cast<std::size_t>(op.node)].entries.push_back(op.id);
  }
  const auto flow_of = [&](const NodePack& p, const std::vector<int>& members) {
    const int f =
        schedule.ops[static_cast<std::size_t>(p.incoming[static_cast<std::size_t>(members[0])])]
            .flow;
    for (const int i : members) {
      if (schedule.ops[static_cast<std::size_t>(p.incoming[static_cast<std::size_t>(i)])].flow != f)
        return -1;
    }
    return f;
  };
  const auto ask_pairs = [&](NodePack& p, const std::vector<int>& members,
                             const std::vector<std::size_t>& waiters) {
    for (const std::size_t e : waiters) {
      for (const int i : members) {
        const auto [it, added] = p.pair_query.emplace(pair_key(i, e), 0);
        if (!added) continue;
        const int in = p.incoming[static_cast<std::size_t>(i)];
        it->second = ordering.ask(in, p.entries[e]);
        ordering.ask(p.entries[e], in);
      }
    }
  };

  // 1. Per node: union-find over the deps sets, and the batch of happens-before queries of every
  // group's members against its waiters (each is needed: every group is checked for exactness).
  for (int u = 0; u < nodes; ++u) {
    NodePack& p = packs[static_cast<std::size_t>(u)];
    std::stable_sort(p.entries.begin(), p.entries.end(), [&](int a, int b) {
      return schedule.ops[static_cast<std::size_t>(a)].step <
             schedule.ops[static_cast<std::size_t>(b)].step;
    });
    const int k = static_cast<int>(p.incoming.size());
    UnionFind uf(std::max(k, 1));
    std::vector<char> waited(static_cast<std::size_t>(k), 0);
    for (const int id : p.entries) {
      const Op& op = schedule.ops[static_cast<std::size_t>(id)];
      for (std::size_t j = 0; j < op.deps.size(); ++j) {
        const int a = local[static_cast<std::size_t>(op.deps[j])];
        waited[static_cast<std::size_t>(a)] = 1;
        if (j > 0) uf.unite(local[static_cast<std::size_t>(op.deps[0])], a);
      }
    }
    // Groups as member lists, ordered by smallest member.
    std::vector<int> group_index(static_cast<std::size_t>(k), -1);
    for (int i = 0; i < k; ++i) {
      if (!waited[static_cast<std::size_t>(i)]) continue;
      const int r = uf.find(i);
      if (group_index[static_cast<std::size_t>(r)] < 0) {
        group_index[static_cast<std::size_t>(r)] = static_cast<int>(p.groups.size());
        p.groups.emplace_back();
      }
      p.groups[static_cast<std::size_t>(group_index[static_cast<std::size_t>(r)])].push_back(i);
    }
    // Messages nobody waits for: singleton groups (may merge below), flagged free.
    p.free_group.assign(p.groups.size(), 0);
    for (int i = 0; i < k; ++i) {
      if (waited[static_cast<std::size_t>(i)]) continue;
      p.groups.push_back({i});
      p.free_group.push_back(1);
    }
    std::vector<int> gid(static_cast<std::size_t>(k), -1);
    for (std::size_t g = 0; g < p.groups.size(); ++g) {
      for (const int i : p.groups[g]) gid[static_cast<std::size_t>(i)] = static_cast<int>(g);
    }
    p.waiters.assign(p.groups.size(), {});
    for (std::size_t e = 0; e < p.entries.size(); ++e) {
      const Op& op = schedule.ops[static_cast<std::size_t>(p.entries[e])];
      if (op.deps.empty()) continue;
      const int g = gid[static_cast<std::size_t>(local[static_cast<std::size_t>(op.deps[0])])];
      p.waiters[static_cast<std::size_t>(g)].push_back(e);
    }
    for (std::size_t g = 0; g < p.groups.size(); ++g) ask_pairs(p, p.groups[g], p.waiters[g]);
  }
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
    NodePack& p = packs[static_cast<std::size_t>(u)];
    const int k = static_cast<int>(p.incoming.size());
    const std::size_t n_entries = p.entries.size();
    std::vector<std::vector<int>>& groups = p.groups;
    std::vector<char>& free_group = p.free_group;
    std::vector<std::vector<std::size_t>>& waiters = p.waiters;
    // Incoming message i (local index) happens before / after the issue of entry e: from the
    // batch for the pairs asked there, else (the merge attempts, which stop at their first
    // unordered pair) one search each; remembered either way.
    PairOrders known(static_cast<std::size_t>(k), n_entries);
    const auto order_of = [&](int i, std::size_t e) {
      int order = known.get(i, e);
      if (order == PairOrders::kUnknown) {
        bool is_before = false;
        bool is_after = false;
        const auto asked = p.pair_query.find(pair_key(i, e));
        if (asked != p.pair_query.end()) {
          is_before = answers[asked->second] != 0;
          is_after = answers[asked->second + 1] != 0;
        } else {
          const int in = p.incoming[static_cast<std::size_t>(i)];
          is_before = ordering.happens_before(in, p.entries[e]);
          is_after = ordering.happens_before(p.entries[e], in);
        }
        order = is_before  ? PairOrders::kBefore
                : is_after ? PairOrders::kAfter
                           : PairOrders::kUnordered;
        known.set(i, e, order);
      }
      return order;
    };
    const auto before = [&](int i, std::size_t e) { return order_of(i, e) == PairOrders::kBefore; };
    const auto after = [&](int i, std::size_t e) { return order_of(i, e) == PairOrders::kAfter; };
    std::vector<int> gid(static_cast<std::size_t>(k), -1);
    const auto rebuild_gid = [&]() {
      for (std::size_t g = 0; g < groups.size(); ++g) {
        for (const int i : groups[g]) gid[static_cast<std::size_t>(i)] = static_cast<int>(g);
      }
    };
    rebuild_gid();
    // Exactness of every entry waiting on a group made of `members`; the first unordered pair
    // (incoming message's local index, entry) goes to `unordered` when given.
    const auto exact = [&](const std::vector<int>& members, const std::vector<std::size_t>& w,
                           std::pair<int, std::size_t>* unordered) {
      for (const std::size_t e : w) {
        for (const int i : members) {
          if (!before(i, e) && !after(i, e)) {
            if (unordered) *unordered = {i, e};
            return false;
          }
        }
      }
      return true;
    };
    // Check every union-find group first: a failure here means no grouping can be exact.
    for (std::size_t g = 0; g < groups.size(); ++g) {
      std::pair<int, std::size_t> unordered;
      if (!exact(groups[g], waiters[g], &unordered)) {
        const auto [i, e] = unordered;
        throw TableError("node " + str(u) + " entry " + str(static_cast<long long>(e)) +
                             " (message " + str(p.entries[e]) +
                             "): its dependencies share a counter with message " +
                             str(p.incoming[static_cast<std::size_t>(i)]) +
                             ", which is unordered with the entry's issue: no arrival-count "
                             "threshold expresses its dependencies exactly",
                         table_entry(u, static_cast<long long>(e), p.entries[e]));
      }
    }
    // Merge groups of the same single flow while every threshold stays exact (each group tries
    // the earlier groups of its flow in order). Every live group is exact with its own waiters
    // (checked above, kept by each merge), so a merge of a and b is exact when the cross pairs
    // are: a's members against b's waiters and b's members against a's.
    std::vector<char> alive(groups.size(), 1);
    std::unordered_map<int, std::vector<std::size_t>> earlier;  // flow -> groups seen, in order
    for (std::size_t b = 0; b < groups.size(); ++b) {
      const int fb = flow_of(p, groups[b]);
      if (fb < 0) continue;
      std::vector<std::size_t>& candidates = earlier[fb];
      bool merged_into = false;
      for (const std::size_t a : candidates) {
        if (!alive[a]) continue;
        if (!exact(groups[a], waiters[b], nullptr) || !exact(groups[b], waiters[a], nullptr)) {
          continue;
        }
        std::vector<int>& merged = groups[a];
        merged.insert(merged.end(), groups[b].begin(), groups[b].end());
        std::sort(merged.begin(), merged.end());
        std::vector<std::size_t>& w = waiters[a];
        w.insert(w.end(), waiters[b].begin(), waiters[b].end());
        free_group[a] = static_cast<char>(free_group[a] && free_group[b]);
        alive[b] = 0;
        merged_into = true;
        break;
      }
      if (!merged_into) candidates.push_back(b);
    }
    // Remaining free groups (nobody waits on them) collapse into one counter.
    std::vector<std::vector<int>> final_groups;
    std::vector<int> free_members;
    for (std::size_t g = 0; g < groups.size(); ++g) {
      if (!alive[g]) continue;
      if (free_group[g]) {
        free_members.insert(free_members.end(), groups[g].begin(), groups[g].end());
      } else {
        final_groups.push_back(groups[g]);
      }
    }
    if (!free_members.empty()) {
      std::sort(free_members.begin(), free_members.end());
      final_groups.push_back(free_members);
    }
    groups = final_groups;
    rebuild_gid();
    // Release times: one more counter, rung by the host at each distinct release cycle.
    std::vector<std::uint64_t>& releases = packed.release_cycles[static_cast<std::size_t>(u)];
    for (const int id : p.entries) {
      const Op& op = schedule.ops[static_cast<std::size_t>(id)];
      if (op.release_cycle == 0) continue;
      if (!op.deps.empty()) {
        ErrorLocation at;
        at.node = u;
        at.message = id;
        throw TableError("message " + str(id) + " at node " + str(u) +
                             " has both dependencies and a release_cycle: a table entry waits on "
                             "one counter, so only messages without dependencies may have a "
                             "release time",
                         at);
      }
      releases.push_back(op.release_cycle);
    }
    std::sort(releases.begin(), releases.end());
    releases.erase(std::unique(releases.begin(), releases.end()), releases.end());
    const int release_counter = releases.empty() ? -1 : static_cast<int>(groups.size());
    packed.release_counter[static_cast<std::size_t>(u)] = release_counter;
    const int counters = std::max(1, static_cast<int>(groups.size()) + (releases.empty() ? 0 : 1));
    packed.counters = std::max(packed.counters, counters);
    std::vector<int>& arrivals = packed.counter_arrivals[static_cast<std::size_t>(u)];
    arrivals.assign(static_cast<std::size_t>(counters), 0);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      arrivals[g] = static_cast<int>(groups[g].size());
      max_count = std::max(max_count, arrivals[g]);
    }
    if (release_counter >= 0) {
      arrivals[static_cast<std::size_t>(release_counter)] = static_cast<int>(releases.size());
      max_count = std::max(max_count, static_cast<int>(releases.size()));
    }
    for (int i = 0; i < k; ++i) {
      packed.message_counter[static_cast<std::size_t>(p.incoming[static_cast<std::size_t>(i)])] =
          gid[static_cast<std::size_t>(i)];
    }
    // Thresholds.
    std::vector<TableEntry>& table = packed.tables[static_cast<std::size_t>(u)];
    table.resize(n_entries);
    packed.messages[static_cast<std::size_t>(u)] = p.entries;
    for (std::size_t e = 0; e < n_entries; ++e) {
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
          if (before(i, e)) ++count;
        }
        t.wait_count = count;
      }
    }
    packed.depth = std::max(packed.depth, static_cast<int>(n_entries));
    std::vector<std::vector<std::size_t>>().swap(p.waiters);
    std::unordered_map<std::uint64_t, std::size_t>().swap(p.pair_query);
  }
  packed.counters = std::max(1, packed.counters);
  for (int u = 0; u < nodes; ++u) {
    std::vector<TableEntry>& table = packed.tables[static_cast<std::size_t>(u)];
    for (std::size_t e = 0; e < table.size(); ++e) {
      table[e].dst_counter = packed.message_counter[static_cast<std::size_t>(
          packed.messages[static_cast<std::size_t>(u)][e])];
    }
  }
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
        throw TableError("node " + str(static_cast<long long>(u)) + " entry " +
                             str(static_cast<long long>(e)) + " (message " +
                             str(packed.messages[u][e]) + "): " + err.what(),
                         table_entry(static_cast<long long>(u), static_cast<long long>(e),
                                     packed.messages[u][e]));
      }
    }
  }
}

}  // namespace mt
