// The tree emitter on a hand-computed tiny tree: 0 is the root with children 1 and 2, and 3 hangs
// below 1. Reduce 3->1, 1->0, 2->0; broadcast 0->1, 0->2, 1->3.
#include <catch2/catch.hpp>

#include <vector>

#include "model/collective/tree_emitter.h"
#include "model/topology/topology.h"

using mt::OpKind;

namespace {

mt::Topology ring4() {
  return mt::Topology(mt::parse_topology_spec("ring:4"));
}

// Steps as dbtree counts them: reduce at the sender's height, broadcast at H + parent's depth.
mt::EmitterTree tiny_tree() {
  mt::EmitterTree tree(4, 0);
  tree.add_edge(0, 1, 1, 2);
  tree.add_edge(0, 2, 0, 2);
  tree.add_edge(1, 3, 0, 3);
  return tree;
}

struct Expected {
  int node, peer, chunk, flow, step;
  OpKind kind;
  std::vector<int> deps;
};

void check_ops(const mt::Schedule& s, const std::vector<Expected>& want) {
  REQUIRE(s.ops.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("message " << i);
    const mt::Op& op = s.ops[i];
    CHECK(op.node == want[i].node);
    CHECK(op.peer == want[i].peer);
    CHECK(op.chunk == want[i].chunk);
    CHECK(op.flow == want[i].flow);
    CHECK(op.step == want[i].step);
    CHECK(op.kind == want[i].kind);
    CHECK(op.deps == want[i].deps);
    CHECK(op.path.empty());
  }
}

}  // namespace

TEST_CASE("one tree, one sub-chunk: reduce up, broadcast down, with the hand-computed deps",
          "[tree_emitter]") {
  const mt::Topology topology = ring4();
  mt::Schedule s;
  s.nodes = 4;
  s.num_chunks = 1;
  const std::vector<mt::EmitterTree> trees = {tiny_tree()};
  mt::TreeEmitter emitter(s, topology, trees, {1, 1});
  emitter.emit(0, 0, {3, 1, 2}, {1, 2, 3});
  check_ops(s, {{3, 1, 0, 0, 0, OpKind::kReduce, {}},
                {1, 0, 0, 0, 1, OpKind::kReduce, {0}},
                {2, 0, 0, 0, 0, OpKind::kReduce, {}},
                {0, 1, 0, 0, 2, OpKind::kBroadcast, {1, 2}},
                {0, 2, 0, 0, 2, OpKind::kBroadcast, {1, 2}},
                {1, 3, 0, 0, 3, OpKind::kBroadcast, {3}}});
  CHECK(s.num_steps == 4);
  CHECK(s.num_flows == 1);
}

TEST_CASE("sub-chunks: chunk t*P+p, flow t, steps shifted by p only when pipelined",
          "[tree_emitter]") {
  const mt::Topology topology = ring4();
  const std::vector<mt::EmitterTree> trees = {tiny_tree(), tiny_tree()};
  for (const int shift : {1, 0}) {
    mt::Schedule s;
    s.nodes = 4;
    s.num_chunks = 4;
    mt::TreeEmitter emitter(s, topology, trees, {2, shift});
    // Tree 1, sub-chunk 1 first (ids 0..5), then tree 1, sub-chunk 0 (ids 6..11).
    emitter.emit(1, 1, {3, 1, 2}, {1, 2, 3});
    emitter.emit(1, 0, {3, 1, 2}, {1, 2, 3});
    INFO("step per sub-chunk " << shift);
    check_ops(s, {{3, 1, 3, 1, 0 + shift, OpKind::kReduce, {}},
                  {1, 0, 3, 1, 1 + shift, OpKind::kReduce, {0}},
                  {2, 0, 3, 1, 0 + shift, OpKind::kReduce, {}},
                  {0, 1, 3, 1, 2 + shift, OpKind::kBroadcast, {1, 2}},
                  {0, 2, 3, 1, 2 + shift, OpKind::kBroadcast, {1, 2}},
                  {1, 3, 3, 1, 3 + shift, OpKind::kBroadcast, {3}},
                  {3, 1, 2, 1, 0, OpKind::kReduce, {}},
                  {1, 0, 2, 1, 1, OpKind::kReduce, {6}},
                  {2, 0, 2, 1, 0, OpKind::kReduce, {}},
                  {0, 1, 2, 1, 2, OpKind::kBroadcast, {7, 8}},
                  {0, 2, 2, 1, 2, OpKind::kBroadcast, {7, 8}},
                  {1, 3, 2, 1, 3, OpKind::kBroadcast, {9}}});
  }
}

TEST_CASE("explicit paths: the broadcast takes the edge's path, the reduce its reverse links",
          "[tree_emitter]") {
  const mt::Topology topology = ring4();
  const std::vector<int> one_to_zero = topology.route(1, 0);
  const std::vector<int> zero_to_one = topology.route(0, 1);
  REQUIRE(one_to_zero.size() == 1);
  mt::EmitterTree tree(4, 0);
  tree.add_edge(0, 1, 0, 1, zero_to_one);
  mt::Schedule s;
  s.nodes = 4;
  s.num_chunks = 1;
  const std::vector<mt::EmitterTree> trees = {tree};
  mt::TreeEmitter emitter(s, topology, trees, {1, 1});
  emitter.emit(0, 0, {1}, {1});
  REQUIRE(s.ops.size() == 2);
  CHECK(s.ops[0].path == std::vector<int>{topology.link(zero_to_one[0]).reverse});
  CHECK(s.ops[0].path == one_to_zero);
  CHECK(s.ops[1].path == zero_to_one);
}

TEST_CASE("rooted_tree: children by id, depth, height and preorder from parents",
          "[tree_emitter]") {
  // 2 is the root with children 0 and 4; 1 and 3 hang below 0.
  const mt::RootedTree t = mt::rooted_tree({2, 0, -1, 0, 2});
  CHECK(t.root == 2);
  CHECK(t.children[2] == std::vector<int>{0, 4});
  CHECK(t.children[0] == std::vector<int>{1, 3});
  CHECK(t.depth == std::vector<int>{1, 2, 0, 2, 1});
  CHECK(t.height == std::vector<int>{1, 0, 2, 0, 0});
  CHECK(t.preorder == std::vector<int>{2, 0, 1, 3, 4});
}
