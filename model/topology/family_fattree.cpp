// 2-level fat-tree of radix k: k leaves with k/2 endpoints each, k/2 spines; up/down routes with
// the spine chosen by the destination (d-mod-k).

#include <utility>

#include "model/topology/topology_family.h"

namespace mt {

namespace {

class FatTreeFamily : public TopologyFamily {
 public:
  void build(TopologyBuilder& b) override {
    const TopologyConfig& config = b.config();
    const int k = config.fattree_k;
    if (config.fattree_levels != 2) {
      throw TopologyError("fattree levels is " + std::to_string(config.fattree_levels) +
                          "; only 2-level fat-trees are supported");
    }
    if (k < 2 || k % 2 != 0) {
      throw TopologyError("fattree k is " + std::to_string(k) + "; k must be even and >= 2");
    }
    check_endpoint_count(std::int64_t{k} * k / 2);
    const int nodes = k * k / 2;
    const int half = k / 2;
    const int leaves = k;
    const int spines = half;
    b.set_vertices(nodes, nodes + leaves + spines, "fattree:k=" + std::to_string(k) + ",levels=2");
    for (int e = 0; e < nodes; ++e) b.add_link(e, nodes + e / half, config.nic_link_latency_cycles);
    for (int l = 0; l < leaves; ++l) {
      for (int s = 0; s < spines; ++s) {
        b.add_link(nodes + l, nodes + leaves + s, config.link_latency_cycles);
      }
    }
  }

  std::vector<int> route(const Topology& t, int src, int dst) const override {
    const int nodes = t.nodes();
    const int k = t.config().fattree_k;
    const int half = k / 2;
    const int leaf_s = nodes + src / half;
    const int leaf_d = nodes + dst / half;
    std::vector<int> path{route_hop(t, src, leaf_s)};
    if (leaf_s != leaf_d) {
      // d-mod-k: the spine is chosen by the destination, spreading traffic over all spines.
      const int spine = nodes + k + dst % half;
      path.push_back(route_hop(t, leaf_s, spine));
      path.push_back(route_hop(t, spine, leaf_d));
    }
    path.push_back(route_hop(t, leaf_d, dst));
    return path;
  }

  int distance(const Topology& t, int u, int v) const override {
    const int k = t.config().fattree_k;
    const int half = k / 2;
    const int nodes = t.nodes();
    if (tier(t, u) > tier(t, v)) std::swap(u, v);
    const int lu = tier(t, u);
    const int lv = tier(t, v);
    if (lu == 0 && lv == 0) return u / half == v / half ? 2 : 4;
    if (lu == 0 && lv == 1) return nodes + u / half == v ? 1 : 3;
    if (lu == 0) return 2;  // endpoint - spine
    if (lu == 1 && lv == 1) return 2;
    if (lu == 1) return 1;  // leaf - spine
    return 2;               // spine - spine
  }

  int diameter(const Topology&) const override {
    return 4;  // k >= 2: at least two leaves, each with an endpoint
  }

  bool link_goes_up(const Topology& t, const Link& l) const override {
    return tier(t, l.dst) > tier(t, l.src);
  }

 private:
  // Vertex classes: 0 endpoint, 1 leaf, 2 spine.
  static int tier(const Topology& t, int v) {
    return v < t.nodes() ? 0 : v < t.nodes() + t.config().fattree_k ? 1 : 2;
  }
};

}  // namespace

std::unique_ptr<TopologyFamily> make_fattree_family() {
  return std::make_unique<FatTreeFamily>();
}

}  // namespace mt
