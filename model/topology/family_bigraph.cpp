// BiGraph: n switches in two halves of n/2, every switch of one half linked to every switch of
// the other, m endpoints per switch. Two switches of the same half talk through the other half.

#include <utility>

#include "model/topology/topology_family.h"

namespace mt {

namespace {

class BiGraphFamily : public TopologyFamily {
 public:
  // Routes between two switches of one half turn through the other half: a -> b -> a' -> b'
  // would close a cycle of buffers with one class.
  VcClassRule vc_class_rule(const Topology&) const override { return VcClassRule::kSwitchHops; }

  void build(TopologyBuilder& b) override {
    const TopologyConfig& config = b.config();
    const int m = config.bigraph_m;
    const int n = config.bigraph_n;
    if (m < 1) throw TopologyError("bigraph m is " + std::to_string(m) + "; m must be >= 1");
    if (n < 2 || n % 2 != 0) {
      throw TopologyError("bigraph n is " + std::to_string(n) + "; n must be even and >= 2");
    }
    check_endpoint_count(std::int64_t{m} * n);
    const int nodes = m * n;
    b.set_vertices(nodes, nodes + n, "bigraph:m=" + std::to_string(m) + ",n=" + std::to_string(n));
    for (int e = 0; e < nodes; ++e) b.add_link(e, nodes + e / m, config.nic_link_latency_cycles);
    for (int a = 0; a < n / 2; ++a) {
      for (int s = n / 2; s < n; ++s) b.add_link(nodes + a, nodes + s, config.link_latency_cycles);
    }
  }

  std::vector<int> route(const Topology& t, int src, int dst) const override {
    const int nodes = t.nodes();
    const int m = t.config().bigraph_m;
    const int halfn = t.config().bigraph_n / 2;
    const int sw_s = src / m;
    const int sw_d = dst / m;
    std::vector<int> path{route_hop(t, src, nodes + sw_s)};
    if (sw_s != sw_d) {
      const bool same_half = (sw_s < halfn) == (sw_d < halfn);
      if (same_half) {
        // Through the other half; the middle switch is chosen by the destination.
        const int other_base = sw_s < halfn ? halfn : 0;
        const int mid = other_base + dst % halfn;
        path.push_back(route_hop(t, nodes + sw_s, nodes + mid));
        path.push_back(route_hop(t, nodes + mid, nodes + sw_d));
      } else {
        path.push_back(route_hop(t, nodes + sw_s, nodes + sw_d));
      }
    }
    path.push_back(route_hop(t, nodes + sw_d, dst));
    return path;
  }

  int distance(const Topology& t, int u, int v) const override {
    const int nodes = t.nodes();
    const int m = t.config().bigraph_m;
    const int halfn = t.config().bigraph_n / 2;
    if (t.is_switch(u) && !t.is_switch(v)) std::swap(u, v);
    if (!t.is_switch(u)) {
      const int su = u / m;
      const int sv = t.is_switch(v) ? v - nodes : v / m;
      const int extra = t.is_switch(v) ? 0 : 1;  // last hop switch -> endpoint
      if (su == sv) return 1 + extra;
      return ((su < halfn) != (sv < halfn) ? 2 : 3) + extra;
    }
    return ((u - nodes < halfn) != (v - nodes < halfn)) ? 1 : 2;
  }

  int diameter(const Topology& t) const override {
    return t.config().bigraph_n >= 4 ? 4 : 3;  // two switches of one half exist when n >= 4
  }
};

}  // namespace

std::unique_ptr<TopologyFamily> make_bigraph_family() {
  return std::make_unique<BiGraphFamily>();
}

}  // namespace mt
