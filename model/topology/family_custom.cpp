// Custom topologies: explicit bidirectional edges between endpoints and switches. Distances come
// from an all-pairs BFS (Boost.Graph); routes are the shortest up*/down* paths on a BFS spanning
// tree, which no cycle of channel dependencies can close.

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/visitors.hpp>
#include <deque>
#include <utility>

#include "model/topology/topology_family.h"

namespace mt {

namespace {

class CustomFamily : public TopologyFamily {
 public:
  void build(TopologyBuilder& b) override {
    add_edges(b);
    compute_distances(b.topology());
    compute_levels(b.topology());
  }

  std::vector<int> route(const Topology& t, int src, int dst) const override;

  int distance(const Topology& t, int u, int v) const override {
    const auto nv = static_cast<size_t>(t.vertices());
    return dist_[static_cast<size_t>(u) * nv + static_cast<size_t>(v)];
  }

  int diameter(const Topology& t) const override {
    int d = 0;
    for (int u = 0; u < t.nodes(); ++u) {
      for (int v = 0; v < t.nodes(); ++v) d = std::max(d, t.distance(u, v));
    }
    return d;
  }

  // Up: towards the root of the BFS spanning tree in the order (tree level, vertex id).
  bool link_goes_up(const Topology&, const Link& l) const override {
    const auto order = [&](int v) { return std::make_pair(level_[static_cast<size_t>(v)], v); };
    return order(l.dst) < order(l.src);
  }

 private:
  static void add_edges(TopologyBuilder& b);
  void compute_distances(const Topology& t);
  void compute_levels(const Topology& t);

