#pragma once
// The one tree emitter: turns rooted trees over endpoints into reduce-up / broadcast-down
// messages (dbtree, multitree, multitree_opt, tree_packing). A node sends its reduce message to
// its parent once the reduce messages of all its children have arrived; the root's broadcasts
// wait for the reduce messages of all its children, every other broadcast for the broadcast that
// brought the chunk to its sender. What differs between algorithms is a parameter: the step of
// every edge, whether sub-chunks shift steps (pipelining), explicit paths, and the emission order
// (which decides message ids), which stays with the caller.

#include <cstddef>
#include <utility>
#include <vector>

#include "model/collective/schedule.h"
#include "model/topology/topology.h"

namespace mt {

/// One rooted tree as the emitter needs it; every vector is indexed by endpoint (size N).
struct EmitterTree {
  int root = 0;
  std::vector<int> parent;                 ///< parent endpoint, -1 at the root and off the tree
  std::vector<std::vector<int>> children;  ///< children, in the order their messages are deps
  std::vector<int> reduce_step;            ///< step of the reduce node -> parent, sub-chunk 0
  std::vector<int> broadcast_step;         ///< step of the broadcast parent -> node, sub-chunk 0
  /// Explicit path parent -> node as directed link ids (the reduce takes the reverse links);
  /// empty (or no entry: only trees with explicit paths size it) = the topology's routing.
  std::vector<std::vector<int>> path;

  /// A tree over `nodes` endpoints rooted at `root`, no edges yet.
  EmitterTree(int nodes, int root);
  /// Adds the edge parent -> child (children listed in the order of the calls).
  void add_edge(int parent, int child, int reduce_step, int broadcast_step,
                std::vector<int> path = {});
};

/// How sub-chunks of one tree are numbered and timed.
struct TreePipeline {
  int sub_chunks = 1;  ///< P: tree t, sub-chunk p carries chunk t * P + p, flow t
  /// Steps sub-chunk p adds to its edge's step: 1 = every sub-chunk one step after the previous
  /// (dbtree, tree_packing), 0 = all sub-chunks share the edge's step (multitree_opt).
  int step_per_sub_chunk = 1;
  /// W > 0: a node's reduce of sub-chunk p + W also waits for the broadcast of sub-chunk p into
  /// that node, so at most W sub-chunks of a tree are in flight at a node. Each arrival group's
  /// counter is then free again before the group W sub-chunks later arrives, which lets the
  /// co-designed NIC's table packer reuse it (a bounded counter file). Sub-chunks whose window
  /// dependency would point to a later step are shifted to later steps. 0 = no window.
  int window = 0;
};

/// Emits the messages of a set of trees into one schedule, keeping the message ids every later
/// message depends on. The caller decides the order of the calls (children's reduce before their
/// parent's, a parent's incoming broadcast before its outgoing ones).
class TreeEmitter {
 public:
  /// `trees[t]` is tree t (flow t); `topology` gives the reverse links of explicit paths. Both
  /// must outlive the emitter.
  TreeEmitter(Schedule& schedule, const Topology& topology, const std::vector<EmitterTree>& trees,
              TreePipeline pipeline);

  /// The reduce message of sub-chunk `sub` from `node` to its parent in tree `tree`; returns its
  /// id.
  int reduce(int tree, int node, int sub);
  /// The broadcast message of sub-chunk `sub` from `node`'s parent to `node`; returns its id.
  int broadcast(int tree, int node, int sub);
  /// Every reduce of (tree, sub) from the nodes of `up` in that order (children before their
  /// parents), then every broadcast into the nodes of `down` in that order (parents first).
  void emit(int tree, int sub, const std::vector<int>& up, const std::vector<int>& down);
  /// reduce(tree, node, sub) for every (tree, node) of `edges` in that order, each for every
  /// sub-chunk in turn; the same messages as those calls, made faster where the edges lie far
  /// apart (a forest's: what each call reads is fetched a few edges ahead).
  void reduces(const std::vector<std::pair<int, int>>& edges);
  /// broadcast(tree, node, sub) likewise.
  void broadcasts(const std::vector<std::pair<int, int>>& edges);

 private:
  // Speed only: starts fetching what the calls for edges[k + a few] will read (reduces(),
  // broadcasts()).
  void prefetch_ahead(const std::vector<std::pair<int, int>>& edges, std::size_t k,
                      OpKind kind) const;
  std::size_t slot(int tree, int node, int sub) const;
  Op message(int tree, int sub, int node, int peer, int step, OpKind kind) const;

  Schedule& schedule_;
  const Topology& topology_;
  const std::vector<EmitterTree>& trees_;
  TreePipeline pipeline_;
  int nodes_ = 0;
  std::vector<int> reduce_msg_;          // (tree, node, sub) -> reduce sent by node
  std::vector<int> broadcast_msg_;       // (tree, node, sub) -> broadcast into node
  std::vector<std::vector<int>> shift_;  // (tree, sub) -> steps added by the window (or empty)
};

/// Rooted views of a tree given by parents: children in ascending id, depth (root 0) and height
/// (hops to the deepest leaf below), and its preorder (children in ascending id). Used by the
/// algorithms that derive steps from depth and height (dbtree).
struct RootedTree {
  int root = -1;
  std::vector<std::vector<int>> children;
  std::vector<int> depth;
  std::vector<int> height;
  std::vector<int> preorder;
};
RootedTree rooted_tree(const std::vector<int>& parent);

}  // namespace mt
