// The verifier's symbolic replay: every message's contributor set carried from its sender's slot
// to its receiver's, then the check that every node ends with every chunk summed from all N.
#include <algorithm>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/collective/verify_errors.h"
#include "model/core/flat_lists.h"

namespace mt::verify_detail {

namespace {

// Chunk by chunk (see replay()): most set words written and checked in all (32 GiB of memory
// traffic, seconds).
constexpr std::uint64_t kChunkwiseLimitWords = std::uint64_t{1} << 32;
// Whole-state replay up to this many words (16 MiB, about what the caches hold) where chunk by
// chunk would do.
constexpr std::uint64_t kWholeCachedWords = std::uint64_t{1} << 21;

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

// The replay of the data chunks [first, first + count) and, with `scratch` slots, the scratch
// buffer: per node and slot the set of nodes whose contributions it holds, whether anything has
// written it and which data chunk it holds.
class Replay {
 public:
  // `staging`: some message is staged (Op::apply_after), so issues are tracked.
  Replay(const Schedule& s, int first, int count, int scratch, bool staging, ErrorList& errors,
         bool& ok)
      : s_(s),
        errors_(errors),
        ok_(ok),
        n_(static_cast<std::uint64_t>(s.nodes)),
        first_(first),
        count_(static_cast<std::uint64_t>(count)),
        slots_(count_ + static_cast<std::uint64_t>(scratch)),
        words_((n_ + 63) / 64),
        sets_(n_ * slots_ * words_, 0),
        received_(n_ * slots_, 0),
        origin_(n_ * slots_, -1),
        snapshot_(words_),
        staging_(staging),
        issued_(staging_ ? s.ops.size() : 0, 0) {
    start();
  }

  // Replays the data chunks [first, first + count) next, in the same memory: every set, mark
  // and origin as new (a replay chunk by chunk allocated, faulted in and freed 2 MiB per chunk
  // at 4096 nodes). Only without staging (chunk by chunk never stages).
  void restart(int first) {
    first_ = first;
    std::fill(sets_.begin(), sets_.end(), 0);
    std::fill(received_.begin(), received_.end(), 0);
    std::fill(origin_.begin(), origin_.end(), -1);
    start();
  }

  // Issue then immediate arrival of message `id` (in a topological order); a staged message
  // issued before its apply_after is applied once that one issues.
  void run(int id) {
    const Op& op = s_.ops[static_cast<size_t>(id)];
    if (op.src_buf == Buffer::kScratch && !received_[index(op.node, op.src_buf, op.chunk)]) {
      errors_.add("message " + std::to_string(op.id) + ": node " + std::to_string(op.node) +
                      " reads " + slot_text(op.src_buf, op.chunk) +
                      " before anything is written there",
                  {op.id});
      ok_ = false;
    }
    const std::uint64_t* src = set_of(op.node, op.src_buf, op.chunk);
    std::copy(src, src + words_, snapshot_.begin());
    const int chunk = origin_[index(op.node, op.src_buf, op.chunk)];
    if (!staging_) {
      apply(op, snapshot_, chunk);
      return;
    }
    issued_[static_cast<size_t>(id)] = 1;
    if (op.apply_after >= 0 && !issued_[static_cast<size_t>(op.apply_after)]) {
      staged_[op.apply_after].push_back(Snapshot{id, snapshot_, chunk});
    } else {
      apply(op, snapshot_, chunk);
    }
    const auto held = staged_.find(id);
    if (held == staged_.end()) return;
    for (const Snapshot& h : held->second)
      apply(s_.ops[static_cast<size_t>(h.message)], h.data, h.chunk);
    staged_.erase(held);
  }

