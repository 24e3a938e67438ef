// Router on its own: one router at the switch of switch:nodes=3 (inputs: the links from endpoints
// 0, 1, 2; outputs: the links to them), Sender stubs on every input, Receiver stubs (or real
// LinkChannels in front of them) on every output. Figures are derived from the parameters: a head
// leaves `pipeline` cycles after it arrived, an output and an input pass one packet per
// serialisation, the inputs (and the VCs of one input) take turns, and the credits owed upstream
// follow test::credit_returns (the one place that states the credit rule).
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "model/noc/link.h"
#include "model/noc/process_fault.h"
#include "model/noc/router.h"
#include "model/topology/topology.h"
#include "tests/support/noc_stubs.h"

namespace mt {
namespace {

using test::credit_returns;
using test::CreditReturn;
using test::NocEvent;
using test::Receiver;
using test::Sender;

constexpr int kPipeline = 3;
constexpr int kFlits = 4;
constexpr std::uint64_t kSer = 5;  // serialisation the Receiver stubs answer (as a link would)

struct RouterBench {
  static constexpr int kNodes = 3;
  CycleClock clock{1.0};
  Topology topology{parse_topology_spec("switch:nodes=3")};
  RoutingTable routing{topology};
  PacketPool pool;
  std::vector<std::vector<int>> to_node2;  // route from endpoint s to endpoint 2
  std::unique_ptr<Router> router;
  std::vector<std::unique_ptr<Sender>> senders;
  std::vector<std::unique_ptr<Receiver>> receivers;
  std::vector<std::unique_ptr<LinkChannel>> links;

