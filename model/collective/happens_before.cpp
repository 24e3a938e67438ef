#include "model/collective/happens_before.h"

#include <algorithm>
#include <numeric>

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

}  // namespace

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

const std::vector<char>& HappensBefore::solve() {
  answers_.assign(queries_.size(), 0);
  if (queries_.empty()) return answers_;
  const int components = 1 + *std::max_element(component_.begin(), component_.end());
  // Only queries inside one component with x before y in the order can be true.
  std::vector<std::vector<std::size_t>> by_component(static_cast<std::size_t>(components));
  for (std::size_t q = 0; q < queries_.size(); ++q) {
    const auto [x, y] = queries_[q];
    const auto ux = static_cast<std::size_t>(x);
    const auto uy = static_cast<std::size_t>(y);
    if (component_[ux] == component_[uy] && position_[ux] < position_[uy]) {
      by_component[static_cast<std::size_t>(component_[ux])].push_back(q);
    }
  }
  std::vector<std::vector<int>> ops(static_cast<std::size_t>(components));
  for (const int id : order_) {
    const auto c = static_cast<std::size_t>(component_[static_cast<std::size_t>(id)]);
    if (!by_component[c].empty()) ops[c].push_back(id);
  }
  local_.assign(s_.ops.size(), -1);
  for (std::size_t c = 0; c < ops.size(); ++c) {
    if (by_component[c].empty()) continue;
    solve_component(ops[c], by_component[c]);
    std::vector<int>().swap(ops[c]);
  }
  return answers_;
}

void HappensBefore::solve_component(const std::vector<int>& ops,
                                    const std::vector<std::size_t>& queries) {
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
      std::max<std::uint64_t>(1, std::min<std::uint64_t>(total_words, budget_words_ / c));
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
    for (int z = lo + 1; z <= hi; ++z) {
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
    for (const std::size_t q : by_block[b]) {
      const auto [x, y] = queries_[q];
      const std::uint64_t bit = bit_of(local(x)) - base;
      answers_[q] = (row(local(y))[bit / 64] >> (bit % 64)) & 1u;
    }
  }
  for (const int id : ops) local_[static_cast<std::size_t>(id)] = -1;
}

}  // namespace mt
