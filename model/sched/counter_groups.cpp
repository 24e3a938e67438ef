#include "model/sched/counter_groups.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>

#include "model/sched/schedule_table.h"

namespace mt::packing {

namespace {

std::uint64_t pair_key(int incoming, std::size_t entry) {
  return (static_cast<std::uint64_t>(incoming) << 32) | static_cast<std::uint64_t>(entry);
}

std::size_t at(int i) {
  return static_cast<std::size_t>(i);
}

struct UnionFind {
  std::vector<int> parent;
  explicit UnionFind(int n) : parent(at(n)) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) {
    while (parent[at(x)] != x) {
      parent[at(x)] = parent[at(parent[at(x)])];
      x = parent[at(x)];
    }
    return x;
  }
  void unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[at(std::max(a, b))] = std::min(a, b);
  }
};

// The value of `field` (Op::flow, Op::chunk) every member of a group carries, or -1 when they
// differ.
int shared_field(const NodePack& p, const Schedule& schedule, const std::vector<int>& members,
                 int Op::*field) {
  const int value = schedule.ops[at(p.incoming[at(members[0])])].*field;
  for (const int i : members) {
    if (schedule.ops[at(p.incoming[at(i)])].*field != value) return -1;
  }
  return value;
}

// The merge class of a group whose members share flow `flow` and chunk `chunk` (both >= 0):
// settle_groups tries a group's earlier partners of its class first.
std::uint64_t class_key(int flow, int chunk) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(flow)) << 32) |
         static_cast<std::uint32_t>(chunk);
}

// Every entry of `waiting` is exact over a group made of `members`: each member arrives before
// its issue (and counts in its threshold), after its issue, or after every dependency of the
// entry. In the last case it can only raise the count once the threshold's messages are all in
// (each of them is a dependency or arrives before one), so ">= threshold" still holds exactly
// when they are: a windowed pipeline's next sub-chunk, which a node's children send only after
// the broadcast they wait for came through it. The first pair that is none of these goes to
// `unordered` when given.
bool exact(NodeOrders& orders, const NodePack& p, const std::vector<int>& members,
           const std::vector<std::size_t>& waiting, std::pair<int, std::size_t>* unordered) {
  for (const std::size_t e : waiting) {
    const std::vector<int>& deps = p.entry_deps[e];
    for (const int i : members) {
      if (orders.before(i, e) || orders.after(i, e)) continue;
      if (std::all_of(deps.begin(), deps.end(), [&](int d) { return orders.precedes(d, i); }))
        continue;
      if (unordered) *unordered = {i, e};
      return false;
    }
  }
  return true;
}

}  // namespace