  // Every node's data chunks hold their own chunk summed from all n contributions.
  void check_final() {
    const std::uint64_t last_word =
        n_ % 64 == 0 ? ~std::uint64_t{0} : (std::uint64_t{1} << (n_ % 64)) - 1;
    const auto holds_all = [&](const std::uint64_t* set) {
      for (std::uint64_t w = 0; w + 1 < words_; ++w)
        if (set[w] != ~std::uint64_t{0}) return false;
      return set[words_ - 1] == last_word;
    };
    std::vector<int> missing;
    for (std::uint64_t u = 0; u < n_; ++u) {
      for (std::uint64_t c = 0; c < count_; ++c) {
        const int chunk = first_ + static_cast<int>(c);
        const int held = origin_[u * slots_ + c];
        if (held != chunk && held >= 0) {
          ok_ = false;
          errors_.add("node " + std::to_string(u) + " chunk " + std::to_string(chunk) +
                      " ends holding chunk " + std::to_string(held) + "'s data");
          continue;
        }
        const std::uint64_t* set = &sets_[(u * slots_ + c) * words_];
        if (holds_all(set)) continue;
        missing.clear();
        for (std::uint64_t v = 0; v < n_; ++v) {
          if (!((set[v / 64] >> (v % 64)) & 1u)) missing.push_back(static_cast<int>(v));
        }
        if (missing.empty()) continue;
        ok_ = false;
        const std::string where = "node " + std::to_string(u);
        if (!received_[u * slots_ + c]) {
          errors_.add(where + " never receives chunk " + std::to_string(chunk));
        } else {
          errors_.add(where + " chunk " + std::to_string(chunk) + " ends without the contribution" +
                      (missing.size() == 1 ? " of " : "s of ") + node_list(missing));
        }
      }
    }
  }

 private:
  struct Snapshot {
    int message;
    std::vector<std::uint64_t> data;
    int chunk;  // the data chunk it holds (-1: none)
  };

  std::uint64_t index(int node, Buffer buffer, int slot) const {
    return static_cast<std::uint64_t>(node) * slots_ +
           (buffer == Buffer::kScratch ? count_ + static_cast<std::uint64_t>(slot)
                                       : static_cast<std::uint64_t>(slot - first_));
  }
  std::uint64_t* set_of(int node, Buffer buffer, int slot) {
    return &sets_[index(node, buffer, slot) * words_];
  }

  void apply(const Op& op, const std::vector<std::uint64_t>& data, int chunk) {
    const int slot = op.dst_slot();
    std::uint64_t* dst = set_of(op.peer, op.dst_buf, slot);
    char& written = received_[index(op.peer, op.dst_buf, slot)];
    int& held = origin_[index(op.peer, op.dst_buf, slot)];
    if (op.kind == OpKind::kReduce && op.dst_buf == Buffer::kScratch && !written) {
      // MSCCL's scratch buffer holds no data of this all-reduce until written: the sum would
      // add whatever was there.
      errors_.add("message " + std::to_string(op.id) + ": node " + std::to_string(op.peer) +
                      " reduces into " + slot_text(op.dst_buf, slot) +
                      " before anything is written there",
                  {op.id});
      ok_ = false;
    }
    if (op.kind == OpKind::kBroadcast || (op.dst_buf == Buffer::kScratch && !written)) {
      written = 1;
      held = chunk;
      std::copy(data.begin(), data.end(), dst);
      return;
    }
    written = 1;
    if (chunk != held && chunk >= 0 && held >= 0) {
      errors_.add("message " + std::to_string(op.id) + ": node " + std::to_string(op.peer) +
                      " adds chunk " + std::to_string(chunk) + "'s data into " +
                      slot_text(op.dst_buf, slot) + ", which holds chunk " + std::to_string(held) +
                      "'s",
                  {op.id});
      ok_ = false;
    }
    twice_.clear();
    for (std::uint64_t w = 0; w < words_; ++w) {
      std::uint64_t overlap = dst[w] & data[w];
      while (overlap) {
        const int bit = __builtin_ctzll(overlap);
        twice_.push_back(static_cast<int>(w * 64 + static_cast<std::uint64_t>(bit)));
        overlap &= overlap - 1;
      }
      dst[w] |= data[w];
    }
    if (!twice_.empty()) {
      errors_.add("node " + std::to_string(op.peer) + " " + slot_text(op.dst_buf, slot) +
                      ": contribution" + (twice_.size() == 1 ? " of " : "s of ") +
                      node_list(twice_) + (twice_.size() == 1 ? " arrives" : " arrive") +
                      " twice (message " + std::to_string(op.id) + "; already held)",
                  {op.id});
      ok_ = false;
    }
  }

  // Each node holds its own contribution to each replayed data chunk.
  void start() {
    for (std::uint64_t u = 0; u < n_; ++u) {
      for (std::uint64_t c = 0; c < count_; ++c) {
        sets_[(u * slots_ + c) * words_ + u / 64] |= std::uint64_t{1} << (u % 64);
        origin_[u * slots_ + c] = first_ + static_cast<int>(c);
      }
    }
  }

