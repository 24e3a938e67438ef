#include "model/collective/multitree.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "model/collective/cost_model.h"
#include "model/collective/tree_emitter.h"

namespace mt {

namespace {

/// Per-step resource state of the construction.
struct StepState {
  std::vector<char> link_used;
  std::vector<int> sent;
  std::vector<int> received;
};

class ForestBuilder {
 public:
  ForestBuilder(const Topology& topology, int ports, bool local_first = false)
      : topo_(topology),
        n_(topology.nodes()),
        ports_(ports),
        local_first_(local_first),
        row_words_((static_cast<size_t>(n_) + 63) / 64),
        in_tree_(static_cast<size_t>(n_) * row_words_, 0),
        frontier_(static_cast<size_t>(n_)) {
    for (int r = 0; r < n_; ++r) {
      frontier_[static_cast<size_t>(r)] = {r};
      join(r, r);
    }
    home_.assign(static_cast<size_t>(n_), -1);
    for (int u = 0; u < n_; ++u) {
      for (int l : topo_.out_links(u)) {
        if (topo_.is_switch(topo_.link(l).dst)) {
          home_[static_cast<size_t>(u)] = topo_.link(l).dst;
          break;
        }
      }
    }
    if (local_first_) {
      reached_.assign(static_cast<size_t>(n_) * static_cast<size_t>(topo_.vertices() + 1), 0);
      for (int r = 0; r < n_; ++r) mark_reached(r, r);
    }
    const size_t states = 2 * static_cast<size_t>(topo_.vertices());
    visit_mark_.assign(states, 0);
    failed_scan_.assign(states, 0);
    failed_home_.assign(states, -1);
    own_switch_scan_.assign(static_cast<size_t>(topo_.vertices()), 0);
    own_switch_candidate_.assign(static_cast<size_t>(topo_.vertices()), 0);
    up_.assign(topo_.links().size(), 1);
    if (topo_.routes_up_down()) {
      for (size_t l = 0; l < up_.size(); ++l) up_[l] = topo_.link_goes_up(static_cast<int>(l));
    }
    if (topo_.is_direct()) {
      neighbor_begin_.push_back(0);
      for (int u = 0; u < n_; ++u) {
        for (int v : topo_.neighbors(u)) neighbors_.push_back({v, topo_.route(u, v)});
        neighbor_begin_.push_back(static_cast<int>(neighbors_.size()));
      }
    }
  }

