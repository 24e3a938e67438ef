#pragma once
// The forests of spanning_tree_packing.cpp: t edge-disjoint-per-forest forests over the same
// endpoints, with the path searches the matroid-partition augmentation and the tree shortening
// use. An implementation detail of pack_spanning_trees().

#include <algorithm>
#include <utility>
#include <vector>

#include "model/collective/spanning_tree_packing.h"

namespace mt {

/// t forests over the same endpoints, each edge in a forest at most once; paths by search.
class Forests {
 public:
  /// A node's neighbours in one forest, (peer, edge) in the order the edges were added.
  struct Neighbours {
    const std::pair<int, int>* first;
    const std::pair<int, int>* last;
    const std::pair<int, int>* begin() const { return first; }
    const std::pair<int, int>* end() const { return last; }
  };

  Forests(int nodes, int trees, const std::vector<PackingEdge>& edges)
      : edges_(edges),
        trees_(trees),
        nodes_(nodes),
        capacity_(max_degree(nodes, edges)),
        slots_(static_cast<size_t>(trees) * static_cast<size_t>(nodes) *
               static_cast<size_t>(capacity_)),
        degree_(static_cast<size_t>(trees) * static_cast<size_t>(nodes), 0),
        in_(static_cast<size_t>(trees), std::vector<char>(edges.size(), 0)),
        size_(static_cast<size_t>(trees), 0),
        centres_(static_cast<size_t>(trees)),
        prev_edge_(static_cast<size_t>(nodes)),
        dist_(static_cast<size_t>(nodes)) {}

  int trees() const { return trees_; }
  int size(int tree) const { return size_[static_cast<size_t>(tree)]; }
  bool contains(int tree, int edge) const {
    return in_[static_cast<size_t>(tree)][static_cast<size_t>(edge)] != 0;
  }
  Neighbours adjacent(int tree, int node) const {
    const std::pair<int, int>* first = slots_.data() + slot(tree, node);
    return {first, first + degree_[list(tree, node)]};
  }

  void add(int tree, int edge) {
    const PackingEdge& e = edges_[static_cast<size_t>(edge)];
    slots_[slot(tree, e.u) + static_cast<size_t>(degree_[list(tree, e.u)]++)] = {e.v, edge};
    slots_[slot(tree, e.v) + static_cast<size_t>(degree_[list(tree, e.v)]++)] = {e.u, edge};
    in_[static_cast<size_t>(tree)][static_cast<size_t>(edge)] = 1;
    ++size_[static_cast<size_t>(tree)];
    centres_[static_cast<size_t>(tree)].valid = false;
  }

  void remove(int tree, int edge) {
    const PackingEdge& e = edges_[static_cast<size_t>(edge)];
    for (int end : {e.u, e.v}) {
      std::pair<int, int>* first = slots_.data() + slot(tree, end);
      std::pair<int, int>* last = first + degree_[list(tree, end)]--;
      std::pair<int, int>* at = find(first, last, edge);
      std::copy(at + 1, last, at);
    }
    in_[static_cast<size_t>(tree)][static_cast<size_t>(edge)] = 0;
    --size_[static_cast<size_t>(tree)];
    centres_[static_cast<size_t>(tree)].valid = false;
  }

  /// Whether `tree` stays a spanning tree when it gives up edge `drop` for edge `take`: whether
  /// `take`'s endpoints are apart without `drop` (a search from one that stops at the other).
  /// Moves `drop` to the end of its endpoints' adjacency lists, as removing and adding it again
  /// would (the order decides ties in later searches).
  bool can_swap(int tree, int drop, int take) {
    const PackingEdge& out = edges_[static_cast<size_t>(drop)];
    for (int end : {out.u, out.v}) {
      std::pair<int, int>* first = slots_.data() + slot(tree, end);
      std::pair<int, int>* last = first + degree_[list(tree, end)];
      std::pair<int, int>* at = find(first, last, drop);
      std::rotate(at, at + 1, last);
    }
    centres_[static_cast<size_t>(tree)].valid = false;
    const PackingEdge& in = edges_[static_cast<size_t>(take)];
    std::fill(dist_.begin(), dist_.end(), -1);
    queue_.assign(1, in.u);
    dist_[static_cast<size_t>(in.u)] = 0;
    for (size_t i = 0; i < queue_.size(); ++i) {
      for (const auto& [y, e] : adjacent(tree, queue_[i])) {
        if (e == drop || dist_[static_cast<size_t>(y)] >= 0) continue;
        if (y == in.v) return false;
        dist_[static_cast<size_t>(y)] = 0;
        queue_.push_back(y);
      }
    }
    return true;
  }

