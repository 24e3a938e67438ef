#include "model/collective/verify.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/collective/schedule_graph.h"
#include "model/collective/verify_errors.h"

namespace mt {

using verify_detail::check_races;
using verify_detail::ErrorList;

namespace {

// Largest replay state (one contributor bitset per node and chunk), 64-bit words (1 GiB).
constexpr std::uint64_t kReplayLimitWords = std::uint64_t{1} << 27;

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
    if (op.is_local()) continue;  // a local step uses no link
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

// Symbolic replay in a topological order (issue then immediate arrival of every message), then
// the final check that every node holds every chunk reduced from all N contributions. Scratch
// slots start empty and unwritten: reading one before anything is written there is an error.
void replay(const Schedule& s, const std::vector<int>& order, ErrorList& errors, bool& ok) {
  const std::uint64_t n = static_cast<std::uint64_t>(s.nodes);
  const std::uint64_t chunks = static_cast<std::uint64_t>(s.num_chunks);
  const std::uint64_t scratch = static_cast<std::uint64_t>(std::max(0, s.scratch_chunks));
  const std::uint64_t slots = chunks + scratch;  // per node: data chunks, then scratch slots
  const std::uint64_t words = (n + 63) / 64;
  if (n * slots * words > kReplayLimitWords) {
    errors.add("cannot replay " + std::to_string(n) + " nodes x " + std::to_string(slots) +
               " chunks: the symbolic state would need " +
               std::to_string(n * slots * words * 8 >> 20) + " MiB (limit " +
               std::to_string(kReplayLimitWords * 8 >> 20) + " MiB); use fewer chunks");
    ok = false;
    return;
  }
  std::vector<std::uint64_t> sets(n * slots * words, 0);
  std::vector<char> received(n * slots, 0);  // written by a message or local step
  // Per slot: the data chunk whose contributions it holds (-1: none yet), so that a chunk moved
  // to another slot cannot pass for that slot's chunk.
  std::vector<int> origin(n * slots, -1);
  const auto index = [&](int node, Buffer buffer, int slot) {
    return static_cast<std::uint64_t>(node) * slots + (buffer == Buffer::kScratch ? chunks : 0) +
           static_cast<std::uint64_t>(slot);
  };
  auto set_of = [&](int node, Buffer buffer, int slot) {
    return &sets[index(node, buffer, slot) * words];
  };
  for (std::uint64_t u = 0; u < n; ++u) {
    for (std::uint64_t c = 0; c < chunks; ++c) {
      sets[(u * slots + c) * words + u / 64] |= std::uint64_t{1} << (u % 64);
      origin[u * slots + c] = static_cast<int>(c);
    }
  }
  std::vector<std::uint64_t> snapshot(words);
  std::vector<int> twice;
  // Staged messages issued before their apply_after: their snapshots, applied once it issues.
  struct Snapshot {
    int message;
    std::vector<std::uint64_t> data;
    int chunk;  // the data chunk it holds (-1: none)
  };
  std::unordered_map<int, std::vector<Snapshot>> staged;
  std::vector<char> issued(s.ops.size(), 0);
  const auto apply = [&](const Op& op, const std::vector<std::uint64_t>& data, int chunk) {
    const int slot = op.dst_slot();
    std::uint64_t* dst = set_of(op.peer, op.dst_buf, slot);
    char& written = received[index(op.peer, op.dst_buf, slot)];
    int& held = origin[index(op.peer, op.dst_buf, slot)];
    if (op.kind == OpKind::kReduce && op.dst_buf == Buffer::kScratch && !written) {
      // MSCCL's scratch buffer holds no data of this all-reduce until written: the sum would
      // add whatever was there.
      errors.add("message " + std::to_string(op.id) + ": node " + std::to_string(op.peer) +
                     " reduces into " + slot_text(op.dst_buf, slot) +
                     " before anything is written there",
                 {op.id});
      ok = false;
    }
    if (op.kind == OpKind::kBroadcast || (op.dst_buf == Buffer::kScratch && !written)) {
      written = 1;
      held = chunk;
      std::copy(data.begin(), data.end(), dst);
      return;
    }
    written = 1;
    if (chunk != held && chunk >= 0 && held >= 0) {
      errors.add("message " + std::to_string(op.id) + ": node " + std::to_string(op.peer) +
                     " adds chunk " + std::to_string(chunk) + "'s data into " +
                     slot_text(op.dst_buf, slot) + ", which holds chunk " + std::to_string(held) +
                     "'s",
                 {op.id});
      ok = false;
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
      errors.add("node " + std::to_string(op.peer) + " " + slot_text(op.dst_buf, slot) +
                     ": contribution" + (twice.size() == 1 ? " of " : "s of ") + node_list(twice) +
                     (twice.size() == 1 ? " arrives" : " arrive") + " twice (message " +
                     std::to_string(op.id) + "; already held)",
                 {op.id});
      ok = false;
    }
  };
  for (int id : order) {
    const Op& op = s.ops[static_cast<size_t>(id)];
    if (op.src_buf == Buffer::kScratch && !received[index(op.node, op.src_buf, op.chunk)]) {
      errors.add("message " + std::to_string(op.id) + ": node " + std::to_string(op.node) +
                     " reads " + slot_text(op.src_buf, op.chunk) +
                     " before anything is written there",
                 {op.id});
      ok = false;
    }
    const std::uint64_t* src = set_of(op.node, op.src_buf, op.chunk);
    std::copy(src, src + words, snapshot.begin());
    const int chunk = origin[index(op.node, op.src_buf, op.chunk)];
    issued[static_cast<size_t>(id)] = 1;
    if (op.apply_after >= 0 && !issued[static_cast<size_t>(op.apply_after)]) {
      staged[op.apply_after].push_back(Snapshot{id, snapshot, chunk});
    } else {
      apply(op, snapshot, chunk);
    }
    const auto held = staged.find(id);
    if (held == staged.end()) continue;
    for (const Snapshot& h : held->second)
      apply(s.ops[static_cast<size_t>(h.message)], h.data, h.chunk);
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
      const int held = origin[u * slots + c];
      if (held != static_cast<int>(c) && held >= 0) {
        ok = false;
        errors.add("node " + std::to_string(u) + " chunk " + std::to_string(c) +
                   " ends holding chunk " + std::to_string(held) + "'s data");
        continue;
      }
      const std::uint64_t* set = &sets[(u * slots + c) * words];
      if (holds_all(set)) continue;
      missing.clear();
      for (std::uint64_t v = 0; v < n; ++v) {
        if (!((set[v / 64] >> (v % 64)) & 1u)) missing.push_back(static_cast<int>(v));
      }
      if (missing.empty()) continue;
      ok = false;
      const std::string where = "node " + std::to_string(u);
      if (!received[u * slots + c]) {
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