  MultiTreeForest build() {
    MultiTreeForest forest;
    forest.trees.resize(static_cast<size_t>(n_));
    std::vector<int> priority(static_cast<size_t>(n_), 0);
    for (int u = 0; u < n_; ++u) {
      for (int v = 0; v < n_; ++v) {
        priority[static_cast<size_t>(u)] =
            std::max(priority[static_cast<size_t>(u)], topo_.distance(u, v));
      }
    }
    std::vector<int> order(static_cast<size_t>(n_));
    std::iota(order.begin(), order.end(), 0);
    std::vector<int> sorted = order;
    std::stable_sort(sorted.begin(), sorted.end(), [&](int a, int b) {
      return priority[static_cast<size_t>(a)] > priority[static_cast<size_t>(b)];
    });

    int complete = 0;
    int step = 0;
    // Speed only. Within a step a parent that has used its ports sends no more (any topology);
    // on direct topologies with the published rule (one pass) also a parent that finds no child
    // never finds one later in the step (links, ports and tree membership only fill up), and a
    // parent whose neighbours are all in the tree never finds one again. A tree's scan reads its
    // parents in the order they joined, passing over those that cannot send: for good those
    // whose neighbours are all in the tree (dropped from frontier_ at the next step), for the
    // step those before the cursor and those after it known not to send (next_live).
    const bool skip_failed = topo_.is_direct() && !local_first_;
    std::vector<int> path;  // the child's path, set by each find_child that finds one
    std::vector<size_t> cursor(static_cast<size_t>(n_), 0);
    // Per tree, frontier places that may still send this step: next[q] == q for such a place,
    // else a later place to look at (see live()); members that cannot (ports used, or no child
    // found where that is final) are passed over in later rounds of the step without being read.
    std::vector<std::vector<std::uint32_t>> next_live(static_cast<size_t>(n_));
    while (complete < n_) {
      StepState st{std::vector<char>(topo_.links().size(), 0),
                   std::vector<int>(static_cast<size_t>(n_), 0),
                   std::vector<int>(static_cast<size_t>(n_), 0)};
      std::vector<size_t> parents_at_start(static_cast<size_t>(n_));
      for (int r = 0; r < n_; ++r) {
        const auto at = static_cast<size_t>(r);
        std::vector<int>& frontier = frontier_[at];
        frontier.erase(std::remove(frontier.begin(), frontier.end(), kGone), frontier.end());
        parents_at_start[at] = frontier.size();
        // Every member of the frontier may send this step.
        cursor[at] = 0;
        std::vector<std::uint32_t>& next = next_live[at];
        next.resize(parents_at_start[at] + 1);
        std::iota(next.begin(), next.end(), 0U);
      }
      int added_this_step = 0;
      bool any = true;
      while (any) {
        any = false;
        for (size_t k = 0; k < order.size(); ++k) {
          if (skip_failed) prefetch_scan(order, k, cursor, next_live, forest.trees);
          const int root = order[k];
          std::vector<MultiTreeEdge>& edges = forest.trees[static_cast<size_t>(root)];
          if (static_cast<int>(edges.size()) == n_ - 1) continue;  // spans every endpoint
          const size_t count = parents_at_start[static_cast<size_t>(root)];
          const int passes = local_first_ ? 3 : 1;
          bool added = false;
          for (int pass = 0; pass < passes && !added; ++pass) {
            pass_ = local_first_ ? pass : 2;
            size_t& first = cursor[static_cast<size_t>(root)];
            std::vector<std::uint32_t>& next = next_live[static_cast<size_t>(root)];
            std::vector<int>& frontier = frontier_[static_cast<size_t>(root)];
            begin_scan();
            first = live(next, first);
            for (size_t q = first; q < count; q = live(next, q + 1)) {
              const int parent = frontier[q];
              if (st.sent[static_cast<size_t>(parent)] >= ports_) {
                next[q] = static_cast<std::uint32_t>(q + 1);
                if (q == first) ++first;
                continue;
              }
              parent_switch_ = home_[static_cast<size_t>(parent)];
              const int child = find_child(root, parent, st, path);
              if (child < 0) {
                if (skip_failed) {
                  next[q] = static_cast<std::uint32_t>(q + 1);
                  if (q == first) ++first;
                  if (neighbors_in_tree(root, parent)) frontier[q] = kGone;
                }
                continue;
              }
              for (int l : path) st.link_used[static_cast<size_t>(l)] = 1;
              ++st.sent[static_cast<size_t>(parent)];
              ++st.received[static_cast<size_t>(child)];
              join(root, child);
              frontier.push_back(child);
              if (local_first_) mark_reached(root, child);
              edges.push_back({child, parent, step, path});
              if (static_cast<int>(edges.size()) == n_ - 1) ++complete;
              any = true;
              added = true;
              ++added_this_step;
              break;
            }
          }
          pass_ = 2;
        }
        order = sorted;
      }
      if (added_this_step == 0) {
        throw AlgorithmError("multitree: topology " + topo_.name() +
                             " is disconnected, the trees cannot span all endpoints");
      }
      ++step;
    }
    forest.steps = step;
    return forest;
  }

 private:
  /// Membership of `node` in tree `root`: one bit each, a row of N bits per tree (a byte each
  /// missed the cache on most tests at 4096 nodes).
  bool in_tree(int root, int node) const {
    const size_t bit = static_cast<size_t>(node);
    return (in_tree_[static_cast<size_t>(root) * row_words_ + bit / 64] >> (bit % 64)) & 1U;
  }
  void join(int root, int node) {
    const size_t bit = static_cast<size_t>(node);
    in_tree_[static_cast<size_t>(root) * row_words_ + bit / 64] |= std::uint64_t{1} << (bit % 64);
  }