  // All-pairs hop counts, row-major vertices x vertices.
  std::vector<std::int16_t> dist_;
  // BFS level of every vertex in the up*/down* spanning tree.
  std::vector<int> level_;
};

void CustomFamily::add_edges(TopologyBuilder& b) {
  const TopologyConfig& config = b.config();
  check_endpoint_count(config.custom_nodes);
  if (config.custom_switches < 0) {
    throw TopologyError("custom topology has " + std::to_string(config.custom_switches) +
                        " switches; must be >= 0");
  }
  const int nodes = config.custom_nodes;
  const int vertices = nodes + config.custom_switches;
  b.set_vertices(nodes, vertices,
                 "custom:nodes=" + std::to_string(nodes) +
                     ",switches=" + std::to_string(config.custom_switches) +
                     ",edges=" + std::to_string(config.custom_edges.size()));
  const Topology& t = b.topology();
  for (size_t i = 0; i < config.custom_edges.size(); ++i) {
    const EdgeConfig& e = config.custom_edges[i];
    const std::string where = "custom edge " + std::to_string(i) + " (" + std::to_string(e.a) +
                              "-" + std::to_string(e.b) + ")";
    ErrorLocation at;  // the edge's key, under the topology (config key `edges`)
    at.key_path = "edges[" + std::to_string(i) + "]";
    for (int v : {e.a, e.b}) {
      if (v < 0 || v >= vertices) {
        throw TopologyError(where + ": vertex " + std::to_string(v) +
                                " is out of range; vertices are 0.." +
                                std::to_string(vertices - 1) + " (endpoints 0.." +
                                std::to_string(nodes - 1) + ", then switches)",
                            at);
      }
    }
    if (e.a == e.b) throw TopologyError(where + ": a link cannot connect a vertex to itself", at);
    if (t.link_between(e.a, e.b) != -1) {
      throw TopologyError(where + ": duplicates an earlier edge between the same vertices", at);
    }
    const bool nic = t.is_switch(e.a) != t.is_switch(e.b);
    b.add_link(e.a, e.b, nic ? config.nic_link_latency_cycles : config.link_latency_cycles);
  }
}

void CustomFamily::compute_distances(const Topology& t) {
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  const int nv = t.vertices();
  Graph g(static_cast<size_t>(nv));
  for (const Link& l : t.links())
    boost::add_edge(static_cast<size_t>(l.src), static_cast<size_t>(l.dst), g);
  dist_.assign(static_cast<size_t>(nv) * static_cast<size_t>(nv), -1);
  std::vector<int> d(static_cast<size_t>(nv));
  std::vector<boost::default_color_type> color(static_cast<size_t>(nv));
  for (int s = 0; s < nv; ++s) {
    std::fill(d.begin(), d.end(), -1);
    d[static_cast<size_t>(s)] = 0;
    boost::breadth_first_search(g, static_cast<size_t>(s),
                                boost::visitor(boost::make_bfs_visitor(boost::record_distances(
                                                   d.data(), boost::on_tree_edge())))
                                    .color_map(boost::make_iterator_property_map(
                                        color.begin(), boost::get(boost::vertex_index, g))));
    for (int v = 0; v < nv; ++v) {
      dist_[static_cast<size_t>(s) * static_cast<size_t>(nv) + static_cast<size_t>(v)] =
          static_cast<std::int16_t>(d[static_cast<size_t>(v)]);
    }
  }
  for (int v = 0; v < nv; ++v) {
    if (dist_[static_cast<size_t>(v)] < 0) {
      throw TopologyError("custom topology is disconnected: " +
                          std::string(t.is_switch(v) ? "switch vertex " : "endpoint ") +
                          std::to_string(v) + " cannot be reached from endpoint 0");
    }
  }
}

// The spanning tree's root is the first switch, or endpoint 0 when there is none.
void CustomFamily::compute_levels(const Topology& t) {
  const int root = t.is_direct() ? 0 : t.nodes();
  level_.assign(static_cast<size_t>(t.vertices()), -1);
  std::deque<int> queue{root};
  level_[static_cast<size_t>(root)] = 0;
  while (!queue.empty()) {
    const int v = queue.front();
    queue.pop_front();
    for (int l : t.out_links(v)) {
      const int w = t.link(l).dst;
      if (level_[static_cast<size_t>(w)] >= 0) continue;
      level_[static_cast<size_t>(w)] = level_[static_cast<size_t>(v)] + 1;
      queue.push_back(w);
    }
  }
}

// Shortest up*/down* path: BFS over (vertex, gone down yet) states, out links in id order so the
// first path found takes the lowest link id at every hop. Every pair has one (up the spanning
// tree to the root, then down), so the search always reaches dst.
std::vector<int> CustomFamily::route(const Topology& t, int src, int dst) const {
  const size_t nv = static_cast<size_t>(t.vertices());
  std::vector<int> via(2 * nv, -2);  // state -> link taken into it (-1: the start)
  std::vector<size_t> parent(2 * nv, 0);
  std::deque<size_t> queue{static_cast<size_t>(src) * 2};
  via[static_cast<size_t>(src) * 2] = -1;
  size_t found = 2 * nv;
  while (!queue.empty() && found == 2 * nv) {
    const size_t state = queue.front();
    queue.pop_front();
    const bool down = state % 2 == 1;
    std::vector<int> out = t.out_links(static_cast<int>(state / 2));
    std::sort(out.begin(), out.end());
    for (int l : out) {
      const Link& link = t.link(l);
      const bool up = link_goes_up(t, link);
      if (down && up) continue;  // no up link after a down link
      const size_t next = static_cast<size_t>(link.dst) * 2 + (up ? 0 : 1);
      if (via[next] != -2) continue;
      via[next] = l;
      parent[next] = state;
      if (next / 2 == static_cast<size_t>(dst)) {
        found = next;
        break;
      }
      queue.push_back(next);
    }
  }
  if (found == 2 * nv)  // cannot happen on a connected graph; never return a wrong route
    throw TopologyError("internal routing error on " + t.name() + ": no up*/down* route " +
                        std::to_string(src) + "->" + std::to_string(dst));
  std::vector<int> path;
  for (size_t state = found; via[state] >= 0; state = parent[state]) path.push_back(via[state]);
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace

std::unique_ptr<TopologyFamily> make_custom_family() {
  return std::make_unique<CustomFamily>();
}

}  // namespace mt
