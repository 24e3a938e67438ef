#pragma once
// The table packer's counter grouping (table_packer.cpp): per node, which incoming messages share
// an arrival counter, chosen so that every entry's threshold counts exactly its dependencies.

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/collective/happens_before.h"
#include "model/collective/schedule.h"

namespace mt::packing {

/// One node's packing state. Incoming messages are named by their local index (their position in
/// `incoming`), entries by their position in `entries`.
struct NodePack {
  std::vector<int> incoming;                 // message ids received (local index order)
  std::vector<int> entries;                  // message ids sent, in issue order
  std::vector<std::vector<int>> entry_deps;  // per entry: its deps (local incoming indices)
  std::vector<std::vector<int>> groups;      // counter groups (local incoming indices)
  std::vector<char> free_group;              // per group: nobody waits on it
  // Per group of group_by_deps: the flow (chunk) every member carries, -1 when they differ
  // (settle_groups keeps them for the groups it merges, then clears them).
  std::vector<int> group_flow;
  std::vector<int> group_chunk;
  std::vector<std::vector<std::size_t>> waiters;  // per group: entries waiting on it
  // (local incoming index, entry) -> index of the query "incoming before entry"; the query
  // "entry before incoming" follows it.
  std::unordered_map<std::uint64_t, std::size_t> pair_query;
};

/// Most cross pairs (one group's members against another's waiters) of a merge class (groups of
/// one flow and chunk) that group_by_deps asks in the batch; a class with more asks them on
/// demand, so that the batch grows at most by this many pairs per class.
constexpr std::size_t kBatchedClassPairs = 4096;

/// Keeps p.entries in their (table) order, groups the incoming messages that appear together in one
/// entry's deps (union-find; messages nobody waits for become singleton groups flagged free), lists
/// each group's waiting entries and each group's shared flow and chunk, and asks `ordering` the
/// happens-before queries of every group's members against its waiters (each is needed: every
/// group is checked for exactness) and, within each merge class of at most kBatchedClassPairs
/// cross pairs, of every group's members against the others' waiters (the merges settle_groups
/// tries first). `local[id]` is message id's local index at its receiver.
void group_by_deps(NodePack& p, const Schedule& schedule, const std::vector<int>& local,
                   HappensBefore& ordering);

/// What is known of the order of one node's incoming messages and the issue of its entries: from
/// the batch answers for the pairs group_by_deps asked, else (merges outside a batched class, the
/// "after every dependency" test and the staged-arrival test) one search each; remembered either
/// way.
class NodeOrders {
 public:
  NodeOrders(const NodePack& p, const std::vector<char>& answers, HappensBefore& ordering);
  /// Incoming message i (local index) arrives before entry e is issued.
  bool before(int i, std::size_t e) { return order_of(i, e) == kBefore; }
  /// Incoming message i arrives after entry e is issued.
  bool after(int i, std::size_t e) { return order_of(i, e) == kAfter; }
  /// Incoming message j arrives before incoming message i is issued (so before i arrives).
  bool precedes(int j, int i);

 private:
  static constexpr int kUnknown = 0, kBefore = 1, kAfter = 2, kUnordered = 3;
  // Two bits per pair while they fit kDenseBytes, else a hash map of the pairs looked at.
  static constexpr std::size_t kDenseBytes = std::size_t{64} << 20;
  int order_of(int i, std::size_t e);
  int get(int i, std::size_t e) const;
  void set(int i, std::size_t e, int order);

  const NodePack& pack_;
  const std::vector<char>& answers_;
  HappensBefore& ordering_;
  std::size_t entries_;
  bool sparse_ = false;
  std::vector<std::uint8_t> dense_;
  std::unordered_map<std::uint64_t, std::uint8_t> map_;
  std::unordered_map<std::uint64_t, bool> precedes_;  // (j, i) -> precedes(j, i)
};

/// The final counters of node `node`: checks that every group of group_by_deps is exact (else
/// throws TableError naming the node, the entry, its message and the unordered message: no
/// grouping can then be exact), merges groups of one single flow while every threshold stays
/// exact, and collapses the groups nobody waits on into one counter (last). Replaces p.groups;
/// reads (and then clears) the groups' flows and chunks group_by_deps set.
void settle_groups(int node, NodePack& p, NodeOrders& orders);

}  // namespace mt::packing
