// One crossbar switch with every endpoint linked to it: endpoint -> switch -> endpoint.

#include "model/topology/topology_family.h"

namespace mt {

namespace {

class SwitchFamily : public TopologyFamily {
 public:
  void build(TopologyBuilder& b) override {
    const TopologyConfig& config = b.config();
    check_endpoint_count(config.switch_nodes);
    const int nodes = config.switch_nodes;
    b.set_vertices(nodes, nodes + 1, "switch:nodes=" + std::to_string(nodes));
    for (int e = 0; e < nodes; ++e) b.add_link(e, nodes, config.nic_link_latency_cycles);
  }

  std::vector<int> route(const Topology& t, int src, int dst) const override {
    return {route_hop(t, src, t.nodes()), route_hop(t, t.nodes(), dst)};
  }

  int distance(const Topology& t, int u, int v) const override {
    return t.is_switch(u) || t.is_switch(v) ? 1 : 2;
  }

  int diameter(const Topology& t) const override { return t.nodes() > 1 ? 2 : 0; }
};

}  // namespace

std::unique_ptr<TopologyFamily> make_switch_family() {
  return std::make_unique<SwitchFamily>();
}

}  // namespace mt
