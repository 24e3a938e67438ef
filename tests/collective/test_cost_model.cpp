// Analytical cost model: hand-derived alpha-beta figures and lower bounds.

#include <catch2/catch.hpp>

#include <string>

#include "model/collective/algorithm.h"
#include "model/collective/cost_model.h"
#include "model/topology/topology.h"
#include "tests/support/sim_fixtures.h"
#include "tests/support/topologies.h"

using mt::test::make;

TEST_CASE("cost of ring on ring:4, derived by hand", "[cost_model]") {
  const mt::Topology t = make("ring:4");  // 16 B/cycle links, 150-cycle wires
  const mt::Schedule s = mt::build_schedule("ring", t);
  // 4096 B / 4 chunks = 1024 B = 4 packets of 256 B + 4 x 16 B headers = 1088 B on the wire.
  // Every step: one 1-hop message per link: latency 150 + 1 = 151, serialisation 1088/16 = 68.
  // 6 steps: 6 x 151 = 906 latency, 6 x 68 = 408 bandwidth.
  const mt::CostEstimate e = mt::estimate_cost(s, t, 4096);
  CHECK(e.latency_cycles == Approx(906));
  CHECK(e.bandwidth_cycles == Approx(408));
  CHECK(e.cycles == Approx(1314));
  // 4100 B: chunks of 1025 B = 5 packets -> 1025 + 80 = 1105 B -> 69.0625 cycles per step.
  CHECK(mt::estimate_cost(s, t, 4100).bandwidth_cycles == Approx(6 * 69.0625));
  // Router pipeline of 3 cycles per hop.
  mt::CostParams p;
  p.per_hop_cycles = 3;
  CHECK(mt::estimate_cost(s, t, 4096, p).latency_cycles == Approx(6 * 153));
  // Message flow control: one head per 1024-byte message, 1040 B = 65 cycles per step.
  mt::CostParams message;
  message.head_per_message = true;
  CHECK(mt::estimate_cost(s, t, 4096, message).bandwidth_cycles == Approx(6 * 65));
  // The dataflow estimate too: 6 steps of 151 + 65 (no overlap on a 1-port ring) against 151 + 68.
  CHECK(mt::dataflow_estimate(s, t, 4096, message) ==
        Approx(mt::dataflow_estimate(s, t, 4096) - 6 * 3));
}

TEST_CASE("cost model counts contention and multi-hop latency", "[cost_model]") {
  const mt::Topology t = make("ring:4");
  mt::Schedule s;
  s.algorithm = "handmade";
  s.topology = t.name();
  s.nodes = 4;
  s.num_chunks = 2;
  mt::Op a;
  a.node = 0;
  a.peer = 2;  // routed 0 -> 1 -> 2 (tie goes +)
  a.chunk = 0;
  s.add(a);
  mt::Op b;
  b.node = 1;
  b.peer = 2;  // shares link 1 -> 2 with a
  b.chunk = 1;
  s.add(b);
  // 2048 B chunks: 8 packets -> 2176 B each; link 1->2 carries both: 4352 / 16 = 272 cycles.
  // Latency: 2 hops x 151 = 302.
  const mt::CostEstimate e = mt::estimate_cost(s, t, 4096);
  CHECK(e.latency_cycles == Approx(302));
  CHECK(e.bandwidth_cycles == Approx(272));
  CHECK(e.cycles == Approx(574));
  CHECK(mt::estimate_cost(mt::Schedule{}, t, 4096).cycles == 0);
  s.ops[1].chunk = 2;
  CHECK_THROWS_WITH(mt::estimate_cost(s, t, 4096),
                    "estimate_cost: message 1 has step 0 and chunk 2 (chunks 0..1)");
}

