// Packed schedule table: field widths, bit layout, encode/decode round trip, value-does-not-fit
// errors, and the packer: exact arrival-counter thresholds for every algorithm on a 4x4 torus,
// checked against an independent happens-before computation, and a precise error for a schedule
// no counter threshold can express.
#include <algorithm>
#include <catch2/catch.hpp>

#include <functional>
#include <random>
#include <set>
#include <string>
#include <utility>

#include "model/collective/algorithm.h"
#include "model/collective/verify.h"
#include "model/sched/table_packer.h"
#include "model/topology/topology.h"
#include "tests/support/sim_fixtures.h"

namespace mt {
namespace {

TEST_CASE("clog2 and table widths follow the documented formulas", "[nic][table]") {
  CHECK(clog2(1) == 0);
  CHECK(clog2(2) == 1);
  CHECK(clog2(5) == 3);
  CHECK(clog2(64) == 6);
  CHECK(clog2(65) == 7);
  // 16 nodes, 4 ports, 16 chunks, 16 flows, 10 steps, 2 counters, thresholds up to 4.
  const TableFormat f = TableFormat::make(16, 4, 16, 16, 10, 2, 4);
  CHECK(f.kind_bits == 1);
  CHECK(f.port_bits == 2);
  CHECK(f.peer_bits == 4);
  CHECK(f.chunk_bits == 4);
  CHECK(f.flow_bits == 4);
  CHECK(f.step_bits == 4);
  CHECK(f.counter_bits == 1);
  CHECK(f.count_bits == 3);
  CHECK(f.entry_bits() == 1 + 2 + 4 + 4 + 4 + 4 + 1 + 3 + 1);
  CHECK(f.entry_words() == 1);
  // One port still gets a 1-bit field.
  CHECK(TableFormat::make(2, 1, 1, 1, 1, 1, 0).port_bits == 1);
  CHECK(TableFormat::make(2, 1, 1, 1, 1, 1, 0).entry_bits() == 9);
  CHECK_THROWS_AS(TableFormat::make(0, 1, 1, 1, 1, 1, 0), TableError);
}

TEST_CASE("entry bit layout is LSB-first in the documented field order", "[nic][table]") {
  const TableFormat f = TableFormat::make(16, 4, 16, 16, 10, 2, 4);
  TableEntry e;
  e.kind = OpKind::kBroadcast;  // bit 0
  e.port = 2;                   // bits 1-2
  e.peer = 9;                   // bits 3-6
  e.chunk = 5;                  // bits 7-10
  e.flow = 12;                  // bits 11-14
  e.step = 7;                   // bits 15-18
  e.wait_counter = 1;           // bit 19
  e.wait_count = 3;             // bits 20-22
  e.dst_counter = 1;            // bit 23
  const std::uint64_t expected = 1u | (2u << 1) | (9u << 3) | (5u << 7) | (12u << 11) | (7u << 15) |
                                 (1u << 19) | (3u << 20) | (1u << 23);
  const std::vector<std::uint64_t> words = encode_entry(e, f);
  REQUIRE(words.size() == 1);
  CHECK(words[0] == expected);
  CHECK(decode_entry(words, f) == e);
}

TEST_CASE("encode/decode round trip over random entries including multi-word formats",
          "[nic][table]") {
  std::mt19937 rng(7);
  for (const TableFormat& f :
       {TableFormat::make(16, 4, 16, 16, 10, 2, 4),
        TableFormat::make(1 << 20, 64, 1 << 20, 1 << 16, 1 << 12, 1 << 10, 1 << 16)}) {
    std::vector<TableEntry> table;
    for (int i = 0; i < 500; ++i) {
      const auto pick = [&](int bits) {
        return static_cast<int>(rng() % (std::uint64_t{1} << bits));
      };
      TableEntry e;
      e.kind = (rng() & 1u) ? OpKind::kBroadcast : OpKind::kReduce;
      e.port = pick(f.port_bits);
      e.peer = pick(f.peer_bits);
      e.chunk = pick(f.chunk_bits);
      e.flow = pick(f.flow_bits);
      e.step = pick(f.step_bits);
      e.wait_counter = pick(f.counter_bits);
      e.wait_count = pick(f.count_bits);
      e.dst_counter = pick(f.counter_bits);
      table.push_back(e);
    }
    const std::vector<std::uint64_t> words = encode_table(table, f);
    CHECK(words.size() == table.size() * static_cast<std::size_t>(f.entry_words()));
    const std::vector<TableEntry> back = decode_table(words, table.size(), f);
    REQUIRE(back.size() == table.size());
    for (std::size_t i = 0; i < table.size(); ++i) CHECK(back[i] == table[i]);
  }
  const TableFormat wide =
      TableFormat::make(1 << 20, 64, 1 << 20, 1 << 16, 1 << 12, 1 << 10, 1 << 16);
  CHECK(wide.entry_bits() == 1 + 6 + 20 + 20 + 16 + 12 + 10 + 17 + 10);
  CHECK(wide.entry_words() == 2);
}

TEST_CASE("a value that does not fit its field is a TableError naming the field", "[nic][table]") {
  const TableFormat f = TableFormat::make(16, 4, 16, 16, 10, 2, 4);
  TableEntry e;
  e.peer = 16;
  CHECK_THROWS_WITH(encode_entry(e, f), "entry field peer = 16 does not fit 4 bits");
  e.peer = 0;
  e.wait_count = -1;
  CHECK_THROWS_WITH(encode_entry(e, f), "entry field wait_count = -1 does not fit 3 bits");
  CHECK_THROWS_AS(decode_entry({}, f), TableError);
}

// Independent check, one depth-first search per entry each way: marks with `stamp` every message
// reachable from `from` over `edges` (a message's deps, or its dependents).
void mark_reachable(const std::vector<std::vector<int>>& edges, int from, std::vector<int>& mark,
                    int stamp) {
  std::vector<int> stack = {from};
  while (!stack.empty()) {
    const int cur = stack.back();
    stack.pop_back();
    for (const int next : edges[static_cast<std::size_t>(cur)]) {
      if (mark[static_cast<std::size_t>(next)] == stamp) continue;
      mark[static_cast<std::size_t>(next)] = stamp;
      stack.push_back(next);
    }
  }
}

// Every entry's threshold counts exactly the messages of its counter that happen before its
// issue (transitive dependencies), and every other message of that counter happens after it
// (a transitive dependent) or after every message the threshold counts (they are all its
// transitive dependencies): it cannot make the count reach the threshold early.
void check_exact(const Schedule& s, const PackedSchedule& packed) {
  std::vector<std::vector<int>> deps(s.ops.size());
  std::vector<std::vector<int>> dependents(s.ops.size());
  std::vector<std::vector<int>> incoming(static_cast<std::size_t>(s.nodes));
  for (const Op& op : s.ops) {
    deps[static_cast<std::size_t>(op.id)] = op.deps.to_vector();
    for (const int d : op.deps) dependents[static_cast<std::size_t>(d)].push_back(op.id);
    incoming[static_cast<std::size_t>(op.peer)].push_back(op.id);
  }
  std::vector<int> ancestor(s.ops.size(), -1);
  std::vector<int> descendant(s.ops.size(), -1);
  int stamp = 0;
  for (int u = 0; u < s.nodes; ++u) {
    const auto& table = packed.tables[static_cast<std::size_t>(u)];
    const auto& ids = packed.messages[static_cast<std::size_t>(u)];
    REQUIRE(table.size() == s.ops_of(u).size());
    std::vector<std::vector<int>> counted(static_cast<std::size_t>(packed.counters));
    for (const int m : incoming[static_cast<std::size_t>(u)]) {
      // at(): a counter out of range throws, which fails the test.
      counted.at(static_cast<std::size_t>(packed.message_counter[static_cast<std::size_t>(m)]))
          .push_back(m);
    }
    for (std::size_t e = 0; e < table.size(); ++e) {
      const Op& op = s.ops[static_cast<std::size_t>(ids[e])];
      INFO("node " << u << " entry " << e << " message " << op.id);
      if (e > 0) {
        CHECK(table[e - 1].step <= table[e].step);  // issue order
      }
      CHECK(table[e].peer == op.peer);
      CHECK(table[e].chunk == op.chunk);
      CHECK(table[e].dst_counter == packed.message_counter[static_cast<std::size_t>(op.id)]);
      if (op.deps.empty()) {
        CHECK(table[e].wait_count == 0);
        continue;
      }
      ++stamp;
      mark_reachable(deps, op.id, ancestor, stamp);
      mark_reachable(dependents, op.id, descendant, stamp);
      int before = 0;
      std::vector<int> neither;  // messages of the counter unordered with the issue
      const std::vector<int>& same = counted.at(static_cast<std::size_t>(table[e].wait_counter));
      for (const int m : same) {
        const bool b = ancestor[static_cast<std::size_t>(m)] == stamp;
        const bool a = descendant[static_cast<std::size_t>(m)] == stamp;
        if (!a && !b) neither.push_back(m);
        if (b) ++before;
      }
      int unordered = -1;  // the first of them that some counted message does not precede
      for (const int m : neither) {
        std::vector<int> behind(s.ops.size(), 0);
        mark_reachable(deps, m, behind, 1);
        for (const int c : same) {
          if (ancestor[static_cast<std::size_t>(c)] == stamp &&
              !behind[static_cast<std::size_t>(c)])
            unordered = unordered < 0 ? m : unordered;
        }
      }
      CHECK(unordered == -1);
      CHECK(table[e].wait_count == before);
      for (const int d : op.deps) {
        CHECK(packed.message_counter[static_cast<std::size_t>(d)] == table[e].wait_counter);
      }
    }
  }
}

TEST_CASE("the packer builds exact counters for every algorithm on a 4x4 torus", "[nic][table]") {
  TopologyConfig config = parse_topology_spec("torus:4x4");
  config.ports_per_node = 4;
  const Topology topology(config);
  for (const std::string& name : algorithm_names()) {
    INFO("algorithm " << name);
    const Schedule s = build_schedule(name, topology);  // every algorithm builds on a 4x4 torus
    std::vector<int> ports;
    for (const Op& op : s.ops) ports.push_back(op.port >= 0 ? op.port : op.id % 4);
    const PackedSchedule packed = pack_schedule(s, ports, 4);
    check_exact(s, packed);
    // Counters per node: the most any node uses (at least 1), and every message counts on one of
    // its receiver's.
    std::size_t most = 1;
    for (const auto& per_counter : packed.counter_arrivals)
      most = std::max(most, per_counter.size());
    CHECK(packed.counters == static_cast<int>(most));
    for (const Op& op : s.ops) {
      const int c = packed.message_counter[static_cast<std::size_t>(op.id)];
      CHECK(c >= 0);
      CHECK(c <
            static_cast<int>(packed.counter_arrivals[static_cast<std::size_t>(op.peer)].size()));
    }
    CHECK(packed.format.port_bits == 2);
    CHECK(packed.format.peer_bits == 4);
    for (int u = 0; u < s.nodes; ++u) {
      CHECK(packed.tables[static_cast<std::size_t>(u)].size() == s.ops_of(u).size());
    }
    check_fits(packed, packed.format);
    for (int u = 0; u < s.nodes; ++u) {
      // Every incoming message is counted by exactly one counter.
      int arrivals = 0;
      for (const int c : packed.counter_arrivals[static_cast<std::size_t>(u)]) arrivals += c;
      int incoming = 0;
      for (const Op& op : s.ops) incoming += op.peer == u ? 1 : 0;
      CHECK(arrivals == incoming);
    }
    if (name == "multitree") {
      // One counter per tree: every counter some entry waits on holds messages of one flow.
      for (int u = 0; u < s.nodes; ++u) {
        std::set<int> waited;
        for (const TableEntry& e : packed.tables[static_cast<std::size_t>(u)]) {
          if (e.wait_count > 0) waited.insert(e.wait_counter);
        }
        for (const int c : waited) {
          std::set<int> flows;
          for (const Op& op : s.ops) {
            if (op.peer == u && packed.message_counter[static_cast<std::size_t>(op.id)] == c) {
              flows.insert(op.flow);
            }
          }
          CHECK(flows.size() == 1);
        }
      }
    }
  }
}

// tree_packing on the 4x4 mesh (8 trees, 4 NIC ports) with `params`, verified, and its tables
// packed (ports by message id) and checked exact.
std::pair<Schedule, PackedSchedule> packed_mesh_trees(const AlgorithmParams& params) {
  TopologyConfig config = parse_topology_spec("mesh:4x4");
  config.ports_per_node = 4;
  const Topology topology(config);
  Schedule s = build_schedule("tree_packing", topology, params);
  REQUIRE(verify(s, topology).ok);
  std::vector<int> ports;
  for (const Op& op : s.ops) ports.push_back(op.port >= 0 ? op.port : op.id % 4);
  PackedSchedule packed = pack_schedule(s, ports, 4);
  check_exact(s, packed);
  return {std::move(s), std::move(packed)};
}

TEST_CASE("a pipelined tree schedule gets one counter per tree and sub-chunk a node forwards",
          "[nic][table]") {
  // tree_packing on the 4x4 mesh (8 trees) with 32 sub-chunks per tree: at a node that forwards
  // sub-chunk k of a tree, its children's reduce messages of k and its parent's broadcast of k
  // share one counter (the broadcast waits for the reduce to be sent, which waits for the
  // children's), unordered with every other sub-chunk's; a leaf's broadcasts are waited on by
  // nobody and share the one counter of such messages. So a node has 32 counters per tree in
  // which it has children, plus one when it is a leaf of some tree. (More than 16 sub-chunks:
  // a counter finds its partner of the same chunk whatever its distance in creation order.)
  const int pipeline = 32;
  const auto [s, packed] = packed_mesh_trees({{"pipeline", "32"}});
  for (int u = 0; u < s.nodes; ++u) {
    std::set<int> forwards;    // trees in which u receives reduce messages (has children)
    std::set<int> leaf_flows;  // trees in which u receives a broadcast and sends none
    std::set<int> sends_down;
    for (const Op& op : s.ops) {
      if (op.peer == u && op.kind == OpKind::kReduce) forwards.insert(op.flow);
      if (op.node == u && op.kind == OpKind::kBroadcast) sends_down.insert(op.flow);
    }
    for (const Op& op : s.ops) {
      if (op.peer == u && op.kind == OpKind::kBroadcast && sends_down.count(op.flow) == 0)
        leaf_flows.insert(op.flow);
    }
    INFO("node " << u);
    CHECK(static_cast<int>(packed.counter_arrivals[static_cast<std::size_t>(u)].size()) ==
          pipeline * static_cast<int>(forwards.size()) + (leaf_flows.empty() ? 0 : 1));
  }
}

TEST_CASE("a windowed tree pipeline reuses a node's counters every window of sub-chunks",
          "[nic][table]") {
  // tree_packing on the 4x4 mesh (8 trees, every node in each), 32 sub-chunks per tree, window 8:
  // a node's reduce of sub-chunk k + 8 waits for its children's reduce of k + 8 and its parent's
  // broadcast of k, which share a counter; the next such group of that tree (k + 16) can only
  // arrive after every dependency of the entries waiting on it (its children send k + 16 only
  // once the broadcast of k + 8 has come through the node), so it takes the same counter,
  // counted on. A root's groups (its children's reduce of k) chain the same way, and a leaf's
  // last 8 broadcasts, which nobody waits for, join the chains of their sub-chunks. Each tree
  // then needs 8 counters at every node (one per sub-chunk modulo the window): 8 x 8, against
  // 32 per tree it forwards in without the window (test above).
  const int window = 8;
  const auto [s, packed] = packed_mesh_trees({{"pipeline", "32"}, {"window", "8"}});
  for (int u = 0; u < s.nodes; ++u) {
    std::set<int> flows;
    for (const Op& op : s.ops)
      if (op.node == u || op.peer == u) flows.insert(op.flow);
    INFO("node " << u);
    CHECK(flows.size() == 8);
    CHECK(static_cast<int>(packed.counter_arrivals[static_cast<std::size_t>(u)].size()) ==
          window * static_cast<int>(flows.size()));
  }
}

// A one-chunk schedule over 4 nodes: reduce messages {sender, receiver, deps}, ids in order.
struct Reduce {
  int node;
  int peer;
  std::vector<int> deps;
};
Schedule four_node_reduces(const std::vector<Reduce>& messages) {
  Schedule s = test::empty_schedule(4, 1);
  for (const Reduce& m : messages) s.add(test::make_op(m.node, m.peer, 0, OpKind::kReduce, m.deps));
  return s;
}

TEST_CASE("a message that arrives after all of an entry's dependencies may share its counter",
          "[nic][table]") {
  // Node 0 waits for a (from 1) alone in entry d, and for a and c (from 2) together in entry e,
  // so a and c share a counter. c is unordered with d's issue, but it is sent only after node 2
  // received b, which node 0 sends once a has arrived: c cannot arrive before d's only
  // dependency, so d's threshold (1) still says exactly "a has arrived".
  Schedule s = four_node_reduces({
      {1, 0, {}},      // 0: a
      {0, 2, {0}},     // 1: b, after a
      {2, 0, {1}},     // 2: c, after b
      {0, 3, {0}},     // 3: d, after a
      {0, 3, {0, 2}},  // 4: e, after a and c
  });
  const PackedSchedule packed = pack_schedule(s, {0, 0, 0, 0, 0}, 1);
  check_exact(s, packed);
  CHECK(packed.message_counter[0] == packed.message_counter[2]);
  std::vector<int> counts;  // node 0's entries in issue order: b, d, e
  for (const TableEntry& entry : packed.tables[0]) counts.push_back(entry.wait_count);
  CHECK(counts == std::vector<int>{1, 1, 2});
  // Without b -> c, c can arrive first and make b's (and d's) threshold early: refused, at the
  // first entry waiting on the counter.
  s.ops[2].deps.clear();
  CHECK_THROWS_WITH(pack_schedule(s, {0, 0, 0, 0, 0}, 1),
                    "node 0 entry 0 (message 1): its dependencies share a counter with message 2, "
                    "which is unordered with the entry's issue: no arrival-count threshold "
                    "expresses its dependencies exactly");
}

TEST_CASE("a schedule no counter threshold expresses is refused with a precise error",
          "[nic][table]") {
  const Schedule s = four_node_reduces({
      {1, 0, {}},      // 0: a
      {2, 0, {}},      // 1: b
      {3, 0, {}},      // 2: c
      {0, 1, {0, 1}},  // 3: waits for a, b
      {0, 2, {1, 2}},  // 4: waits for b, c -> a, b, c share a counter; c unordered with 3
  });
  CHECK_THROWS_WITH(pack_schedule(s, {0, 0, 0, 0, 0}, 1),
                    "node 0 entry 0 (message 3): its dependencies share a counter with message 2, "
                    "which is unordered with the entry's issue: no arrival-count threshold "
                    "expresses its dependencies exactly");
  CHECK_THROWS_WITH(pack_schedule(s, {0, 0, 0, 0, 1}, 1),
                    "message 4: port 1 out of range (1 ports)");
  // The node, entry and message are fields of the error too.
  try {
    pack_schedule(s, {0, 0, 0, 0, 0}, 1);
    FAIL("packed");
  } catch (const mt::TableError& e) {
    CHECK(e.location().node == 0);
    CHECK(e.location().entry == 0);
    CHECK(e.location().message == 3);
  }
}

TEST_CASE("check_fits names the node, entry and field that do not fit a fixed format",
          "[nic][table]") {
  TopologyConfig config = parse_topology_spec("torus:4x4");
  config.ports_per_node = 4;
  const Topology topology(config);
  const Schedule s = build_schedule("ring", topology);
  std::vector<int> ports(s.ops.size(), 0);
  const PackedSchedule packed = pack_schedule(s, ports, 4);
  TableFormat small = packed.format;
  small.peer_bits = 2;  // 16 nodes need 4 bits
  // The first entry (node order, then table order) whose peer needs more than 2 bits.
  int node = -1;
  std::size_t entry = 0;
  for (int u = 0; u < s.nodes && node < 0; ++u) {
    for (std::size_t e = 0; e < packed.tables[static_cast<std::size_t>(u)].size(); ++e) {
      if (packed.tables[static_cast<std::size_t>(u)][e].peer >= 4) {
        node = u;
        entry = e;
        break;
      }
    }
  }
  REQUIRE(node >= 0);
  const Op& first =
      s.ops[static_cast<std::size_t>(packed.messages[static_cast<std::size_t>(node)][entry])];
  CHECK_THROWS_WITH(check_fits(packed, small),
                    "node " + std::to_string(node) + " entry " + std::to_string(entry) +
                        " (message " + std::to_string(first.id) + "): entry field peer = " +
                        std::to_string(first.peer) + " does not fit 2 bits");
}

TEST_CASE("release times become a release counter rung once per distinct release cycle",
          "[nic][table]") {
  Schedule s = test::empty_schedule(4, 1);
  const auto op = [](int node, int peer, std::uint64_t release, std::vector<int> deps) {
    Op o = test::make_op(node, peer, 0, OpKind::kReduce, std::move(deps));
    o.release_cycle = release;
    return o;
  };
  s.add(op(0, 1, 0, {}));    // 0: no release
  s.add(op(0, 1, 700, {}));  // 1
  s.add(op(0, 2, 300, {}));  // 2
  s.add(op(0, 3, 700, {}));  // 3
  s.add(op(1, 0, 0, {}));    // 4: arrives at node 0 (its counter 0)
  s.add(op(0, 1, 0, {4}));   // 5: waits for 4
  const PackedSchedule packed = pack_schedule(s, std::vector<int>(6, 0), 1);
  // Node 0: counter 0 counts message 4, counter 1 is the release counter (300, then 700).
  CHECK(packed.release_counter == std::vector<int>{1, -1, -1, -1});
  CHECK(packed.release_cycles[0] == std::vector<std::uint64_t>{300, 700});
  CHECK(packed.release_cycles[1].empty());
  CHECK(packed.counter_arrivals[0] == std::vector<int>{1, 2});
  const std::vector<TableEntry>& t = packed.tables[0];
  REQUIRE(packed.messages[0] == std::vector<int>{0, 1, 2, 3, 5});
  CHECK((t[0].wait_counter == 0 && t[0].wait_count == 0));
  CHECK((t[1].wait_counter == 1 && t[1].wait_count == 2));  // 700: the second ring
  CHECK((t[2].wait_counter == 1 && t[2].wait_count == 1));  // 300: the first ring
  CHECK((t[3].wait_counter == 1 && t[3].wait_count == 2));
  CHECK((t[4].wait_counter == 0 && t[4].wait_count == 1));
  CHECK(packed.counters == 2);
  // A message with both dependencies and a release time does not fit one counter threshold.
  s.ops[5].release_cycle = 10;
  CHECK_THROWS_WITH(pack_schedule(s, std::vector<int>(6, 0), 1),
                    "message 5 at node 0 has both dependencies and a release_cycle: a table "
                    "entry waits on one counter, so only messages without dependencies may have "
                    "a release time");
}

}  // namespace
}  // namespace mt