void group_by_deps(NodePack& p, const Schedule& schedule, const std::vector<int>& local,
                   HappensBefore& ordering) {
  const auto op_of = [&](int id) -> const Op& { return schedule.ops[at(id)]; };
  const int k = static_cast<int>(p.incoming.size());
  UnionFind uf(std::max(k, 1));
  std::vector<char> waited(at(k), 0);
  for (const int id : p.entries) {
    const SmallIntList& deps = op_of(id).deps;
    for (std::size_t j = 0; j < deps.size(); ++j) {
      const int a = local[at(deps[j])];
      waited[at(a)] = 1;
      if (j > 0) uf.unite(local[at(deps[0])], a);
    }
  }
  // Groups as member lists, ordered by smallest member.
  std::vector<int> group_index(at(k), -1);
  for (int i = 0; i < k; ++i) {
    if (!waited[at(i)]) continue;
    const int r = uf.find(i);
    if (group_index[at(r)] < 0) {
      group_index[at(r)] = static_cast<int>(p.groups.size());
      p.groups.emplace_back();
    }
    p.groups[at(group_index[at(r)])].push_back(i);
  }
  // Messages nobody waits for: singleton groups (may merge later), flagged free.
  p.free_group.assign(p.groups.size(), 0);
  for (int i = 0; i < k; ++i) {
    if (waited[at(i)]) continue;
    p.groups.push_back({i});
    p.free_group.push_back(1);
  }
  std::vector<int> gid(at(k), -1);
  for (std::size_t g = 0; g < p.groups.size(); ++g) {
    for (const int i : p.groups[g]) gid[at(i)] = static_cast<int>(g);
  }
  p.waiters.assign(p.groups.size(), {});
  p.entry_deps.assign(p.entries.size(), {});
  for (std::size_t e = 0; e < p.entries.size(); ++e) {
    const SmallIntList& deps = op_of(p.entries[e]).deps;
    if (!deps.empty()) p.waiters[at(gid[at(local[at(deps[0])])])].push_back(e);
    for (const int d : deps) p.entry_deps[e].push_back(local[at(d)]);
  }
  const auto ask_pairs = [&](const std::vector<int>& members,
                             const std::vector<std::size_t>& waiting) {
    for (const std::size_t e : waiting) {
      for (const int i : members) {
        const auto [it, added] = p.pair_query.emplace(pair_key(i, e), 0);
        if (!added) continue;
        const int in = p.incoming[at(i)];
        it->second = ordering.ask(in, p.entries[e]);
        ordering.ask(p.entries[e], in);
      }
    }
  };
  for (std::size_t g = 0; g < p.groups.size(); ++g) ask_pairs(p.groups[g], p.waiters[g]);
  // settle_groups' merge attempts ask the pairs across two groups of one class (in either
  // direction, and those of a merged group's members); answered one search each, they were most
  // of the packer's time on MultiTree (whose every attempt is such a pair of groups, and
  // succeeds). Classes of at most kBatchedClassPairs cross pairs are asked here in the batch; a
  // larger class still asks on demand.
  p.group_flow.resize(p.groups.size());
  p.group_chunk.resize(p.groups.size());
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> classes;
  for (std::size_t g = 0; g < p.groups.size(); ++g) {
    p.group_flow[g] = shared_field(p, schedule, p.groups[g], &Op::flow);
    p.group_chunk[g] = shared_field(p, schedule, p.groups[g], &Op::chunk);
    if (p.group_flow[g] >= 0 && p.group_chunk[g] >= 0)
      classes[class_key(p.group_flow[g], p.group_chunk[g])].push_back(g);
  }
  for (const auto& [flow_chunk, members] : classes) {
    if (members.size() < 2) continue;
    std::size_t all_members = 0;
    std::size_t all_waiters = 0;
    std::size_t own = 0;
    for (const std::size_t g : members) {
      all_members += p.groups[g].size();
      all_waiters += p.waiters[g].size();
      own += p.groups[g].size() * p.waiters[g].size();
    }
    if (all_members * all_waiters - own > kBatchedClassPairs) continue;
    for (const std::size_t a : members) {
      for (const std::size_t b : members) {
        if (a != b) ask_pairs(p.groups[a], p.waiters[b]);
      }
    }
  }
}

NodeOrders::NodeOrders(const NodePack& p, const std::vector<char>& answers, HappensBefore& ordering)
    : pack_(p), answers_(answers), ordering_(ordering), entries_(p.entries.size()) {
  const std::size_t incoming = p.incoming.size();
  if (entries_ == 0 || incoming <= 4 * kDenseBytes / entries_) {
    dense_.assign((incoming * entries_ + 3) / 4, 0);
  } else {
    sparse_ = true;
  }
}

bool NodeOrders::precedes(int j, int i) {
  const auto [it, added] = precedes_.emplace(pair_key(j, at(i)), false);
  if (added) it->second = ordering_.happens_before(pack_.incoming[at(j)], pack_.incoming[at(i)]);
  return it->second;
}

int NodeOrders::get(int i, std::size_t e) const {
  if (sparse_) {
    const auto it = map_.find(pair_key(i, e));
    return it == map_.end() ? kUnknown : it->second;
  }
  const std::size_t pos = at(i) * entries_ + e;
  return (dense_[pos / 4] >> (2 * (pos % 4))) & 3;
}

void NodeOrders::set(int i, std::size_t e, int order) {
  if (sparse_) {
    map_[pair_key(i, e)] = static_cast<std::uint8_t>(order);
    return;
  }
  const std::size_t pos = at(i) * entries_ + e;
  dense_[pos / 4] = static_cast<std::uint8_t>(dense_[pos / 4] | (order << (2 * (pos % 4))));
}

int NodeOrders::order_of(int i, std::size_t e) {
  int order = get(i, e);
  if (order != kUnknown) return order;
  bool is_before = false;
  bool is_after = false;
  const auto asked = pack_.pair_query.find(pair_key(i, e));
  if (asked != pack_.pair_query.end()) {
    is_before = answers_[asked->second] != 0;
    is_after = answers_[asked->second + 1] != 0;
  } else {
    const int in = pack_.incoming[at(i)];
    is_before = ordering_.happens_before(in, pack_.entries[e]);
    is_after = ordering_.happens_before(pack_.entries[e], in);
  }
  // A staged arrival is applied after the receiver's own message has been issued.
  if (!is_before && !is_after)
    is_after = ordering_.issued_before_staged(pack_.entries[e], pack_.incoming[at(i)]);
  order = is_before ? kBefore : is_after ? kAfter : kUnordered;
  set(i, e, order);
  return order;
}