  /// Speed only (direct topologies): the scan of the root kAhead places after order[k] will first
  /// read its live-place pointer and its frontier member at the cursor, and append to its tree's
  /// edges; the scan half as far ahead reads that member's neighbours' bits in its tree's row. A
  /// tree's lines are evicted by the other trees' scans in between.
  void prefetch_scan(const std::vector<int>& order, size_t k, const std::vector<size_t>& cursor,
                     const std::vector<std::vector<std::uint32_t>>& next_live,
                     const std::vector<std::vector<MultiTreeEdge>>& edges) const {
    constexpr size_t kAhead = 8;
    if (k + kAhead < order.size()) {
      const auto r = static_cast<size_t>(order[k + kAhead]);
      if (cursor[r] < frontier_[r].size()) {
        __builtin_prefetch(&next_live[r][cursor[r]]);
        __builtin_prefetch(&frontier_[r][cursor[r]]);
      }
      __builtin_prefetch(edges[r].data() + edges[r].size(), 1);
    }
    if (k + kAhead / 2 < order.size()) {
      const auto r = static_cast<size_t>(order[k + kAhead / 2]);
      if (cursor[r] >= frontier_[r].size() || frontier_[r][cursor[r]] == kGone) return;
      for (const Neighbor& nb : neighbors_of(frontier_[r][cursor[r]]))
        __builtin_prefetch(&in_tree_[r * row_words_ + static_cast<size_t>(nb.node) / 64]);
    }
  }

  /// The first member at or after `q` that may still send this step (next.size() - 1 when
  /// none), halving the paths it follows.
  static size_t live(std::vector<std::uint32_t>& next, size_t q) {
    while (next[q] != q) {
      next[q] = next[next[q]];
      q = next[q];
    }
    return q;
  }

  /// True when every neighbour of `u` is in tree `root` (direct topologies).
  bool neighbors_in_tree(int root, int u) const {
    for (const Neighbor& nb : neighbors_of(u)) {
      if (!in_tree(root, nb.node)) return false;
    }
    return true;
  }

  /// A direct topology's neighbours of endpoint `u` with their routes.
  struct Neighbor {
    int node;
    SmallIntList path;  // u -> node
  };
  struct NeighborRange {
    const Neighbor* first;
    const Neighbor* last;
    const Neighbor* begin() const { return first; }
    const Neighbor* end() const { return last; }
  };
  NeighborRange neighbors_of(int u) const {
    const auto at = static_cast<size_t>(u);
    return {neighbors_.data() + neighbor_begin_[at], neighbors_.data() + neighbor_begin_[at + 1]};
  }

  bool child_ok(int root, int v, const StepState& st) const {
    return !in_tree(root, v) && st.received[static_cast<size_t>(v)] < ports_ && pass_ok(root, v);
  }

  /// Local-first passes (multitree_opt on switch topologies): pass 0 takes only children on the
  /// parent's own switch, pass 1 only children on a switch the tree has not reached yet (one
  /// representative per switch), pass 2 any child (the published rule).
  bool pass_ok(int root, int v) const {
    if (pass_ == 2) return true;
    const int sw = home_[static_cast<size_t>(v)];
    if (pass_ == 0) return sw >= 0 && sw == parent_switch_;
    return !reached_[switch_index(root, sw)];
  }

  /// Where reached_ holds whether tree `root` has a member on switch `sw` (-1: on none).
  size_t switch_index(int root, int sw) const {
    const int column = sw >= 0 ? sw : topo_.vertices();
    return static_cast<size_t>(root) * static_cast<size_t>(topo_.vertices() + 1) +
           static_cast<size_t>(column);
  }
  /// Tree `root` has a member on `member`'s switch now (pass 1 reads it; local-first only).
  void mark_reached(int root, int member) {
    reached_[switch_index(root, home_[static_cast<size_t>(member)])] = 1;
  }