  // Output VCs `out_vcs` with `credits` flits each; receivers return credits `credit_after`
  // cycles after a head (-1: never), spread over `credit_span` cycles (0: at once); with
  // `link_bytes_per_cycle` > 0 a LinkChannel of that bandwidth and latency `link_latency` sits
  // between each output and its receiver.
  explicit RouterBench(int out_vcs = 2, int credits = 64, int credit_after = -1,
                       double link_bytes_per_cycle = 0, int link_latency = 0,
                       std::uint64_t credit_span = 0) {
    const int sw = topology.nodes();
    RouterParams params;
    params.vertex = sw;
    params.pipeline_cycles = kPipeline;
    params.vcs = 2;
    params.buffer_flits = 64;
    params.network_inputs = static_cast<int>(topology.in_links(sw).size());
    for (const int link : topology.out_links(sw))
      params.outputs.push_back({link, out_vcs, credits});
    router = std::make_unique<Router>("router", params, routing, clock);
    for (int s = 0; s < kNodes; ++s) to_node2.push_back(topology.route(s, 2));
    for (int i = 0; i < kNodes; ++i) {
      senders.push_back(std::make_unique<Sender>(("sender" + std::to_string(i)).c_str(), clock));
      senders.back()->socket.bind(router->in_socket[static_cast<std::size_t>(i)]);
      receivers.push_back(std::make_unique<Receiver>(("receiver" + std::to_string(i)).c_str(),
                                                     clock, kSer, credit_after, credit_span));
      const int link = topology.out_links(sw)[static_cast<std::size_t>(i)];
      if (link_bytes_per_cycle > 0) {
        links.push_back(std::make_unique<LinkChannel>(
            ("link" + std::to_string(i)).c_str(),
            LinkParams{link, link_bytes_per_cycle, link_latency, 16}, clock));
        router->out_socket[static_cast<std::size_t>(i)].bind(links.back()->in_socket);
        links.back()->out_socket.bind(receivers.back()->socket);
      } else {
        router->out_socket[static_cast<std::size_t>(i)].bind(receivers.back()->socket);
      }
    }
  }
  // Endpoint `src` sends message `message` (kFlits flits, input VC `vc`) to endpoint 2 at `cycle`;
  // the router's input for endpoint s is input s, the output to endpoint 2 is output 2.
  void send(int src, std::uint64_t cycle, int message, int vc = 0) {
    const auto& path = to_node2[static_cast<std::size_t>(src)];
    senders[static_cast<std::size_t>(src)]->send_at(
        cycle, test::make_packet(pool, message, src, 2, &path, 1, kFlits, vc));
  }
  const std::vector<NocEvent>& out2() const { return receivers[2]->received; }
  void run(std::uint64_t cycles) {
    sc_core::sc_start(clock.to_time(cycles));
    rethrow_process_fault();  // a router's exception, as thrown
  }
};

std::vector<int> messages(const std::vector<NocEvent>& events) {
  std::vector<int> m;
  for (const NocEvent& e : events) m.push_back(e.message);
  return m;
}
std::vector<std::uint64_t> cycles(const std::vector<NocEvent>& events) {
  std::vector<std::uint64_t> c;
  for (const NocEvent& e : events) c.push_back(e.cycle);
  return c;
}

TEST_CASE("a head leaves pipeline_cycles after it arrives and the input's credit follows the rule",
          "[noc][router]") {
  RouterBench b;
  b.send(0, 5, 42);
  b.run(200);
  REQUIRE(b.out2().size() == 1);
  const std::uint64_t grant = 5 + kPipeline;
  CHECK(b.out2()[0].cycle == grant);
  CHECK(b.out2()[0].message == 42);
  CHECK(b.out2()[0].vc == 0);
  CHECK(b.receivers[0]->received.empty());
  CHECK(b.receivers[1]->received.empty());
  CHECK(b.senders[0]->credit_returns() == credit_returns(grant, kSer, kFlits));
  REQUIRE(!b.senders[0]->credits.empty());
  CHECK(b.senders[0]->credits[0].vc == 0);  // the input VC it sat in
  CHECK(b.router->forwarded_packets() == 1);
  CHECK(b.router->buffered_packets() == 0);
}

TEST_CASE("a packet whose next link does not leave the router is reported, naming the link",
          "[noc][router]") {
  RouterBench b;
  // Hop 0 of the route from endpoint 0 is the link into the switch, not one of its outputs.
  const auto& path = b.to_node2[0];
  b.senders[0]->send_at(5, test::make_packet(b.pool, 42, 0, 2, &path, 0, kFlits));
  CHECK_THROWS_WITH(b.run(100),
                    Catch::Contains("message 42: route link " + std::to_string(path[0]) +
                                    " does not leave this router"));
  CHECK(b.out2().empty());
}

TEST_CASE("an mt::Error thrown in the router's process stops the run and reaches its caller",
          "[noc][router]") {
  RouterBench b;
  b.receivers[2]->fail = true;  // the router's grant delivers to it from the router's process
  b.send(0, 5, 42);
  CHECK_THROWS_MATCHES(b.run(100), Error, Catch::Message("receiver2: a fault at the first packet"));
  CHECK(b.router->forwarded_packets() == 1);
}

TEST_CASE("packets of one input leave one link serialisation apart, on the output VCs in turn",
          "[noc][router]") {
  // A real link: 4 flits of 16 B at 12 B/cycle = ceil(64 / 12) = 6 cycles, latency 9.
  constexpr double kBytes = 12;
  constexpr int kLatency = 9;
  RouterBench b(2, 64, -1, kBytes, kLatency);
  const std::uint64_t ser = LinkChannel::serialization_cycles(kFlits, 16, kBytes);
  REQUIRE(ser == 6);
  for (int k = 0; k < 3; ++k) b.send(0, 0, k);
  b.run(200);
  REQUIRE(b.out2().size() == 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(b.out2()[k].cycle == kPipeline + k * ser + kLatency);
    CHECK(b.out2()[k].message == static_cast<int>(k));
    CHECK(b.out2()[k].vc == static_cast<int>(k % 2));  // round robin over the free output VCs
  }
  std::vector<CreditReturn> want;
  for (std::uint64_t k = 0; k < 3; ++k) {
    for (const CreditReturn& c : credit_returns(kPipeline + k * ser, ser, kFlits))
      want.push_back(c);
  }
  CHECK(b.senders[0]->credit_returns() == want);
  CHECK(b.links[2]->busy_cycles() == 3 * ser);
}

TEST_CASE("two inputs sending to one output take turns, one packet per serialisation",
          "[noc][router]") {
  RouterBench b;
  for (int k = 0; k < 3; ++k) {
    b.send(0, 0, k);
    b.send(1, 0, 10 + k);
  }
  b.run(300);
  CHECK(messages(b.out2()) == std::vector<int>{0, 10, 1, 11, 2, 12});
  std::vector<std::uint64_t> want;
  for (std::uint64_t k = 0; k < 6; ++k) want.push_back(kPipeline + k * kSer);
  CHECK(cycles(b.out2()) == want);
  // Each input's credits: its packets were granted at slots 0, 2, 4 (input 0) and 1, 3, 5.
  for (int input = 0; input < 2; ++input) {
    std::vector<CreditReturn> credits;
    for (std::uint64_t slot = static_cast<std::uint64_t>(input); slot < 6; slot += 2) {
      for (const CreditReturn& c : credit_returns(kPipeline + slot * kSer, kSer, kFlits))
        credits.push_back(c);
    }
    CHECK(b.senders[static_cast<std::size_t>(input)]->credit_returns() == credits);
  }
}

TEST_CASE("a packet granted after waiting behind another flow's packet is one cross-flow wait",
          "[noc][router]") {
  // Each stub packet is its own flow (flow = message id) unless it repeats a message id. Four
  // rounds 50 cycles apart, all to endpoint 2 (kSer cycles per packet, no credit shortage):
  RouterBench b;
  // 1. Three packets of one flow on input 0 at cycle 0: granted at 3, 8, 13, each behind its own
  //    flow only: no wait.
  for (int k = 0; k < 3; ++k) b.send(0, 0, 7);
  // 2. Three flows on input 0 at cycle 50: the second and third wait behind another flow: 2.
  for (int k = 0; k < 3; ++k) b.send(0, 50, k);
  // 3. Three flows on each of inputs 0 and 1 at cycle 100: granted in turns at 103 .. 128, every
  //    packet but the first waits: 5.
  for (int k = 0; k < 3; ++k) {
    b.send(0, 100, 20 + k);
    b.send(1, 100, 30 + k);
  }
  // 4. Input 0 at cycle 150 (granted at 153, the output busy until 158), input 1 at 155: ready
  //    at 158, when the output frees, so it never waited: no wait.
  b.send(0, 150, 40);
  b.send(1, 155, 41);
  const std::uint64_t waits_after[] = {0, 2, 7, 7};  // after each round
  for (int round = 0; round < 4; ++round) {
    b.run(50);
    CHECK(b.router->cross_flow_waits() == waits_after[round]);
  }
  CHECK(cycles(b.out2()).back() == 158);
  CHECK(b.out2().size() == 14);
}

TEST_CASE("the VCs of one input take turns", "[noc][router]") {
  RouterBench b;
  b.send(0, 0, 0, 0);
  b.send(0, 0, 1, 0);
  b.send(0, 0, 2, 1);
  b.send(0, 0, 3, 1);
  b.run(300);
  CHECK(messages(b.out2()) == std::vector<int>{0, 2, 1, 3});
  CHECK(cycles(b.out2()) == std::vector<std::uint64_t>{kPipeline, kPipeline + kSer,
                                                       kPipeline + 2 * kSer, kPipeline + 3 * kSer});
  std::vector<int> credit_vcs;
  for (const NocEvent& c : b.senders[0]->credits) credit_vcs.push_back(c.vc);
  CHECK(credit_vcs == std::vector<int>{0, 1, 0, 1});
}

TEST_CASE("no grant without a credit: the next packet waits for the downstream's return",
          "[noc][router]") {
  // One output VC holding exactly one packet; the receiver frees it 20 cycles after the head.
  constexpr int kCreditAfter = 20;
  RouterBench b(1, kFlits, kCreditAfter);
  b.send(0, 0, 0);
  b.send(0, 0, 1);
  b.run(300);
  REQUIRE(b.out2().size() == 2);
  CHECK(b.out2()[0].cycle == kPipeline);
  // Without the credit it could go at kPipeline + kSer = 8; the credit is back at 3 + 20 = 23.
  CHECK(b.out2()[1].cycle == kPipeline + kCreditAfter);
}

// A receiver frees the first packet's 4 flits from 3 + 20 = 23 on, evenly over 8 cycles:
// floor(4 * (k + 1) / 8) flits have landed k cycles later, all 4 at k = 7 (cycle 30).
constexpr int kCreditAfter = 20;
constexpr std::uint64_t kSpan = 8;

// The second packet's grant behind a first that filled `vc_flits` of downstream buffer.
std::uint64_t second_grant_after_ramp(int vc_flits) {
  RouterBench b(1, vc_flits, kCreditAfter, 0, 0, kSpan);
  b.send(0, 0, 0);
  b.send(0, 0, 1);
  b.run(300);
  REQUIRE(b.out2().size() == 2);
  return b.out2()[1].cycle;
}

TEST_CASE("a flit-by-flit credit: a VC of one packet needs all four flits back (k = 7)",
          "[noc][router]") {
  CHECK(second_grant_after_ramp(kFlits) == kPipeline + kCreditAfter + kSpan - 1);
}

TEST_CASE("a flit-by-flit credit: a VC of six flits has two left and needs two more (k = 3)",
          "[noc][router]") {
  CHECK(second_grant_after_ramp(kFlits + 2) == kPipeline + kCreditAfter + 3);
}

TEST_CASE("with no credit returned the second packet is never granted", "[noc][router]") {
  RouterBench b(1, kFlits, -1);
  b.send(0, 0, 0);
  b.send(0, 0, 1);
  b.run(1000);
  CHECK(messages(b.out2()) == std::vector<int>{0});
  CHECK(b.router->forwarded_packets() == 1);
  CHECK(b.router->buffered_packets() == 1);
  // The first packet's input credit is still returned; the waiting packet's is not.
  CHECK(b.senders[0]->credit_returns() == credit_returns(kPipeline, kSer, kFlits));
}

}  // namespace
}  // namespace mt
