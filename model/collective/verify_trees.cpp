// The verifier's proof for tree all-reduces. A schedule in which every chunk is reduced up one
// spanning tree and broadcast down another from the same root is correct by its structure:
// checked here in one pass per chunk over its messages, where the race check and the replay
// (verify_races.cpp, verify_replay.cpp) would ask happens-before questions and carry a set of N
// contributors per node (tens of seconds at 4096 nodes, 33.5 M messages). Where the structure
// is anything else the answer is "not shown" and those checks run as before, so an error is
// always reported by them, in their words.
//
// The structure, per chunk c (every message reads and writes the data slot of its own chunk,
// none is a local step or staged):
//  (a) every node but one, the root R, sends exactly one reduce of c (its parent: the peer);
//      R sends none;
//  (b) every node but R receives exactly one broadcast of c; R receives none;
//  (c) a node's reduce waits for the reduce of c of every node whose parent it is;
//  (d) R's broadcasts wait for every reduce of c into R; another node's broadcasts wait for the
//      broadcast of c into that node.
// With the dependencies acyclic (the caller checked), (a) and (c) make the parents a tree
// rooted at R (a cycle of parents would be a cycle of dependencies). Why it is correct: the
// only messages that write node u's slot of c are its children's reduces and the one broadcast
// into u. The reduces have all arrived when u sends its own (c), and the broadcast arrives after
// that: every broadcast waits, through (d), for every reduce into R, and each of those for the
// reduces below it. So u's reduce carries exactly the sum over u's subtree; R ends with every
// contribution once; every broadcast is sent from a slot that holds that final sum and is
// written no more ((d): R's after its last reduce arrived, another node's after its broadcast
// arrived), and u's slot is written no more after the broadcast into it. Races (an arrival at
// u and c unordered with an issue from u and c, or with another arrival when either is a
// broadcast): the children's reduces arrive before u's reduce leaves and before any broadcast
// leaves u or arrives at u; the broadcast into u arrives after u's reduce leaves and before u's
// broadcasts leave. Every pair is ordered.
#include <cstdint>
#include <vector>

#include "model/collective/verify_errors.h"
#include "model/core/bit_set_view.h"
#include "model/core/flat_lists.h"

namespace mt::verify_detail {

bool tree_all_reduce(const Schedule& s) {
  const int n = s.nodes;
  const auto chunks = static_cast<std::size_t>(s.num_chunks);
  const std::size_t m = s.ops.size();
  if (n < 2 || chunks == 0) return false;
  // 2 (N - 1) messages per chunk, ids grouped by chunk (ascending in each).
  if (m != 2 * static_cast<std::size_t>(n - 1) * chunks) return false;
  const FlatLists by_chunk = FlatLists::gather(chunks, [&s](const auto& emit) {
    for (const Op& op : s.ops) emit(op.chunk, op.id);
  });
  // Per node, for the chunk at hand: the reduce it sends, the broadcast into it, its children.
  std::vector<int> reduce_from(static_cast<std::size_t>(n));
  std::vector<int> broadcast_into(static_cast<std::size_t>(n));
  std::vector<int> children(static_cast<std::size_t>(n));
  // Bits by message id: the chunk's reduces, and the dependencies of one message counted so far
  // (a list may name a message twice).
  const std::size_t words = (m + 63) / 64;
  std::vector<std::uint64_t> bits(2 * words, 0);
  BitSetView is_reduce{bits.data(), static_cast<int>(words)};
  BitSetView counted{bits.data() + words, static_cast<int>(words)};
  // The distinct reduces of the chunk among `op`'s dependencies: all sent to op.node (the
  // structure check holds every dependency to a message the node receives).
  const auto reduces_waited_for = [&](const Op& op) {
    int count = 0;
    for (const int d : op.deps) {
      if (is_reduce.contains(d) && !counted.contains(d)) {
        counted.insert(d);
        ++count;
      }
    }
    for (const int d : op.deps) counted.erase(d);
    return count;
  };
  for (std::size_t c = 0; c < chunks; ++c) {
    const IntSpan ids = by_chunk[static_cast<int>(c)];
    if (ids.size() != 2 * static_cast<std::size_t>(n - 1)) return false;
    std::fill(reduce_from.begin(), reduce_from.end(), -1);
    std::fill(broadcast_into.begin(), broadcast_into.end(), -1);
    std::fill(children.begin(), children.end(), 0);
    for (const int id : ids) {
      const Op& op = s.ops[static_cast<std::size_t>(id)];
      if (op.is_local() || op.uses_buffers() || op.apply_after >= 0) return false;
      if (op.kind == OpKind::kReduce) {
        int& sent = reduce_from[static_cast<std::size_t>(op.node)];
        if (sent >= 0) return false;  // (a): one reduce per node
        sent = op.id;
        ++children[static_cast<std::size_t>(op.peer)];
        is_reduce.insert(op.id);
      } else {
        int& into = broadcast_into[static_cast<std::size_t>(op.peer)];
        if (into >= 0) return false;  // (b): one broadcast into each node
        into = op.id;
      }
    }
    // 2 (N - 1) messages, at most one reduce from and one broadcast into each node: the one
    // node without a reduce must be the one without a broadcast, and both kinds N - 1 of them.
    int root = -1;
    int reduces = 0;
    for (int u = 0; u < n; ++u) {
      const auto at = static_cast<std::size_t>(u);
      if (reduce_from[at] >= 0) {
        ++reduces;
        if (broadcast_into[at] < 0) return false;
      } else {
        root = u;
        if (broadcast_into[at] >= 0) return false;
      }
    }
    if (reduces != n - 1) return false;
    for (const int id : ids) {
      const Op& op = s.ops[static_cast<std::size_t>(id)];
      const auto u = static_cast<std::size_t>(op.node);
      if (op.kind == OpKind::kReduce || op.node == root) {
        if (reduces_waited_for(op) != children[u]) return false;  // (c), (d) at the root
      } else {
        const int into = broadcast_into[u];
        bool waits = false;
        for (const int d : op.deps) waits = waits || d == into;
        if (!waits) return false;  // (d) below the root
      }
    }
    for (const int id : ids) is_reduce.erase(id);
  }
  return true;
}

}  // namespace mt::verify_detail