TEST_CASE("both estimates from one model: steps add up, the dataflow overlaps independent messages",
          "[cost_model]") {
  const mt::Topology t = make("ring:4");
  mt::Schedule s;
  s.nodes = 4;
  s.num_chunks = 4;
  mt::Op a;  // 0 -> 1 in step 0
  a.node = 0;
  a.peer = 1;
  s.add(a);
  mt::Op b;  // 2 -> 3 in step 1, independent of a and on another link
  b.node = 2;
  b.peer = 3;
  b.chunk = 1;
  b.step = 1;
  s.add(b);
  // 1024-byte chunks: 4 packets, 1088 wire bytes, 68 cycles at 16 B/cycle; one hop 150 + 1.
  // Per step: 2 x (151 + 68) = 438. Dataflow: both leave at 0 and arrive at 219.
  const mt::ScheduleEstimate e = mt::estimate_schedule(s, t, 4096);
  CHECK(e.per_step.cycles == Approx(438));
  CHECK(e.dataflow_cycles == Approx(219));
  CHECK(e.cycles() == Approx(219));
  // The parameters reach both: a 3-cycle router pipeline adds 2 per hop to each.
  mt::CostParams p;
  p.per_hop_cycles = 3;
  const mt::ScheduleEstimate slow = mt::estimate_schedule(s, t, 4096, p);
  CHECK(slow.per_step.cycles == Approx(442));
  CHECK(slow.dataflow_cycles == Approx(221));
  // b now waits for a message that arrives at node 2 (a re-aimed at 2, two hops 0 -> 1 -> 2):
  // 2 x (150 + 1) + 68 = 370, then b's 219: 589.
  s.ops[0].peer = 2;
  s.ops[1].deps = {0};
  CHECK(mt::estimate_schedule(s, t, 4096).dataflow_cycles == Approx(589));
}

TEST_CASE("a node's messages wait in the NIC issue queue the simulator binds them to",
          "[cost_model]") {
  // Node 0 sends one 4096-byte message each way round ring:4 (links 0->1 and 0->3), no deps:
  // 4096 + 16 x 16 B of heads = 4352 B = 272 cycles on a 16 B/cycle link, 150 + 1 per hop.
  mt::Schedule s;
  s.nodes = 4;
  s.num_chunks = 2;
  mt::Op right;
  right.node = 0;
  right.peer = 1;
  right.chunk = 0;
  s.add(right);
  mt::Op left = right;
  left.peer = 3;
  left.chunk = 1;
  s.add(left);
  const std::uint64_t bytes = 2 * 4096;
  // Two ports (one per link): both leave at once, 272 + 151.
  CHECK(mt::dataflow_estimate(s, make("ring:4", 2), bytes) == Approx(423));
  // One port: the second message follows the first's 272 cycles, 272 + 272 + 151.
  CHECK(mt::dataflow_estimate(s, make("ring:4", 1), bytes) == Approx(695));
  // The per-step estimate loads the port like a link: 544 cycles of serialisation.
  CHECK(mt::estimate_cost(s, make("ring:4", 1), bytes).bandwidth_cycles == Approx(544));
  CHECK(mt::estimate_cost(s, make("ring:4", 2), bytes).bandwidth_cycles == Approx(272));
  // A message's own port (Op::port) binds it as the simulator does: both on port 1 of two.
  s.ops[0].port = 1;
  s.ops[1].port = 1;
  CHECK(mt::dataflow_estimate(s, make("ring:4", 2), bytes) == Approx(695));
  // nic.port_binding any: one queue that both ports serve, so both leave at once again.
  mt::CostParams any;
  any.any_port = true;
  CHECK(mt::dataflow_estimate(s, make("ring:4", 2), bytes, any) == Approx(423));
  CHECK(mt::estimate_cost(s, make("ring:4", 2), bytes, any).bandwidth_cycles == Approx(272));
}

TEST_CASE("on fewer NIC ports than links no estimate falls below the bandwidth bound",
          "[cost_model]") {
  // The dataflow estimate used to queue by first link whatever the ports, so on one port it put
  // tree_packing at 34302 cycles at 1 MiB against a bound of 122880 and auto chose it.
  for (const int ports : {1, 2}) {
    const mt::Topology t = make("torus:4x4", ports);
    const std::uint64_t bytes = 1 << 20;
    const double bound = mt::bandwidth_bound_cycles(t, ports, bytes);
    for (const char* name : {"ring_bi", "multitree", "swing", "tree_packing", "ring2d", "dbtree",
                             "halving_doubling"}) {
      mt::BuildContext context;
      context.bytes = bytes;
      const mt::Schedule s = mt::build_schedule(name, t, mt::AlgorithmParams{}, context);
      INFO(name << " on " << ports << " ports");
      CHECK(mt::dataflow_estimate(s, t, bytes) >= bound);
    }
  }
}