  const Schedule& s_;
  ErrorList& errors_;
  bool& ok_;
  std::uint64_t n_;
  int first_;            // first data chunk replayed
  std::uint64_t count_;  // data chunks replayed
  std::uint64_t slots_;  // per node: those chunks, then the scratch slots
  std::uint64_t words_;  // per set
  std::vector<std::uint64_t> sets_;
  std::vector<char> received_;  // written by a message or local step
  // Per slot: the data chunk whose contributions it holds (-1: none yet), so that a chunk moved
  // to another slot cannot pass for that slot's chunk.
  std::vector<int> origin_;
  std::vector<std::uint64_t> snapshot_;
  std::vector<int> twice_;
  bool staging_;              // some message is staged (Op::apply_after)
  std::vector<char> issued_;  // per message, when staging_
  // Staged messages issued before their apply_after: their snapshots, applied once it issues.
  std::unordered_map<int, std::vector<Snapshot>> staged_;
};

// Every message reads and writes its own chunk's data slot and none is staged: then the chunks
// never meet and each can be replayed alone.
bool chunks_separate(const Schedule& s) {
  return s.scratch_chunks <= 0 && std::none_of(s.ops.begin(), s.ops.end(), [](const Op& op) {
           return op.uses_buffers() || op.apply_after >= 0;
         });
}

}  // namespace

// Symbolic replay in a topological order (issue then immediate arrival of every message), then
// the final check that every node holds every chunk reduced from all N contributions. Scratch
// slots start empty and unwritten: reading one before anything is written there is an error.
// When the whole state does not fit (N-chunk schedules at thousands of nodes: N x N sets of N
// bits) and the chunks never meet, each chunk is replayed alone over its messages in the same
// order (the same checks; errors chunk by chunk).
void replay(const Schedule& s, const std::vector<int>& order, std::uint64_t limit_words,
            ErrorList& errors, bool& ok) {
  const std::uint64_t n = static_cast<std::uint64_t>(s.nodes);
  const std::uint64_t chunks = static_cast<std::uint64_t>(s.num_chunks);
  const std::uint64_t scratch = static_cast<std::uint64_t>(std::max(0, s.scratch_chunks));
  const std::uint64_t words = (n + 63) / 64;
  const std::uint64_t state = n * (chunks + scratch) * words;
  // The whole state at once where it fits and stays small enough to sit in the caches, or the
  // chunks meet; else, where they never meet, one chunk at a time (the same checks): a 2048-node
  // MultiTree's whole state, 1 GiB, cost its verification a quarter of its time in page faults.
  const bool fits = state <= limit_words;
  const bool separate = !(fits && state <= kWholeCachedWords) && chunks_separate(s);
  if (fits && !separate) {
    const bool staging =
        std::any_of(s.ops.begin(), s.ops.end(), [](const Op& op) { return op.apply_after >= 0; });
    Replay whole(s, 0, s.num_chunks, s.scratch_chunks, staging, errors, ok);
    for (const int id : order) whole.run(id);
    whole.check_final();
    return;
  }
  const std::string what = "cannot replay " + std::to_string(n) + " nodes x " +
                           std::to_string(chunks + scratch) + " chunks: ";
  if (!separate) {
    errors.add(what + "the symbolic state would need " + std::to_string(state * 8 >> 20) +
               " MiB (limit " + std::to_string(limit_words * 8 >> 20) + " MiB); use fewer chunks");
    ok = false;
    return;
  }
  if (state > kChunkwiseLimitWords) {
    errors.add(what + "one chunk at a time it would still write and check " +
               std::to_string(state * 8 >> 20) + " MiB of symbolic state (limit " +
               std::to_string(kChunkwiseLimitWords * 8 >> 20) + " MiB); use fewer chunks");
    ok = false;
    return;
  }
  // The topological order split by chunk (a stable counting sort), then one chunk at a time.
  const FlatLists by_chunk = FlatLists::gather(chunks, [&](const auto& emit) {
    for (const int id : order) emit(s.ops[static_cast<size_t>(id)].chunk, id);
  });
  Replay one(s, 0, 1, 0, false, errors, ok);
  for (std::uint64_t c = 0; c < chunks; ++c) {
    if (c > 0) one.restart(static_cast<int>(c));
    for (const int id : by_chunk[static_cast<int>(c)]) one.run(id);
    one.check_final();
  }
}

}  // namespace mt::verify_detail
