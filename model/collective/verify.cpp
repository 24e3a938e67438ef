#include "model/collective/verify.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/collective/schedule_graph.h"

namespace mt {

namespace {

constexpr size_t kMaxErrors = 20;
// Memory budget of the happens-before bitsets, 64-bit words (64 MiB).
constexpr std::uint64_t kAncestorBudgetWords = std::uint64_t{8} << 20;
// What one ordering check between messages of one node and chunk (see check_races) costs: the
// query (8 bytes), its report record (9 bytes, padded), its sort index and answer.
constexpr std::uint64_t kQueryBytes = 8 + 12 + 4 + 1;
// Largest replay state (one contributor bitset per node and chunk), 64-bit words (1 GiB).
constexpr std::uint64_t kReplayLimitWords = std::uint64_t{1} << 27;

/// Error collector that keeps the first kMaxErrors messages and counts the rest. Each error
/// keeps the ids of the messages it names, so an imported file's errors can say where each was
/// written.
class ErrorList {
 public:
  void add(std::string message, std::vector<int> messages = {}) {
    if (errors_.size() < kMaxErrors) {
      errors_.push_back({std::move(message), std::move(messages)});
    } else {
      ++suppressed_;
    }
  }
  bool empty() const { return errors_.empty(); }
  /// The errors as sentences; with `sources` (one per message: where it was written), each
  /// followed by the places of the first few messages it names, e.g. "... [message 18 is
  /// ring.xml:30: <step s=\"1\"> of gpu 1 tb 0]".
  std::vector<std::string> take(const std::vector<std::string>& sources) {
    std::vector<std::string> result;
    for (Entry& e : errors_) result.push_back(with_sources(std::move(e), sources));
    errors_.clear();
    if (suppressed_ > 0) {
      result.push_back("... and " + std::to_string(suppressed_) + " more error(s) not shown");
    }
    return result;
  }

 private:
  struct Entry {
    std::string text;
    std::vector<int> messages;
  };

  static std::string with_sources(Entry e, const std::vector<std::string>& sources) {
    std::vector<int> named;
    for (const int id : e.messages) {
      if (id >= 0 && static_cast<std::size_t>(id) < sources.size() &&
          std::find(named.begin(), named.end(), id) == named.end())
        named.push_back(id);
      if (named.size() == 4) break;  // the first few say where to look
    }
    if (named.empty()) return std::move(e.text);
    std::string text = std::move(e.text) + " [";
    for (std::size_t i = 0; i < named.size(); ++i)
      text += (i ? "; message " : "message ") + std::to_string(named[i]) + " is " +
              sources[static_cast<std::size_t>(named[i])];
    return text + "]";
  }