  /// Tree i gives edge `give` to tree j and takes edge `take` from it (every load unchanged).
  void exchange(int i, int j, int give, int take) {
    remove(i, give);
    add(i, take);
    remove(j, take);
    add(j, give);
  }

  /// Edge ids on the forest path from u to v; false when they are in different components.
  bool path(int tree, int u, int v, std::vector<int>& out) {
    out.clear();
    search(tree, u);
    if (dist_[static_cast<size_t>(v)] < 0) return false;
    for (int x = v; x != u;) {
      const int e = prev_edge_[static_cast<size_t>(x)];
      out.push_back(e);
      const PackingEdge& pe = edges_[static_cast<size_t>(e)];
      x = pe.u == x ? pe.v : pe.u;
    }
    return true;
  }

  /// Breadth-first search of `tree` from `from`; returns the farthest endpoint. dist() and the
  /// predecessor edges hold the result until the next search.
  int search(int tree, int from) {
    std::fill(dist_.begin(), dist_.end(), -1);
    queue_.assign(1, from);
    dist_[static_cast<size_t>(from)] = 0;
    int last = from;
    for (size_t i = 0; i < queue_.size(); ++i) {
      const int x = queue_[i];
      last = x;
      for (const auto& [y, e] : adjacent(tree, x)) {
        if (dist_[static_cast<size_t>(y)] >= 0) continue;
        dist_[static_cast<size_t>(y)] = dist_[static_cast<size_t>(x)] + 1;
        prev_edge_[static_cast<size_t>(y)] = e;
        queue_.push_back(y);
      }
    }
    return last;
  }
  int dist(int node) const { return dist_[static_cast<size_t>(node)]; }
  /// The edge to `node`'s predecessor in the last search (undefined at its start).
  int parent_edge(int node) const { return prev_edge_[static_cast<size_t>(node)]; }
  int nodes() const { return static_cast<int>(dist_.size()); }
  /// The endpoints the last search reached, in breadth-first order.
  const std::vector<int>& order() const { return queue_; }

  /// A centre of a spanning tree and its height (hops from the centre to the farthest endpoint).
  /// Kept until the tree's next add, remove or can_swap (each reorders its adjacency lists, and
  /// with them which of two centres the searches find), so a repeated call costs no search.
  std::pair<int, int> centre(int tree) {
    Centre& known = centres_[static_cast<size_t>(tree)];
    if (!known.valid) known = {find_centre(tree), true};
    return known.result;
  }

 private:
  struct Centre {
    std::pair<int, int> result;
    bool valid = false;
  };

  std::pair<int, int> find_centre(int tree) {
    const int a = search(tree, 0);
    const int b = search(tree, a);
    const int diameter = dist(b);
    int x = b;
    for (int hops = 0; hops < diameter / 2; ++hops) {
      const PackingEdge& pe = edges_[static_cast<size_t>(prev_edge_[static_cast<size_t>(x)])];
      x = pe.u == x ? pe.v : pe.u;
    }
    return {x, diameter - diameter / 2};
  }

  const std::vector<PackingEdge>& edges_;
  /// The most edges at one endpoint: every forest's adjacency list of a node fits in it.
  static int max_degree(int nodes, const std::vector<PackingEdge>& edges) {
    std::vector<int> degree(static_cast<size_t>(nodes), 0);
    for (const PackingEdge& e : edges) {
      ++degree[static_cast<size_t>(e.u)];
      ++degree[static_cast<size_t>(e.v)];
    }
    return degree.empty() ? 0 : *std::max_element(degree.begin(), degree.end());
  }
  size_t list(int tree, int node) const {
    return static_cast<size_t>(tree) * static_cast<size_t>(nodes_) + static_cast<size_t>(node);
  }
  size_t slot(int tree, int node) const {
    return list(tree, node) * static_cast<size_t>(capacity_);
  }
  static std::pair<int, int>* find(std::pair<int, int>* first, std::pair<int, int>* last,
                                   int edge) {
    return std::find_if(first, last,
                        [edge](const std::pair<int, int>& a) { return a.second == edge; });
  }

  int trees_;
  int nodes_;
  int capacity_;
  // Per forest and node, `capacity_` slots of (peer, edge), the first degree_ of them in use.
  std::vector<std::pair<int, int>> slots_;
  std::vector<int> degree_;
  std::vector<std::vector<char>> in_;  // tree, edge
  std::vector<int> size_;
  std::vector<Centre> centres_;
  std::vector<int> prev_edge_;
  std::vector<int> dist_;
  std::vector<int> queue_;
};

}  // namespace mt
