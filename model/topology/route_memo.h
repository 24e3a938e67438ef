#pragma once
// Routes looked up by (source, destination) for passes over every message of a schedule:
// Topology::route computes a route and allocates it at every call, and a schedule sends millions
// of messages between few pairs (a forest's between neighbours: 33.5 M messages over 24 k pairs
// at 4096 nodes).

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "model/topology/topology.h"

namespace mt {

/// Topology::route(src, dst) computed once per pair and kept, up to `kept` pairs; past that the
/// memo starts over. A route it returns stays valid until the next call (the packet model's
/// RoutingTable keeps its routes for the whole run instead).
class RouteMemo {
 public:
  explicit RouteMemo(const Topology& topology, std::size_t kept = std::size_t{1} << 20)
      : topology_(topology), kept_(kept) {}

  const std::vector<int>& route(int src, int dst) {
    const std::uint64_t pair = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(src)) << 32) |
                               static_cast<std::uint32_t>(dst);
    const auto found = routes_.find(pair);
    if (found != routes_.end()) return found->second;
    if (routes_.size() >= kept_) routes_.clear();
    return routes_.emplace(pair, topology_.route(src, dst)).first->second;
  }

 private:
  const Topology& topology_;
  std::size_t kept_;
  std::unordered_map<std::uint64_t, std::vector<int>> routes_;
};

}  // namespace mt
