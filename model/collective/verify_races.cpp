// The verifier's race check: every arrival at a node and chunk is ordered with every issue
// from it (and, with a broadcast, with every other arrival there).
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/collective/verify_errors.h"

namespace mt::verify_detail {

namespace {

// Memory budget of the happens-before bitsets, 64-bit words (64 MiB).
constexpr std::uint64_t kAncestorBudgetWords = std::uint64_t{8} << 20;
// What one ordering check between messages of one node and chunk (see check_races) costs: the
// query (8 bytes), its report record (9 bytes, padded), its sort index and answer.
constexpr std::uint64_t kQueryBytes = 8 + 12 + 4 + 1;

}  // namespace

// Every arrival at (u, c) must be ordered with every issue from (u, c), and with every other
// arrival at (u, c) when either of the two is a broadcast. Happens-before is a partial order that
// agrees with the topological order, so only the earlier event of a pair can precede the later
// one, and chains make most pairs implied by others (transitivity); only these are asked:
//  - arrivals vs issues: events in topological order form alternating runs of arrivals and of
//    issues; every pair of ADJACENT runs is asked (a pair farther apart follows through the runs
//    between them, which are not empty);
//  - broadcasts: consecutive broadcast arrivals, and each other arrival with the broadcasts
//    just before and after it.
// Every failed query is a real unordered pair, and when none fails every pair is ordered, so the
// check is exact with O(events) queries for broadcasts (a hostile file of thousands of
// broadcasts of one chunk costs thousands of queries, not millions).
void check_races(const ScheduleGraph& graph, const VerifyLimits& limits, ErrorList& errors,
                 bool& ok) {
  const Schedule& s = graph.schedule();
  const std::vector<int>& order = graph.topological().order;
  // One group per node and slot: the data chunks, then the scratch slots.
  const std::int64_t slots =
      static_cast<std::int64_t>(s.num_chunks) + std::max(0, s.scratch_chunks);
  const auto key = [&](int node, Buffer buffer, int slot) {
    return static_cast<std::int64_t>(node) * slots +
           (buffer == Buffer::kScratch ? s.num_chunks : 0) + slot;
  };
  std::vector<int> position(s.ops.size(), 0);
  for (size_t i = 0; i < order.size(); ++i)
    position[static_cast<size_t>(order[i])] = static_cast<int>(i);
  // Every message's two events, issue (node, src slot) and arrival (peer, dst slot), grouped by
  // node and slot (a counting pass), each group ordered by topological position, issues first.
  // A staged message is applied after the receiver's own message apply_after has issued.
  const auto issue_group = [&](const Op& op) { return key(op.node, op.src_buf, op.chunk); };
  const auto arrival_group = [&](const Op& op) { return key(op.peer, op.dst_buf, op.dst_slot()); };
  const auto applied = [&](const Op& op) {
    const int at = position[static_cast<size_t>(op.id)];
    return op.apply_after < 0 ? at : std::max(at, position[static_cast<size_t>(op.apply_after)]);
  };
  // Group keys numbered densely: the keys themselves when nodes x slots is not much more than
  // the events, else their rank among the keys used.
  const std::size_t event_count = 2 * s.ops.size();
  std::vector<std::int64_t> used_keys;
  std::size_t groups = static_cast<std::size_t>(static_cast<std::int64_t>(s.nodes) * slots);
  if (groups > 2 * event_count + 1) {
    used_keys.reserve(event_count);
    for (const Op& op : s.ops) {
      used_keys.push_back(issue_group(op));
      used_keys.push_back(arrival_group(op));
    }
    std::sort(used_keys.begin(), used_keys.end());
    used_keys.erase(std::unique(used_keys.begin(), used_keys.end()), used_keys.end());
    groups = used_keys.size();
  }
  const auto group_index = [&used_keys](std::int64_t k) {
    return used_keys.empty()
               ? static_cast<std::size_t>(k)
               : static_cast<std::size_t>(std::lower_bound(used_keys.begin(), used_keys.end(), k) -
                                          used_keys.begin());
  };
  struct Event {
    int position;
    int id;
    bool arrival;
  };
  std::vector<std::uint64_t> group_begin(groups + 1, 0);
  for (const Op& op : s.ops) {
    ++group_begin[group_index(issue_group(op)) + 1];
    ++group_begin[group_index(arrival_group(op)) + 1];
  }
  for (std::size_t g = 0; g < groups; ++g) group_begin[g + 1] += group_begin[g];
  std::vector<Event> events(event_count);
  {
    std::vector<std::uint64_t> next(group_begin.begin(), group_begin.end() - 1);
    for (const Op& op : s.ops) {
      events[next[group_index(issue_group(op))]++] = {position[static_cast<size_t>(op.id)], op.id,
                                                      false};
      events[next[group_index(arrival_group(op))]++] = {applied(op), op.id, true};
    }
  }
  used_keys = {};
  for (std::size_t g = 0; g < groups; ++g) {
    std::sort(events.begin() + static_cast<std::ptrdiff_t>(group_begin[g]),
              events.begin() + static_cast<std::ptrdiff_t>(group_begin[g + 1]),
              [](const Event& a, const Event& b) {
                return a.position != b.position ? a.position < b.position
                       : a.arrival != b.arrival ? a.arrival < b.arrival
                                                : a.id < b.id;
              });
  }
  struct Check {
    int a;  // an arrival
    int b;  // an issue (arrival_pair == false) or another arrival
    bool arrival_pair;
    bool staged;  // also ordered when b is, or happens before, a's apply_after (asked next)
  };
  HappensBefore ancestry = graph.happens_before(kAncestorBudgetWords);
  const std::uint64_t max_queries =
      std::max(limits.min_race_checks,
               limits.race_checks_per_message * static_cast<std::uint64_t>(s.ops.size()));
  std::vector<Check> checks;
  // Each issue's dependencies in order, for the check below: the schedule's own list when it is
  // sorted (most are), else a sorted copy made once (the pairs are asked arrival by issue, so
  // the same issues come back for every arrival of a run: re-sorting them each time took most of
  // a 512-node fat-tree MultiTree's verification; a copy of every list, most of the memory of a
  // 4096-node one).
  std::vector<char> deps_state(s.ops.size(), 0);  // 0 not looked at, 1 sorted, 2 copied
  std::unordered_map<int, std::vector<int>> sorted_copies;
  const auto sorted_deps = [&](int id) -> IntSpan {
    const SmallIntList& own = s.ops[static_cast<size_t>(id)].deps;
    char& state = deps_state[static_cast<size_t>(id)];
    if (state == 0) {
      state = std::is_sorted(own.begin(), own.end()) ? 1 : 2;
      if (state == 2) {
        std::vector<int>& copy = sorted_copies[id];
        copy = own.to_vector();
        std::sort(copy.begin(), copy.end());
      }
    }
    return state == 1 ? IntSpan(own) : IntSpan(sorted_copies.at(id));
  };
  const auto ask = [&](const Event& earlier, const Event& later, bool arrival_pair) {
    // An arrival the issue waits for directly is ordered before it: nothing to ask (a root that
    // waits for all its children's reduces before each of its broadcasts would otherwise ask
    // children x broadcasts questions).
    if (earlier.arrival && !later.arrival) {
      const IntSpan deps = sorted_deps(later.id);
      if (std::binary_search(deps.begin(), deps.end(), earlier.id)) return true;
    }
    if (checks.size() >= max_queries) return false;
    ancestry.ask(earlier.id, later.id);
    // Reported as (arrival, other): the arrival is whichever of the two is one.
    if (earlier.arrival) {
      checks.push_back({earlier.id, later.id, arrival_pair, false});
    } else {
      // An issue listed before a staged arrival: ordered too when it precedes apply_after's issue.
      const int own = s.ops[static_cast<size_t>(later.id)].apply_after;
      const bool staged = !arrival_pair && own >= 0;
      checks.push_back({later.id, earlier.id, arrival_pair, staged});
      if (staged) ancestry.ask(earlier.id, own);
    }
    return true;
  };
  bool within_budget = true;
  for (std::size_t group = 0; group < groups && within_budget; ++group) {
    const auto g = static_cast<size_t>(group_begin[group]);
    const auto end = static_cast<size_t>(group_begin[group + 1]);
    // Runs of arrivals and of issues; adjacent runs are asked pairwise.
    size_t run = g;
    size_t previous_run = g;
    while (run < end && within_budget) {
      size_t run_end = run;
      while (run_end < end && events[run_end].arrival == events[run].arrival) ++run_end;
      if (run != g) {
        for (size_t x = previous_run; x < run && within_budget; ++x)
          for (size_t y = run; y < run_end && within_budget; ++y)
            within_budget = ask(events[x], events[y], false);
      }
      previous_run = run;
      run = run_end;
    }
    // Broadcast chain over the arrivals.
    const Event* last_broadcast = nullptr;
    std::vector<const Event*> since_broadcast;  // arrivals after the last broadcast
    for (size_t i = g; i < end && within_budget; ++i) {
      const Event& e = events[i];
      if (!e.arrival) continue;
      if (s.ops[static_cast<size_t>(e.id)].kind == OpKind::kBroadcast) {
        if (last_broadcast != nullptr) within_budget = ask(*last_broadcast, e, true);
        for (const Event* r : since_broadcast)
          if (within_budget && r->id != e.id) within_budget = ask(*r, e, true);
        since_broadcast.clear();
        last_broadcast = &e;
      } else {
        if (last_broadcast != nullptr) within_budget = ask(*last_broadcast, e, true);
        since_broadcast.push_back(&e);
      }
    }
  }
  if (!within_budget) {
    errors.add("the schedule needs more than " + std::to_string(max_queries) +
               " ordering checks between messages of the same node and chunk (the verifier's "
               "memory budget: " +
               std::to_string(max_queries * kQueryBytes >> 20) + " MiB of checks plus " +
               std::to_string(kAncestorBudgetWords * 8 >> 20) +
               " MiB of happens-before bitsets); it was not verified");
    ok = false;
    return;
  }
  const std::vector<char> answers = ancestry.solve();
  for (size_t q = 0, answer = 0; q < checks.size(); ++q, ++answer) {
    const Check& c = checks[q];
    if (c.staged) {
      const int own = s.ops[static_cast<size_t>(c.a)].apply_after;
      ++answer;  // the second query: b happens before apply_after's issue
      if (answers[answer - 1] || answers[answer] || c.b == own) continue;
    } else if (answers[answer]) {
      continue;
    }
    const Op& a = s.ops[static_cast<size_t>(c.a)];
    const Op& b = s.ops[static_cast<size_t>(c.b)];
    const std::string where =
        "node " + std::to_string(a.peer) + " " + slot_text(a.dst_buf, a.dst_slot()) + ": ";
    if (c.arrival_pair) {
      errors.add(where + "arrivals of messages " + std::to_string(std::min(a.id, b.id)) + " (" +
                     to_string(s.ops[static_cast<size_t>(std::min(a.id, b.id))].kind) + ") and " +
                     std::to_string(std::max(a.id, b.id)) + " (" +
                     to_string(s.ops[static_cast<size_t>(std::max(a.id, b.id))].kind) +
                     ") are unordered: the final value depends on timing",
                 {std::min(a.id, b.id), std::max(a.id, b.id)});
    } else {
      errors.add(where + "arrival of message " + std::to_string(a.id) + " and issue of message " +
                     std::to_string(b.id) + " are unordered: the value sent depends on timing",
                 {a.id, b.id});
    }
    ok = false;
  }
}

}  // namespace mt::verify_detail
