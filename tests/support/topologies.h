#pragma once
// Topologies by spec for the tests ("torus:4x4", "mesh:4x4", "fattree:k=4,levels=2", ...).

#include <string>

#include "model/topology/topology.h"

namespace mt::test {

/// The topology `spec` names, with `ports` NIC ports per node (0: one per network link).
inline mt::Topology make(const std::string& spec, int ports = 0) {
  mt::TopologyConfig config = mt::parse_topology_spec(spec);
  config.ports_per_node = ports;
  return mt::Topology(config);
}

}  // namespace mt::test
