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
// Messages ahead whose groups' cursors are fetched while the events are placed (speed only).
constexpr std::size_t kAhead = 16;

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
    bool broadcast;  // the message is a broadcast (read here: its record lies far away)
  };
  std::vector<std::uint64_t> group_begin(groups + 1, 0);
  for (const Op& op : s.ops) {
    const std::size_t ahead = static_cast<std::size_t>(op.id) + kAhead;
    if (used_keys.empty() && ahead < s.ops.size()) {  // speed only, as where they are placed
      __builtin_prefetch(&group_begin[static_cast<std::size_t>(issue_group(s.ops[ahead])) + 1], 1);
      __builtin_prefetch(&group_begin[static_cast<std::size_t>(arrival_group(s.ops[ahead])) + 1],
                         1);
    }
    ++group_begin[group_index(issue_group(op)) + 1];
    ++group_begin[group_index(arrival_group(op)) + 1];
  }
  for (std::size_t g = 0; g < groups; ++g) group_begin[g + 1] += group_begin[g];
  std::vector<Event> events(event_count);
  bool staging = false;  // some message is applied after its receiver's own issue
  {
    std::vector<std::uint64_t> next(group_begin.begin(), group_begin.end() - 1);
    // Speed only: a message's two groups lie anywhere (MultiTree's next message is another
    // tree's): their cursors are fetched kAhead messages ahead, the event slots they point to
    // half as far ahead.
    const auto prefetch = [&](std::size_t i, bool slots) {
      if (i >= s.ops.size()) return;
      const Op& op = s.ops[i];
      for (const std::size_t g : {group_index(issue_group(op)), group_index(arrival_group(op))}) {
        if (slots) {
          __builtin_prefetch(&events[next[g]], 1);
        } else {
          __builtin_prefetch(&next[g], 1);
        }
      }
    };
    for (const Op& op : s.ops) {
      if (used_keys.empty()) {
        prefetch(static_cast<std::size_t>(op.id) + kAhead, false);
        prefetch(static_cast<std::size_t>(op.id) + kAhead / 2, true);
      }
      staging = staging || op.apply_after >= 0;
      const bool broadcast = op.kind == OpKind::kBroadcast;
      events[next[group_index(issue_group(op))]++] = {position[static_cast<size_t>(op.id)], op.id,
                                                      false, broadcast};
      events[next[group_index(arrival_group(op))]++] = {applied(op), op.id, true, broadcast};
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
  // Whether message `id` waits for `dep` directly. Most lists are short: scanned as they are. A
  // long one is searched in order: the schedule's own list when it is sorted, else a sorted copy
  // made once (the pairs are asked arrival by issue, so the same issues come back for every
  // arrival of a run: re-sorting them each time took most of a 512-node fat-tree MultiTree's
  // verification; a copy of every unsorted list, most of the memory of a 4096-node one, whose
  // nodes wait for their children in the order the trees grew, not in id order).
  constexpr std::size_t kScannedDeps = 16;
  std::vector<char> deps_sorted(s.ops.size(),
                                0);  // long lists: 0 not looked at, 1 sorted, 2 copied
  std::unordered_map<int, std::vector<int>> sorted_copies;
  const auto waits_for = [&](int id, int dep) {
    const SmallIntList& own = s.ops[static_cast<size_t>(id)].deps;
    if (own.size() <= kScannedDeps) return std::find(own.begin(), own.end(), dep) != own.end();
    char& state = deps_sorted[static_cast<size_t>(id)];
    if (state == 0) {
      state = std::is_sorted(own.begin(), own.end()) ? 1 : 2;
      if (state == 2) {
        std::vector<int>& copy = sorted_copies[id];
        copy = own.to_vector();
        std::sort(copy.begin(), copy.end());
      }
    }
    const IntSpan deps = state == 1 ? IntSpan(own) : IntSpan(sorted_copies.at(id));
    return std::binary_search(deps.begin(), deps.end(), dep);
  };
  const auto ask = [&](const Event& earlier, const Event& later, bool arrival_pair) {
    // An arrival the issue waits for directly is ordered before it: nothing to ask (a root that
    // waits for all its children's reduces before each of its broadcasts would otherwise ask
    // children x broadcasts questions).
    if (earlier.arrival && !later.arrival && waits_for(later.id, earlier.id)) return true;
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
  std::vector<std::pair<const Event*, std::size_t>> since_broadcast;
  for (std::size_t group = 0; group < groups && within_budget; ++group) {
    const auto g = static_cast<size_t>(group_begin[group]);
    const auto end = static_cast<size_t>(group_begin[group + 1]);
    // Speed only: the issues two groups on, whose dependency lists ask() will search.
    if (group + 3 <= groups)
      for (auto i = group_begin[group + 2]; i < group_begin[group + 3]; ++i)
        if (!events[i].arrival) __builtin_prefetch(&s.ops[static_cast<size_t>(events[i].id)].deps);
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
    // Broadcast chain over the arrivals. A pair with an issue between them in the group's order
    // is ordered already when the runs above are (a chain through every run between them), and
    // when one of those is not, that pair was reported first: not asked (without receive staging,
    // whose pairs are ordered in a weaker sense).
    const Event* last_broadcast = nullptr;
    std::size_t issues = 0;          // issues of the group seen so far
    std::size_t issues_at_last = 0;  // ... when last_broadcast was seen
    since_broadcast.clear();         // arrivals after the last broadcast, with issues then
    const auto implied = [&](std::size_t issues_then) { return !staging && issues > issues_then; };
    for (size_t i = g; i < end && within_budget; ++i) {
      const Event& e = events[i];
      if (!e.arrival) {
        ++issues;
        continue;
      }
      if (last_broadcast != nullptr && !implied(issues_at_last))
        within_budget = ask(*last_broadcast, e, true);
      if (e.broadcast) {
        for (const auto& [r, issues_then] : since_broadcast)
          if (within_budget && r->id != e.id && !implied(issues_then))
            within_budget = ask(*r, e, true);
        since_broadcast.clear();
        last_broadcast = &e;
        issues_at_last = issues;
      } else {
        since_broadcast.emplace_back(&e, issues);
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