void settle_groups(int node, NodePack& p, NodeOrders& orders) {
  std::vector<std::vector<int>>& groups = p.groups;
  std::vector<std::vector<std::size_t>>& waiters = p.waiters;
  // Check every union-find group first: a failure here means no grouping can be exact.
  for (std::size_t g = 0; g < groups.size(); ++g) {
    std::pair<int, std::size_t> unordered;
    if (exact(orders, p, groups[g], waiters[g], &unordered)) continue;
    const auto [i, e] = unordered;
    ErrorLocation where;
    where.node = node;
    where.entry = static_cast<int>(e);
    where.message = p.entries[e];
    throw TableError("node " + std::to_string(node) + " entry " + std::to_string(e) + " (message " +
                         std::to_string(p.entries[e]) +
                         "): its dependencies share a counter with message " +
                         std::to_string(p.incoming[at(i)]) +
                         ", which is unordered with the entry's issue: no arrival-count "
                         "threshold expresses its dependencies exactly",
                     where);
  }
  // Merge groups of the same single flow while every threshold stays exact. Every live group is
  // exact with its own waiters (checked above, kept by each merge), so a merge of a and b is
  // exact when the cross pairs are: a's members against b's waiters and b's members against a's.
  // Each group tries first the earlier groups of its flow that carry the same chunk (the usual
  // partners: a chunk's reduce arrivals and its broadcast arrival at a node of its tree), then at
  // most kMergeAttempts others, oldest first. A pipelined schedule has hundreds of groups per flow
  // at a node (one per sub-chunk and phase), almost none mergeable across chunks, and trying
  // every pair was quadratic (the packer's largest cost on such schedules). A merge not tried
  // only costs a counter; every threshold stays exact.
  constexpr int kMergeAttempts = 16;
  std::vector<char> alive(groups.size(), 1);
  std::unordered_map<int, std::vector<std::size_t>> earlier;  // flow -> groups seen, in order
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> same_chunk;  // (flow, chunk) -> ...
  std::vector<std::size_t> order;
  for (std::size_t b = 0; b < groups.size(); ++b) {
    const int fb = p.group_flow[b];
    if (fb < 0) continue;
    const int cb = p.group_chunk[b];
    const std::uint64_t key = class_key(fb, cb);
    std::vector<std::size_t>& candidates = earlier[fb];
    order.clear();
    if (cb >= 0) {
      const auto it = same_chunk.find(key);
      if (it != same_chunk.end()) order = it->second;
    }
    int others = 0;
    for (const std::size_t a : candidates) {
      if (others >= kMergeAttempts) break;
      if (cb >= 0 && p.group_chunk[a] == cb) continue;  // tried first
      order.push_back(a);
      ++others;
    }
    bool merged_into = false;
    for (const std::size_t a : order) {
      if (!alive[a] || !exact(orders, p, groups[a], waiters[b], nullptr) ||
          !exact(orders, p, groups[b], waiters[a], nullptr)) {
        continue;
      }
      std::vector<int>& merged = groups[a];
      merged.insert(merged.end(), groups[b].begin(), groups[b].end());
      std::sort(merged.begin(), merged.end());
      waiters[a].insert(waiters[a].end(), waiters[b].begin(), waiters[b].end());
      p.free_group[a] = static_cast<char>(p.free_group[a] && p.free_group[b]);
      if (p.group_chunk[a] != cb) p.group_chunk[a] = -1;
      alive[b] = 0;
      merged_into = true;
      break;
    }
    if (!merged_into) {
      candidates.push_back(b);
      if (cb >= 0) same_chunk[key].push_back(b);
    }
  }
  // Remaining free groups (nobody waits on them) collapse into one counter.
  std::vector<std::vector<int>> final_groups;
  std::vector<int> free_members;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (!alive[g]) continue;
    if (p.free_group[g]) {
      free_members.insert(free_members.end(), groups[g].begin(), groups[g].end());
    } else {
      final_groups.push_back(groups[g]);
    }
  }
  if (!free_members.empty()) {
    std::sort(free_members.begin(), free_members.end());
    final_groups.push_back(free_members);
  }
  groups = std::move(final_groups);
  p.group_flow.clear();
  p.group_chunk.clear();
}

}  // namespace mt::packing