  int find_child(int root, int parent, const StepState& st, std::vector<int>& path) const {
    if (topo_.is_direct()) {
      // The step's links first: by the end of a step most are taken, and they sit in the cache
      // where the tree's membership row does not (the same answer as child_ok first).
      for (const Neighbor& nb : neighbors_of(parent)) {
        bool free = true;
        for (int l : nb.path) free = free && !st.link_used[static_cast<size_t>(l)];
        if (!free || !child_ok(root, nb.node, st)) continue;
        path.assign(nb.path.begin(), nb.path.end());
        return nb.node;
      }
      return -1;
    }
    if (!candidate_exists(root, st)) return -1;
    ++visit_gen_;
    for (int l : topo_.out_links(parent)) {
      if (st.link_used[static_cast<size_t>(l)]) continue;
      const int w = topo_.link(l).dst;
      if (!topo_.is_switch(w)) {  // endpoint-to-endpoint link (custom topologies)
        if (!child_ok(root, w, st)) continue;
        path = {l};
        return w;
      }
      const bool down = went_down(false, l);
      if (visited(w, down)) continue;
      mark_visited(w, down);
      path = {l};
      const int found = search_switch(root, w, down, st, path);
      if (found >= 0) return found;
    }
    path.clear();
    return -1;
  }

  /// Whether a route that has `down` (gone down a link already) may take link `l`, and whether
  /// it has gone down after it: on up*/down* families (fat-tree, custom) a route never turns up
  /// after going down; elsewhere every link reads as "up" (no constraint).
  bool may_take(bool down, int l) const { return !down || !goes_up(l); }
  bool went_down(bool down, int l) const { return down || !goes_up(l); }
  bool goes_up(int l) const { return up_[static_cast<size_t>(l)] != 0; }

  /// A search can only end at an endpoint that may join (child_ok) over a free link into it: when
  /// there is none, every search of the scan fails (speed only). Pass 0 takes only the parent's
  /// own switch's endpoints, so its answer is per scan and switch; the others' per scan.
  bool candidate_exists(int root, const StepState& st) const {
    if (pass_ != 0 && candidate_scan_ == scan_) return candidate_;
    const auto joinable = [&](int v) {
      if (!child_ok(root, v, st)) return false;
      for (int l : topo_.in_links(v))
        if (!st.link_used[static_cast<size_t>(l)]) return true;
      return false;
    };
    bool any = false;
    if (pass_ == 0) {
      if (parent_switch_ < 0) return false;
      const size_t sw = static_cast<size_t>(parent_switch_);
      if (own_switch_scan_[sw] == scan_) return own_switch_candidate_[sw] != 0;
      for (int l : topo_.out_links(parent_switch_)) {  // child_ok holds pass 0's switch rule
        const int v = topo_.link(l).dst;
        if (!topo_.is_switch(v) && joinable(v)) {
          any = true;
          break;
        }
      }
      own_switch_scan_[sw] = scan_;
      own_switch_candidate_[sw] = any;
      return any;
    }
    for (int v = 0; v < n_ && !any; ++v) any = joinable(v);
    candidate_scan_ = scan_;
    candidate_ = any;
    return any;
  }

  /// Search states are (switch, gone down): one visited mark each, per find_child call.
  bool visited(int sw, bool down) const { return visit_mark_[state(sw, down)] == visit_gen_; }
  void mark_visited(int sw, bool down) const { visit_mark_[state(sw, down)] = visit_gen_; }
  static size_t state(int sw, bool down) { return 2 * static_cast<size_t>(sw) + (down ? 1 : 0); }

  /// True when some link from switch `sw` into an endpoint is still free this step.
  bool has_free_endpoint_link(int sw, const StepState& st) const {
    for (int l : topo_.out_links(sw)) {
      if (!topo_.is_switch(topo_.link(l).dst) && !st.link_used[static_cast<size_t>(l)]) return true;
    }
    return false;
  }

