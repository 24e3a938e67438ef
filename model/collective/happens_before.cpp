#include "model/collective/happens_before.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <numeric>
#include <thread>

namespace mt {

namespace {

int find_root(std::vector<int>& parent, int x) {
  while (parent[static_cast<std::size_t>(x)] != x) {
    int& p = parent[static_cast<std::size_t>(x)];
    p = parent[static_cast<std::size_t>(p)];
    x = p;
  }
  return x;
}

// A component's messages lie scattered over the schedule (a tree's among every other tree's), as
// do the queries of one component: the records a loop reads are fetched this many iterations
// ahead, and what a record points to (a dependency's local index) half as far ahead, once the
// record has arrived.
constexpr std::size_t kAhead = 16;

}  // namespace

void HappensBefore::prefetch_deps_of(int id) const {
  const SmallIntList& deps = s_.ops[static_cast<std::size_t>(id)].deps;
  __builtin_prefetch(&deps);
  __builtin_prefetch(reinterpret_cast<const char*>(&deps + 1) - 1);
}

void HappensBefore::prefetch_local_of_deps(int id) const {
  for (const int d : s_.ops[static_cast<std::size_t>(id)].deps)
    __builtin_prefetch(&local_[static_cast<std::size_t>(d)]);
}

HappensBefore::HappensBefore(const Schedule& schedule, const std::vector<int>& order,
                             std::uint64_t budget_words)
    : s_(schedule), order_(order), budget_words_(budget_words) {
  const std::size_t m = schedule.ops.size();
  position_.assign(m, 0);
  for (std::size_t i = 0; i < order.size(); ++i)
    position_[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
  std::vector<int> parent(m);
  std::iota(parent.begin(), parent.end(), 0);
  staged_ = staged_issue_predecessors(schedule);
  const auto join = [&parent](int x, int y) {
    const int a = find_root(parent, x);
    const int b = find_root(parent, y);
    if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
  };
  for (const Op& op : schedule.ops) {
    for (const int d : op.deps) join(op.id, d);
    if (!staged_.empty())
      for (const int k : staged_[static_cast<std::size_t>(op.id)]) join(op.id, k);
  }
  component_.assign(m, -1);
  int components = 0;
  for (std::size_t i = 0; i < m; ++i) {
    const auto root = static_cast<std::size_t>(find_root(parent, static_cast<int>(i)));
    if (component_[root] < 0) component_[root] = components++;
    component_[i] = component_[root];
  }
}

bool HappensBefore::happens_before(int x, int y) {
  return search(x, y, false);
}

bool HappensBefore::search(int x, int y, bool from_issue) {
  const auto ux = static_cast<std::size_t>(x);
  const auto uy = static_cast<std::size_t>(y);
  if (component_[ux] != component_[uy] || position_[ux] >= position_[uy]) return false;
  ++searches_;
  if (visited_.empty()) visited_.assign(s_.ops.size(), 0);
  if (++search_ == 0) {  // wrapped: forget every earlier search
    std::fill(visited_.begin(), visited_.end(), 0);
    search_ = 1;
  }
  const int floor = position_[ux];
  stack_.assign(1, y);
  visited_[uy] = search_;
  while (!stack_.empty()) {
    const int z = stack_.back();
    stack_.pop_back();
    for (const int d : s_.ops[static_cast<std::size_t>(z)].deps) {
      const auto ud = static_cast<std::size_t>(d);
      if (d == x) return true;
      // Only a message after x in the order can have x among its dependencies.
      if (position_[ud] <= floor || visited_[ud] == search_) continue;
      visited_[ud] = search_;
      stack_.push_back(d);
    }
    // A staged predecessor k was issued before z: what happened before k did, but not k's own
    // arrival (so k == x proves only that x's issue came first).
    if (staged_.empty()) continue;
    for (const int k : staged_[static_cast<std::size_t>(z)]) {
      const auto uk = static_cast<std::size_t>(k);
      if (k == x && from_issue) return true;
      if (position_[uk] <= floor || visited_[uk] == search_) continue;
      visited_[uk] = search_;
      stack_.push_back(k);
    }
  }
  return false;
}

bool HappensBefore::issued_before_staged(int x, int y) {
  const int k = s_.ops[static_cast<std::size_t>(y)].apply_after;
  return k >= 0 && (k == x || search(x, k, true));
}

std::size_t HappensBefore::ask(int x, int y) {
  queries_.emplace_back(x, y);
  return queries_.size() - 1;
}

const std::vector<char>& HappensBefore::solve(int threads) {
  answers_.assign(queries_.size(), 0);
  if (queries_.empty()) return answers_;
  const int components = 1 + *std::max_element(component_.begin(), component_.end());
  // Only queries inside one component with x before y in the order can be true.
  std::vector<std::vector<std::size_t>> by_component(static_cast<std::size_t>(components));
  for (std::size_t q = 0; q < queries_.size(); ++q) {
    if (q + kAhead < queries_.size()) {
      const auto [ax, ay] = queries_[q + kAhead];
      for (const int id : {ax, ay}) {
        __builtin_prefetch(&component_[static_cast<std::size_t>(id)]);
        __builtin_prefetch(&position_[static_cast<std::size_t>(id)]);
      }
    }
    const auto [x, y] = queries_[q];
    const auto ux = static_cast<std::size_t>(x);
    const auto uy = static_cast<std::size_t>(y);
    if (component_[ux] == component_[uy] && position_[ux] < position_[uy]) {
      by_component[static_cast<std::size_t>(component_[ux])].push_back(q);
    }
  }
  std::vector<std::vector<int>> ops(static_cast<std::size_t>(components));
  for (std::size_t i = 0; i < order_.size(); ++i) {
    if (i + kAhead < order_.size())
      __builtin_prefetch(&component_[static_cast<std::size_t>(order_[i + kAhead])]);
    const int id = order_[i];
    const auto c = static_cast<std::size_t>(component_[static_cast<std::size_t>(id)]);
    if (!by_component[c].empty()) ops[c].push_back(id);
  }
  local_.assign(s_.ops.size(), -1);
  std::vector<std::size_t> asked;  // components with queries
  for (std::size_t c = 0; c < ops.size(); ++c)
    if (!by_component[c].empty()) asked.push_back(c);
  // Components share nothing but the answers of their own queries and the local indices of
  // their own messages: each worker takes the next one, with its share of the budget.
  const std::size_t workers = std::max<std::size_t>(
      1, std::min(asked.size(),
                  threads > 0 ? static_cast<std::size_t>(threads) : threads_for(queries_.size())));
  const std::uint64_t budget = std::max<std::uint64_t>(1, budget_words_ / workers);
  std::atomic<std::size_t> next{0};
  std::vector<std::exception_ptr> failed(workers);
  const auto work = [&](std::size_t worker) {
    try {
      for (std::size_t k = next++; k < asked.size(); k = next++) {
        const std::size_t c = asked[k];
        solve_component(ops[c], by_component[c], budget);
        std::vector<int>().swap(ops[c]);
      }
    } catch (...) {
      failed[worker] = std::current_exception();
      next = asked.size();  // the others stop at their next component
    }
  };
  std::vector<std::thread> helpers;
  for (std::size_t w = 1; w < workers; ++w) helpers.emplace_back(work, w);
  work(0);
  for (std::thread& t : helpers) t.join();
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
  return answers_;
}

std::size_t HappensBefore::threads_for(std::size_t queries) {
  if (queries < kQueriesPerThread) return 1;
  const std::size_t cores = std::max<std::size_t>(1, std::thread::hardware_concurrency());
  return std::min({cores, kMaxThreads, queries / kQueriesPerThread});
}

void HappensBefore::solve_component(const std::vector<int>& ops,
                                    const std::vector<std::size_t>& queries,
                                    std::uint64_t budget_words) {
  for (std::size_t i = 0; i < ops.size(); ++i)
    local_[static_cast<std::size_t>(ops[i])] = static_cast<int>(i);
  const auto local = [this](int id) { return local_[static_cast<std::size_t>(id)]; };
  // Bits: the distinct queried ancestors, ranked in topological order.
  std::vector<int> xs;
  xs.reserve(queries.size());
  for (const std::size_t q : queries) xs.push_back(local(queries_[q].first));
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  const auto bit_of = [&xs](int local_x) {
    return static_cast<std::uint64_t>(std::lower_bound(xs.begin(), xs.end(), local_x) - xs.begin());
  };
  const std::uint64_t c = ops.size();
  const std::uint64_t total_words = (xs.size() + 63) / 64;
  const std::uint64_t words =
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(total_words, budget_words / c));
  const std::uint64_t block_bits = words * 64;
  std::vector<std::vector<std::size_t>> by_block((xs.size() + block_bits - 1) / block_bits);
  for (const std::size_t q : queries)
    by_block[bit_of(local(queries_[q].first)) / block_bits].push_back(q);
  std::vector<std::uint64_t> rows;
  for (std::size_t b = 0; b < by_block.size(); ++b) {
    if (by_block[b].empty()) continue;
    const std::uint64_t base = b * block_bits;
    const std::uint64_t end = std::min<std::uint64_t>(base + block_bits, xs.size());
    // Ops at or before the block's first ancestor have no ancestor in the block: rows start
    // there (lo) and end at the last queried descendant (hi).
    const int lo = xs[base];
    int hi = lo;
    for (const std::size_t q : by_block[b]) hi = std::max(hi, local(queries_[q].second));
    rows.assign(static_cast<std::uint64_t>(hi - lo + 1) * words, 0);
    const auto row = [&](int l) { return &rows[static_cast<std::uint64_t>(l - lo) * words]; };
    constexpr int ahead = static_cast<int>(kAhead);
    for (int z = lo + 1; z <= hi; ++z) {
      if (z + ahead <= hi) prefetch_deps_of(ops[static_cast<std::size_t>(z + ahead)]);
      if (z + ahead / 2 <= hi) prefetch_local_of_deps(ops[static_cast<std::size_t>(z + ahead / 2)]);
      std::uint64_t* out = row(z);
      for (const int d : s_.ops[static_cast<std::size_t>(ops[static_cast<std::size_t>(z)])].deps) {
        const int ld = local(d);
        if (ld < lo) continue;
        const std::uint64_t* in = row(ld);
        for (std::uint64_t w = 0; w < words; ++w) out[w] |= in[w];
        const auto it = std::lower_bound(xs.begin() + static_cast<std::ptrdiff_t>(base),
                                         xs.begin() + static_cast<std::ptrdiff_t>(end), ld);
        if (it != xs.begin() + static_cast<std::ptrdiff_t>(end) && *it == ld) {
          const auto bit = static_cast<std::uint64_t>(it - xs.begin()) - base;
          out[bit / 64] |= std::uint64_t{1} << (bit % 64);
        }
      }
      if (staged_.empty()) continue;
      // Staged predecessors pass on their ancestors but are not ancestors themselves.
      for (const int k : staged_[static_cast<std::size_t>(ops[static_cast<std::size_t>(z)])]) {
        const int lk = local(k);
        if (lk < lo) continue;
        const std::uint64_t* in = row(lk);
        for (std::uint64_t w = 0; w < words; ++w) out[w] |= in[w];
      }
    }
    const std::vector<std::size_t>& block = by_block[b];
    for (std::size_t i = 0; i < block.size(); ++i) {
      if (i + kAhead < block.size()) __builtin_prefetch(&queries_[block[i + kAhead]]);
      if (i + kAhead / 2 < block.size()) {
        const auto [ax, ay] = queries_[block[i + kAhead / 2]];
        __builtin_prefetch(&local_[static_cast<std::size_t>(ax)]);
        __builtin_prefetch(&local_[static_cast<std::size_t>(ay)]);
      }
      const std::size_t q = block[i];
      const auto [x, y] = queries_[q];
      const std::uint64_t bit = bit_of(local(x)) - base;
      answers_[q] = (row(local(y))[bit / 64] >> (bit % 64)) & 1u;
    }
  }
  for (const int id : ops) local_[static_cast<std::size_t>(id)] = -1;
}

}  // namespace mt