TEST_CASE("bandwidth bound on torus 4x4", "[cost_model]") {
  const mt::Topology t = make("torus:4x4");
  const std::uint64_t mib = 1u << 20;
  // 4 ports x 16 B/cycle = 64 B/cycle per node: 2 x 15/16 x 1 MiB / 64 = 30720 cycles; link form
  // 2 x 15 x 1 MiB / (16 nodes x 4 in-links x 16 B/cycle) = 30720 as well.
  CHECK(mt::bandwidth_bound_cycles(t, 4, mib) == Approx(30720));
  CHECK(mt::bandwidth_bound_cycles(t, 0, mib) == Approx(30720));  // 0 = topology ports (4)
  // One port: 16 B/cycle per node -> 4x longer.
  CHECK(mt::bandwidth_bound_cycles(t, 1, mib) == Approx(122880));
  // The ring schedule cannot beat the bound.
  const mt::Schedule ring = mt::build_schedule("ring", t);
  CHECK(mt::estimate_cost(ring, t, mib).cycles > mt::bandwidth_bound_cycles(t, 1, mib));
  // Fat-tree k=4: 8 endpoints, one 16 B/cycle uplink each: 2 x 7/8 x 1 MiB / 16.
  CHECK(mt::bandwidth_bound_cycles(make("fattree:k=4,levels=2"), 1, mib) == Approx(114688));
}

TEST_CASE("latency bound: farthest pair's cheapest path plus one packet", "[cost_model]") {
  // Default links: 150 wire cycles, 16 B/cycle; 1-cycle router pipelines; a 16-byte head plus
  // one 4-byte element is 2 flits of 16 bytes: 2 cycles.
  // torus 4x4: diameter 4 hops, 5 routers (source and destination included).
  CHECK(mt::latency_bound_cycles(make("torus:4x4"), 4096) == Approx(4 * 150 + 5 + 2));
  // torus 4x4x4: diameter 6.
  CHECK(mt::latency_bound_cycles(make("torus:4x4x4"), 4096) == Approx(6 * 150 + 7 + 2));
  // mesh 4x4: diameter 6.
  CHECK(mt::latency_bound_cycles(make("mesh:4x4"), 4096) == Approx(6 * 150 + 7 + 2));
  // ring 2: one hop.
  CHECK(mt::latency_bound_cycles(make("ring:2"), 4096) == Approx(150 + 2 + 2));
  // Fat-tree k=4: endpoint, leaf, spine, leaf, endpoint: 4 links, 3 switch pipelines (endpoints
  // have no router on switched topologies).
  CHECK(mt::latency_bound_cycles(make("fattree:k=4,levels=2"), 4096) == Approx(4 * 150 + 3 + 2));
  // A single switch: 2 links, 1 pipeline.
  CHECK(mt::latency_bound_cycles(make("switch:nodes=8"), 4096) == Approx(2 * 150 + 1 + 2));
  // Router pipeline and packet head as given: 3-cycle routers, 40-byte heads -> 3 flits.
  mt::CostParams p;
  p.per_hop_cycles = 3;
  p.head_flit_bytes = 40;
  CHECK(mt::latency_bound_cycles(make("torus:4x4"), 4096, p) == Approx(4 * 150 + 5 * 3 + 3));
  // 32-byte flits: the 44-byte packet takes 2 flits = 64 bytes, 4 cycles at 16 B/cycle.
  p.flit_bytes = 32;
  CHECK(mt::latency_bound_cycles(make("torus:4x4"), 4096, p) == Approx(4 * 150 + 5 * 3 + 4));
  // Nothing to send, or nobody to send it to.
  CHECK(mt::latency_bound_cycles(make("torus:4x4"), 0) == 0);
  CHECK(mt::latency_bound_cycles(make("ring:1"), 4096) == 0);
}

TEST_CASE("step lower bound: ceil(N(N-1) / usable directed links)", "[cost_model]") {
  CHECK(mt::step_lower_bound(make("torus:4x4")) == 4);      // 240 / 64 links
  CHECK(mt::step_lower_bound(make("torus:8x8")) == 16);     // 4032 / 256
  CHECK(mt::step_lower_bound(make("mesh:4x4")) == 5);       // 240 / 48
  CHECK(mt::step_lower_bound(make("torus:4x4", 1)) == 15);  // 240 / 16 ports
  CHECK(mt::step_lower_bound(make("fattree:k=8,levels=2")) == 31);
  CHECK(mt::step_lower_bound(make("ring:1")) == 0);
}