  /// Endpoint of switch `sw` over a free link that can join tree `root`, or -1.
  int endpoint_child(int root, int sw, const StepState& st, std::vector<int>& path) const {
    for (int l : topo_.out_links(sw)) {
      const int w = topo_.link(l).dst;
      if (topo_.is_switch(w) || st.link_used[static_cast<size_t>(l)] || !child_ok(root, w, st))
        continue;
      path.push_back(l);
      return w;
    }
    return -1;
  }

  /// Depth-first search as published: at switch `sw` take one of its own endpoints; otherwise
  /// look at each neighbor switch reachable over a free link: one that still has a free link
  /// into an endpoint is a leaf, tried for a child but not passed through; one without (a spine,
  /// or a leaf whose endpoints all receive already this step) is descended into. On up*/down*
  /// families the search keeps the route legal: once it has gone down it takes no up link (the
  /// published search would pass through a full leaf, down then up, which deadlock-free routing
  /// refuses).
  int search_switch(int root, int sw, bool down, const StepState& st,
                    std::vector<int>& path) const {
    if (failed_before(sw, down)) return -1;
    const int own = endpoint_child(root, sw, st, path);
    if (own >= 0) return own;
    for (int l : topo_.out_links(sw)) {
      const int w = topo_.link(l).dst;
      if (!topo_.is_switch(w) || st.link_used[static_cast<size_t>(l)] || !may_take(down, l))
        continue;
      const bool next_down = went_down(down, l);
      if (visited(w, next_down)) continue;
      path.push_back(l);
      if (has_free_endpoint_link(w, st)) {
        mark_visited(w, false);  // a leaf is tried, never passed through: one state
        mark_visited(w, true);
        const int child = endpoint_child(root, w, st, path);
        if (child >= 0) return child;
      } else {
        mark_visited(w, next_down);
        const int child = search_switch(root, w, next_down, st, path);
        if (child >= 0) return child;
      }
      path.pop_back();
    }
    remember_failed(sw, down);
    return -1;
  }

  /// Failed searches of the current scan (one root's pass over its parents, during which no
  /// link, receiver or tree member changes): a search from (switch, gone down) that found no
  /// child finds none again for a later parent, since every state it reached had none (the
  /// states it could not enter because this search had visited them were searched in full
  /// already); so the later parents skip it. Local-first pass 0 also depends on the parent's
  /// switch, which the mark records.
  void begin_scan() const { ++scan_; }
  bool failed_before(int sw, bool down) const {
    const size_t s = state(sw, down);
    return failed_scan_[s] == scan_ && (pass_ != 0 || failed_home_[s] == parent_switch_);
  }
  void remember_failed(int sw, bool down) const {
    const size_t s = state(sw, down);
    failed_scan_[s] = scan_;
    failed_home_[s] = parent_switch_;
  }

