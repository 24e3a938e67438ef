#pragma once
// Shared checks of the collective tests: the MultiTree forest construction invariants (and
// topologies by spec, tests/support/topologies.h).

#include <set>
#include <string>
#include <vector>

#include "model/collective/multitree.h"
#include "model/topology/topology.h"
#include "tests/support/topologies.h"

namespace mt::test {

/// Checks the construction invariants of a forest; returns the number of violations.
inline int check_forest(const mt::Topology& t, const mt::MultiTreeForest& f) {
  const int n = t.nodes();
  const int ports = t.ports_per_node();
  int bad = 0;
  for (int step = 0; step < f.steps; ++step) {
    std::vector<int> sent(static_cast<size_t>(n), 0), received(static_cast<size_t>(n), 0);
    std::set<int> links;
    for (const auto& tree : f.trees) {
      for (const auto& e : tree) {
        if (e.step != step) continue;
        ++sent[static_cast<size_t>(e.parent)];
        ++received[static_cast<size_t>(e.child)];
        const std::vector<int> path =
            e.path.empty() ? t.route(e.parent, e.child) : e.path.to_vector();
        for (int l : path) bad += links.insert(l).second ? 0 : 1;
      }
    }
    for (int u = 0; u < n; ++u) {
      bad += sent[static_cast<size_t>(u)] > ports;
      bad += received[static_cast<size_t>(u)] > ports;
    }
  }
  for (int r = 0; r < n; ++r) {
    // Spanning, and a parent joined in an earlier step than the edge that uses it.
    std::vector<int> joined(static_cast<size_t>(n), -2);
    joined[static_cast<size_t>(r)] = -1;
    for (const auto& e : f.trees[static_cast<size_t>(r)]) {
      bad += joined[static_cast<size_t>(e.child)] != -2;
      bad += joined[static_cast<size_t>(e.parent)] == -2 ||
             joined[static_cast<size_t>(e.parent)] >= e.step;
      joined[static_cast<size_t>(e.child)] = e.step;
    }
    bad += static_cast<int>(f.trees[static_cast<size_t>(r)].size()) != n - 1;
  }
  return bad;
}

}  // namespace mt::test