TEST_CASE("steps_share_no_link: one link per step and message, or step order holds back",
          "[cost_model]") {
  const mt::Topology ring = make("ring:4");
  mt::Schedule s;
  s.nodes = 4;
  s.num_chunks = 2;
  mt::Op a;
  a.node = 0;
  a.peer = 1;
  a.step = 0;
  mt::Op b = a;  // the same link 0 -> 1, the next step: apart
  b.id = 1;
  b.chunk = 1;
  b.step = 1;
  s.ops = {a, b};
  CHECK(mt::steps_share_no_link(s, ring));
  s.ops[1].step = 0;  // the same link in the same step
  CHECK_FALSE(mt::steps_share_no_link(s, ring));
  s.ops[1].peer = 3;  // 0 -> 3 is another directed link on ring:4
  CHECK(mt::steps_share_no_link(s, ring));
  s.ops[1].peer = 2;  // 0 -> 2 routes over 0 -> 1 first
  CHECK_FALSE(mt::steps_share_no_link(s, ring));
  // MultiTree is built so (one tree per link and step), and the ring; the tree packing and the
  // double binary tree put several messages of a step on one link.
  const mt::Topology torus = make("torus:4x4", 4);
  CHECK(mt::steps_share_no_link(mt::build_schedule("multitree", torus), torus));
  CHECK(mt::steps_share_no_link(mt::build_schedule("ring", torus), torus));
  CHECK_FALSE(mt::steps_share_no_link(mt::build_schedule("tree_packing", torus), torus));
  CHECK_FALSE(mt::steps_share_no_link(mt::build_schedule("dbtree", torus), torus));
}

TEST_CASE("flows_send_one_chunk: a flow of two chunks is a pipeline or a ring", "[cost_model]") {
  mt::Schedule s = mt::test::empty_schedule(4, 2);
  s.add(mt::test::make_op(0, 1, 0, mt::OpKind::kReduce));
  s.add(mt::test::make_op(1, 2, 0, mt::OpKind::kReduce));  // flow 0 again, the same chunk
  s.num_flows = 2;
  CHECK(mt::flows_send_one_chunk(s));
  s.ops[1].chunk = 1;  // flow 0 sends chunks 0 and 1
  CHECK_FALSE(mt::flows_send_one_chunk(s));
  s.ops[1].flow = 1;  // each flow its own chunk
  CHECK(mt::flows_send_one_chunk(s));
  s.ops[1].flow = 2;  // no such flow: not one chunk per flow (the verifier names it)
  CHECK_FALSE(mt::flows_send_one_chunk(s));
  s.ops[1].flow = 0;
  s.ops[1].peer = 1;  // a local step of flow 0 with chunk 1 sends nothing
  CHECK(mt::flows_send_one_chunk(s));
  // MultiTree's trees carry their own chunk each; a ring, the tree packing's pipelined trees and
  // the double binary tree send several chunks down one flow.
  const mt::Topology torus = make("torus:4x4", 4);
  CHECK(mt::flows_send_one_chunk(mt::build_schedule("multitree", torus)));
  CHECK_FALSE(mt::flows_send_one_chunk(mt::build_schedule("ring", torus)));
  CHECK_FALSE(mt::flows_send_one_chunk(mt::build_schedule("tree_packing", torus)));
  CHECK_FALSE(mt::flows_send_one_chunk(mt::build_schedule("dbtree", torus)));
}

TEST_CASE("the dataflow estimate charges a host's notification and posting time",
          "[cost_model][host]") {
  const mt::Topology t = make("ring:4");  // 16 B/cycle links, 150-cycle wires
  // Node 0 sends chunk 0 to node 1, which sends it back once it has arrived: a chain of two.
  mt::Schedule s;
  s.nodes = 4;
  s.num_chunks = 1;
  mt::Op first;
  first.node = 0;
  first.peer = 1;
  s.add(first);
  mt::Op second;
  second.node = 1;
  second.peer = 0;
  second.kind = mt::OpKind::kBroadcast;
  second.deps = {0};
  s.add(second);
  const double free_host = mt::dataflow_estimate(s, t, 1024);
  mt::CostParams host;
  host.host_notify_cycles = 40;
  host.host_message_cycles = 30;
  // Each message is posted 30 cycles after it is ready, and the second is ready 40 cycles after
  // the first arrived: 30 + 40 + 30 more.
  CHECK(mt::dataflow_estimate(s, t, 1024, host) == Approx(free_host + 100));
  // Two messages ready at once on one node's single context are posted one after the other.
  mt::Schedule pair;
  pair.nodes = 4;
  pair.num_chunks = 2;
  mt::Op a;
  a.node = 0;
  a.peer = 1;
  pair.add(a);
  mt::Op b;
  b.node = 0;
  b.peer = 3;
  b.chunk = 1;
  pair.add(b);
  mt::CostParams slow;
  slow.host_message_cycles = 1000;
  const double one_context = mt::dataflow_estimate(pair, t, 2048, slow);
  slow.host_contexts = 2;
  CHECK(mt::dataflow_estimate(pair, t, 2048, slow) == Approx(one_context - 1000));
}