  std::vector<Entry> errors_;
  size_t suppressed_ = 0;
};

// "node 7" or "nodes 7, 9" (at most 8 ids, then "and K more").
std::string node_list(const std::vector<int>& ids) {
  std::string s = ids.size() == 1 ? "node " : "nodes ";
  const size_t shown = std::min<size_t>(ids.size(), 8);
  for (size_t i = 0; i < shown; ++i) {
    if (i) s += ", ";
    s += std::to_string(ids[i]);
  }
  if (ids.size() > shown) s += " and " + std::to_string(ids.size() - shown) + " more";
  return s;
}

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
  // key = step * links + link -> first op id; second op id once contended (-1 before).
  std::unordered_map<std::uint64_t, std::pair<int, int>> use;
  use.reserve(s.ops.size() * 4);
  for (const Op& op : s.ops) {
    std::vector<int> path;
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
      path = op.path;
    } else {
      path = t.route(op.node, op.peer);
    }
    for (int l : path) {
      const std::uint64_t key =
          static_cast<std::uint64_t>(op.step) * static_cast<std::uint64_t>(num_links) +
          static_cast<std::uint64_t>(l);
      auto [it, inserted] = use.emplace(key, std::make_pair(op.id, -1));
      // Ops of one step with the same sender, receiver and flow are the pieces (chunks) of one
      // logical message, serialised back to back: not contention.
      const Op& first = s.ops[static_cast<std::size_t>(it->second.first)];
      const bool same_message =
          first.node == op.node && first.peer == op.peer && first.flow == op.flow;
      if (!inserted && it->second.second < 0 && !same_message) {
        it->second.second = op.id;
        contention.push_back({op.step, l, it->second.first, op.id});
      }
    }
  }
  std::sort(contention.begin(), contention.end(), [](const Contention& a, const Contention& b) {
    return std::make_pair(a.step, a.link) < std::make_pair(b.step, b.link);
  });
  return ok;
}

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
  const auto key = [&](int node, int chunk) {
    return static_cast<std::int64_t>(node) * s.num_chunks + chunk;
  };
  std::vector<int> position(s.ops.size(), 0);
  for (size_t i = 0; i < order.size(); ++i)
    position[static_cast<size_t>(order[i])] = static_cast<int>(i);
  // Every event once: (group key, topological position, is arrival, message id).
  struct Event {
    std::int64_t group;
    int position;
    bool arrival;
    int id;
  };
  std::vector<Event> events;
  events.reserve(2 * s.ops.size());
  for (const Op& op : s.ops) {
    const int at = position[static_cast<size_t>(op.id)];
    events.push_back({key(op.node, op.chunk), at, false, op.id});
    // A staged message is applied after the receiver's own message apply_after has issued.
    const int applied =
        op.apply_after < 0 ? at : std::max(at, position[static_cast<size_t>(op.apply_after)]);
    events.push_back({key(op.peer, op.chunk), applied, true, op.id});
  }
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    return a.group != b.group         ? a.group < b.group
           : a.position != b.position ? a.position < b.position
                                      : a.arrival < b.arrival;
  });
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
  // The issue whose dependencies `sorted_deps` holds (sorted), for the check below.
  int deps_of = -1;
  std::vector<int> sorted_deps;
  const auto ask = [&](const Event& earlier, const Event& later, bool arrival_pair) {
    // An arrival the issue waits for directly is ordered before it: nothing to ask (a root that
    // waits for all its children's reduces before each of its broadcasts would otherwise ask
    // children x broadcasts questions).
    if (earlier.arrival && !later.arrival) {
      if (deps_of != later.id) {
        deps_of = later.id;
        sorted_deps = s.ops[static_cast<size_t>(later.id)].deps;
        std::sort(sorted_deps.begin(), sorted_deps.end());
      }
      if (std::binary_search(sorted_deps.begin(), sorted_deps.end(), earlier.id)) return true;
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
  for (size_t g = 0; g < events.size() && within_budget;) {
    size_t end = g;
    while (end < events.size() && events[end].group == events[g].group) ++end;
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
    g = end;
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
        "node " + std::to_string(a.peer) + " chunk " + std::to_string(a.chunk) + ": ";
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

// Symbolic replay in a topological order (issue then immediate arrival of every message), then
// the final check that every node holds every chunk reduced from all N contributions.
void replay(const Schedule& s, const std::vector<int>& order, ErrorList& errors, bool& ok) {
  const std::uint64_t n = static_cast<std::uint64_t>(s.nodes);
  const std::uint64_t chunks = static_cast<std::uint64_t>(s.num_chunks);
  const std::uint64_t words = (n + 63) / 64;
  if (n * chunks * words > kReplayLimitWords) {
    errors.add("cannot replay " + std::to_string(n) + " nodes x " + std::to_string(chunks) +
               " chunks: the symbolic state would need " +
               std::to_string(n * chunks * words * 8 >> 20) + " MiB (limit " +
               std::to_string(kReplayLimitWords * 8 >> 20) + " MiB); use fewer chunks");
    ok = false;
    return;
  }
  std::vector<std::uint64_t> sets(n * chunks * words, 0);
  std::vector<char> received(n * chunks, 0);
  auto set_of = [&](int node, int chunk) {
    return &sets[(static_cast<std::uint64_t>(node) * chunks + static_cast<std::uint64_t>(chunk)) *
                 words];
  };
  for (std::uint64_t u = 0; u < n; ++u) {
    for (std::uint64_t c = 0; c < chunks; ++c) {
      sets[(u * chunks + c) * words + u / 64] |= std::uint64_t{1} << (u % 64);
    }
  }
  std::vector<std::uint64_t> snapshot(words);
  std::vector<int> twice;
  // Staged messages issued before their apply_after: their snapshots, applied once it issues.
  std::unordered_map<int, std::vector<std::pair<int, std::vector<std::uint64_t>>>> staged;
  std::vector<char> issued(s.ops.size(), 0);
  const auto apply = [&](const Op& op, const std::vector<std::uint64_t>& data) {
    std::uint64_t* dst = set_of(op.peer, op.chunk);
    received[static_cast<std::uint64_t>(op.peer) * chunks + static_cast<std::uint64_t>(op.chunk)] =
        1;
    if (op.kind == OpKind::kBroadcast) {
      std::copy(data.begin(), data.end(), dst);
      return;
    }
    twice.clear();
    for (std::uint64_t w = 0; w < words; ++w) {
      std::uint64_t overlap = dst[w] & data[w];
      while (overlap) {
        const int bit = __builtin_ctzll(overlap);
        twice.push_back(static_cast<int>(w * 64 + static_cast<std::uint64_t>(bit)));
        overlap &= overlap - 1;
      }
      dst[w] |= data[w];
    }
    if (!twice.empty()) {
      errors.add("node " + std::to_string(op.peer) + " chunk " + std::to_string(op.chunk) +
                     ": contribution" + (twice.size() == 1 ? " of " : "s of ") + node_list(twice) +
                     (twice.size() == 1 ? " arrives" : " arrive") + " twice (message " +
                     std::to_string(op.id) + "; already held)",
                 {op.id});
      ok = false;
    }
  };
  for (int id : order) {
    const Op& op = s.ops[static_cast<size_t>(id)];
    const std::uint64_t* src = set_of(op.node, op.chunk);
    std::copy(src, src + words, snapshot.begin());
    issued[static_cast<size_t>(id)] = 1;
    if (op.apply_after >= 0 && !issued[static_cast<size_t>(op.apply_after)]) {
      staged[op.apply_after].emplace_back(id, snapshot);
    } else {
      apply(op, snapshot);
    }
    const auto held = staged.find(id);
    if (held == staged.end()) continue;
    for (const auto& [message, data] : held->second)
      apply(s.ops[static_cast<size_t>(message)], data);
    staged.erase(held);
  }
  // Whether a set holds all n contributions (word by word; the last word's unused bits are 0).
  const std::uint64_t last_word =
      n % 64 == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (n % 64)) - 1;
  const auto holds_all = [&](const std::uint64_t* set) {
    for (std::uint64_t w = 0; w + 1 < words; ++w)
      if (set[w] != ~std::uint64_t{0}) return false;
    return set[words - 1] == last_word;
  };
  std::vector<int> missing;
  for (std::uint64_t u = 0; u < n; ++u) {
    for (std::uint64_t c = 0; c < chunks; ++c) {
      const std::uint64_t* set = &sets[(u * chunks + c) * words];
      if (holds_all(set)) continue;
      missing.clear();
      for (std::uint64_t v = 0; v < n; ++v) {
        if (!((set[v / 64] >> (v % 64)) & 1u)) missing.push_back(static_cast<int>(v));
      }
      if (missing.empty()) continue;
      ok = false;
      const std::string where = "node " + std::to_string(u);
      if (!received[u * chunks + c]) {
        errors.add(where + " never receives chunk " + std::to_string(c));
      } else {
        errors.add(where + " chunk " + std::to_string(c) + " ends without the contribution" +
                   (missing.size() == 1 ? " of " : "s of ") + node_list(missing));
      }
    }
  }
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
      // With a race the replay would show one arbitrary timing: report the races only.
      bool race_free = true;
      check_races(graph, limits, errors, race_free);
      if (race_free) {
        replay(schedule, topological.order, errors, ok);
      } else {
        ok = false;
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
