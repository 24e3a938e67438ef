#include "model/collective/schedule_graph.h"

#include <algorithm>
#include <deque>
#include <string>
#include <utility>

namespace mt {

std::string TopologicalOrder::cycle_text() const {
  if (cycle.empty()) return {};
  std::string text = "dependency cycle: message " + std::to_string(cycle[0]);
  for (std::size_t i = 1; i < cycle.size(); ++i) {
    text += (i == 1 ? " waits for " : ", which waits for ") + std::to_string(cycle[i]);
  }
  text += (cycle.size() == 1 ? " waits for " : ", which waits for ") + std::to_string(cycle[0]);
  return text;
}

std::string TopologicalOrder::stuck_text() const {
  if (stuck == 0) return {};
  return std::to_string(stuck) +
         " more message(s) can never be issued: they wait, directly or indirectly, on a "
         "dependency cycle";
}

namespace {

// Kahn's order given every message's dependents (the reverse of deps_of).
TopologicalOrder kahn(const DepsOf& deps_of, const FlatLists& dependents) {
  const std::size_t m = dependents.size();
  std::vector<int> indeg(m, 0);
  for (std::size_t i = 0; i < m; ++i) {
    for (const int c : dependents[static_cast<int>(i)]) ++indeg[static_cast<std::size_t>(c)];
  }
  TopologicalOrder result;
  result.order.reserve(m);
  std::deque<int> ready;
  for (std::size_t i = 0; i < m; ++i) {
    if (indeg[i] == 0) ready.push_back(static_cast<int>(i));
  }
  while (!ready.empty()) {
    const int x = ready.front();
    ready.pop_front();
    result.order.push_back(x);
    for (const int c : dependents[x]) {
      if (--indeg[static_cast<std::size_t>(c)] == 0) ready.push_back(c);
    }
  }
  if (result.order.size() == m) return result;

  // Every message left has an unissued dependency; walking those from any of them closes a cycle.
  std::size_t start = 0;
  while (indeg[start] == 0) ++start;
  std::vector<int> position(m, -1);
  std::vector<int> walk;
  int cur = static_cast<int>(start);
  while (position[static_cast<std::size_t>(cur)] < 0) {
    position[static_cast<std::size_t>(cur)] = static_cast<int>(walk.size());
    walk.push_back(cur);
    for (const int d : deps_of(cur)) {
      if (indeg[static_cast<std::size_t>(d)] > 0) {
        cur = d;
        break;
      }
    }
  }
  result.cycle.assign(walk.begin() + position[static_cast<std::size_t>(cur)], walk.end());
  result.stuck = m - result.order.size() - result.cycle.size();
  return result;
}

}  // namespace

TopologicalOrder topological_order(std::size_t messages, const DepsOf& deps_of) {
  const FlatLists dependents = FlatLists::gather(messages, [&](const auto& emit) {
    for (std::size_t i = 0; i < messages; ++i) {
      for (const int d : deps_of(static_cast<int>(i))) emit(d, static_cast<int>(i));
    }
  });
  return kahn(deps_of, dependents);
}

namespace {

// Emits (dependency -> message) for every dependency of every message, in message order.
template <class Emit>
void emit_dependency_edges(const Schedule& schedule, const Emit& emit) {
  const int m = static_cast<int>(schedule.ops.size());
  for (int i = 0; i < m; ++i) {
    for (const int d : schedule.ops[static_cast<std::size_t>(i)].deps) emit(d, i);
  }
}

}  // namespace

FlatLists dependent_lists(const Schedule& schedule) {
  const int m = static_cast<int>(schedule.ops.size());
  for (int i = 0; i < m; ++i) {
    for (const int d : schedule.ops[static_cast<std::size_t>(i)].deps) {
      if (d < 0 || d >= m) {
        throw ScheduleError("message " + std::to_string(i) + " depends on message " +
                            std::to_string(d) + ", which does not exist (ids are 0.." +
                            std::to_string(m - 1) + ")");
      }
    }
  }
  return FlatLists::gather(schedule.ops.size(), [&schedule](const auto& emit) {
    emit_dependency_edges(schedule, emit);
  });
}

bool mark_ancestors(const DepsOf& deps_of, const std::vector<int>& starts, std::vector<int>& stamp,
                    int generation, int budget) {
  std::vector<int> stack;
  for (const int s : starts)
    for (const int d : deps_of(s)) stack.push_back(d);
  while (!stack.empty()) {
    const int m = stack.back();
    stack.pop_back();
    int& mark = stamp[static_cast<std::size_t>(m)];
    if (mark == generation) continue;
    mark = generation;
    if (--budget < 0) return false;
    for (const int d : deps_of(m)) stack.push_back(d);
  }
  return true;
}

ScheduleGraph::ScheduleGraph(const Schedule& schedule)
    : schedule_(schedule), dependents_(dependent_lists(schedule)) {
  const int m = static_cast<int>(schedule.ops.size());
  // Receive staging orders issues without an arrival: those edges join the order too.
  std::vector<std::vector<int>> staged = staged_issue_predecessors(schedule);
  if (staged.empty()) {
    topological_ = kahn(
        [&schedule](int i) -> IntSpan { return schedule.ops[static_cast<std::size_t>(i)].deps; },
        dependents_);
    return;
  }
  // Successors: each message's dependents, then the messages staged behind it.
  const FlatLists successors = FlatLists::gather(schedule.ops.size(), [&](const auto& emit) {
    emit_dependency_edges(schedule, emit);
    for (int i = 0; i < m; ++i) {
      for (const int k : staged[static_cast<std::size_t>(i)]) emit(k, i);
    }
  });
  for (int i = 0; i < m; ++i) {
    std::vector<int>& preds = staged[static_cast<std::size_t>(i)];
    const SmallIntList& deps = schedule.ops[static_cast<std::size_t>(i)].deps;
    preds.insert(preds.end(), deps.begin(), deps.end());
  }
  topological_ =
      kahn([&staged](int i) -> IntSpan { return staged[static_cast<std::size_t>(i)]; }, successors);
}

HappensBefore ScheduleGraph::happens_before(std::uint64_t budget_words) const {
  if (!acyclic())
    throw ScheduleError("happens-before over a cyclic schedule: " + topological_.cycle_text());
  return HappensBefore(schedule_, topological_.order, budget_words);
}

bool check_ops(const Schedule& s, const OpChecks& checks, const OpProblem& report) {
  const int n = s.nodes;
  const int m = static_cast<int>(s.ops.size());
  bool ok = true;
  int current = 0;  // the op being checked: every problem below names it
  const auto fail = [&](std::string message, std::vector<int> others = {}) {
    std::vector<int> messages{current};
    messages.insert(messages.end(), others.begin(), others.end());
    report(std::move(message), std::move(messages));
    ok = false;
  };
  for (int i = 0; i < m; ++i) {
    const Op& op = s.ops[static_cast<std::size_t>(i)];
    // Built only for a problem (every message's text took seconds at 33.5 M messages).
    const auto msg = [i] { return "message " + std::to_string(i); };
    current = i;
    if (op.id != i)
      fail("ops[" + std::to_string(i) + "] has id " + std::to_string(op.id) +
           "; ids must equal the index");
    if (op.node < 0 || op.node >= n) {
      fail(msg() + ": node " + std::to_string(op.node) + " is out of range 0.." +
           std::to_string(n - 1));
    }
    if (op.peer < 0 || op.peer >= n) {
      fail(msg() + ": peer " + std::to_string(op.peer) + " is out of range 0.." +
           std::to_string(n - 1));
    } else if (op.is_local() && !op.uses_buffers()) {
      fail(msg() + ": node " + std::to_string(op.node) + " sends to itself");
    } else if (op.is_local() && op.src_buf == op.dst_buf && op.dst_slot() == op.chunk) {
      fail(msg() + ": local step of node " + std::to_string(op.node) + " reads and writes " +
           slot_text(op.src_buf, op.chunk));
    }
    if (checks.fields) {
      // Slots: the data buffer has num_chunks, the scratch buffer scratch_chunks.
      const bool one_slot = op.dst_buf == op.src_buf && op.dst_slot() == op.chunk;
      for (int end = 0; end < (one_slot ? 1 : 2); ++end) {
        const Buffer buffer = end == 0 ? op.src_buf : op.dst_buf;
        const int slot = end == 0 ? op.chunk : op.dst_slot();
        const int slots = buffer == Buffer::kScratch ? s.scratch_chunks : s.num_chunks;
        if (slot < 0 || slot >= slots)
          fail(msg() + ": " + slot_text(buffer, slot) + " is out of range" +
               (slots == 0 ? " (the schedule has no scratch buffer: scratch_chunks is 0)"
                           : " 0.." + std::to_string(slots - 1)));
      }
      if (op.step < 0) {
        fail(msg() + ": step " + std::to_string(op.step) + " is negative");
      } else if (op.step >= s.num_steps) {
        fail(msg() + ": step " + std::to_string(op.step) + " is >= num_steps " +
             std::to_string(s.num_steps));
      }
      if (op.flow < 0) {
        fail(msg() + ": flow " + std::to_string(op.flow) + " is negative");
      } else if (op.flow >= s.num_flows) {
        fail(msg() + ": flow " + std::to_string(op.flow) + " is >= num_flows " +
             std::to_string(s.num_flows));
      }
    }
    if (checks.ports > 0 && (op.port < -1 || op.port >= checks.ports)) {
      fail(msg() + ": port " + std::to_string(op.port) + " is out of range (-1 = any, or 0.." +
           std::to_string(checks.ports - 1) + ")");
    }
    if (checks.fields && op.kind != OpKind::kReduce && op.kind != OpKind::kBroadcast) {
      fail(msg() + ": kind " + std::to_string(static_cast<int>(op.kind)) +
           " is neither reduce nor broadcast");
    }
    if (op.apply_after != -1) {
      const int k = op.apply_after;
      const Op* own = k >= 0 && k < m ? &s.ops[static_cast<std::size_t>(k)] : nullptr;
      if (own == nullptr) {
        fail(msg() + ": apply_after " + std::to_string(k) + " is neither -1 nor a message id (0.." +
             std::to_string(m - 1) + ")");
      } else if (own->node != op.peer || own->src_buf != op.dst_buf ||
                 own->chunk != op.dst_slot() || k == i) {
        // Staging orders a write after the issue of the receiver's own message that reads the
        // slot written (for a schedule without buffers: the receiver's message of the chunk).
        fail(msg() + " (node " + std::to_string(op.node) + " -> " + std::to_string(op.peer) +
                 ", writes " + slot_text(op.dst_buf, op.dst_slot()) +
                 "): apply_after names message " + std::to_string(k) + " (node " +
                 std::to_string(own->node) + " -> " + std::to_string(own->peer) + ", reads " +
                 slot_text(own->src_buf, own->chunk) + "); it must name another message node " +
                 std::to_string(op.peer) + " sends (or local step it runs) reading " +
                 slot_text(op.dst_buf, op.dst_slot()),
             {k});
      }
    }
    for (const int d : op.deps) {
      if (d < 0 || d >= m) {
        fail(msg() + " depends on message " + std::to_string(d) +
             ", which does not exist (ids are 0.." + std::to_string(m - 1) + ")");
      } else if (s.ops[static_cast<std::size_t>(d)].peer != op.node) {
        fail(msg() + " at node " + std::to_string(op.node) + " depends on message " +
                 std::to_string(d) + ", which is sent to node " +
                 std::to_string(s.ops[static_cast<std::size_t>(d)].peer) + ", not node " +
                 std::to_string(op.node),
             {d});
      }
    }
  }
  if (checks.fields && m > 0) {
    // The declared counts are what tables and reports show: they must be the ones used.
    const auto fail_counts = [&](std::string message) {
      report(std::move(message), {});
      ok = false;
    };
    int steps = 0;
    int flows = 0;
    for (const Op& op : s.ops) {
      steps = std::max(steps, op.step + 1);
      flows = std::max(flows, op.flow + 1);
    }
    if (s.num_steps > steps)
      fail_counts("num_steps is " + std::to_string(s.num_steps) +
                  " but the messages use steps 0.." + std::to_string(steps - 1) + ": it must be " +
                  std::to_string(steps));
    if (s.num_flows > flows)
      fail_counts("num_flows is " + std::to_string(s.num_flows) +
                  " but the messages use flows 0.." + std::to_string(flows - 1) + ": it must be " +
                  std::to_string(flows));
  }
  return ok;
}

void require_valid_ops(const Schedule& schedule, const OpChecks& checks) {
  std::string first;
  check_ops(schedule, checks, [&first](std::string message, std::vector<int>) {
    if (first.empty()) first = std::move(message);
  });
  if (!first.empty()) throw ScheduleError(first);
}

}  // namespace mt