  const Topology& topo_;
  int n_;
  int ports_;
  bool local_first_ = false;  // multitree_opt on switch topologies, see pass_ok()
  mutable int pass_ = 2;      // current local-first pass (2 = published rule)
  mutable int parent_switch_ = -1;
  std::vector<int> home_;  // switch of each endpoint (-1 on direct topologies)
  size_t row_words_;
  std::vector<std::uint64_t> in_tree_;
  // Per tree and switch: a member of the tree sits on the switch (local-first passes only).
  std::vector<char> reached_;
  // Per tree: the members that may still gain a child, in the order they joined (kGone: found
  // to have every neighbour in the tree, dropped at the next step).
  static constexpr int kGone = -1;
  std::vector<std::vector<int>> frontier_;
  std::vector<Neighbor> neighbors_;  // direct topologies: every endpoint's, endpoint by endpoint
  std::vector<int> neighbor_begin_;  // where each endpoint's neighbours start in neighbors_
  // Switch topologies' search (find_child): per (switch, gone down) state, the find_child call
  // that visited it and the scan whose search from it failed (with the parent's switch then).
  mutable std::vector<std::uint64_t> visit_mark_;
  mutable std::uint64_t visit_gen_ = 0;
  mutable std::vector<std::uint64_t> failed_scan_;
  mutable std::vector<int> failed_home_;
  mutable std::uint64_t scan_ = 0;
  mutable std::uint64_t candidate_scan_ = 0;  // the scan candidate_ was found for
  mutable bool candidate_ = false;
  mutable std::vector<std::uint64_t> own_switch_scan_;  // pass 0: per switch, as candidate_
  mutable std::vector<char> own_switch_candidate_;
  std::vector<char> up_;  // per link: goes up (up*/down* families), else 1 (no constraint)
};

}  // namespace

MultiTreeForest build_multitree_forest(const Topology& topology, int ports) {
  if (ports <= 0) ports = topology.ports_per_node();
  if (ports <= 0) ports = 1;
  if (topology.nodes() < 2) {
    MultiTreeForest forest;
    forest.trees.resize(static_cast<size_t>(topology.nodes()));
    return forest;
  }
  return ForestBuilder(topology, ports).build();
}

MultiTreeForest build_local_first_forest(const Topology& topology, int ports) {
  if (ports <= 0) ports = topology.ports_per_node();
  if (ports <= 0) ports = 1;
  if (topology.nodes() < 2) {
    MultiTreeForest forest;
    forest.trees.resize(static_cast<size_t>(std::max(topology.nodes(), 0)));
    return forest;
  }
  return ForestBuilder(topology, ports, true).build();
}

MultiTreeStats multitree_stats(const Topology& topology) {
  MultiTreeStats stats;
  stats.construction_steps = build_multitree_forest(topology).steps;
  stats.step_lower_bound = step_lower_bound(topology);
  stats.diameter = topology.diameter();
  return stats;
}

Schedule multitree_schedule(const Topology& topology, const MultiTreeForest& forest) {
  return multitree_pipelined_schedule(topology, forest, 1, "multitree");
}

Schedule build_multitree(const Topology& topology, const MultiTreeParams&, const BuildContext&) {
  require_min_nodes("multitree", topology);
  return multitree_schedule(topology, build_multitree_forest(topology));
}

Schedule multitree_pipelined_schedule(const Topology& topology, const MultiTreeForest& forest,
                                      int pipeline, const std::string& name) {
  const int n = topology.nodes();
  const int steps = forest.steps;
  const int pp = std::max(1, pipeline);
  Schedule schedule = new_schedule(name, topology, std::int64_t{n} * pp);
  const bool explicit_paths = !topology.is_direct();
  // Tree r is flow r; the edge of construction step t reduces at step T-1-t and broadcasts at
  // T+t. Edges by construction step, each step's in (root, edge) order.
  std::vector<EmitterTree> trees;
  trees.reserve(static_cast<size_t>(n));
  std::vector<std::vector<std::pair<int, int>>> by_step(static_cast<size_t>(std::max(steps, 0)));
  for (int r = 0; r < n; ++r) {
    EmitterTree& tree = trees.emplace_back(n, r);
    for (const auto& e : forest.trees[static_cast<size_t>(r)]) {
      tree.add_edge(e.parent, e.child, steps - 1 - e.step, steps + e.step,
                    explicit_paths ? e.path.to_vector() : std::vector<int>{});
      by_step.at(static_cast<size_t>(e.step)).emplace_back(r, e.child);
    }
  }
  // A reduce and a broadcast per tree edge and sub-chunk.
  std::size_t messages = 0;
  for (const auto& edges : by_step) messages += 2 * edges.size() * static_cast<std::size_t>(pp);
  schedule.reserve(messages);
  TreeEmitter emitter(schedule, topology, trees, {pp, 0});
  for (int t = steps - 1; t >= 0; --t) emitter.reduces(by_step[static_cast<size_t>(t)]);
  for (int t = 0; t < steps; ++t) emitter.broadcasts(by_step[static_cast<size_t>(t)]);
  return schedule;
}

}  // namespace mt
